package gate

import (
	"fmt"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"math"
	"testing"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// perRun gives each version one process of one slice per suite run: base
// 100 throughout, head 100·e^d.
func perRun(d []float64) ([][]float64, [][]float64) {
	var base, head [][]float64
	for _, x := range d {
		base = append(base, []float64{100})
		head = append(head, []float64{100 * math.Exp(x)})
	}
	return base, head
}

func pairedOptions() Options {
	o := DefaultOptions()
	o.Paired = true
	return o
}

// The paired interval by hand: d = 0.10, 0.12, 0.08, 0.10 has mean 0.1,
// sd 0.016330 and standard error 0.0081650; t(3, 0.995) = 5.840909, so the
// log interval is 0.1 ± 0.047690 and the ratio interval
// [e^0.052310, e^0.147690] = [1.053701, 1.159154].
func TestPairedKnownAnswer(t *testing.T) {
	old, new := pairedRuns(perRun([]float64{0.10, 0.12, 0.08, 0.10}))
	c := one(t, old, new, pairedOptions())
	assert.Equal(t, MethodPaired, c.Method)
	assert.Equal(t, 4, c.Units)
	assert.InDelta(t, 1.105171, c.Ratio.Center, 1e-6)
	assert.InDelta(t, 1.053701, c.Ratio.Lo, 1e-6)
	assert.InDelta(t, 1.159154, c.Ratio.Hi, 1e-6)
	assert.Equal(t, Regression, c.Verdict, "the whole interval lies beyond +3%")

	// Against a 6% threshold it straddles: the half-width 0.04769 on the
	// log scale makes 1.06·e^0.04769 − 1 = 11.18% the smallest change
	// this could have shown, and at 5 pairs t(4, 0.995)·0.016330/√5 =
	// 0.03362 < 0.1 − ln 1.06 = 0.04173: one more pair would settle it.
	o := pairedOptions()
	o.Threshold = 0.06
	c = one(t, old, new, o)
	assert.Equal(t, Inconclusive, c.Verdict)
	assert.InDelta(t, 0.1118, c.Detectable, 1e-4)
	assert.Equal(t, 1, c.More)
	assert.Contains(t, c.Note, "about 1 more paired suite runs would settle it")

	// The mirror image is an improvement.
	old, new = pairedRuns(perRun([]float64{-0.10, -0.12, -0.08, -0.10}))
	assert.Equal(t, Improvement, one(t, old, new, pairedOptions()).Verdict)

	// A tight interval around 1 is no change.
	old, new = pairedRuns(perRun([]float64{0.001, -0.001, 0.002, -0.002}))
	assert.Equal(t, NoChange, one(t, old, new, pairedOptions()).Verdict)

	// Centered on 1 but wide: d = ±0.03, ±0.02 has sd 0.029439; the
	// interval must shrink below ln 1.03 = 0.029559, which t(n−1, 0.995)
	// ·0.029439/√n first does at n = 11 (1.0277 at 10, 0.9556 at 11 in
	// units of the sd ratio): 7 more pairs.
	old, new = pairedRuns(perRun([]float64{0.03, -0.03, 0.02, -0.02}))
	c = one(t, old, new, pairedOptions())
	assert.Equal(t, Inconclusive, c.Verdict)
	assert.Equal(t, 7, c.More)
}

// Welch by hand: both versions have log process means spread ±0.01 around
// their centers, so each variance is 0.0001, the standard error
// √(2·0.0001/3) = 0.0081650 with 4 degrees of freedom, t(4, 0.995) =
// 4.604095, and the interval e^(ln 1.1 ± 0.037592) = [1.059416, 1.142139].
func TestWelchKnownAnswer(t *testing.T) {
	mk := func(mu float64) [][]float64 {
		return [][]float64{{mu * math.Exp(-0.01)}, {mu}, {mu * math.Exp(0.01)}}
	}
	c := one(t, runOf("BenchmarkX", mk(100)), runOf("BenchmarkX", mk(110)), DefaultOptions())
	assert.Equal(t, MethodWelch, c.Method)
	assert.InDelta(t, 1.1, c.Ratio.Center, 1e-9)
	assert.InDelta(t, 1.059416, c.Ratio.Lo, 1e-6)
	assert.InDelta(t, 1.142139, c.Ratio.Hi, 1e-6)
	assert.Equal(t, Regression, c.Verdict)
}

// A ratio interval never reaches −100%, however wild the data: the
// interval that used to print [-106.82%, +736.88%] stays positive, and
// once it spans more than ten times either way it is not printed at all:
// three processes per version are too few to bound the change, and the
// note says about how many would.
func TestRatioNeverBelowMinus100(t *testing.T) {
	old := runOf("BenchmarkX", [][]float64{{100}, {5}, {300}})
	new := runOf("BenchmarkX", [][]float64{{900}, {10}, {200}})
	o := DefaultOptions()
	o.Confidence = 0.5
	c := one(t, old, new, o)
	assert.Greater(t, c.Ratio.Lo, 0.0)
	assert.Greater(t, c.Ratio.Hi, c.Ratio.Lo)
	assert.Equal(t, Inconclusive, c.Verdict)
	assert.Positive(t, c.More)

	c = one(t, old, new, DefaultOptions())
	assert.Equal(t, Inconclusive, c.Verdict)
	assert.True(t, math.IsNaN(c.Ratio.Lo) && math.IsNaN(c.Ratio.Hi), "no interval: %+v", c.Ratio)
	var need int
	_, err := fmt.Sscanf(c.Note, "too few processes per version to bound: 3; need ≥ %d", &need)
	require.NoError(t, err, c.Note)
	assert.Greater(t, need, 50, "so wild a spread needs many more processes")
}

// Drift that hits both versions of a suite run cancels in the paired
// analysis: each suite run runs 10% faster or slower than the last, both
// versions alike, and the head is 5% slower. Paired, the slowdown is
// certain; unpaired, the drift swamps it.
func TestPairingCancelsDrift(t *testing.T) {
	var base, head [][]float64
	for k := range 8 {
		drift := 1 + 0.1*float64(k%3-1)
		jit := 1 + 0.002*float64(k%2)
		base = append(base, []float64{100 * drift})
		head = append(head, []float64{105 * drift * jit})
	}
	old, new := pairedRuns(base, head)
	c := one(t, old, new, pairedOptions())
	assert.Equal(t, Regression, c.Verdict)
	c = one(t, old, new, DefaultOptions())
	assert.Equal(t, MethodWelch, c.Method)
	assert.Equal(t, Inconclusive, c.Verdict)

	// One suite run of several processes a version has nothing to pair:
	// the paired comparison falls back to Welch's.
	r := &record.Run{}
	addBench(r, "BenchmarkX", "ns/op", record.VersionBaseline, [][]float64{{100}, {101}, {99}})
	addBench(r, "BenchmarkX", "ns/op", record.VersionHead, [][]float64{{120}, {121}, {119}})
	old, new = Split(r)
	c = one(t, old, new, pairedOptions())
	assert.Equal(t, MethodWelch, c.Method)
	assert.Equal(t, Regression, c.Verdict)
}

// Allocation counts are exact: a change is a verdict whatever the
// threshold and however inconclusive the time is.
func TestExactAllocsBesideInconclusiveTime(t *testing.T) {
	r := struct{ old, new *record.Run }{&record.Run{}, &record.Run{}}
	addBench(r.old, "BenchmarkX", "ns/op", "", [][]float64{{100}, {150}, {70}})
	addBench(r.new, "BenchmarkX", "ns/op", "", [][]float64{{110}, {60}, {140}})
	addBench(r.old, "BenchmarkX", "allocs/op", "", [][]float64{{3}, {3}, {3}})
	addBench(r.new, "BenchmarkX", "allocs/op", "", [][]float64{{4}, {4}, {4}})
	addBench(r.old, "BenchmarkX", "B/op", "", [][]float64{{1000}, {1000}, {1000}})
	addBench(r.new, "BenchmarkX", "B/op", "", [][]float64{{1010}, {1010}, {1010}})
	o := DefaultOptions()
	o.Threshold = 0.5
	res, err := Runs(r.old, r.new, o)
	require.NoError(t, err)
	byUnit := map[string]Comparison{}
	for _, c := range res.Comparisons {
		byUnit[c.Unit] = c
	}
	assert.Equal(t, Inconclusive, byUnit["ns/op"].Verdict)
	a := byUnit["allocs/op"]
	assert.Equal(t, Regression, a.Verdict, "one more allocation per op counts even under a 50% threshold")
	assert.Equal(t, MethodExact, a.Method)
	assert.Equal(t, "exact: 3 → 4 in every process", a.Note)
	assert.Equal(t, NoChange, byUnit["B/op"].Verdict, "a 1% change of B/op is inside the 50% threshold")
	assert.True(t, res.Failed(FailOn{FailTime, FailAllocs}))
	assert.False(t, res.Failed(FailOn{FailTime}))
	assert.True(t, res.Failed(FailOn{FailTime, FailInconclusive}))

	// A stray allocation amortized over b.N moves B/op by less than the
	// one byte go test can print: no change, not an unmeasurable ratio.
	r = struct{ old, new *record.Run }{&record.Run{}, &record.Run{}}
	addBench(r.old, "BenchmarkX", "B/op", "", [][]float64{{0}, {0}, {1}})
	addBench(r.new, "BenchmarkX", "B/op", "", [][]float64{{0}, {2}, {0}})
	c := one(t, r.old, r.new, o)
	assert.Equal(t, NoChange, c.Verdict)
	assert.Equal(t, "below the resolution of one per op: 0.333 → 0.667", c.Note)
}

// TestTrimmedIntervalKnownAnswer: ten pair log ratios 0.01…0.09 and one
// outlier of 0.50. With 20% trimmed (two at each end), the trimmed mean is
// that of 0.03…0.08, 0.055; the winsorized sample 0.03 ×3, 0.04…0.07,
// 0.08 ×3 has variance 0.00425/9, which divided by 0.6² and by 10 gives
// se² = 0.000131173 on 10 − 4 − 1 = 5 degrees of freedom. That interval is
// the narrower, so at level 0.01 the interval is 0.055 ± t(5, 0.9975)·se.
// The p-values are scipy's (1.17):
//
//	d = np.array([0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.50])
//	stats.ttest_1samp(d, 0).pvalue                 # 0.06757162682847088
//	se = stats.mstats.trimmed_stde(d, limits=(0.2, 0.2))
//	2*stats.t.sf(stats.trim_mean(d, 0.2)/se, 5)    # 0.004874169909084174
//
// and the comparison's is Bonferroni's over the two, 2 × 0.0048741699.
func TestTrimmedIntervalKnownAnswer(t *testing.T) {
	d := []float64{0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.50}
	lr := pairedOf(d)
	require.NotNil(t, lr.trimmed)
	tr := *lr.trimmed
	assert.InDelta(t, 0.055, tr.mean, 1e-12)
	assert.InDelta(t, math.Sqrt(0.00425/9/0.36/10), tr.se, 1e-12)
	assert.Equal(t, 5.0, tr.df)
	assert.InDelta(t, 0.095, lr.mean, 1e-12, "the plain mean is pulled by the outlier")
	assert.InDelta(t, 0.004874169909084174, tr.p, 1e-12)
	assert.InDelta(t, 0.06757162682847088, tInterval(d).p, 1e-12, "the plain t-test")
	assert.InDelta(t, 2*0.004874169909084174, lr.p, 1e-12, "p is Bonferroni's over the two")

	h := stats.TCritical(0.005, 5) * math.Sqrt(0.00425/9/0.36/10)
	center, lo, hi := lr.interval(0.01)
	assert.InDelta(t, math.Exp(0.055), center, 1e-12)
	assert.InDelta(t, math.Exp(0.055-h), lo, 1e-12)
	assert.InDelta(t, math.Exp(0.055+h), hi, 1e-12)
	assert.InDelta(t, h, lr.halfWidth(0.01), 1e-12)
}

// TestTrimmedIntervalOnlyWhenNarrower: on pairs with no outlier the t
// interval of the mean is the narrower at half the level, and is kept;
// with fewer than MinTrimmedPairs pairs there is no trimmed form and the
// t interval is taken at the full level.
func TestTrimmedIntervalOnlyWhenNarrower(t *testing.T) {
	d := []float64{0.01, -0.01, 0.02, -0.02, 0.005, -0.005, 0.015, -0.015, 0.0, 0.012}
	lr := pairedOf(d)
	require.NotNil(t, lr.trimmed)
	plain := tInterval(d)
	assert.InDelta(t, stats.TCritical(0.005, plain.df)*plain.se, lr.halfWidth(0.01), 1e-15)
	assert.Less(t, lr.halfWidth(0.01), lr.trimmed.width(0.005))

	few := pairedOf(d[:MinTrimmedPairs-1])
	assert.Nil(t, few.trimmed)
	assert.InDelta(t, stats.TCritical(0.01, few.df)*few.se, few.halfWidth(0.01), 1e-15)
}

// TestTrimmedComparisonSaysSo: a paired comparison whose interval is the
// trimmed mean's is marked Trimmed, centred on it, and its note says which
// pairs were set aside.
func TestTrimmedComparisonSaysSo(t *testing.T) {
	d := []float64{0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.50}
	c := &Comparison{Method: MethodPaired, lr: pairedOf(d), d: d}
	opts := DefaultOptions()
	opts.Paired = true
	verdict(c, 0.01, true, opts)
	assert.True(t, c.Trimmed)
	assert.InDelta(t, math.Expm1(0.055), c.Change, 1e-12)
	assert.Contains(t, c.Note, "the 2 lowest and 2 highest of 10 paired suite runs set aside")
}
