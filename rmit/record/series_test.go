package record_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// TestSeriesWalls lines each iteration's slice walls up with Warmup then
// Values, whatever order the slices come in, and leaves them nil when the
// recording has no times.
func TestSeriesWalls(t *testing.T) {
	ms := int64(time.Millisecond)
	slice := func(it, sl int, warm bool, v float64, wall int64) record.Slice {
		return record.Slice{Package: "p", Benchmark: "BenchmarkX", SuiteRun: 1, Iteration: it, Slice: sl, Warmup: warm,
			N: 1, Values: map[string]float64{"ns/op": v}, WallNs: wall}
	}
	run := &record.Run{Slices: []record.Slice{
		slice(2, 1, true, 20, 400*ms), slice(1, 1, true, 10, 300*ms), slice(1, 2, false, 11, 100*ms),
		slice(2, 2, false, 21, 110*ms), slice(1, 3, false, 12, 120*ms),
	}}
	k := run.Keys()[0]
	s := run.Series(k, "ns/op")
	require.Len(t, s, 2)
	assert.Equal(t, []float64{11, 12}, s[0].Values)
	assert.Equal(t, []time.Duration{300 * time.Millisecond, 100 * time.Millisecond, 120 * time.Millisecond}, s[0].Walls)
	assert.Equal(t, []time.Duration{400 * time.Millisecond, 110 * time.Millisecond}, s[1].Walls)

	run.Slices[3].WallNs = 0
	for _, it := range run.Series(k, "ns/op") {
		assert.Nil(t, it.Walls, "one untimed slice: the recording has no times")
	}
}

// A duet worker's measured slices merge into one line of all their
// operations: N-weighted means, summed N and wall time; warmup slices
// and iterations that ran alone stay as they are.
func TestWithDuetsMerged(t *testing.T) {
	s := func(it, slice, turn int, warm bool, n int64, ns float64) record.Slice {
		return record.Slice{Benchmark: "BenchmarkA", SuiteRun: 1, Iteration: it, Slice: slice, Turn: turn, Warmup: warm, N: n,
			Values: map[string]float64{"ns/op": ns, "B/op": 2 * ns}, WallNs: n * int64(ns)}
	}
	r := &record.Run{Slices: []record.Slice{
		s(1, 1, 0, true, 100, 50),
		s(1, 2, 1, false, 100, 10),
		s(1, 3, 4, false, 300, 20),
		s(2, 1, 0, false, 10, 7),
	}}
	m := r.WithDuetsMerged()
	require.Len(t, m.Slices, 3)
	assert.Equal(t, r.Slices[0], m.Slices[0], "warmup as it was")
	merged := m.Slices[1]
	assert.Equal(t, int64(400), merged.N)
	assert.InDelta(t, (100*10+300*20)/400.0, merged.Values["ns/op"], 1e-12)
	assert.InDelta(t, 2*(100*10+300*20)/400.0, merged.Values["B/op"], 1e-12)
	assert.Equal(t, int64(100*10+300*20), merged.WallNs)
	assert.Zero(t, merged.Turn)
	assert.Equal(t, r.Slices[3], m.Slices[2], "an iteration that ran alone as it was")
	assert.Equal(t, 20.0, r.Slices[2].Values["ns/op"], "the run itself is left alone")
	plain := &record.Run{Slices: []record.Slice{s(2, 1, 0, false, 10, 7)}}
	assert.Same(t, plain, plain.WithDuetsMerged())

	// Turns of 4 allocs/op each merge to 4 exactly, and a metric that
	// only the last turn reports (b.ReportMetric after a b.Loop loop) to
	// its own value, not one diluted by the turns without it.
	var turns []record.Slice
	for i, n := range []int64{36896, 29978, 29978, 29978, 12345} {
		turns = append(turns, record.Slice{Benchmark: "BenchmarkT", SuiteRun: 1, Iteration: 1, Slice: i + 1, Turn: i + 1, N: n,
			Values: map[string]float64{"allocs/op": 4, "ns/op": 305.4}})
	}
	turns[4].Values["frames/op"] = 3
	merged = (&record.Run{Slices: turns}).WithDuetsMerged().Slices[0]
	assert.Equal(t, 4.0, merged.Values["allocs/op"])
	assert.Equal(t, 3.0, merged.Values["frames/op"])
}
