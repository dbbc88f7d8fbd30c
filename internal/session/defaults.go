package session

import (
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/progress"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// Defaults of a run, the values of run's flags that are not given;
// docs/EVALUATION.md gives the evidence behind them.
const (
	DefaultSuiteRuns  = 5
	DefaultIterations = 1
	DefaultSliceTime  = 100 * time.Millisecond
	DefaultTimeout    = 10 * time.Minute
	// DefaultBaselineSuiteRuns is the cap of a sequential baseline run:
	// decided pairs stop at one of the looks 5, 8, 12, 18 or 27, and the
	// undecided get up to gate.DefaultLastLook paired suite runs
	// (docs/COMPARE.md).
	DefaultBaselineSuiteRuns = gate.DefaultLastLook
	// DefaultIntervalSuiteRuns is the cap under the default stoppage,
	// Interval: a benchmark that reaches its target stops after 4
	// processes and one predicted out of reach stops there too, so the
	// cap is where the benchmarks in between get the processes they
	// need. A cap of 10 stops most benchmarks early, in less time than 5
	// static suite runs, and brings more of them to ±3%
	// (docs/EVALUATION.md, "Simulations behind the defaults").
	DefaultIntervalSuiteRuns = 10
	// DefaultMinDistinct is the fewest distinct benchmarks a suite run
	// of a configured run holds before it is padded.
	DefaultMinDistinct = 3
)

// The shape of a duet iteration; docs/COMPARE.md has the evidence.
const (
	DefaultTurnTime   = time.Millisecond
	DefaultTurns      = 100
	DefaultTurnWarmup = 10 * time.Millisecond
)

// The profiling of run --explain.
const (
	// DefaultExplainTime caps the profiling of one benchmark: a few
	// seconds give a CPU profile of both versions a few hundred of the
	// profiler's ticks each (docs/GATE.md, "Where a change went").
	DefaultExplainTime = 3 * time.Second
	// DefaultExplainDir is where the profiles go when no output file
	// names a directory for them.
	DefaultExplainDir = "gobench-dyn-explain"
)

// DefaultStop is the stoppage of a run that names none: the Interval
// criterion at its target.
func DefaultStop() stopper.Config {
	c := stopper.Default(stopper.Interval)
	c.Threshold = stopper.IntervalTarget
	return c
}

// DefaultSuiteRunsOf returns the suite-run cap of a run with options o
// that sets none: that of a sequential baseline run, or of the Interval
// criterion without a configuration file, or else DefaultSuiteRuns. A
// sequential baseline run with a budget also gets extendPast: the budget
// bounds the run, so pairs whose change is shown but not its size may run
// on past DefaultBaselineSuiteRuns up to gate.ExtendedLastLook.
func DefaultSuiteRunsOf(o *Options) (suiteRuns, extendPast int) {
	switch {
	case o.Sequential && o.Budget > 0:
		return gate.ExtendedLastLook, DefaultBaselineSuiteRuns
	case o.Sequential:
		return DefaultBaselineSuiteRuns, 0
	case o.Stop.Criterion == stopper.Interval && o.ConfigFile == "":
		return DefaultIntervalSuiteRuns, 0
	}
	return DefaultSuiteRuns, 0
}

// TurnPlanOf returns the shape of a duet iteration under pairing p: turns
// measured turns of turnTime each, after warmup rounded up to whole turns.
func TurnPlanOf(p Pairing, turnTime time.Duration, turns int, warmup time.Duration) rmit.TurnPlan {
	return rmit.TurnPlan{Warmup: int((warmup + turnTime - 1) / turnTime), Turns: turns, Together: p == PairTogether}
}

// BaselineOptions returns the options of run --baseline baseline with no
// other flag: what history's confirmation runs with. The caller sets the
// packages and benchmarks, and may change the slice time, timeout, cap and
// build tags before calling CheckLimits.
func BaselineOptions(baseline string) Options {
	failOn, _ := gate.ParseFailOn(gate.DefaultFailOn) // a constant, which parses
	o := Options{
		Bench: ".", Stop: DefaultStop(), Iterations: DefaultIterations, SliceTime: DefaultSliceTime, Timeout: DefaultTimeout,
		MinDistinct: DefaultMinDistinct, Baseline: baseline, Sequential: true, Confirm: true, Compare: gate.DefaultOptions(),
		FailOn:  failOn,
		Pairing: PairSlices, TurnTime: DefaultTurnTime, Turns: TurnPlanOf(PairSlices, DefaultTurnTime, DefaultTurns, DefaultTurnWarmup),
		Layouts: DefaultLayouts, Impact: true, ExplainTime: DefaultExplainTime, ExplainDir: DefaultExplainDir, AutoBudget: true,
	}
	o.SuiteRuns, o.ExtendPast = DefaultSuiteRunsOf(&o)
	return o
}

// ConfirmOptions returns the options of history --confirm's runs: those
// of run --baseline HEAD with its defaults, and the slice time, timeout,
// suite-run cap (0: the default) and build tags of history's flags, with
// no progress, since history reports each confirmation itself. tool
// names the program in the records. The error is CheckLimits's.
func ConfirmOptions(sliceTime, timeout time.Duration, suiteRuns int, tags, tool string) (Options, error) {
	run := BaselineOptions("HEAD")
	run.SliceTime, run.Timeout, run.Tags, run.Progress, run.Tool = sliceTime, timeout, tags, progress.Off, tool
	if suiteRuns > 0 {
		run.SuiteRuns = suiteRuns
	}
	return run, run.CheckLimits()
}

// CheckLimits checks the options that bound a run's time (suite runs,
// iterations, slice time, timeout), naming the flag of the first bad
// one: run checks its flags with it, and history its confirmation runs.
func (o *Options) CheckLimits() error {
	switch {
	case o.SuiteRuns < 1:
		return usage.Errorf("suite-runs", "must be at least 1, got %d", o.SuiteRuns)
	case o.Iterations < 1:
		return usage.Errorf("iterations", "must be at least 1, got %d", o.Iterations)
	case o.SliceTime <= 0:
		return usage.Errorf("slice-time", "must be positive, got %v", o.SliceTime)
	case o.Timeout < 0:
		return usage.Errorf("timeout", "must not be negative, got %v", o.Timeout)
	case o.Stop.Criterion != stopper.None && o.SuiteRuns*o.Iterations < o.Stop.MinIterations:
		return usage.Errorf("suite-runs", "%d suite runs × %d iterations each are fewer than the %d iterations the stoppage criterion needs before it may stop a benchmark",
			o.SuiteRuns, o.Iterations, o.Stop.MinIterations)
	}
	return nil
}
