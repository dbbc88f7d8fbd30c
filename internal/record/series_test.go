package record_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/record"
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
