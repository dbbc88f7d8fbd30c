package rmit

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gobench-dyn/gobench-dyn/policy"
	"github.com/gobench-dyn/gobench-dyn/record"
)

// stableAfter is a policy that holds each benchmark stable from its n-th
// iteration on.
type stableAfter map[string]int

func (stableAfter) MaxSlices(string) int { return 1 }
func (stableAfter) NextSlice(_ string, _, m []float64) policy.Step {
	return policy.Step{Done: len(m) >= 1}
}
func (s stableAfter) EndIteration(b string, _ policy.Iteration) policy.Decision {
	s[b+"#"]++
	return policy.Decision{Stop: s[b+"#"] >= s[b], Criterion: "test"}
}

// end ends an iteration of bench with measured values and returns the
// decision.
func end(p Policy, bench string, k int, measured []float64) policy.Decision {
	return p.EndIteration(bench, policy.Iteration{SuiteRun: k, Measured: measured})
}

func TestPairedStopsWhenBothAreStable(t *testing.T) {
	pkg := &Package{ImportPath: "p"}
	base := &Package{ImportPath: "p", Version: "baseline"}
	h := NewBenchmark(pkg, "BenchmarkA", 1, false)
	b := NewBenchmark(base, "BenchmarkA", 1, false)
	alone := NewBenchmark(pkg, "BenchmarkNew", 1, false)
	partner := Pair([]*Benchmark{b}, []*Benchmark{h, alone})
	assert.Equal(t, map[string]string{h.ID: b.ID, b.ID: h.ID}, partner)

	p := &Paired{Policy: stableAfter{h.ID: 1, b.ID: 3, alone.ID: 2}, Partner: partner}
	assert.False(t, end(p, h.ID, 1, nil).Stop, "head is stable, its baseline is not")
	assert.False(t, end(p, b.ID, 1, nil).Stop)
	assert.False(t, end(p, alone.ID, 1, nil).Stop)
	assert.False(t, end(p, h.ID, 2, nil).Stop)
	assert.False(t, end(p, b.ID, 2, nil).Stop)
	assert.True(t, end(p, alone.ID, 2, nil).Stop, "a benchmark without partner stops on its own")
	assert.True(t, end(p, b.ID, 3, nil).Stop, "both stable")
	assert.True(t, end(p, h.ID, 3, nil).Stop)
}

func TestShareN(t *testing.T) {
	head := &Package{ImportPath: "p"}
	base := &Package{ImportPath: "p", Version: "baseline"}
	h := NewBenchmark(head, "BenchmarkA", 1, false)
	b := NewBenchmark(base, "BenchmarkA", 1, false)
	gone := NewBenchmark(base, "BenchmarkGone", 1, false)
	h.N, b.N, gone.N = 1000, 250, 7
	ShareN([]*Benchmark{b, gone}, []*Benchmark{h})
	assert.Equal(t, int64(1000), b.N, "both versions run the same N")
	assert.Equal(t, int64(7), gone.N, "a benchmark without partner keeps its own")
}

// With Settled, a pair stops as soon as the comparison of its iteration
// means is decided, though neither side is stable; Settled sees the
// baseline's means first whichever side ended the iteration, and the stop
// says why.
func TestPairedStopsWhenSettled(t *testing.T) {
	pkg := &Package{ImportPath: "p"}
	base := &Package{ImportPath: "p", Version: "baseline"}
	h := NewBenchmark(pkg, "BenchmarkA", 1, false)
	b := NewBenchmark(base, "BenchmarkA", 1, false)
	p := NewPaired(stableAfter{h.ID: 99, b.ID: 99}, []*Benchmark{b}, []*Benchmark{h})
	var seen [][2][]float64
	p.Settled = func(baseMeans, headMeans []float64) bool {
		seen = append(seen, [2][]float64{baseMeans, headMeans})
		return len(baseMeans) >= 2 && len(headMeans) >= 2
	}
	assert.False(t, end(p, b.ID, 1, []float64{10, 12}).Stop)
	assert.False(t, end(p, h.ID, 1, []float64{20, 20, 23}).Stop)
	assert.False(t, end(p, b.ID, 2, []float64{11}).Stop)
	d := end(p, h.ID, 2, []float64{21})
	assert.True(t, d.Stop, "two means a side settle it")
	assert.Equal(t, record.ReasonSettled, d.Reason)
	assert.Equal(t, []string{b.ID}, d.With, "the pair stops together")
	d = end(p, b.ID, 3, []float64{11})
	assert.True(t, d.Stop, "its partner stops too")
	assert.Equal(t, record.ReasonSettled, d.Reason)
	assert.Equal(t, [][2][]float64{
		{{11}, nil},
		{{11}, {21}},
		{{11, 11}, {21}},
		{{11, 11}, {21, 21}},
	}, seen)
}
