package replay

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/dataset"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// synthetic returns a run of one benchmark: iterations of the given
// values, all in suite run 1, the first warmup slices of each flagged.
func synthetic(warmup int, iterations ...[]float64) *record.Run {
	run := &record.Run{}
	for i, vals := range iterations {
		for j, v := range vals {
			run.Slices = append(run.Slices, record.Slice{
				Package: "p", Benchmark: "BenchmarkX", SuiteRun: 1, Iteration: i + 1, Slice: j + 1,
				Warmup: j < warmup, N: 1, Values: map[string]float64{"ns/op": v},
			})
		}
	}
	return run
}

func cvConfig() stopper.Config {
	return stopper.Config{Criterion: stopper.CV, Window: 3, WarmupMin: 1, WarmupMax: 6, Measure: 3, MinIterations: 2}
}

func TestReplayStopsAndSavings(t *testing.T) {
	// Each iteration: one slow slice, then steady. The policy warms up for
	// 3 slices (the first window without the slow slice is slices 2–4,
	// decided after slice 4: 4 warmup slices), measures 3, and stops after
	// the second iteration.
	it := []float64{300, 100, 100, 100, 100, 100, 100, 100, 100, 100}
	run := synthetic(2, it, it, it, it)
	res, err := Run(run, Options{Config: cvConfig(), FullWarmup: -1, Resamples: 1000})
	require.NoError(t, err)
	require.Len(t, res.Benchmarks, 1)
	b := res.Benchmarks[0]
	require.Len(t, b.Iterations, 2)
	for _, ri := range b.Iterations {
		assert.Equal(t, 4, ri.Warmup)
		assert.True(t, ri.WarmupMet)
		assert.Equal(t, 3, ri.Measured)
		assert.False(t, ri.Short)
	}
	assert.True(t, b.Stopped)
	assert.True(t, b.Met)
	assert.Equal(t, 4, b.Recorded)
	assert.Equal(t, 40, b.FullSlices)
	assert.Equal(t, 14, b.DynSlices)
	assert.InDelta(t, 1-14.0/40, b.TimeSaved, 1e-12)
	assert.Equal(t, 100.0, b.FullMean, "full result: recorded measurement slices")
	assert.Equal(t, 100.0, b.DynMean)
	assert.Equal(t, 0.0, b.Change)
	assert.True(t, b.Same)

	s := res.Summary
	assert.Equal(t, 1, s.Benchmarks)
	assert.InDelta(t, 1-14.0/40, s.TimeSaved, 1e-12)
	assert.Equal(t, 1.0, s.Same)
	assert.Equal(t, 1.0, s.Below1)
	assert.Equal(t, 4.0, s.WarmupMean)
	assert.Equal(t, 2.0, s.IterationsMean)
	assert.Equal(t, 0.0, s.WarmupUnmet)
	assert.Equal(t, 0.0, s.Unmet)
}

func TestReplayChangeRateAndAA(t *testing.T) {
	// Warmup fixed at 1; the full result keeps slices 2–10 of every
	// iteration (FullWarmup 1), the dynamic one slices 2–4 of the first two.
	a := []float64{500, 100, 100, 100, 130, 130, 130, 130, 130, 130}
	cfg := stopper.Config{Criterion: stopper.None, WarmupMin: 1, Measure: 3, MinIterations: 1}
	res, err := Run(synthetic(0, a, a), Options{Config: cfg, FullWarmup: 1, MaxIterations: 2, Resamples: 1000})
	require.NoError(t, err)
	b := res.Benchmarks[0]
	assert.Equal(t, 100.0, b.DynMean)
	assert.InDelta(t, (3*100+6*130)/9.0, b.FullMean, 1e-12)
	assert.InDelta(t, (b.FullMean-100)/b.FullMean, b.Change, 1e-12)
	assert.False(t, b.Same, "a constant 100 against a mix of 100 and 130")
	assert.False(t, b.Met, "a static configuration meets no criterion")
	assert.Equal(t, 0.0, res.Summary.Below3)

	// Recorded warmup flags instead: slice 1 of each iteration.
	res, err = Run(synthetic(1, a, a), Options{Config: cfg, FullWarmup: -1, Resamples: 1000})
	require.NoError(t, err)
	assert.InDelta(t, (3*100+6*130)/9.0, res.Benchmarks[0].FullMean, 1e-12)
}

func TestReplayShortIterations(t *testing.T) {
	// The policy wants up to 6 warmup and 3 measurement slices; the
	// recording has 4 per iteration of steadily growing values.
	it := []float64{1, 2, 4, 8}
	res, err := Run(synthetic(0, it, it), Options{Config: cvConfig(), Resamples: 200})
	require.NoError(t, err)
	b := res.Benchmarks[0]
	require.Len(t, b.Iterations, 2)
	assert.True(t, b.Iterations[0].Short)
	assert.Equal(t, 4, b.Iterations[0].Warmup)
	assert.Equal(t, 0, b.Iterations[0].Measured)
	assert.True(t, math.IsNaN(b.Change), "no dynamic measurements")
	assert.Equal(t, 2, res.Summary.Short)
	assert.Equal(t, 0, res.Summary.Benchmarks, "no comparable benchmark")
}

func TestReplayInstances(t *testing.T) {
	run := synthetic(0, []float64{1, 1, 1, 1, 1, 1, 1, 1})
	for _, s := range synthetic(0, []float64{2, 2, 2, 2, 2, 2, 2, 2}).Slices {
		s.Instance = "b"
		run.Slices = append(run.Slices, s)
	}
	res, err := Run(run, Options{Config: cvConfig(), Resamples: 200})
	require.NoError(t, err)
	require.Len(t, res.Benchmarks, 2)
	assert.Equal(t, "", res.Benchmarks[0].Instance)
	assert.Equal(t, "b", res.Benchmarks[1].Instance)
	assert.Equal(t, 2.0, res.Benchmarks[1].FullMean)
}

func TestReplayErrors(t *testing.T) {
	_, err := Run(&record.Run{}, Options{Config: cvConfig()})
	assert.Error(t, err)
	bad := cvConfig()
	bad.Measure = 0
	_, err = Run(synthetic(0, []float64{1, 2}), Options{Config: bad})
	assert.Error(t, err)
}

// The paper's configuration on two published JMH benchmarks: a known
// answer that pins the whole pipeline (reader, policy, replay).
func TestReplayJMHSubset(t *testing.T) {
	run, err := dataset.ReadJMH("../../testdata/protostuff-subset.csv")
	require.NoError(t, err)
	want := map[stopper.Criterion][]int{ // iterations used per benchmark
		stopper.CV:   {5, 2},
		stopper.RCIW: {2, 2},
		// Five single-value slices never make two kernel density
		// estimates alike: KLD warmup always runs to WarmupMax.
		stopper.KLD: {5, 5},
	}
	for c, iters := range want {
		res, err := Run(run, Options{Config: stopper.Paper(c), FullWarmup: 50, Resamples: 1000, Seed: 1})
		require.NoError(t, err)
		require.Len(t, res.Benchmarks, 2)
		for i, b := range res.Benchmarks {
			assert.Equal(t, iters[i], len(b.Iterations), "%s %s", c, b.Key.Benchmark)
			assert.Equal(t, 500, b.FullSlices)
			for _, it := range b.Iterations {
				if c == stopper.KLD {
					assert.Equal(t, 50, it.Warmup)
				}
				assert.GreaterOrEqual(t, it.Warmup, 5)
				assert.LessOrEqual(t, it.Warmup, 50)
				assert.Equal(t, 10, it.Measured)
			}
		}
		t.Logf("%s: saved %.3f, change %.4f ± %.4f, same %.2f", c, res.Summary.TimeSaved, res.Summary.MeanChange, res.Summary.SDChange, res.Summary.Same)
	}
}

// TestReplayProcessCosts counts processes in the time saved. The run of
// TestReplayStopsAndSavings replays 2 of 4 iterations of 10 slices, 7
// slices each. Without times and with a process costing 2 slice times,
// full = 4·(10+2) = 48 and dynamic = 2·(7+2) = 18 slice times. With
// times, a first slice of 500 ms (timed from the process start) and the
// others 100 ms: full = 4·1.4 s, dynamic = 2·(0.5 + 6·0.1) s.
func TestReplayProcessCosts(t *testing.T) {
	it := []float64{300, 100, 100, 100, 100, 100, 100, 100, 100, 100}
	run := synthetic(2, it, it, it, it)
	res, err := Run(run, Options{Config: cvConfig(), FullWarmup: -1, Resamples: 200, ProcessCost: 2})
	require.NoError(t, err)
	b := res.Benchmarks[0]
	assert.Equal(t, 14, b.DynSlices)
	assert.InDelta(t, 48, b.FullCost, 1e-12)
	assert.InDelta(t, 18, b.DynCost, 1e-12)
	assert.InDelta(t, 1-18.0/48, res.Summary.TimeSaved, 1e-12)
	assert.False(t, res.Summary.Timed)
	assert.Equal(t, 2.0, res.Summary.ProcessCost)

	for i := range run.Slices {
		run.Slices[i].WallNs = int64(100 * time.Millisecond)
		if run.Slices[i].Slice == 1 {
			run.Slices[i].WallNs = int64(500 * time.Millisecond)
		}
	}
	res, err = Run(run, Options{Config: cvConfig(), FullWarmup: -1, Resamples: 200, ProcessCost: 2})
	require.NoError(t, err)
	b = res.Benchmarks[0]
	assert.Equal(t, 14, b.DynSlices, "the costs the policy sees do not move CV's stops")
	assert.InDelta(t, 5.6, b.FullCost, 1e-9)
	assert.InDelta(t, 2.2, b.DynCost, 1e-9)
	assert.InDelta(t, 1-2.2/5.6, res.Summary.TimeSaved, 1e-9)
	assert.True(t, res.Summary.Timed, "recorded times win over the flag")

	_, err = Run(run, Options{Config: cvConfig(), ProcessCost: -1})
	assert.Error(t, err)
	_, err = Run(run, Options{Config: cvConfig(), ProcessCost: math.NaN()})
	assert.Error(t, err)
}

// TestCostsOf checks the costs a replayed iteration reports, as a live
// run measures them: 7 slices consumed, 4 of them warmup.
func TestCostsOf(t *testing.T) {
	ms := time.Millisecond
	it := record.IterationSample{SuiteRun: 3, Walls: []time.Duration{500 * ms, 100 * ms, 100 * ms, 100 * ms, 100 * ms, 100 * ms, 100 * ms, 100 * ms}}
	c := costsOf(it, 7, 4, 0)
	assert.Equal(t, 3, c.SuiteRun)
	assert.Equal(t, 100*ms, c.SliceCost)
	assert.Equal(t, 800*ms, c.ProcessCost, "start-up and warmup: 500 + 3·100 ms")
	it.Walls = nil
	c = costsOf(it, 7, 4, 2)
	assert.Equal(t, time.Second, c.SliceCost)
	assert.Equal(t, 6*time.Second, c.ProcessCost, "2 slice times and 4 warmup slices")
	c = costsOf(it, 7, 4, 0)
	assert.Zero(t, c.SliceCost, "unknown costs stay zero")
	c = costsOf(it, 4, 4, 2)
	assert.Zero(t, c.SliceCost, "no measurement slice, no slice cost")
}
