package main

import (
	"github.com/gobench-dyn/gobench-dyn/internal/steady"
	"io"

	"github.com/spf13/cobra"

	"github.com/gobench-dyn/gobench-dyn/internal/report"
	"github.com/gobench-dyn/gobench-dyn/internal/runfile"
)

// ReportOptions holds the flags and arguments of gobench-dyn report.
type ReportOptions struct {
	Raw        []string
	HTML       string
	Markdown   string // "-" for standard output
	Title      string
	Unit       string
	Confidence float64
	Seed       uint64
	NoPlots    bool

	Out    io.Writer
	ErrOut io.Writer
}

// NewCmdReport returns the report command. It binds flags to ReportOptions and calls
// runF, or reportRun when runF is nil, so that tests can check what the flags
// bind without running anything.
func NewCmdReport(ios *IOStreams, runF func(*ReportOptions) error) *cobra.Command {
	opts := &ReportOptions{}
	cmd := &cobra.Command{
		Use:   "report [flags] RAW... (--html FILE | --markdown FILE)",
		Short: "Write an HTML or Markdown report of raw records, with plots",
		Long: `Write a report of one or more raw record files (--raw of gobench-dyn run;
several instances or shards are read together).

--html writes one self-contained page: for every benchmark a plot of its
slices over time (coloured by suite run and iteration, warmup slices hollow,
stop points marked), the mean and median with bootstrap confidence intervals,
and whether its stoppage criterion held; for the suite, the time spent against
the full configuration; and, when the records hold a baseline, the change of
every benchmark with its interval and verdict. The page loads nothing from the
network.

--markdown writes the same essentials as tables, for pull-request comments and
$GITHUB_STEP_SUMMARY; "-" writes to standard output.

Outputs replace their files only once complete.

Exit status: 0 written; 1 if writing an output fails; 2 on bad flags or
runfile.`,
		Example: `  # Run with raw records, then look at the report in a browser.
  gobench-dyn run --raw bench.jsonl ./... > bench.txt
  gobench-dyn report --html report.html bench.jsonl

  # Merge two machines' records into one report and a CI job summary.
  gobench-dyn report --html report.html --markdown - a.jsonl b.jsonl >> "$GITHUB_STEP_SUMMARY"`,
		Args: atLeastOneArg("report needs at least one raw record file"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Raw = args
			opts.Out, opts.ErrOut = ios.Out, ios.ErrOut
			if runF != nil {
				return runF(opts)
			}
			return reportRun(opts)
		},
	}
	f := cmd.Flags()
	bindReportFlag(f, &opts.HTML, "html", "the report")
	bindReportFlag(f, &opts.Markdown, "markdown", "the report")
	f.StringVar(&opts.Title, "title", "", "report title (default: the package, or \"Benchmark report\")")
	f.StringVar(&opts.Unit, "unit", report.DefaultUnit, "unit to plot and summarise")
	f.Float64Var(&opts.Confidence, "confidence", report.DefaultConfidence, "confidence level of the intervals")
	f.Uint64Var(&opts.Seed, "seed", 0, "seed of the bootstrap")
	f.BoolVar(&opts.NoPlots, "no-plots", false, "leave the plots out of the HTML report")
	return cmd
}

func reportRun(opts *ReportOptions) error {
	if opts.HTML == "" && opts.Markdown == "" {
		return usageErr("report: give --html FILE, --markdown FILE, or both")
	}
	if err := checkReportFiles(reportFile{"--html", opts.HTML, nil}, reportFile{"--markdown", opts.Markdown, nil}); err != nil {
		return err
	}
	if err := report.CheckFlags(opts.Confidence, opts.Unit); err != nil {
		return exitUsage(err)
	}
	files, err := readInputs(opts.Raw, opts.ErrOut, runfile.Raw)
	if err != nil {
		return err
	}
	rep, err := report.FromFiles(files, report.Options{
		Title:      opts.Title,
		Unit:       opts.Unit,
		Confidence: opts.Confidence,
		Seed:       opts.Seed,
		NoPlots:    opts.NoPlots,
		Segments:   steady.Segments,
	})
	if err != nil {
		return exitUsage(err)
	}
	return writeReports(opts.Out, nil, reportFile{"--html", opts.HTML, rep.WriteHTML}, reportFile{"--markdown", opts.Markdown, rep.WriteMarkdown})
}
