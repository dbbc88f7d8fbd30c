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

// TestFitBudgetByGain: a budget goes first to a benchmark not yet
// estimated, then by expected narrowing per second towards the target: a
// cheap benchmark narrowing by 1 point beats an expensive one narrowing by
// 2, and one already at its target comes last and is cut first.
func TestFitBudgetByGain(t *testing.T) {
	pkg := &Package{ImportPath: "p"}
	bench := func(name string) *Benchmark {
		b := NewBenchmark(pkg, name, 1, false)
		b.Config.Iterations = 1
		return b
	}
	cheap, dear, done, fresh := bench("BenchmarkCheap"), bench("BenchmarkDear"), bench("BenchmarkDone"), bench("BenchmarkFresh")
	p := knownPrecision{Static: Static{Slices: 1}, p: map[string]policy.Precision{
		cheap.ID: {Width: 0.05, Next: 0.04, Target: 0.03, Confidence: 0.95},
		dear.ID:  {Width: 0.08, Next: 0.06, Target: 0.03, Confidence: 0.95},
		done.ID:  {Width: 0.02, Next: 0.018, Target: 0.03, Confidence: 0.95},
	}}
	r := &Runner{Policy: p, SliceTime: time.Second}
	r.loop = &policy.Loop{Policy: p}
	r.state = map[*Benchmark]*benchState{}
	for b, wall := range map[*Benchmark]time.Duration{cheap: time.Second, dear: 4 * time.Second, done: time.Second, fresh: 0} {
		r.state[b] = &benchState{}
		if wall > 0 {
			r.state[b].iterations, r.state[b].wall = 1, wall
			r.loop.End(b.ID, policy.Iteration{SuiteRun: 1})
		}
	}
	// Gains per second: fresh +Inf, cheap 0.01/1 s, dear 0.02/4 s, done 0.
	fit, cut := r.fitBudget([]*Benchmark{done, dear, cheap, fresh}, 6*time.Second)
	assert.Equal(t, []*Benchmark{fresh, cheap, dear}, fit)
	assert.Equal(t, []*Benchmark{done}, cut)
	fit, cut = r.fitBudget([]*Benchmark{done, dear, cheap, fresh}, 3*time.Second)
	assert.Equal(t, []*Benchmark{fresh, cheap, done}, fit, "the dear one does not fit; the rest is spent on what does")
	assert.Equal(t, []*Benchmark{dear}, cut)
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
