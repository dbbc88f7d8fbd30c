package rmit

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper/policy"
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

	p := &Paired{Policy: stableAfter{h.ID: 1, b.ID: 3, alone.ID: 2}, Pairing: Pairing{Partner: partner}}
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

// With Judge, a pair stops as soon as its comparison is decided, though
// neither side is stable; Judge sees the process means of the suite runs
// both versions completed, the baseline's first whichever side ended the
// iteration, and the stop gives Judge's reason. Stability alone no longer
// stops it.
func TestPairedStopsWhenDecided(t *testing.T) {
	pkg := &Package{ImportPath: "p"}
	base := &Package{ImportPath: "p", Version: "baseline"}
	h := NewBenchmark(pkg, "BenchmarkA", 1, false)
	b := NewBenchmark(base, "BenchmarkA", 1, false)
	p := NewPaired(stableAfter{h.ID: 1, b.ID: 1}, []*Benchmark{b}, []*Benchmark{h})
	var seen [][2][][]float64
	p.Judge = func(baseMeans, headMeans [][]float64) string {
		seen = append(seen, [2][][]float64{baseMeans, headMeans})
		if len(baseMeans) >= 2 {
			return record.ReasonSettled
		}
		return ""
	}
	assert.False(t, end(p, b.ID, 1, []float64{10, 12}).Stop, "stable but undecided runs on")
	assert.False(t, end(p, h.ID, 1, []float64{20, 20, 23}).Stop)
	assert.False(t, end(p, h.ID, 2, []float64{21}).Stop)
	d := end(p, b.ID, 2, []float64{11})
	assert.True(t, d.Stop, "two paired suite runs decide it")
	assert.Equal(t, record.ReasonSettled, d.Reason)
	assert.Equal(t, []string{h.ID}, d.With, "the pair stops together")
	d = end(p, h.ID, 3, []float64{21})
	assert.True(t, d.Stop, "its partner stops too")
	assert.Equal(t, record.ReasonSettled, d.Reason)
	assert.Equal(t, [][2][][]float64{
		{nil, nil},
		{{{11}}, {{21}}},
		{{{11}}, {{21}}},
		{{{11}, {11}}, {{21}, {21}}},
	}, seen)

	// A pair whose verdict is out of reach stops with that reason.
	p = NewPaired(stableAfter{}, []*Benchmark{b}, []*Benchmark{h})
	p.Judge = func(baseMeans, headMeans [][]float64) string { return record.ReasonNoVerdict }
	d = end(p, b.ID, 1, []float64{10})
	assert.True(t, d.Stop)
	assert.Equal(t, record.ReasonNoVerdict, d.Reason)
	assert.Equal(t, []string{h.ID}, d.With)
}

// A paired schedule runs each baseline iteration right next to the same
// head iteration, counterbalances the order ABBA across suite runs, keeps
// unpaired benchmarks, and gives the same order for the same seed.
func TestPairedSchedule(t *testing.T) {
	pkg := &Package{ImportPath: "p"}
	basePkg := &Package{ImportPath: "p", Version: "baseline"}
	var heads, bases []*Benchmark
	for _, n := range []string{"BenchmarkA", "BenchmarkB", "BenchmarkC"} {
		heads = append(heads, NewBenchmark(pkg, n, 1, false))
		bases = append(bases, NewBenchmark(basePkg, n, 1, false))
	}
	alone := NewBenchmark(pkg, "BenchmarkNew", 1, false)
	all := append(append(slices.Clone(heads), bases...), alone)
	pairing := NewPairing(bases, append(slices.Clone(heads), alone))
	its := func(*Benchmark) int { return 2 }
	first := map[string][]bool{} // by name: was the baseline first, per pair
	for k := 1; k <= 4; k++ {
		e := PairedSchedule(7, k, all, its, pairing)
		assert.Equal(t, e, PairedSchedule(7, k, all, its, pairing), "same seed, same order")
		require.Len(t, e, 14)
		for i := 0; i < len(e); i++ {
			if e[i].Bench == alone {
				assert.False(t, e[i].PairedWithNext)
				continue
			}
			require.True(t, e[i].PairedWithNext, "suite run %d entry %d", k, i)
			a, b := e[i], e[i+1]
			assert.Equal(t, a.Bench.Name, b.Bench.Name, "the pair runs back to back")
			assert.Equal(t, a.Iteration, b.Iteration, "iteration j of one version pairs with iteration j of the other")
			assert.NotEqual(t, a.Bench.Package.Version, b.Bench.Package.Version)
			first[a.Bench.Name] = append(first[a.Bench.Name], pairing.Base[a.Bench.ID])
			i++
		}
	}
	for name, f := range first {
		assert.Equal(t, []bool{true, false, false, true, true, false, false, true}, f, "%s: ABBA", name)
	}
	assert.NotEqual(t, PairedSchedule(7, 1, all, its, pairing), PairedSchedule(8, 1, all, its, pairing), "another seed, another order")
}
