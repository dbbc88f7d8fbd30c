package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/history"
	"github.com/gobench-dyn/gobench-dyn/internal/progress"
	"github.com/gobench-dyn/gobench-dyn/internal/runreport"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"github.com/gobench-dyn/gobench-dyn/internal/warmupcache"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// RunOptions holds the flags of gobench-dyn run.
type RunOptions struct {
	IO *IOStreams

	Patterns []string
	// TestArgs are the arguments after "--", passed to every test binary
	// of both versions as go test -args passes them.
	TestArgs  []string
	Bench     string
	Stop      stopper.Config
	SuiteRuns int
	// ExtendPast is the suite run past which only pairs whose change is
	// shown run on, up to SuiteRuns (session.Options.ExtendPast).
	ExtendPast int
	Iterations int
	SliceTime  time.Duration
	Timeout    time.Duration
	Budget     session.BudgetFlag
	Seed       uint64
	seedSet    bool
	Tags       string
	CPU        string
	Race       bool
	Overlay    string
	Out        string
	Raw        string
	// Resume is the raw file of an interrupted run to continue.
	Resume string
	// Force replaces a --raw file of an unfinished run, and resumes one
	// recorded on another machine.
	Force     bool
	Progress  progress.Mode
	KeepGoing bool
	// Baseline is a git revision built and interleaved with the code under test.
	Baseline    string
	BaselineOut string
	// JSON is where the verdicts against the baseline go, in the
	// schema of compare --json; "-" is stdout.
	JSON string
	// Impact is "on" to measure only the benchmarks a baseline's change
	// can reach, "off" to measure all, "list" to list what the change
	// reaches and measure nothing.
	Impact string
	// AllModules runs the packages in every module at or below the
	// working directory.
	AllModules bool
	// Sequential stops each pair of a baseline run once its comparison
	// is decided (gate.JudgePair) and runs the undecided on to the
	// cap. EarlyVerdict is its deprecated former name.
	Sequential   bool
	EarlyVerdict bool
	// Confirm measures every change a sequential baseline run finds
	// again on fresh pairs before it counts.
	Confirm bool
	Compare CompareOptions
	// Pairing says how the versions of a baseline run are paired.
	Pairing    PairingOptions
	Shard      ShardOptions
	ShardTimes string // an earlier raw run whose times balance the shards
	// WarmupCache is --warmup-cache: a directory, "auto" or "off".
	WarmupCache string
	ConfigFile  string
	MinDistinct int
	// History is the history store the run's summaries are added to.
	History string

	// Explain profiles both versions of each decided change after the
	// verdicts, for at most ExplainTime per benchmark, and keeps the
	// profiles in ExplainDir.
	Explain     bool
	ExplainTime time.Duration
	ExplainDir  string

	// Layout says how a baseline run links the test binaries: random or
	// fixed.
	Layout string

	// Dir is the directory the packages are resolved in; "" is the
	// current one.
	Dir string
	// Env holds the run's seams to processes; the zero Env runs real ones.
	Env session.Env

	session session.Options // set by validate
}

// Defaults of gobench-dyn run, which the session owns.
const (
	defaultSuiteRuns  = session.DefaultSuiteRuns
	defaultIterations = session.DefaultIterations
	defaultSliceTime  = session.DefaultSliceTime
	defaultTimeout    = session.DefaultTimeout
)

// NewCmdRun returns the run command. It binds flags to RunOptions,
// validates them and calls runF, or runRun when runF is nil.
func NewCmdRun(ios *IOStreams, runF func(*RunOptions) error) *cobra.Command {
	opts := &RunOptions{IO: ios, Stop: stopper.Default(stopper.Interval)}
	cmd := &cobra.Command{
		Use:   "run [flags] [packages] [-- test-binary args]",
		Short: "Run benchmarks in randomized multiple interleaved trials",
		Long: `Run builds each package's test binary once, discovers its leaf benchmarks,
calibrates b.N so that one slice lasts about --slice-time, and runs every
benchmark's iterations shuffled together with all others' in --suite-runs
suite runs. Each iteration is a fresh process running warmup and measurement
slices. Results go to stdout (or -o) in the format benchstat reads; every
slice goes to --raw as a JSON record as soon as it is measured.

Packages are resolved as go test resolves them; the default is ./...
Arguments after "--" go to every test binary, of the baseline too, as
go test -args passes them: "-- -test.short" for testing.Short, or a flag
of the package's own TestMain.

Exit status: 0 ok; 1 if a benchmark or package failed (unless --keep-going),
a regression against --baseline was found, or the run itself failed (a
build, a write); 2 on bad flags or input files, before anything runs; 130
when interrupted, after writing the results measured so far.`,
		Example: `  gobench-dyn run ./...
  gobench-dyn run -b 'Parse|Encode' --slice-time 200ms -o new.txt --raw new.jsonl ./...
  gobench-dyn run --stop none --suite-runs 3 --iterations 5 --slices 5 ./pkg/...
  gobench-dyn run ./pkg -- -test.short -size=100
  gobench-dyn run --baseline merge-base:origin/main --json verdicts.json -o new.txt ./...
  gobench-dyn run --baseline merge-base:origin/main --all-modules ./...`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Patterns = args
			if dash := cmd.ArgsLenAtDash(); dash >= 0 {
				opts.Patterns, opts.TestArgs = args[:dash], args[dash:]
			}
			opts.seedSet = cmd.Flags().Changed("seed")
			if err := opts.validate(cmd.Flags()); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runRun(opts)
		},
	}
	bindRunFlags(cmd.Flags(), opts)
	return cmd
}

// bindRunFlags binds the flags of run to opts.
func bindRunFlags(fs *pflag.FlagSet, opts *RunOptions) {
	fs.SortFlags = false
	fs.StringVarP(&opts.Bench, "bench", "b", ".", "run only benchmarks matching `regexp`, as go test -bench")
	bindStopFlags(fs, &opts.Stop)
	fs.IntVar(&opts.SuiteRuns, "suite-runs", 0, fmt.Sprintf("s: maximum suite runs (default %d under --stop interval, %d with --baseline --sequential, %d then for pairs whose change is shown under --budget, %d otherwise)",
		session.DefaultIntervalSuiteRuns, session.DefaultBaselineSuiteRuns, gate.ExtendedLastLook, session.DefaultSuiteRuns))
	fs.IntVar(&opts.Iterations, "iterations", defaultIterations, "i: iterations per benchmark per suite run")
	fs.DurationVar(&opts.SliceTime, "slice-time", defaultSliceTime, "target duration of one slice")
	fs.StringVar(&opts.ConfigFile, "config", "", "per-benchmark configurations from gobench-dyn optimize (with --stop: caps)")
	fs.IntVar(&opts.MinDistinct, "min-distinct", session.DefaultMinDistinct, "with --config, pad suite runs holding fewer distinct benchmarks with extra iterations")
	opts.Budget = session.BudgetFlag{Auto: true}
	fs.Var(&opts.Budget, "budget", "time budget for the whole run: auto gives a run without --baseline about one go test -bench pass of its benchmarks, building included (as long as the run's own build) and its benchmarks' time from their calibration, and still each its --min-iterations processes; 0: none")
	fs.Uint64Var(&opts.Seed, "seed", 0, "schedule seed (default: random, printed)")
	fs.DurationVar(&opts.Timeout, "timeout", defaultTimeout, "kill an iteration that runs longer")
	fs.StringVar(&opts.Tags, "tags", "", "build tags, passed to go test -c")
	fs.StringVar(&opts.CPU, "cpu", "", "comma-separated GOMAXPROCS values, as go test -cpu")
	fs.BoolVar(&opts.Race, "race", false, "build with the race detector")
	fs.StringVar(&opts.Overlay, "overlay", "", "build overlay file, passed to go test -c")
	fs.StringVarP(&opts.Out, "out", "o", "", "write benchstat-format results to `file` (default stdout)")
	fs.StringVar(&opts.Raw, "raw", "", "write per-slice JSON Lines records to `file`")
	fs.StringVar(&opts.Resume, "resume", "", "continue the interrupted run recorded in raw `file`, with its seed and the same flags, appending to it")
	fs.BoolVar(&opts.Force, "force", false, "replace a --raw file that holds an unfinished run; --resume a run recorded on another machine")
	fs.Var(&opts.Progress, "progress", "progress on stderr: auto, on or off")
	fs.BoolVar(&opts.KeepGoing, "keep-going", false, "exit 0 even when a benchmark failed")
	fs.StringVar(&opts.Baseline, "baseline", "", "build the same packages at git `revision` (merge-base:REV for the merge base of HEAD and REV) and interleave both versions; exit 1 on a regression")
	fs.StringVar(&opts.BaselineOut, "baseline-out", "", "write the baseline's benchstat-format results to `file`")
	fs.StringVar(&opts.JSON, "json", "", "with --baseline, write every benchmark's verdict as JSON to `file` (- for stdout; docs/VERDICTS.md)")
	fs.StringVar(&opts.Impact, "impact", "on", "with --baseline, measure only the benchmarks whose code the change can reach and report the others unaffected: on, off, or list (measure nothing, list which benchmarks the change reaches)")
	fs.BoolVar(&opts.AllModules, "all-modules", false, "resolve the packages in every module at or below this directory (each go.mod, as go work use -r finds them), each as from its own directory, and measure them in one run; with a go.work, the pattern work does the same for its modules")
	fs.BoolVar(&opts.Sequential, "sequential", true, fmt.Sprintf("with --baseline and a --stop criterion, stop each pair once its verdict is decided and run the undecided on (suite-run cap %d unless --suite-runs is set)", session.DefaultBaselineSuiteRuns))
	fs.BoolVar(&opts.EarlyVerdict, "early-verdict", true, "deprecated name of --sequential")
	fs.BoolVar(&opts.Confirm, "confirm", true, "with --sequential, keep the runs without a change that report any regression or improvement to at most 5%, whatever the number of benchmarks: one found is measured again on fresh process pairs, where the run's benchmarks are more than the looks alone allow, and counts only when they agree (docs/GATE.md)")
	_ = fs.MarkDeprecated("early-verdict", "use --sequential")
	bindExplainFlags(fs, opts)
	bindPairingFlags(fs, &opts.Pairing, "with --baseline, ")
	bindLayoutFlag(fs, &opts.Layout)
	bindCompareFlags(fs, &opts.Compare, "min-change")
	bindShardFlags(fs, &opts.Shard)
	fs.StringVar(&opts.ShardTimes, "shard-times", "", "balance --shard by the benchmark times of this earlier raw `file`")
	fs.StringVar(&opts.WarmupCache, "warmup-cache", "auto", "`dir`ectory where a run of one version keeps each benchmark's learned warmup by the code its test binary runs, and takes the warmup an earlier run learned on the same code; auto: $GOBENCHDYN_WARMUP_CACHE (a directory or off), or gobench-dyn/warmup in the user cache directory; off: none")
	fs.StringVar(&opts.History, "history", "", "add the run's per-benchmark summaries to the history store `file`, at the commit checked out (see gobench-dyn history)")
}

// validate checks flag values, naming the flag of the first bad one, and
// sets the options of the session they ask for.
func (o *RunOptions) validate(fs *pflag.FlagSet) error {
	if err := validateStopFlags(fs, &o.Stop); err != nil {
		return err
	}
	if err := session.CheckSelection(o.Bench, o.MinDistinct, o.Budget.Budget, o.TestArgs); err != nil {
		return exitUsage(err)
	}
	if err := o.Shard.resolve(os.Getenv); err != nil {
		return err
	}
	if o.ShardTimes != "" && o.Shard.Shard.IsZero() {
		return usageErr("--shard-times: only meaningful with --shard")
	}
	if err := o.Pairing.validate(); err != nil {
		return err
	}
	if err := o.checkBaselineFlags(fs); err != nil {
		return err
	}
	var err error
	if o.Raw, err = session.CheckOutputs(o.Out, o.Raw, o.Resume); err != nil {
		return exitUsage(err)
	}
	if err := o.setSession(); err != nil {
		return err
	}
	return exitStatus(o.session.CheckLimits())
}

// checkBaselineFlags checks the flags that act only with --baseline, and
// sets what --sequential and the suite-run cap come to.
func (o *RunOptions) checkBaselineFlags(fs *pflag.FlagSet) error {
	if err := session.CheckBaselineOutputs(o.Baseline, o.JSON, o.Out, o.Raw, o.BaselineOut); err != nil {
		return exitUsage(err)
	}
	if err := o.checkExplainFlags(fs); err != nil {
		return err
	}
	if err := session.CheckImpact(o.Impact, o.Baseline, fs.Changed("impact")); err != nil {
		return exitUsage(err)
	}
	var err error
	if o.Sequential, err = session.SequentialOf(o.Sequential, o.EarlyVerdict, fs.Changed, o.Baseline, o.Stop.Criterion); err != nil {
		return exitUsage(err)
	}
	if !fs.Changed("suite-runs") {
		o.SuiteRuns, o.ExtendPast = session.DefaultSuiteRunsOf(&session.Options{Sequential: o.Sequential, Stop: o.Stop, ConfigFile: o.ConfigFile, Budget: o.Budget.Budget})
	}
	return nil
}

// setSession sets the session options the flags select.
func (o *RunOptions) setSession() error {
	cpus, err := session.ParseCPU(o.CPU)
	if err != nil {
		return exitUsage(err)
	}
	copts, failOn, err := o.Compare.parse()
	if err != nil {
		return err
	}
	nlayouts, err := session.LayoutsOf(o.Layout)
	if err != nil {
		return exitUsage(err)
	}
	warmups, err := warmupCacheDir(o.WarmupCache)
	if err != nil {
		return err
	}
	o.session = session.Options{
		Patterns: o.Patterns, TestArgs: o.TestArgs, Dir: o.Dir, Bench: o.Bench, CPU: cpus, Tags: o.Tags, Race: o.Race, Overlay: o.Overlay,
		Stop: o.Stop, SuiteRuns: o.SuiteRuns, ExtendPast: o.ExtendPast, Iterations: o.Iterations, SliceTime: o.SliceTime, Timeout: o.Timeout, Budget: o.Budget.Budget, AutoBudget: o.Budget.Auto,
		Seed: o.Seed, SeedSet: o.seedSet, ConfigFile: o.ConfigFile, MinDistinct: o.MinDistinct, Raw: o.Raw, Resume: o.Resume, Force: o.Force,
		Baseline: o.Baseline, Sequential: o.Sequential, Confirm: o.Confirm && o.Sequential, Compare: copts, FailOn: failOn, Explain: o.Explain, ExplainTime: o.ExplainTime, ExplainDir: o.ExplainDir,
		Pairing: session.Pairing(o.Pairing.Pairing), TurnTime: o.Pairing.TurnTime, Turns: o.Pairing.plan(), Layouts: nlayouts,
		Impact: o.Impact != "off" && o.Baseline != "", AllModules: o.AllModules,
		Shard: o.Shard.Shard, Instance: o.Shard.Instance, ShardTimes: o.ShardTimes, Progress: o.Progress, WarmupCache: warmups,
		Tool: "gobench-dyn " + toolVersion(),
	}
	return nil
}

// warmupCacheDir returns the directory --warmup-cache names: value
// itself, none for off, and for auto $GOBENCHDYN_WARMUP_CACHE (none when
// it is off) or the user cache directory's, none when there is no such
// directory.
func warmupCacheDir(value string) (string, error) {
	switch value {
	case "off":
		return "", nil
	case "auto":
		switch dir := os.Getenv("GOBENCHDYN_WARMUP_CACHE"); dir {
		case "off":
			return "", nil
		case "":
		default:
			return dir, nil
		}
		dir, err := warmupcache.Default()
		if err != nil {
			return "", nil
		}
		return string(dir), nil
	case "":
		return "", usageErr("--warmup-cache: empty: give a directory, auto or off")
	}
	return value, nil
}

// runRun runs the session the flags describe, prints its summary and
// comparison, and returns the exit status as an error.
func runRun(opts *RunOptions) error {
	if opts.Impact == "list" {
		return listImpact(opts)
	}
	return opts.interruptible(func(ctx context.Context, env session.Env) error {
		res, err := runreport.RunAndReport(ctx, opts.session, opts.files(), env)
		return runExit(opts, res, err)
	})
}

// interruptible calls do with a context that the first interrupt cancels
// and the Env of the run, whose cleanups run once do returns, or at once
// on a second interrupt.
func (opts *RunOptions) interruptible(do func(context.Context, session.Env) error) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	env := opts.Env
	if env.Cleanups == nil {
		env.Cleanups = &session.Cleanups{}
	}
	defer env.Cleanups.Run()
	defer onInterrupt(cancel, opts.IO.ErrOut, env.Cleanups)()
	return do(ctx, env)
}

// files returns the outputs the flags name, and run --history's store.
func (opts *RunOptions) files() runreport.Files {
	return runreport.Files{
		Out: opts.Out, BaselineOut: opts.BaselineOut, JSON: opts.JSON, Stdout: opts.IO.Out, Log: opts.IO.ErrOut,
		History: func(ctx context.Context) (func(*record.Run, io.Writer) error, error) {
			if opts.History == "" {
				return nil, nil
			}
			return history.RunAdder(ctx, opts.History, opts.Dir, opts.IO.ErrOut)
		},
	}
}

// runExit maps the outcome of a run to its exit status.
func runExit(opts *RunOptions, res *session.Result, err error) error {
	switch {
	case errors.Is(err, session.ErrUnfinished):
		ex := exitUsage(err).(*exitError)
		ex.msg += fmt.Sprintf(": --resume %s continues it, --force replaces it", opts.Raw)
		return ex
	case errors.Is(err, session.ErrOtherMachine):
		ex := exitUsage(err).(*exitError)
		ex.msg += "; --force resumes anyway"
		return ex
	case usage.As(err) != nil:
		return exitUsage(err)
	case errors.Is(err, rmit.ErrInterrupted):
		return &exitError{code: 130, msg: err.Error(), err: err}
	case err != nil:
		return err
	case res.Interrupted():
		return &exitError{code: 130, msg: "interrupted: the results written are partial"}
	case res.Regressed:
		return failErr("regression against --baseline %s in %s", opts.Baseline, opts.Compare.FailOn)
	case res.Inconclusive:
		return failErr("inconclusive against --baseline %s in %s", opts.Baseline, opts.Compare.FailOn)
	case res.Failed() > 0 && !opts.KeepGoing:
		return failErr("%s failed (with --keep-going, failures do not change the exit status)", res.FailedText())
	}
	return nil
}
