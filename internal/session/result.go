package session

import (
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// A Result is the outcome of a run that measured.
type Result struct {
	Summary *rmit.Summary
	// PrepareFailures are the packages and benchmarks that could not be
	// prepared; the run went on without them.
	PrepareFailures []*rmit.PrepareFailure
	// Comparison compares the baseline with the code under test, when
	// there is a baseline; for an interrupted run, on what it measured.
	Comparison *gate.Result
	// Regressed says whether Comparison holds a regression in a unit
	// Options.FailOn selects; Inconclusive, that it holds none but fails
	// a strict FailOn (one that lists gate.FailInconclusive) on an
	// inconclusive comparison.
	Regressed    bool
	Inconclusive bool
	// GoTest is about how long one go test -bench pass of the benchmarks
	// measured would have taken (rmit.GoTestPassTime of their measured
	// slices); 0 in a comparison, which go test does not make.
	GoTest time.Duration
	// Building is how long this run took to list, compile and link the
	// test binaries of one version (rmit.Suite.Building), which a go
	// test -bench pass spends as well: with GoTest, the pass's wall
	// time to compare the run's with; 0 where GoTest is.
	Building time.Duration
	// AutoBudget is the budget of about one go test -bench pass that
	// Options.AutoBudget gave the run, or zero.
	AutoBudget time.Duration
	// Amortized lists the benchmarks whose ns/op fell as b.N grew
	// between their processes.
	Amortized []Amortized
	// Unsettled holds the stop events of the benchmarks whose warmup
	// ran to its cap still getting faster.
	Unsettled []record.Event
	// Drifting lists the benchmarks whose slices trend inside their
	// processes: not steady, whatever their stoppage criterion said.
	Drifting []Drift
	// TwoSpeeds lists the benchmarks of a run of one version whose
	// processes read at two speeds, each steady inside.
	TwoSpeeds []TwoSpeed
	// Head holds the records of the code under test, for what keeps a
	// summary of the run (run --history).
	Head *record.Run
	// NonFinite lists the units that reported NaN or an infinity.
	NonFinite []NonFinite
	// Stopped is the output failure that stopped the run early, or nil.
	Stopped error
	// Unaffected counts the benchmarks of a baseline run the change
	// cannot reach, which were not measured.
	Unaffected int
	// Explained are the explanations of decided changes (Options.Explain),
	// and ExplainTime what profiling them took.
	Explained   []*Explained
	ExplainTime time.Duration
	// ExplainHTML is the page of their differential flame graphs, or "".
	ExplainHTML string
	// PastCap counts the pairs of a baseline run that ran past
	// Options.ExtendPast suite runs.
	PastCap int

	// Options are the options the run went by: those given, with the
	// seed and, for a resumed run, the raw file resolved.
	Options *Options
	// Order lists the benchmarks of Head in the order they were found in
	// the source, which the results files and the table of results keep.
	Order []record.Key

	// minimumBudget estimates, before the run, the budget that gives
	// every benchmark render.FewestProcesses processes, preparation
	// included; prepTime is the preparation.
	minimumBudget, prepTime time.Duration
}

// Failed returns the number of benchmarks and packages that failed.
func (r *Result) Failed() int { return len(r.Summary.Failed) + len(r.PrepareFailures) }

// FailedText says what failed, as "1 benchmark and 2 packages".
func (r *Result) FailedText() string {
	benches, pkgs := len(r.Summary.Failed), 0
	for _, f := range r.PrepareFailures {
		if f.Bench == "" {
			pkgs++
		} else {
			benches++
		}
	}
	switch {
	case pkgs == 0:
		return plural(benches, "benchmark")
	case benches == 0:
		return plural(pkgs, "package")
	}
	return plural(benches, "benchmark") + " and " + plural(pkgs, "package")
}

// Interrupted reports whether the run was stopped before its end.
func (r *Result) Interrupted() bool { return r.Summary.Interrupted }

// NeededBudget estimates the budget that gives every benchmark
// render.FewestProcesses processes: from the time its iterations took in
// this run, which counts the processes' start and calibration that the
// estimate made before the run, from slice times alone, leaves out.
func (r *Result) NeededBudget() time.Duration {
	need := r.minimumBudget
	if sum := r.Summary; sum.Iterations > 0 {
		per := (sum.Wall() - r.prepTime) / time.Duration(sum.Iterations)
		need = max(need, r.prepTime+per*time.Duration(sum.Benchmarks*render.FewestProcesses))
	}
	return need
}

// plural writes n and noun, with an s unless n is 1.
func plural(n int, noun string) string { return render.Plural(n, noun) }
