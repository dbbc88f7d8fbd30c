package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/gobench-dyn/gobench-dyn/internal/apiscore"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// AbsOptions holds the flags of gobench-dyn apiscore.
type AbsOptions struct {
	Patterns   []string
	Bench      string
	Func       string
	Top        int
	Slowdown   float64
	Budget     time.Duration
	JSON       string
	HTML       string
	Rule       string
	SliceTime  time.Duration
	SuiteRuns  int
	SpreadRuns int
	Timeout    time.Duration
	Tags       string
	Seed       uint64
	seedSet    bool
	// Pairing says how the unchanged and the slowed code are paired.
	Pairing PairingOptions

	Stdout, Stderr io.Writer
	Dir            string // where packages are resolved; "" is the current directory
}

// NewCmdAbs returns the abs command; runF, if not nil, runs in place of
// absRun, for tests of the flags.
func NewCmdAbs(ios *IOStreams, runF func(*AbsOptions) error) *cobra.Command {
	opts := &AbsOptions{}
	cmd := &cobra.Command{
		Use:   "abs [flags] [packages]",
		Short: "Score which slowdowns of exported functions the benchmarks would catch",
		Long: `Abs computes the API benchmarking score of the packages' benchmark suite
(Laaber & Leitner, MSR'18): for each exported function or method, it builds a
copy of the code in which that function's own time is 1+v times longer, runs
the benchmarks that reach it against the unchanged code, interleaved, and
says whether they detect the slowdown. The user's files are never touched:
the slowed copy is compiled through a build overlay.

Candidates are ranked by how much the benchmarks exercise them, from a
coverage profile of one op of each benchmark; those no benchmark reaches are
reported without running. v defaults to twice the 95th percentile of the
benchmarks' maxSpread, measured first on the unchanged code; a slowdown
counts as detected when a benchmark shows a regression beyond v/2. Pairs are
judged by the regression gate of run --baseline (--rule gate: the paired
log-ratio interval, each pair stopping once decided) or by the published
rank-sum rule (--rule paper).

Exit status: 0 when it ran, whatever the score; 1 if building or running
fails; 2 on bad flags, patterns that match no benchmark, or --func naming
a function that cannot be slowed down; 130 if interrupted (the report then
covers the functions run so far).`,
		Example: `  gobench-dyn abs ./...
  gobench-dyn abs --top 20 --budget 30m --json apiscore.json --html apiscore.html ./...
  gobench-dyn abs --func '^(Parse|Decoder\.Decode)$' --slowdown 0.5 ./parser`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Patterns = args
			opts.seedSet = cmd.Flags().Changed("seed")
			opts.Stdout, opts.Stderr = ios.Out, ios.ErrOut
			if runF != nil {
				return runF(opts)
			}
			return absRun(opts)
		},
	}
	fs := cmd.Flags()
	fs.SortFlags = false
	fs.StringVarP(&opts.Bench, "bench", "b", ".", "only benchmarks matching `regexp`, as go test -bench")
	fs.StringVar(&opts.Func, "func", "", "only functions whose name (F or Type.Method) matches `regexp`")
	fs.IntVar(&opts.Top, "top", 0, "only the N functions the benchmarks exercise most (0: all)")
	fs.Float64Var(&opts.Slowdown, "slowdown", 0, "v: make each function's own time 1+v times longer (0: twice the 95th percentile maxSpread, measured first)")
	fs.DurationVar(&opts.Budget, "budget", 0, "time budget for the whole evaluation (0: none)")
	bindReportFlag(fs, &opts.JSON, "json", "the report")
	bindReportFlag(fs, &opts.HTML, "html", "the report")
	fs.StringVar(&opts.Rule, "rule", string(apiscore.RuleGate), "how a pair is judged: gate (paired log-ratio interval, stopping once decided) or paper (the published rank-sum rule)")
	fs.DurationVar(&opts.SliceTime, "slice-time", defaultSliceTime, "target duration of one slice")
	bindPairingFlags(fs, &opts.Pairing, "")
	fs.IntVar(&opts.SuiteRuns, "suite-runs", apiscore.DefaultSuiteRuns, fmt.Sprintf("most suite runs of each function's paired run (at least %d)", apiscore.MinSuiteRuns))
	fs.IntVar(&opts.SpreadRuns, "spread-runs", apiscore.DefaultSpreadRuns, "runs of the unchanged suite that maxSpread is measured over")
	fs.DurationVar(&opts.Timeout, "timeout", defaultTimeout, "kill a benchmark process that runs longer")
	fs.StringVar(&opts.Tags, "tags", "", "build tags, passed to every build")
	fs.Uint64Var(&opts.Seed, "seed", 0, "schedule seed (default: random, printed)")
	return cmd
}

func absRun(opts *AbsOptions) error {
	eo, err := opts.evaluateOptions()
	if err != nil {
		return err
	}
	if err := checkReportFiles(opts.reports(nil)...); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var cleanups session.Cleanups
	defer onInterrupt(cancel, opts.Stderr, &cleanups)()
	tmp, err := os.MkdirTemp("", "gobench-dyn-abs-")
	if err != nil {
		return err
	}
	defer cleanups.Add(func() { os.RemoveAll(tmp) })()
	eo.TempDir = tmp
	fmt.Fprintf(opts.Stderr, "gobench-dyn: abs: seed %d\n", opts.Seed)

	rep, err := apiscore.Evaluate(ctx, eo)
	if usage.As(err) != nil {
		return exitUsage(err)
	}
	if rep == nil {
		if errors.Is(err, rmit.ErrInterrupted) {
			return &exitError{code: 130, msg: "interrupted before any function was scored"}
		}
		return err
	}
	if werr := opts.write(rep); werr != nil {
		return werr
	}
	switch {
	case errors.Is(err, rmit.ErrInterrupted):
		return &exitError{code: 130, msg: "interrupted: the score covers the functions run so far"}
	case err != nil:
		return err
	}
	fmt.Fprintf(opts.Stderr, "gobench-dyn: abs: %d of %d detected in %s\n", rep.Detected, len(rep.Functions), time.Duration(rep.Seconds*float64(time.Second)).Round(time.Second))
	return nil
}

// evaluateOptions checks the flags and returns the evaluation they ask
// for; it draws the seed when --seed is not given.
func (opts *AbsOptions) evaluateOptions() (apiscore.Options, error) {
	fn, rule, err := apiscore.ParseFlags(opts.Func, opts.Rule)
	if err != nil {
		return apiscore.Options{}, exitUsage(err)
	}
	var flags []string
	if opts.Tags != "" {
		flags = append(flags, "-tags="+opts.Tags)
	}
	eo := apiscore.Options{
		Dir: opts.Dir, Patterns: opts.Patterns, Bench: opts.Bench, BuildFlags: flags, Func: fn, Top: opts.Top,
		Slowdown: opts.Slowdown, MinSlowdown: apiscore.DefaultMinSlowdown, Budget: opts.Budget, SliceTime: opts.SliceTime,
		Timeout: opts.Timeout, SpreadRuns: opts.SpreadRuns, SuiteRuns: opts.SuiteRuns,
		Stop: stopper.Default(stopper.Interval), Rule: rule, Log: opts.Stderr, TurnTime: opts.Pairing.TurnTime,
	}
	if err := eo.Check(); err != nil {
		return apiscore.Options{}, exitUsage(err)
	}
	if err := rmit.CheckPattern(opts.Bench); err != nil {
		return apiscore.Options{}, usageErr("--bench %q: %w", opts.Bench, err)
	}
	if err := opts.Pairing.validate(); err != nil {
		return apiscore.Options{}, err
	}
	if opts.Pairing.slices() {
		plan := opts.Pairing.plan()
		eo.Turns = &plan
	}
	if !opts.seedSet {
		opts.Seed = session.RandomSeed()
	}
	eo.Seed = opts.Seed
	return eo, nil
}

// reports are the files of rep the flags ask for.
func (opts *AbsOptions) reports(rep *apiscore.Report) []reportFile {
	files := []reportFile{{flag: "--json", path: opts.JSON}, {flag: "--html", path: opts.HTML}}
	if rep != nil {
		files[0].write, files[1].write = rep.WriteJSON, rep.WriteHTML
	}
	return files
}

// write writes the table to standard output and the --json and --html
// reports, each file replaced only once complete.
func (opts *AbsOptions) write(rep *apiscore.Report) error {
	return writeReports(opts.Stdout, rep.WriteText, opts.reports(rep)...)
}
