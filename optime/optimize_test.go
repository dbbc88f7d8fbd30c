package optime

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// synthetic returns a benchmark of S suite runs × I iterations × D slices
// on one instance, value(s, i, d) giving each slice.
func synthetic(name string, S, I, D int, value func(s, i, d int) float64) Benchmark {
	b := Benchmark{Package: "p", Name: name, Warmup: 1, Sources: []int{1}}
	for s := 1; s <= S; s++ {
		for i := 1; i <= I; i++ {
			it := record.IterationSample{Instance: "a", SuiteRun: s, Iteration: i, Warmup: []float64{999}}
			for d := 1; d <= D; d++ {
				it.Values = append(it.Values, value(s, i, d))
			}
			b.Series = append(b.Series, it)
		}
	}
	return b
}

func TestOptimizeSynthetic(t *testing.T) {
	benches := []Benchmark{
		// Perfectly stable: every configuration has CV 0, so the
		// cheapest, time 3, wins; (1, 3, 1) comes first.
		synthetic("Stable", 3, 5, 5, func(s, i, d int) float64 { return 100 }),
		// Iterations of suite run 1 differ by 10%, suite runs agree
		// with each other: (3, 1, 1) is stable, (1, 3, 1) is not.
		synthetic("AcrossRuns", 3, 5, 5, func(s, i, d int) float64 { return 100 + 10*float64(i) }),
		// Noisy everywhere: nothing is stable, the full configuration
		// is kept.
		synthetic("Noisy", 3, 5, 5, func(s, i, d int) float64 { return float64(1 + (s*7+i*3+d)%5) }),
	}
	res, err := Optimize(benches, Options{Metric: CV})
	require.NoError(t, err)
	require.Len(t, res.Choices, 3)

	c := res.Choices[0]
	assert.Equal(t, Config{1, 3, 1}, c.Config)
	assert.Equal(t, Config{3, 5, 5}, c.Full)
	assert.True(t, c.Stable)
	assert.Zero(t, c.Value)
	assert.Equal(t, 3, c.Samples)
	assert.Equal(t, 1, c.Warmup)
	assert.Zero(t, c.Change())

	c = res.Choices[1]
	assert.Equal(t, Config{3, 1, 1}, c.Config)
	assert.True(t, c.Stable)
	assert.Equal(t, 110.0, c.Average)
	assert.Equal(t, 130.0, c.FullAverage)
	assert.InDelta(t, -20.0/130, c.Change(), 1e-15)

	c = res.Choices[2]
	assert.Equal(t, Config{3, 5, 5}, c.Config)
	assert.False(t, c.Stable)
	assert.Greater(t, c.Value, 0.1)
	assert.Zero(t, c.Change())

	chosen, full := res.Time()
	assert.Equal(t, 3+3+75, chosen)
	assert.Equal(t, 225, full)
	assert.InDelta(t, 1-81.0/225, res.Saved(), 1e-15)
	assert.InDelta(t, 2.0/3, res.Within(0.01), 1e-15)
	assert.InDelta(t, 1.0, res.Within(0.2), 1e-15)
}

// The threshold is strict: a configuration whose metric equals it does
// not qualify.
func TestOptimizeStrictThreshold(t *testing.T) {
	b := synthetic("X", 1, 4, 1, func(s, i, d int) float64 { return 5 })
	res, err := Optimize([]Benchmark{b}, Options{Metric: CV, Threshold: math.SmallestNonzeroFloat64})
	require.NoError(t, err)
	assert.Equal(t, Config{1, 3, 1}, res.Choices[0].Config)

	// RMAD of (1,3,1) = {4, 5, 6} is 1/5 exactly: threshold 0.2 does not
	// admit it. (1,4,1) = {4, 5, 6, 7} has 1/5.5 and does.
	b = synthetic("Y", 1, 4, 1, func(s, i, d int) float64 { return float64(3 + i) })
	res, err = Optimize([]Benchmark{b}, Options{Metric: RMAD, Threshold: 0.2})
	require.NoError(t, err)
	assert.Equal(t, Config{1, 4, 1}, res.Choices[0].Config)
	assert.Equal(t, 1/5.5, res.Choices[0].Value)
	assert.True(t, res.Choices[0].Stable)
}

func TestOptimizeTieBreak(t *testing.T) {
	// (1,3,1) = {100, 101, 100} and (3,1,1) = {100, 100, 100.5} both
	// cost 3; the lower CV, (3,1,1), wins although it comes later.
	b := synthetic("T", 3, 3, 1, func(s, i, d int) float64 {
		switch {
		case s == 1 && i == 2:
			return 101
		case s == 3 && i == 1:
			return 100.5
		}
		return 100
	})
	res, err := Optimize([]Benchmark{b}, Options{Metric: CV})
	require.NoError(t, err)
	assert.Equal(t, Config{3, 1, 1}, res.Choices[0].Config)
}

func TestOptimizeInstances(t *testing.T) {
	b := synthetic("I", 1, 3, 2, func(s, i, d int) float64 { return 100 })
	// A second instance, noisy: only "all" sees it.
	for i := 1; i <= 3; i++ {
		b.Series = append(b.Series, record.IterationSample{Instance: "b", SuiteRun: 1, Iteration: i, Values: []float64{50, 150}})
	}
	first, err := Optimize([]Benchmark{b}, Options{Metric: CV})
	require.NoError(t, err)
	assert.Equal(t, Config{1, 3, 1}, first.Choices[0].Config)
	assert.Equal(t, 3, first.Choices[0].Samples)

	all, err := Optimize([]Benchmark{b}, Options{Metric: CV, Instances: AllInstances})
	require.NoError(t, err)
	assert.Equal(t, Config{1, 3, 2}, all.Choices[0].Config)
	assert.False(t, all.Choices[0].Stable)
	assert.Equal(t, 12, all.Choices[0].Samples)
}

func TestOptimizeErrors(t *testing.T) {
	b := synthetic("E", 1, 3, 1, func(s, i, d int) float64 { return 1 })
	for _, o := range []Options{{}, {Metric: CV, Threshold: -1}, {Metric: CV, Threshold: math.NaN()}, {Metric: CV, Resamples: -1}, {Metric: CV, Confidence: 1}, {Metric: CV, Instances: 7}} {
		_, err := Optimize([]Benchmark{b}, o)
		assert.Error(t, err, "%+v", o)
	}
	_, err := Optimize([]Benchmark{{Package: "p", Name: "Empty"}}, Options{Metric: CV})
	assert.ErrorContains(t, err, "p Empty has no measurements")
	bad := synthetic("N", 1, 3, 1, func(s, i, d int) float64 { return math.NaN() })
	_, err = Optimize([]Benchmark{bad}, Options{Metric: CV})
	assert.ErrorContains(t, err, "value NaN")
}

func TestBaselines(t *testing.T) {
	benches := []Benchmark{
		synthetic("A", 3, 5, 5, func(s, i, d int) float64 { return float64(100 + s + i + d) }),
		synthetic("B", 3, 5, 5, func(s, i, d int) float64 { return float64(200 + s*i*d) }),
	}
	res, err := MinimumBaseline(benches, Options{Metric: RMAD})
	require.NoError(t, err)
	for _, c := range res.Choices {
		assert.Equal(t, Config{1, 3, 1}, c.Config)
	}

	seen := map[Config]bool{}
	for seed := range uint64(50) {
		res, err = RandomBaseline(benches, Options{Metric: CV, Rand: rand.New(rand.NewPCG(seed, 0))})
		require.NoError(t, err)
		for _, c := range res.Choices {
			seen[c.Config] = true
			if c.Config != c.Full {
				assert.Less(t, c.Config.SuiteRuns, 3)
				assert.Less(t, c.Config.Iterations, 5)
				assert.Less(t, c.Config.Slices, 5)
				assert.GreaterOrEqual(t, c.Config.SuiteRuns*c.Config.Iterations, 3)
			}
		}
	}
	assert.True(t, seen[Config{3, 5, 5}], "draws with s·i < 3 keep the full configuration")
	assert.Greater(t, len(seen), 5)

	// Same seed, same draws.
	r1, _ := RandomBaseline(benches, Options{Metric: CV, Rand: rand.New(rand.NewPCG(5, 5))})
	r2, _ := RandomBaseline(benches, Options{Metric: CV, Rand: rand.New(rand.NewPCG(5, 5))})
	assert.Equal(t, r1, r2)
	assert.Equal(t, StrategyRandom, r1.Strategy)

	// Each strategy chooses as its function does.
	for name, f := range map[string]func([]Benchmark, Options) (*Result, error){
		"search": Optimize, "minimum": MinimumBaseline, "random": RandomBaseline,
	} {
		st, err := ParseStrategy(name)
		require.NoError(t, err)
		got, err := st.Choose(benches, Options{Metric: CV, Rand: rand.New(rand.NewPCG(9, 9))})
		require.NoError(t, err)
		want, err := f(benches, Options{Metric: CV, Rand: rand.New(rand.NewPCG(9, 9))})
		require.NoError(t, err)
		assert.Equal(t, want, got, name)
		assert.Equal(t, st, got.Strategy)
	}
	_, err = ParseStrategy("minimal")
	assert.ErrorContains(t, err, `unknown strategy "minimal"`)
}

func TestBenchmarks(t *testing.T) {
	mk := func(inst string, sr, it, sl int, warm bool, v float64) record.Slice {
		return record.Slice{Package: "p", Benchmark: "B", Instance: inst, SuiteRun: sr, Iteration: it, Slice: sl, Warmup: warm, N: 1, Values: map[string]float64{"ns/op": v}}
	}
	r1 := &record.Run{Slices: []record.Slice{mk("", 1, 1, 1, true, 9), mk("", 1, 1, 2, false, 1), mk("", 1, 1, 3, false, 2)}}
	base := mk("", 1, 1, 2, false, 5)
	base.Version = record.VersionBaseline
	r1.Slices = append(r1.Slices, base)
	r2 := &record.Run{Slices: []record.Slice{mk("z", 1, 1, 1, false, 3)}}
	r3 := &record.Run{Slices: []record.Slice{mk("", 1, 1, 1, false, 4)}}
	bs := Benchmarks([]*record.Run{r1, r2, r3}, []int{4, 7, 9})
	require.Len(t, bs, 1)
	b := bs[0]
	assert.Equal(t, 1, b.Warmup)
	assert.Equal(t, []int{4, 7, 9}, b.Sources)
	require.Len(t, b.Series, 3)
	assert.Equal(t, []float64{1, 2}, b.Series[0].Values)
	assert.Equal(t, "", b.Series[0].Instance)
	assert.Equal(t, "z", b.Series[1].Instance)
	assert.Equal(t, "#9", b.Series[2].Instance, "a second unnamed instance stays apart")
}
