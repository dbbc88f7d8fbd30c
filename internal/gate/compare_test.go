package gate

import (
	"bytes"
	"encoding/json"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

func testOptions() Options { return DefaultOptions() }

func one(t *testing.T, old, new *record.Run, opts Options) Comparison {
	t.Helper()
	res, err := Runs(old, new, opts)
	require.NoError(t, err)
	require.Len(t, res.Comparisons, 1)
	return res.Comparisons[0]
}

func TestSlowdownIsRegression(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	base := simulate(rng, 1000, 5, 5, 0.01, 0.01)
	old := runOf("BenchmarkX", base)
	new := runOf("BenchmarkX", scaled(simulate(rng, 1000, 5, 5, 0.01, 0.01), 1.2))
	for _, rule := range []Rule{RuleCI, RuleCIOverlap, RuleUTest} {
		opts := testOptions()
		opts.Rule = rule
		c := one(t, old, new, opts)
		assert.Equal(t, Regression, c.Verdict, rule)
		assert.InDelta(t, 0.2, c.Change, 0.02, rule)
		assert.Equal(t, 25, c.Old.N)
		assert.Equal(t, 5, c.Old.Iterations)
		assert.Less(t, c.P, 0.01, rule)
		assert.Greater(t, c.Ratio.Lo, 1.1)
		assert.Less(t, c.Ratio.Hi, 1.3)
		res, _ := Runs(old, new, opts)
		assert.True(t, res.Failed(FailOn{FailTime}))
		assert.False(t, res.Failed(FailOn{FailAllocs}))
		// The other way round it is an improvement.
		c = one(t, new, old, opts)
		assert.Equal(t, Improvement, c.Verdict, rule)
	}
}

func TestIdenticalIsNoChange(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	vals := simulate(rng, 1000, 5, 5, 0.002, 0.002)
	noisy := simulate(rng, 1000, 5, 5, 0.02, 0.02)
	for _, rule := range []Rule{RuleCI, RuleCIOverlap, RuleUTest} {
		// With a 2% spread between processes, five processes cannot
		// rule out a 3% change even on identical data.
		opts := testOptions()
		opts.Rule = rule
		c := one(t, runOf("BenchmarkX", noisy), runOf("BenchmarkX", noisy), opts)
		assert.Equal(t, Inconclusive, c.Verdict, rule)
		assert.Positive(t, c.More, rule)
	}
	for _, rule := range []Rule{RuleCI, RuleCIOverlap, RuleUTest} {
		opts := testOptions()
		opts.Rule = rule
		c := one(t, runOf("BenchmarkX", vals), runOf("BenchmarkX", vals), opts)
		assert.Equal(t, NoChange, c.Verdict, rule)
		assert.Equal(t, 0.0, c.Change)
		assert.Equal(t, 1.0, c.P, rule)
		assert.True(t, c.Ratio.Contains(1))
	}
}

func TestConstantUnits(t *testing.T) {
	// allocs/op is exact: 3 → 3 is no change, 3 → 4 a regression, 0 →
	// 0 no change and 0 → 2 a regression of unbounded size.
	mk := func(v float64) *record.Run {
		r := &record.Run{}
		addBench(r, "BenchmarkX", "allocs/op", "", [][]float64{{v, v, v}, {v, v, v}})
		return r
	}
	opts := testOptions()
	assert.Equal(t, NoChange, one(t, mk(3), mk(3), opts).Verdict)
	c := one(t, mk(3), mk(4), opts)
	assert.Equal(t, Regression, c.Verdict)
	assert.InDelta(t, 1.0/3, c.Change, 1e-12)
	assert.Equal(t, NoChange, one(t, mk(0), mk(0), opts).Verdict)
	c = one(t, mk(0), mk(2), opts)
	assert.Equal(t, Regression, c.Verdict)
	assert.True(t, math.IsInf(c.Change, 1))
	res, err := Runs(mk(0), mk(2), opts)
	require.NoError(t, err)
	assert.True(t, res.Failed(FailOn{FailAllocs}))
	assert.False(t, res.Failed(FailOn{FailTime, FailBytes}))
	assert.True(t, res.Failed(FailOn{FailAny}))
	var buf bytes.Buffer
	require.NoError(t, res.WriteJSON(&buf, JSONOptions{}))
	assert.True(t, json.Valid(buf.Bytes()))
}

func TestTooFewSamplesIsInconclusive(t *testing.T) {
	// Processes count, not slices: one process of 20 slices is one unit.
	old := runOf("BenchmarkX", [][]float64{{100, 101, 99, 100, 100, 101, 99, 100, 100, 101, 99, 100, 100, 101, 99, 100, 100, 101, 99, 100}})
	new := runOf("BenchmarkX", [][]float64{{200}, {201}, {199}, {200}})
	c := one(t, old, new, testOptions())
	assert.Equal(t, Inconclusive, c.Verdict)
	assert.Equal(t, "too few processes: 1 old, 4 new; need ≥ 2 each", c.Note)
	res, _ := Runs(old, new, testOptions())
	assert.False(t, res.Failed(FailOn{FailAny}))
	assert.True(t, res.Failed(FailOn{FailAny, FailInconclusive}), "a strict gate fails on it")

	assert.Equal(t, 5, MinSamples(0.99))
	assert.Equal(t, 4, MinSamples(0.95))
	assert.Equal(t, 3, MinSamples(0.90))
}

func TestUTestMatchesBenchmath(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	a := simulate(rng, 1000, 8, 1, 0, 0.02)
	b := scaled(simulate(rng, 1000, 8, 1, 0, 0.02), 1.02)
	opts := testOptions()
	opts.Rule = RuleUTest
	opts.Threshold = 0
	opts.Confidence = 0.95
	c := one(t, runOf("BenchmarkX", a), runOf("BenchmarkX", b), opts)
	th := benchmath.Thresholds{CompareAlpha: 0.05}
	// One slice per process: the U test on process means is benchstat's
	// on these values.
	want := benchmath.AssumeNothing.Compare(
		benchmath.NewSample(record.Measurements(seriesOf(a)), &th),
		benchmath.NewSample(record.Measurements(seriesOf(b)), &th))
	assert.Equal(t, want.P, c.P)
	assert.Equal(t, c.P < 0.05, c.Verdict == Regression)
	// The rule's change is that of the medians, as benchstat reports.
	assert.InDelta(t, stats.Median(record.Measurements(seriesOf(b)))/stats.Median(record.Measurements(seriesOf(a)))-1, c.Change, 1e-12)
}

func seriesOf(v [][]float64) []record.IterationSample {
	r := runOf("BenchmarkX", v)
	return r.Series(r.Keys()[0], "ns/op")
}

func TestCorrectionChangesBorderlineVerdict(t *testing.T) {
	// One borderline slowdown among many unchanged benchmarks: alone it
	// is significant at 99%, but not once the other 19 comparisons are
	// accounted for.
	rng := rand.New(rand.NewPCG(7, 8))
	old, new := &record.Run{}, &record.Run{}
	for i := range 20 {
		name := "BenchmarkB" + string(rune('a'+i))
		a := simulate(rng, 1000, 6, 1, 0, 0.01)
		b := simulate(rng, 1000, 6, 1, 0, 0.01)
		if i == 0 {
			// Ranks fully separated: the U test's smallest p for 6
			// against 6, 2/C(12, 6) = 0.0022.
			for j := range a {
				a[j] = []float64{1000 + float64(j)}
				b[j] = []float64{1040 + float64(j)}
			}
		}
		addBench(old, name, "ns/op", "", a)
		addBench(new, name, "ns/op", "", b)
	}
	for _, rule := range []Rule{RuleUTest, RuleCI} {
		opts := testOptions()
		opts.Rule = rule
		res, err := Runs(old, new, opts)
		require.NoError(t, err)
		assert.Equal(t, Regression, res.Comparisons[0].Verdict, rule)
		for _, corr := range []Correction{CorrectionHolm, CorrectionBonferroni} {
			opts.Correction = corr
			res, err = Runs(old, new, opts)
			require.NoError(t, err)
			c := res.Comparisons[0]
			if rule == RuleUTest {
				// Not significant any more, and +4% is outside ±3%:
				// neither a change nor its absence is shown.
				assert.Equal(t, Inconclusive, c.Verdict, "%s %s", rule, corr)
				assert.InDelta(t, 1-0.01/20, c.Confidence, 1e-12)
			} else {
				// The t interval of so clean a 4% shift stays beyond
				// +3% even at the corrected level.
				assert.Equal(t, Regression, c.Verdict, "%s %s", rule, corr)
			}
		}
	}
}

func TestUnitDirection(t *testing.T) {
	assert.Equal(t, -1, Better("ns/op", nil))
	assert.Equal(t, -1, Better("B/op", nil))
	assert.Equal(t, -1, Better("allocs/op", nil))
	assert.Equal(t, 1, Better("MB/s", nil))
	assert.Equal(t, -1, Better("pages/op", nil))
	assert.Equal(t, 0, Better("score", nil))
	meta := benchfmt.UnitMetadataMap{
		{Unit: "score", Key: "better"}: &benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: "score", Key: "better"}, Value: "higher"},
	}
	assert.Equal(t, 1, Better("score", meta))

	// Throughput falling by 20% is a regression.
	rng := rand.New(rand.NewPCG(10, 11))
	old, new := &record.Run{}, &record.Run{}
	addBench(old, "BenchmarkX", "MB/s", "", simulate(rng, 500, 5, 5, 0.01, 0.01))
	addBench(new, "BenchmarkX", "MB/s", "", simulate(rng, 400, 5, 5, 0.01, 0.01))
	c := one(t, old, new, testOptions())
	assert.Equal(t, Regression, c.Verdict)
	assert.Equal(t, 1, c.Better)
	res, _ := Runs(old, new, testOptions())
	assert.False(t, res.Failed(FailOn{FailTime}))
	assert.True(t, res.Failed(FailOn{FailAny}))
	// A unit with no known direction changes but neither regresses nor
	// improves.
	old, new = &record.Run{}, &record.Run{}
	addBench(old, "BenchmarkX", "score", "", simulate(rng, 500, 5, 5, 0.01, 0.01))
	addBench(new, "BenchmarkX", "score", "", simulate(rng, 400, 5, 5, 0.01, 0.01))
	assert.Equal(t, Changed, one(t, old, new, testOptions()).Verdict)
}

func TestThreshold(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	old := runOf("BenchmarkX", simulate(rng, 1000, 5, 5, 0.001, 0.001))
	new := runOf("BenchmarkX", scaled(simulate(rng, 1000, 5, 5, 0.001, 0.001), 1.02))
	opts := testOptions()
	c := one(t, old, new, opts)
	assert.Less(t, c.P, 0.01)
	assert.Equal(t, NoChange, c.Verdict, "a certain 2% change lies inside ±3%: no change")
	opts.Threshold = 0.01
	assert.Equal(t, Regression, one(t, old, new, opts).Verdict)
	opts.Threshold = 0.02
	assert.Equal(t, Inconclusive, one(t, old, new, opts).Verdict, "2% against a 2% threshold straddles it")
}

func TestSplitAndMatching(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 15))
	r := &record.Run{}
	addBench(r, "BenchmarkX", "ns/op", record.VersionBaseline, simulate(rng, 1000, 5, 2, 0.01, 0.01))
	addBench(r, "BenchmarkX", "ns/op", record.VersionHead, scaled(simulate(rng, 1000, 5, 2, 0.01, 0.01), 1.25))
	addBench(r, "BenchmarkGone", "ns/op", record.VersionBaseline, simulate(rng, 1000, 5, 2, 0.01, 0.01))
	addBench(r, "BenchmarkNew", "ns/op", record.VersionHead, simulate(rng, 1000, 5, 2, 0.01, 0.01))
	base, head := Split(r)
	res, err := Runs(base, head, testOptions())
	require.NoError(t, err)
	require.Len(t, res.Comparisons, 1)
	assert.Equal(t, Regression, res.Comparisons[0].Verdict)
	assert.Equal(t, []record.Bench{{Package: "example.com/p", Benchmark: "BenchmarkGone"}}, res.OnlyOld)
	assert.Equal(t, []record.Bench{{Package: "example.com/p", Benchmark: "BenchmarkNew"}}, res.OnlyNew)
}

func TestDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 17))
	old := runOf("BenchmarkX", simulate(rng, 1000, 5, 5, 0.02, 0.01))
	new := runOf("BenchmarkX", simulate(rng, 1000, 5, 5, 0.02, 0.01))
	a, b := one(t, old, new, testOptions()), one(t, old, new, testOptions())
	assert.Equal(t, a, b)
}

func TestBadOptions(t *testing.T) {
	r := runOf("BenchmarkX", [][]float64{{1}})
	for _, o := range []Options{
		{Rule: "nope"}, {Correction: "nope"}, {Confidence: 1}, {Confidence: -0.5}, {Threshold: -1}, {Threshold: math.NaN()}, {MinSamples: 1},
	} {
		_, err := Runs(r, r, o)
		assert.Error(t, err, "%+v", o)
	}
	_, err := ParseFailOn("time,cpu")
	assert.ErrorContains(t, err, `"cpu"`)
	f, err := ParseFailOn("time, allocs,time")
	require.NoError(t, err)
	assert.Equal(t, FailOn{"time", "allocs"}, f)
	assert.False(t, f.Strict())
	f, err = ParseFailOn("inconclusive")
	require.NoError(t, err)
	assert.Equal(t, FailOn{"inconclusive", "time", "allocs"}, f, "verdicts alone apply to the default units")
	assert.True(t, f.Strict())
	f, err = ParseFailOn("regression,inconclusive,bytes")
	require.NoError(t, err)
	assert.Equal(t, FailOn{"inconclusive", "bytes"}, f)
	f, err = ParseFailOn(DefaultFailOn)
	require.NoError(t, err)
	assert.Equal(t, FailOn{"time", "allocs"}, f)
}
