package steady

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/changepoint"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

func TestSkipFor(t *testing.T) {
	// A 100 ms iteration of a 30 µs operation averages 3,334 of them:
	// ⌈200 / ln 3335⌉ = 25.
	assert.Equal(t, 25, SkipFor(200, 0.1/30e-6))
	assert.Equal(t, 289, SkipFor(200, 1)) // ⌈200 / ln 2⌉
	assert.Equal(t, 289, SkipFor(0, 0.2))
}

// TestFilter drops a spike inside the windowed part of a series and
// keeps one among the skipped first values.
func TestFilter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	xs := make([]float64, 500)
	for i := range xs {
		xs[i] = 100 + rng.NormFloat64()
	}
	xs[5] = 1000   // skipped: a warmup's start is left alone
	xs[300] = 1000 // a spike
	xs[301] = 95   // low, but within median ± 3·(p99 − p1)
	kept := Filter(xs, 200, 10)
	assert.Len(t, kept, 499)
	assert.Contains(t, kept, 5)
	assert.NotContains(t, kept, 300)
	assert.Contains(t, kept, 301)
	// Too short to window: nothing goes.
	assert.Len(t, Filter(xs[:150], 200, 0), 150)
}

func TestDiffer(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	gen := func(n int, m float64) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = m * (1 + 0.01*rng.NormFloat64())
		}
		return xs
	}
	opts := Options{Resamples: 2000}
	last := gen(1000, 100)
	assert.False(t, Differ(last, gen(500, 101), opts, rng), "1% apart")
	assert.True(t, Differ(last, gen(500, 110), opts, rng), "10% apart")
	assert.True(t, Differ(last, gen(20, 90), opts, rng), "10% apart, short: bootstrapped")
	// 3% apart is inside the tolerance.
	assert.False(t, Differ(last, gen(500, 103), opts, rng))
	// Strict needs the interval inside the band: 4% with a wide interval
	// is not shown equivalent.
	strict := Options{Resamples: 2000, Strict: true}
	assert.True(t, Differ(gen(5, 100), gen(5, 104), strict, rng))
	assert.False(t, Differ(last, gen(500, 100), strict, rng))

	// One giant outlier makes the bootstrap interval of a short segment
	// reach 1 although its mean is 30 times off: resamples without the
	// outlier are like the last segment. The normal shortcut must not
	// decide this one.
	seg := gen(37, 100)
	seg[10] = 100 * 37 * 30
	assert.False(t, Differ(last, seg, Options{}, rng))
}

// warmup returns n values falling from 1.5 to 1 over the first w, then
// flat, with 1% noise.
func warmup(n, w int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 9))
	xs := make([]float64, n)
	for i := range xs {
		m := 1.0
		if i < w {
			m = 1.5 - 0.5*float64(i)/float64(w)
		}
		xs[i] = m * (1 + 0.01*rng.NormFloat64())
	}
	return xs
}

func TestAnalyze(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	opts := Options{Resamples: 2000, Skip: 20}
	s := Analyze(warmup(1500, 300, 1), opts, rng)
	assert.Equal(t, Steady, s.Class)
	// The warmup ends where the mean is within 5% of the steady one: at
	// 1.05, a tenth of the way from the end of the fall.
	assert.InDelta(t, 270, s.Start, 60)
	assert.Equal(t, s.Start, s.WarmupEnd)
	require.NotEmpty(t, s.Ends)
	assert.Equal(t, 1500, s.Ends[len(s.Ends)-1])

	// A series that steps up 20% 300 values from its end has no steady
	// part of 500 values.
	xs := warmup(1500, 0, 2)
	for i := 1200; i < 1500; i++ {
		xs[i] *= 1.2
	}
	s = Analyze(xs, opts, rng)
	assert.Equal(t, NotSteady, s.Class)
	assert.Equal(t, -1, s.Start)
	assert.InDelta(t, 1200, s.WarmupEnd, 5)

	// Flat from the start.
	s = Analyze(warmup(800, 0, 3), opts, rng)
	assert.Equal(t, Steady, s.Class)
	assert.Equal(t, 0, s.Start)

	// MinTailFraction scales the tail to short series.
	short := warmup(60, 10, 4)
	s = Analyze(short, Options{MinTailFraction: 0.5, NoFilter: true, Changepoint: changepoint.Options{MinSegment: 3}}, rng)
	assert.Equal(t, Steady, s.Class)
	assert.InDelta(t, 10, s.Start, 5)

	assert.Equal(t, Series{Class: NotSteady, Start: -1}, Analyze(nil, opts, rng))
}

func TestBenchmark(t *testing.T) {
	st, ns := Series{Class: Steady}, Series{Class: NotSteady}
	assert.Equal(t, Steady, Benchmark([]Series{st, st}))
	assert.Equal(t, NotSteady, Benchmark([]Series{ns, ns}))
	assert.Equal(t, Inconsistent, Benchmark([]Series{st, ns}))
	assert.Equal(t, NotSteady, Benchmark(nil))
	assert.Equal(t, "inconsistent", Inconsistent.String())
	assert.Equal(t, "not steady", NotSteady.String())
}

func TestReplayWarmup(t *testing.T) {
	// 30 values alternating between 1 and 2, then 0.1% noise around 1:
	// CV over a window of 5 holds once the window is past the first 30,
	// and not before.
	xs := warmup(400, 0, 7)
	for i := range xs {
		xs[i] = 1 + (xs[i]-1)/10
		if i < 30 && i%2 == 1 {
			xs[i] = 2
		}
	}
	cfg := stopper.Paper(stopper.CV)
	cfg.WarmupMax = 1000
	w, met := ReplayWarmup(xs, cfg)
	assert.True(t, met)
	assert.InDelta(t, 34, w, 2)
	// A criterion that never holds ends at the series' end.
	cfg.Threshold = 1e-12
	w, met = ReplayWarmup(xs, cfg)
	assert.False(t, met)
	assert.Equal(t, 400, w)

	// WEE against a known start.
	res := []Result{{Series: []Series{{Class: Steady, Start: 100}, {Class: NotSteady, Start: -1}}}}
	wee := WEEOf(res, [][][]float64{{xs, xs}}, stopper.Paper(stopper.CV), 10)
	assert.Equal(t, 1, wee.N)
	est, _ := ReplayWarmup(xs, stopper.Paper(stopper.CV))
	assert.Equal(t, math.Abs(float64(est-100)), wee.Median)
}

func TestInputs(t *testing.T) {
	run := &record.Run{}
	for p := 1; p <= 2; p++ {
		for sl := 1; sl <= 3; sl++ {
			run.Slices = append(run.Slices, record.Slice{Package: "p", Benchmark: "BenchmarkA", SuiteRun: p, Iteration: 1, Slice: sl, Warmup: sl == 1,
				N: 100, Values: map[string]float64{"ns/op": float64(10 * sl)}, WallNs: int64(sl) * 1e9})
		}
	}
	run.Slices = append(run.Slices, record.Slice{Package: "p", Benchmark: "BenchmarkA", Version: record.VersionBaseline, SuiteRun: 1, Iteration: 1, Slice: 1, N: 1, Values: map[string]float64{"ns/op": 1}})
	ins := Inputs(run)
	require.Len(t, ins, 1)
	in := ins[0]
	assert.Equal(t, "p.BenchmarkA", in.Name)
	assert.Equal(t, [][]float64{{10, 20, 30}, {10, 20, 30}}, in.Processes)
	assert.Equal(t, [][]float64{{1, 2, 3}, {1, 2, 3}}, in.Walls)
	assert.Equal(t, 100.0, in.Ops)
	assert.Equal(t, 3.0, in.WarmupTime(1, 2))
	r := Result{Series: []Series{{Class: Steady, Start: 1}, {Class: Steady, Start: 2}}}
	assert.Equal(t, 3.0, in.LearnedWarmupTime(r))
	assert.Equal(t, -1.0, in.LearnedWarmupTime(Result{Series: []Series{{Class: NotSteady, Start: -1}}}))

	pub := SeriesInput("f.json", [][]float64{{1, 2}}, 0.1, 5)
	assert.Equal(t, [][]float64{{0.1, 0.1}}, pub.Walls)
	assert.InDelta(t, 0.1, pub.WarmupTime(0, 1), 1e-12)
}
