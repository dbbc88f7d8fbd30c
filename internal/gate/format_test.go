package gate

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// A comparison cut short leaves many benchmarks with too few processes:
// past ten, the inconclusive list counts them in one line, and still
// names each one that was measured.
func TestInconclusiveTooFewCounted(t *testing.T) {
	r := &Result{Rule: RuleCI, Threshold: 0.03, Confidence: 0.99}
	for i := range 12 {
		r.Comparisons = append(r.Comparisons, Comparison{Benchmark: fmt.Sprintf("BenchmarkFew%d", i), Unit: "sec/op",
			Verdict: Inconclusive, tooFew: true, Note: "too few processes: 1 old, 1 new; need ≥ 2 each", Ratio: nanInterval(0.99), Change: math.NaN()})
	}
	r.Comparisons = append(r.Comparisons, Comparison{Benchmark: "BenchmarkWide", Unit: "sec/op", Verdict: Inconclusive,
		Change: 0.04, Ratio: stats.Interval{Center: 1.04, Lo: 0.99, Hi: 1.09, Confidence: 0.99}, Detectable: 0.05, More: 7, Method: MethodWelch})
	var b strings.Builder
	r.writeInconclusive(&b, "  ")
	out := b.String()
	assert.Contains(t, out, "BenchmarkWide sec/op")
	assert.Contains(t, out, "12 more (benchmark, unit) pairs had too few processes to judge (too few processes: 1 old, 1 new; need ≥ 2 each, …); the table above lists each")
	assert.NotContains(t, out, "BenchmarkFew3")

	r.Comparisons = r.Comparisons[:12]
	b.Reset()
	r.writeInconclusive(&b, "  ")
	assert.Contains(t, b.String(), "  12 (benchmark, unit) pairs had too few processes")

	r.Comparisons = r.Comparisons[10:]
	b.Reset()
	r.writeInconclusive(&b, "  ")
	assert.Contains(t, b.String(), "BenchmarkFew11 sec/op; too few processes: 1 old, 1 new; need ≥ 2 each")
}

// A run interrupted after one duet per benchmark has nothing to judge,
// and its comparison still names the design it ran: slice by slice.
func TestOneDuetStillSlicePaired(t *testing.T) {
	old, head := &record.Run{}, &record.Run{}
	addBench(old, "BenchmarkX", "sec/op", "", [][]float64{{1, 1.1, 0.9}})
	addBench(head, "BenchmarkX", "sec/op", "", [][]float64{{1, 1.2, 0.8}})
	for _, r := range []*record.Run{old, head} {
		for i := range r.Slices {
			r.Slices[i].Turn = 2*i + 1
		}
	}
	o := DefaultOptions()
	o.Paired = true
	res, err := Runs(old, head, o)
	require.NoError(t, err)
	require.Len(t, res.Comparisons, 1)
	assert.True(t, res.SlicePaired)
	assert.Contains(t, res.ruleLine(), "slice by slice in process pairs")
}

// Two process pairs give a t interval of one degree of freedom, whose
// limits and detectable change print as hundreds of digits after a
// correction for many comparisons: the comparison says it has too few
// pairs to bound the change instead, and shows no interval.
func TestTwoPairsNotBounded(t *testing.T) {
	old, head := &record.Run{}, &record.Run{}
	addBench(old, "BenchmarkX", "sec/op", "", [][]float64{{1, 1.1, 0.9}, {1, 1.05, 0.95}})
	addBench(head, "BenchmarkX", "sec/op", "", [][]float64{{1.01, 1.2, 0.8}, {0.9, 1.1, 1}})
	for _, r := range []*record.Run{old, head} {
		for i := range r.Slices {
			r.Slices[i].Turn = 2*i + 1
		}
	}
	o := DefaultOptions()
	o.Paired = true
	o.Correction = CorrectionBonferroni
	res, err := Runs(old, head, o)
	require.NoError(t, err)
	require.Len(t, res.Comparisons, 1)
	c := res.Comparisons[0]
	require.Equal(t, MethodSlicePaired, c.Method)
	assert.Equal(t, Inconclusive, c.Verdict)
	assert.True(t, math.IsNaN(c.Ratio.Lo) && math.IsNaN(c.Ratio.Hi), "no interval: %+v", c.Ratio)
	assert.Zero(t, c.Detectable)
	assert.Equal(t, "too few process pairs to bound: 2; need ≥ 3", c.Note)

	var b strings.Builder
	require.NoError(t, res.WriteText(&b))
	out := b.String()
	assert.Contains(t, out, "BenchmarkX (example.com/p) sec/op; too few process pairs to bound")
	assert.NotContains(t, out, "±", "two processes per version bound no mean either")
	assert.NotContains(t, out, "detects")
	assert.NotContains(t, out, "[")

	// From three pairs on, the interval is printed.
	addBench(old, "BenchmarkX", "sec/op", "", [][]float64{{1, 1, 1}})
	addBench(head, "BenchmarkX", "sec/op", "", [][]float64{{1, 1.1, 0.95}})
	for _, r := range []*record.Run{old, head} {
		for i := range r.Slices {
			r.Slices[i].Turn = 2*i + 1
			if i >= 6 {
				r.Slices[i].Iteration = 3
			}
		}
	}
	res, err = Runs(old, head, o)
	require.NoError(t, err)
	c = res.Comparisons[0]
	require.Equal(t, 3, c.Units)
	assert.False(t, math.IsNaN(c.Ratio.Hi))
	assert.NotContains(t, c.Note, "to bound")

	// At a level corrected for many comparisons, three spread pairs give
	// limits of dozens of digits: still too few to bound.
	o.Confidence = 1 - 1e-7
	res, err = Runs(old, head, o)
	require.NoError(t, err)
	c = res.Comparisons[0]
	require.Equal(t, Inconclusive, c.Verdict)
	assert.True(t, math.IsNaN(c.Ratio.Hi), "no interval: %+v", c.Ratio)
	assert.Regexp(t, `^too few process pairs to bound: 3; need ≥ \d+$`, c.Note)
}
