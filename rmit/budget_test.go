package rmit

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper/policy"
)

// knownPrecision is a policy whose decisions carry a fixed precision per
// benchmark.
type knownPrecision struct {
	Static
	p map[string]policy.Precision
}

func (k knownPrecision) EndIteration(b string, _ policy.Iteration) policy.Decision {
	return policy.Decision{Criterion: "test", Precision: k.p[b]}
}

// budgetBench is a benchmark of package p that runs one iteration per
// suite run.
func budgetBench(name string) *Benchmark {
	b := NewBenchmark(&Package{ImportPath: "p"}, name, 1, false)
	b.Config.Iterations = 1
	return b
}

// budgetRunner is a runner of p, to be told what its benchmarks ran
// (ran) before fitBudget is asked.
func budgetRunner(p Policy, minIterations int) *Runner {
	r := &Runner{Policy: p, SliceTime: time.Second, MinIterations: minIterations}
	r.loop = &policy.Loop{Policy: p}
	r.state = map[*Benchmark]*benchState{}
	return r
}

// ran says that b ran iterations processes in wall, and, when it ran
// any, has the decision of its policy.
func ran(r *Runner, b *Benchmark, iterations int, wall time.Duration) {
	r.state[b] = &benchState{iterations: iterations, wall: wall}
	if iterations > 0 {
		r.loop.End(b.ID, policy.Iteration{SuiteRun: iterations})
	}
}

// TestFitBudgetByGain: a budget goes first to a benchmark not yet
// estimated, then by expected narrowing per second towards the target: a
// cheap benchmark narrowing by 1 point beats an expensive one narrowing by
// 2, and one already at its target comes last and is cut first.
func TestFitBudgetByGain(t *testing.T) {
	cheap, dear, done, fresh := budgetBench("BenchmarkCheap"), budgetBench("BenchmarkDear"), budgetBench("BenchmarkDone"), budgetBench("BenchmarkFresh")
	p := knownPrecision{Static: Static{Slices: 1}, p: map[string]policy.Precision{
		cheap.ID: {Width: 0.05, Next: 0.04, Target: 0.03, Confidence: 0.95},
		dear.ID:  {Width: 0.08, Next: 0.06, Target: 0.03, Confidence: 0.95},
		done.ID:  {Width: 0.02, Next: 0.018, Target: 0.03, Confidence: 0.95},
	}}
	r := budgetRunner(p, 0)
	ran(r, cheap, 1, time.Second)
	ran(r, dear, 1, 4*time.Second)
	ran(r, done, 1, time.Second)
	ran(r, fresh, 0, 0)
	// Gains per second: fresh +Inf, cheap 0.01/1 s, dear 0.02/4 s, done 0.
	fit, cut, beyond := r.fitBudget([]*Benchmark{done, dear, cheap, fresh}, 6*time.Second)
	assert.Equal(t, []*Benchmark{fresh, cheap, dear}, fit)
	assert.Equal(t, []*Benchmark{done}, cut)
	assert.Empty(t, beyond, "no stop predicted")
	fit, cut, _ = r.fitBudget([]*Benchmark{done, dear, cheap, fresh}, 3*time.Second)
	assert.Equal(t, []*Benchmark{fresh, cheap, done}, fit, "the dear one does not fit; the rest is spent on what does")
	assert.Equal(t, []*Benchmark{dear}, cut)
}

// TestFitBudgetFundsTheSoonestStops: a budget first sets aside what the
// benchmarks predicted to stop within their cap need to get there, the
// soonest first, and then goes by gain; a benchmark it cuts whose stop
// lies beyond what is left, or past its cap, is beyond the budget.
func TestFitBudgetFundsTheSoonestStops(t *testing.T) {
	near, far, hopeless, capped, fresh := budgetBench("BenchmarkNear"), budgetBench("BenchmarkFar"), budgetBench("BenchmarkHopeless"), budgetBench("BenchmarkCapped"), budgetBench("BenchmarkFresh")
	p := knownPrecision{Static: Static{Slices: 1}, p: map[string]policy.Precision{
		// 4 processes done: near stops at its target after 2 more,
		// far after 5 more, hopeless out of reach after 1 more, and
		// capped would run to its cap first (no stop predicted) but
		// narrows most per second.
		near.ID:     {Width: 0.035, Next: 0.032, Target: 0.03, Confidence: 0.95, Processes: 5, Stop: 6},
		far.ID:      {Width: 0.05, Next: 0.045, Target: 0.03, Confidence: 0.95, Processes: 8, Stop: 9},
		hopeless.ID: {Width: 0.30, Next: 0.25, Target: 0.03, Confidence: 0.95, Processes: 400, Stop: 5},
		capped.ID:   {Width: 0.12, Next: 0.08, Target: 0.03, Confidence: 0.95, Processes: 20},
	}}
	r := budgetRunner(p, 3)
	for _, b := range []*Benchmark{near, far, hopeless, capped} {
		ran(r, b, 4, 4*time.Second)
	}
	// fresh has its minimum 3 processes, of 1 s each, and no interval.
	ran(r, fresh, 3, 3*time.Second)
	all := []*Benchmark{capped, far, hopeless, near, fresh}

	// 1 s for fresh's process, which is at its minimum, 1 s for
	// hopeless's stop, 2 s for near's: 1 s left, where far's stop needs
	// 5; capped narrows more per second than far.
	fit, cut, beyond := r.fitBudget(all, 5*time.Second)
	assert.Equal(t, []*Benchmark{fresh, hopeless, near, capped}, fit)
	assert.Empty(t, cut)
	assert.Equal(t, []*Benchmark{far}, beyond, "its stop needs 5 s of the 2 left")
	fit, _, beyond = r.fitBudget(all, 6*time.Second)
	assert.Equal(t, []*Benchmark{fresh, hopeless, near, capped, far}, fit, "what is left after the stops goes by gain")
	assert.Empty(t, beyond)

	// Enough for every stop: the one that runs to its cap still gets
	// its process when one is left.
	fit, _, beyond = r.fitBudget(all, 10*time.Second)
	assert.Equal(t, []*Benchmark{fresh, hopeless, near, far, capped}, fit)
	assert.Empty(t, beyond)
	fit, _, beyond = r.fitBudget(all, 9*time.Second)
	assert.Equal(t, []*Benchmark{fresh, hopeless, near, far}, fit)
	assert.Equal(t, []*Benchmark{capped}, beyond, "it narrows most per second, but no stop of it is predicted within its cap")

	// A run of two versions funds no stops.
	r.Pairs = &Pairing{}
	fit, cut, beyond = r.fitBudget(all, 4*time.Second)
	assert.Equal(t, []*Benchmark{fresh, hopeless, capped, far}, fit, "by gain alone")
	assert.Equal(t, []*Benchmark{near}, cut)
	assert.Empty(t, beyond)
}

// costSeen is a static policy that keeps the precision it is told and
// the costs the runner measured.
type costSeen struct {
	Static
	its []policy.Iteration
}

func (c *costSeen) EndIteration(_ string, it policy.Iteration) policy.Decision {
	c.its = append(c.its, it)
	return policy.Decision{Criterion: "test", Precision: policy.Precision{Width: 0.041, Confidence: 0.95, Target: 0.03, Processes: 14, Next: 0.03}}
}

// TestRunRecordsPrecisionAndCosts: the runner gives the policy the
// measured cost of a slice and of the rest of the process, and the stop
// record of a benchmark that reached its cap carries the precision of the
// last decision, as does the summary.
func TestRunRecordsPrecisionAndCosts(t *testing.T) {
	pkg := suite(t)
	bs := discover(t, pkg, "Fast")
	p := &costSeen{Static: Static{Warmup: 1, Slices: 3}}
	_, sum, run := runSuite(t, bs, 5, p)
	require.Len(t, p.its, 4)
	for _, it := range p.its {
		assert.Len(t, it.Measured, 3)
		assert.Positive(t, it.SliceCost)
		assert.Positive(t, it.ProcessCost, "start, warmup slice and exit")
	}
	var stop *record.Event
	for i, e := range run.Events {
		if e.Event == record.EventStop {
			stop = &run.Events[i]
		}
	}
	require.NotNil(t, stop)
	assert.Equal(t, "cap reached before the criterion held", stop.Reason)
	assert.Equal(t, &record.Precision{RelHalfWidth: 0.041, Confidence: 0.95, Target: 0.03, Processes: 14}, stop.Precision)
	require.Len(t, sum.Precision, 1)
	assert.Equal(t, 4, sum.Precision[0].Iterations)
	assert.Equal(t, "±4.1%; about 14 processes for ±3%", sum.Precision[0].Precision.String())
}

// TestFitBudgetStopsAtTheMinimumFirst: of the benchmarks at their minimum
// processes, one whose next process stops it at its target comes first,
// though an interval at its target gains nothing by gain; then one that
// process stops out of reach; the others follow by gain.
func TestFitBudgetStopsAtTheMinimumFirst(t *testing.T) {
	held, hopeless, wide, mid := budgetBench("BenchmarkHeld"), budgetBench("BenchmarkHopeless"), budgetBench("BenchmarkWide"), budgetBench("BenchmarkMid")
	p := knownPrecision{Static: Static{Slices: 1}, p: map[string]policy.Precision{
		held.ID:     {Width: 0.025, Next: 0.022, Target: 0.03, Confidence: 0.95, Processes: 3, Stop: 4},
		hopeless.ID: {Width: 0.30, Next: 0.25, Target: 0.03, Confidence: 0.95, Processes: 400, Stop: 4},
		wide.ID:     {Width: 0.30, Next: 0.20, Target: 0.03, Confidence: 0.95, Processes: 20},
		mid.ID:      {Width: 0.06, Next: 0.05, Target: 0.03, Confidence: 0.95, Processes: 9, Stop: 10},
	}}
	r := budgetRunner(p, 3)
	all := []*Benchmark{wide, mid, hopeless, held}
	for _, b := range all {
		ran(r, b, 3, 3*time.Second)
	}
	fit, cut, beyond := r.fitBudget(all, 2*time.Second)
	assert.Equal(t, []*Benchmark{held, hopeless}, fit)
	assert.Equal(t, []*Benchmark{mid}, cut)
	assert.Equal(t, []*Benchmark{wide}, beyond, "gain alone had room for it, not for held")
	fit, cut, beyond = r.fitBudget(all, time.Second)
	assert.Equal(t, []*Benchmark{held}, fit)
	assert.Equal(t, []*Benchmark{hopeless, mid}, cut)
	assert.Equal(t, []*Benchmark{wide}, beyond)
}
