package main

import (
	"io"
	"maps"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/perf/benchfmt"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/runfile"
)

// CompareOptions holds the flags and arguments of gobench-dyn gate.
type CompareOptions struct {
	Old, New   string
	Threshold  float64
	Rule       string
	Correction string
	FailOn     string
	Confidence float64
	Seed       uint64 // accepted for old scripts; the intervals draw no random numbers
	// Markdown and JSON are the files the comparison is written to in
	// those formats; "-" is standard output, instead of the table.
	Markdown string
	JSON     string

	Out    io.Writer
	ErrOut io.Writer

	thresholdFlag string
}

// NewCmdCompare returns the compare command. It binds flags to CompareOptions and calls
// runF, or compareRun when runF is nil, so that tests can check what the flags
// bind without running anything.
func NewCmdCompare(ios *IOStreams, runF func(*CompareOptions) error) *cobra.Command {
	opts := &CompareOptions{}
	cmd := &cobra.Command{
		Use:   "compare [flags] OLD NEW",
		Short: "Compare two benchmark results and fail on a regression",
		Long: `Compare the benchmarks of OLD and NEW, each a raw record file (--raw of
gobench-dyn run) or a Go benchmark text file (go test -bench or gobench-dyn run
output, as benchstat reads). For every benchmark and unit present in both it
prints the means, the change, its confidence interval and one of four verdicts:

  regression / improvement  the whole interval lies beyond ±--threshold
  no change                 the whole interval lies inside ±--threshold
  inconclusive              the interval straddles the threshold (or there are
                            too few processes): the note gives the smallest
                            change the data could show and about how many more
                            processes would settle it

The interval is a t interval of the ratio NEW/OLD on the log scale over
process (iteration) means, Welch's for two separate files; each line of a text
file counts as one process. allocs/op and B/op that are constant in every
process are compared exactly: one more allocation is a regression whatever
the threshold.

Exit status: 0 no regression; 1 if a regression is found in a unit --fail-on
selects (or, with --fail-on …,inconclusive, an inconclusive comparison), or
writing the results fails; 2 on bad flags or runfile.`,
		Example: `  # Compare two go test -count 10 outputs, failing CI on a time regression.
  gobench-dyn compare old.txt new.txt

  # Compare raw records, fail on time or allocation regressions, and post a
  # Markdown summary.
  gobench-dyn compare --fail-on time,allocs --markdown base.jsonl head.jsonl >> "$GITHUB_STEP_SUMMARY"

  # A strict gate: fail unless every time and allocation comparison is shown
  # unchanged or better.
  gobench-dyn compare --fail-on time,allocs,inconclusive old.txt new.txt

  # Decide as benchstat does (U test, alpha 0.05) but on process means.
  gobench-dyn compare --rule utest --confidence 0.95 --threshold 0 old.txt new.txt`,
		Args: twoFiles,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Old, opts.New = args[0], args[1]
			opts.Out, opts.ErrOut = ios.Out, ios.ErrOut
			if runF != nil {
				return runF(opts)
			}
			return compareRun(opts)
		},
	}
	f := cmd.Flags()
	bindCompareFlags(f, opts, "threshold")
	f.Uint64Var(&opts.Seed, "seed", 0, "ignored: the intervals are t intervals and draw no random numbers")
	_ = f.MarkDeprecated("seed", "the intervals draw no random numbers")
	bindBareReportFlag(f, &opts.Markdown, "markdown", "the comparison (for pull-request comments and $GITHUB_STEP_SUMMARY)")
	bindBareReportFlag(f, &opts.JSON, "json", "the verdicts (docs/VERDICTS.md)")
	return cmd
}

// twoFiles accepts the two files of compare, OLD and NEW.
func twoFiles(_ *cobra.Command, args []string) error {
	if len(args) != 2 {
		return usageErr("compare needs two files, OLD and NEW; got %d", len(args))
	}
	return nil
}

// bindCompareFlags binds the flags of a comparison to opts. run names its
// threshold flag differently, since its --threshold belongs to the
// stoppage criterion.
func bindCompareFlags(f *pflag.FlagSet, opts *CompareOptions, threshold string) {
	def := gate.DefaultOptions()
	opts.thresholdFlag = threshold
	f.Float64Var(&opts.Threshold, threshold, def.Threshold, "smallest relative change that counts as a regression or improvement (0.03 = 3%)")
	f.StringVar(&opts.Rule, "rule", string(def.Rule), "decision rule: ci, ci-overlap or utest")
	f.StringVar(&opts.Correction, "correction", string(def.Correction), "multiple-comparison correction: none, holm or bonferroni")
	f.StringVar(&opts.FailOn, "fail-on", gate.DefaultFailOn, "what exits 1, comma-separated: regressions in units time, allocs, bytes, any; add inconclusive to fail on those too (a strict gate)")
	f.Float64Var(&opts.Confidence, "confidence", def.Confidence, "confidence level of intervals and tests")
}

// parse checks the comparison flags and returns the options they select,
// naming the flag of the first bad value.
func (opts *CompareOptions) parse() (gate.Options, gate.FailOn, error) {
	copts, failOn, err := gate.ParseOptions(opts.Rule, opts.Correction, opts.FailOn, opts.Confidence, opts.thresholdFlag, opts.Threshold)
	if err != nil {
		return copts, nil, exitUsage(err)
	}
	return copts, failOn, nil
}

func compareRun(opts *CompareOptions) error {
	if err := checkReportFiles(reportFile{"--json", opts.JSON, nil}, reportFile{"--markdown", opts.Markdown, nil}); err != nil {
		return err
	}
	copts, failOn, err := opts.parse()
	if err != nil {
		return err
	}
	files, err := readInputs([]string{opts.Old, opts.New}, opts.ErrOut, runfile.Raw, runfile.Text)
	if err != nil {
		return err
	}
	copts.Units = benchfmt.UnitMetadataMap{}
	for _, f := range files {
		maps.Copy(copts.Units, f.Units)
	}
	res, err := gate.Runs(files[0].Run, files[1].Run, copts)
	if err != nil {
		return usageErr("%w", err)
	}
	res.OldName, res.NewName = opts.Old, opts.New
	verdicts := func(w io.Writer) error { return res.WriteJSON(w, gate.JSONOptions{FailOn: failOn}) }
	if err := writeReports(opts.Out, res.WriteText,
		reportFile{"--json", opts.JSON, verdicts}, reportFile{"--markdown", opts.Markdown, res.WriteMarkdown}); err != nil {
		return err
	}
	if regs := res.Regressions(failOn); len(regs) > 0 {
		return failErr("%d regression(s) beyond %.4g%% in %s", len(regs), 100*opts.Threshold, opts.FailOn)
	}
	if open := res.Inconclusives(failOn); failOn.Strict() && len(open) > 0 {
		return failErr("%d inconclusive comparison(s) under --fail-on %s", len(open), opts.FailOn)
	}
	return nil
}
