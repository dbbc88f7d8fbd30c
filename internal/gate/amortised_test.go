package gate

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// allocRuns returns the runs of one benchmark whose processes counted
// allocs and bytes per op, per slice, in each version.
func allocRuns(oldAllocs, oldBytes, newAllocs, newBytes [][]float64) (*record.Run, *record.Run) {
	old, new := &record.Run{}, &record.Run{}
	addBench(old, "BenchmarkX", "allocs/op", "", oldAllocs)
	addBench(old, "BenchmarkX", "B/op", "", oldBytes)
	addBench(new, "BenchmarkX", "allocs/op", "", newAllocs)
	addBench(new, "BenchmarkX", "B/op", "", newBytes)
	return old, new
}

// byUnit returns the comparisons of res by unit.
func byUnit(t *testing.T, res *Result) map[string]Comparison {
	t.Helper()
	out := map[string]Comparison{}
	for _, c := range res.Comparisons {
		out[c.Unit] = c
	}
	require.Len(t, out, 2)
	return out
}

// repeat returns n processes of the slices row.
func repeat(n int, row ...float64) [][]float64 {
	out := make([][]float64, n)
	for i := range out {
		out[i] = append([]float64(nil), row...)
	}
	return out
}

// TestAmortisedBytesAreNotTheCode is fastjson's Validate/twitter from
// docs/GATE.md, in deterministic counts: b.RunParallel makes about 8
// allocations per call of the benchmark function, which slices of b.N = 2
// to 4 count as 2 to 4 allocs/op in both versions, while their bytes, as
// the runtime reuses goroutines or not, moved from 83 to 97 per op. The
// function allocates nothing per op: the bytes must not read as a
// regression.
func TestAmortisedBytesAreNotTheCode(t *testing.T) {
	// Processes whose goroutines the runtime reused count 54–70 bytes
	// per op, the others 95–115, in both versions; in 40 process pairs,
	// three in four of the new version's processes missed, one in four
	// of the old's.
	low, high := []float64{54, 60, 70, 58, 62}, []float64{100, 108, 115, 95, 104}
	var oldBytes, newBytes, allocs [][]float64
	for k := range 40 {
		o, n := low, low
		if k%4 == 1 {
			o = high
		}
		if k%4 != 0 {
			n = high
		}
		oldBytes, newBytes = append(oldBytes, o), append(newBytes, n)
		allocs = append(allocs, []float64{2, 2, 4, 2, 2})
	}
	r := &record.Run{}
	addRuns(r, "BenchmarkX", "allocs/op", record.VersionBaseline, allocs)
	addRuns(r, "BenchmarkX", "B/op", record.VersionBaseline, oldBytes)
	addRuns(r, "BenchmarkX", "allocs/op", record.VersionHead, allocs)
	addRuns(r, "BenchmarkX", "B/op", record.VersionHead, newBytes)
	old, new := Split(r)
	opts := DefaultOptions()
	opts.Paired = true

	// Without the allocations the bytes come from, their log ratio is
	// read as a regression beyond the threshold.
	alone := one(t, runWithout(old, "allocs/op"), runWithout(new, "allocs/op"), opts)
	require.Equal(t, Regression, alone.Verdict, "the case must be one the interval calls a regression: %s", alone.Note)

	res, err := Runs(old, new, opts)
	require.NoError(t, err)
	cs := byUnit(t, res)
	assert.Equal(t, NoChange, cs["allocs/op"].Verdict)
	b := cs["B/op"]
	assert.Equal(t, Inconclusive, b.Verdict)
	assert.Contains(t, b.Note, "per call, spread over b.N")
	assert.Greater(t, b.Change, 0.15)
}

// TestNoAllocationPerOpIsNoChange: when a slice of each version counted
// fewer than one allocation per op, the code allocates nothing per op in
// either, and bytes that differ by more than one per op are the runtime's.
func TestNoAllocationPerOpIsNoChange(t *testing.T) {
	allocs := repeat(6, 0, 0, 1, 0, 0)
	old, new := allocRuns(allocs, repeat(6, 2, 3, 14, 2, 3), allocs, repeat(6, 4, 5, 30, 4, 5))
	res, err := Runs(old, new, DefaultOptions())
	require.NoError(t, err)
	b := byUnit(t, res)["B/op"]
	assert.Equal(t, NoChange, b.Verdict)
	assert.Contains(t, b.Note, "no allocation per op in either version")
}

// TestAmortisedAllocationsStillShowASizeChange: a benchmark whose one
// allocation per op doubles from 64 to 128 bytes, beside the per-call
// allocations of b.RunParallel, is a regression: every process of the
// new version counts more bytes than every process of the old.
func TestAmortisedAllocationsStillShowASizeChange(t *testing.T) {
	allocs := repeat(6, 3, 3, 5, 3, 3)
	old, new := allocRuns(allocs, repeat(6, 140, 150, 190, 136, 146), allocs, repeat(6, 204, 214, 254, 200, 210))
	res, err := Runs(old, new, DefaultOptions())
	require.NoError(t, err)
	b := byUnit(t, res)["B/op"]
	assert.Equal(t, Regression, b.Verdict)
	assert.Equal(t, MethodSeparated, b.Method)
}

// TestWholeAllocationsKeepTheInterval: allocations that are the same
// whole number per op in every slice are the code's, and a change of
// their bytes is judged by its interval as before.
func TestWholeAllocationsKeepTheInterval(t *testing.T) {
	allocs := repeat(6, 12, 12, 12, 12, 12)
	oldBytes := [][]float64{{700, 720, 690, 710, 705}, {760, 750, 770, 740, 765}, {680, 700, 690, 695, 685}, {730, 720, 740, 735, 725}, {710, 700, 715, 705, 720}, {745, 735, 750, 740, 755}}
	old, new := allocRuns(allocs, oldBytes, allocs, scaled(oldBytes, 1.3))
	res, err := Runs(old, new, DefaultOptions())
	require.NoError(t, err)
	b := byUnit(t, res)["B/op"]
	assert.Equal(t, Regression, b.Verdict)
	assert.NotEqual(t, MethodExact, b.Method)
}

// runWithout returns r without the slices of unit.
func runWithout(r *record.Run, unit string) *record.Run {
	out := &record.Run{Header: r.Header}
	for _, s := range r.Slices {
		if _, ok := s.Values[unit]; !ok {
			out.Slices = append(out.Slices, s)
		}
	}
	return out
}
