package apiscore

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/fakebin"
	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// newFakePair stands in for the test binaries of the two versions: every
// slice of binary bin takes nsPerOp[bin] × a deterministic wobble of
// ±1% on a clock that moves only when a slice runs.
func newFakePair(nsPerOp map[string]float64) *fakebin.Binaries {
	return &fakebin.Binaries{Clock: fakebin.NewClock(), Names: []string{"BenchmarkX"}, NsPerOp: func(s fakebin.Slice) float64 {
		return nsPerOp[s.Binary] * (1 + 0.01*math.Sin(float64(s.Index+1)))
	}}
}

// runFakePair runs one benchmark whose slowed version takes ratio times
// the unchanged one's time, judged by rule at threshold, capped at 10
// suite runs.
func runFakePair(t *testing.T, rule Rule, ratio, threshold float64) (Verdict, []BenchResult, *fakebin.Binaries) {
	t.Helper()
	f := newFakePair(map[string]float64{"base.test": 1000, "head.test": 1000 * ratio})
	bench := func(bin, version string) *rmit.Benchmark {
		p := &rmit.Package{ImportPath: "example.com/p", Dir: ".", Binary: bin, Version: version}
		b := rmit.NewBenchmark(p, "BenchmarkX", 1, true)
		b.N, b.Config = 10000, rmit.Config{SuiteRuns: DefaultSuiteRuns, Iterations: 1}
		return b
	}
	base, head := bench("base.test", record.VersionBaseline), bench("head.test", record.VersionHead)
	o := pairRunOptions(rule, stopper.Default(stopper.Interval), threshold, DefaultSuiteRuns)
	o.Seed, o.SliceTime, o.Starter, o.Clock = 1, 10*time.Millisecond, f, f.Clock.Now
	res, baseRun, failed, err := pairRun(context.Background(), []*rmit.Benchmark{base}, []*rmit.Benchmark{head}, o)
	require.NoError(t, err)
	require.Zero(t, failed)
	require.NotEmpty(t, baseRun.Slices)
	v, rs := Judge(res.Comparisons, true)
	return v, rs, f
}

// Under the gate a slowdown far beyond the threshold, and a change far
// inside it, are both decided at the plan's first look: the pair stops
// after 5 of its 10 suite runs.
func TestPairGateStopsOnceDecided(t *testing.T) {
	v, rs, f := runFakePair(t, RuleGate, 10, 4.5)
	assert.Equal(t, Detected, v)
	require.Len(t, rs, 1)
	assert.Equal(t, gate.Regression, rs[0].Verdict)
	assert.InDelta(t, 9, rs[0].Change, 0.1)
	assert.Equal(t, gate.DefaultFirstLook, rs[0].Iterations)
	assert.Equal(t, map[string]int{"base.test": 5, "head.test": 5}, f.Binaries())

	v, rs, f = runFakePair(t, RuleGate, 1.002, 4.5)
	assert.Equal(t, NotDetected, v)
	assert.Equal(t, gate.NoChange, rs[0].Verdict)
	assert.Equal(t, map[string]int{"base.test": 5, "head.test": 5}, f.Binaries())
}

// A pair whose interval straddles the threshold runs on to the cap and
// is inconclusive: here a 10% change against a threshold of 10%.
func TestPairGateRunsUndecidedToCap(t *testing.T) {
	v, rs, f := runFakePair(t, RuleGate, 1.1, 0.1)
	assert.Equal(t, Inconclusive, v)
	assert.Equal(t, gate.Inconclusive, rs[0].Verdict)
	assert.Equal(t, map[string]int{"base.test": DefaultSuiteRuns, "head.test": DefaultSuiteRuns}, f.Binaries())
}

// The published rule needs 5 processes per version (its rank-sum test
// cannot reject with fewer) and then detects a large slowdown.
func TestPairPaperRule(t *testing.T) {
	v, rs, f := runFakePair(t, RulePaper, 10, 4.5)
	assert.Equal(t, Detected, v)
	assert.Equal(t, gate.Regression, rs[0].Verdict)
	assert.GreaterOrEqual(t, f.Starts("base.test"), MinSuiteRuns)
}

func TestParseRule(t *testing.T) {
	for _, s := range []string{"gate", "paper"} {
		r, err := ParseRule(s)
		require.NoError(t, err)
		assert.Equal(t, Rule(s), r)
	}
	_, err := ParseRule("utest")
	assert.ErrorContains(t, err, `unknown rule "utest"`)
}

func TestPairRunOptions(t *testing.T) {
	o := pairRunOptions(RuleGate, stopper.Default(stopper.Interval), 0.5, 10)
	assert.True(t, o.Pair.Compare.Paired)
	assert.Equal(t, []int{5, 8, 10}, o.Pair.Compare.Plan.Looks)
	assert.Equal(t, 0.5, o.Pair.Compare.Threshold)
	assert.Equal(t, gate.RuleCI, o.Pair.Compare.Rule)
	require.True(t, o.Pair.Judged)
	var paired rmit.Paired
	session.JudgePaired(&paired, o.Pair)
	base := [][]float64{{100}, {101}, {99}, {100}, {100}}
	head := [][]float64{{1000}, {1010}, {990}, {1000}, {1001}}
	assert.Equal(t, record.ReasonSettled, paired.Judge(base, head), "a tenfold change at the first look")
	assert.Empty(t, paired.Judge(base[:4], head[:4]), "4 is not a look")

	o = pairRunOptions(RulePaper, stopper.Default(stopper.Interval), 0.5, 10)
	assert.Equal(t, gate.RuleUTest, o.Pair.Compare.Rule)
	assert.False(t, o.Pair.Judged)
	assert.Equal(t, MinSuiteRuns, o.Stop.MinIterations)
}
