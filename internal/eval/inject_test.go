package main

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

func TestBenchstatVerdict(t *testing.T) {
	base := []float64{100, 101, 99, 100, 102, 98, 100, 101, 99, 100}
	slow := make([]float64, len(base))
	fast := make([]float64, len(base))
	for i, v := range base {
		slow[i], fast[i] = v*1.25, v*0.8
	}
	assert.Equal(t, "regression", benchstatVerdict(base, slow))
	assert.Equal(t, "improvement", benchstatVerdict(base, fast))
	assert.Equal(t, "~", benchstatVerdict(base, base))
	// Three values a side can never reach p < 0.05 with the U test
	// (the smallest two-sided p is 0.1), so benchstat says "~".
	assert.Equal(t, "~", benchstatVerdict([]float64{1, 1.01, 0.99}, []float64{2, 2.01, 1.99}))
}

func TestParseFactors(t *testing.T) {
	fs, err := parseFactors("0, 0.10,0.25")
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 0.10, 0.25}, fs)
	for _, bad := range []string{"", "x", "-0.1", "10", "0,,1"} {
		_, err := parseFactors(bad)
		assert.Error(t, err, bad)
	}
}

func TestTargetAffects(t *testing.T) {
	tg := injectSuites["toml"].targets[0]
	assert.True(t, tg.affects("BenchmarkUnmarshal/ReferenceFile/struct"))
	assert.True(t, tg.affects("Unmarshal/ReferenceFile/map"))
	assert.False(t, tg.affects("BenchmarkMarshal/ReferenceFile/map"))
	mean := injectSuites["stat"].targets[0]
	assert.True(t, mean.affects("BenchmarkMeanLarge"))
	assert.False(t, mean.affects("BenchmarkMeanLargeWeighted"), "a control, though its name begins alike")
	assert.Equal(t, "BenchmarkX/y", trimProcs("BenchmarkX/y-8"))
	assert.Equal(t, "BenchmarkX/a-b", trimProcs("BenchmarkX/a-b"))
}

func TestInjectTallyTable(t *testing.T) {
	tally := newInjectTally()
	aa, slow := injectKey{"toml", "Unmarshal", 0}, injectKey{"toml", "Unmarshal", 0.10}
	// A/A: one false alarm of four for the slice-paired gate.
	for _, v := range []string{"no change", "no change", "inconclusive", "improvement"} {
		tally.add(aa, wfSlice, true, v)
	}
	for range 4 {
		tally.add(aa, wfProcess, true, "inconclusive")
		tally.add(aa, wfBenchstat, true, "~")
	}
	// +10%: slice finds 3 of 4, process 1 of 4, benchstat 2 of 4 and
	// one the wrong way.
	for _, v := range []string{"regression", "regression", "regression", "inconclusive"} {
		tally.add(slow, wfSlice, true, v)
	}
	for _, v := range []string{"regression", "inconclusive", "inconclusive", "inconclusive"} {
		tally.add(slow, wfProcess, true, v)
	}
	for _, v := range []string{"regression", "regression", "~", "improvement"} {
		tally.add(slow, wfBenchstat, true, v)
	}
	// Before confirmation, the looks had found the fourth too, on
	// pairs that did not confirm it.
	for _, v := range []string{"regression", "regression", "regression", "regression"} {
		tally.add(slow, wfDiscovery, true, v)
	}
	tally.addPairs(slow, wfSlice, 46)
	tally.addPairs(slow, wfDiscovery, 40)
	tally.add(slow, wfSlice, false, "no change")
	tally.add(slow, wfBenchstat, false, "~")
	for range 4 {
		tally.addTime(slow, wfSlice, 3*time.Second)
		tally.addTime(slow, wfProcess, 5*time.Second)
	}
	for range 2 {
		tally.addTime(slow, wfBenchstat, 10*time.Second)
	}
	tally.addSpread(slow, wfSlice, 0.02)
	tally.addSpread(slow, wfSlice, 0.04)
	tally.addSpread(slow, wfProcess, 0.12)
	suites := []injectSuite{injectSuites["toml"]}
	lines := strings.Split(strings.TrimSpace(tally.table(suites)), "\n")
	require.Len(t, lines, 5, tally.table(suites))
	assert.Equal(t, "| toml | Unmarshal (CPU-bound) | +10% | 3/4 · 0/4 · 0/4 · 1/4 | 4/4 · 0/4 · 0/4 · 0/4 | 1/4 · 0/4 · 0/4 · 3/4 | 2/4 · 1/4 · 1/4 | 3.0% / 12.0% | 3.0 / 5.0 / 10.0 s | 0.30× |", lines[3])
	goals := tally.goals(suites)
	assert.Contains(t, goals, "| +10% found, CPU-bound (≥ 98%) | 3/4 = 75% | 4/4 = 100% | 1/4 = 25% | 2/4 = 50% |")
	assert.Contains(t, goals, "| A/A (the same code): called no change at ±3% (≥ 90%) | 2/4 = 50% |")
	assert.Contains(t, goals, "| A/A: called a change (≤ 1%) | 1/4 = 25% |")
	assert.Contains(t, goals, "| controls (the same source in a rebuilt binary): no change | 1/1 = 100% |")
	assert.Contains(t, goals, "0.30× (6 s : 20 s)", "over the runs go test made")
	assert.Contains(t, goals, "| process pairs, every benchmark (confirmation: ≤ 1.15×) | 46 (1.15×) | 40 | 0 | |")
}

// TestDiscovered reads a verdict as the looks found it: a change the
// fresh pairs did not confirm is the change found; a confirmed one, or one
// without a confirmation, is as judged.
func TestDiscovered(t *testing.T) {
	c := gate.Comparison{Unit: "ns/op", Better: -1, Verdict: gate.Inconclusive, Look: 8, Units: 8,
		Ratio:        stats.Interval{Center: 1.12, Lo: 1.05, Hi: 1.2},
		Confirmation: &gate.Confirmation{Pairs: 8}}
	assert.Equal(t, gate.Regression, discovered(c).Verdict)
	c.Ratio.Center = 0.9
	assert.Equal(t, gate.Improvement, discovered(c).Verdict)
	c.Confirmation.Confirmed, c.Verdict = true, gate.Improvement
	assert.Equal(t, gate.Improvement, discovered(c).Verdict)
	c.Confirmation, c.Verdict = nil, gate.NoChange
	assert.Equal(t, gate.NoChange, discovered(c).Verdict)
}

// unitSpread of a duet is the spread of its process pairs' mean slice
// ratios; of process pairing, of its suite runs' ratios of process means.
func TestUnitSpread(t *testing.T) {
	bench := record.Bench{Package: "p", Benchmark: "BenchmarkA"}
	mk := func(turns bool, heads [][]float64) (old, head *record.Run) {
		old, head = &record.Run{}, &record.Run{}
		for k, hv := range heads {
			for j, h := range hv {
				turn := 0
				if turns {
					turn = 2*j + 1
				}
				sl := record.Slice{Package: "p", Benchmark: "BenchmarkA", SuiteRun: k + 1, Iteration: 1, Slice: j + 1, Turn: turn, N: 1}
				sl.Values = map[string]float64{"ns/op": 100}
				sl.Version = record.VersionBaseline
				old.Slices = append(old.Slices, sl)
				sl.Values = map[string]float64{"ns/op": h}
				sl.Version = record.VersionHead
				head.Slices = append(head.Slices, sl)
			}
		}
		return old, head
	}
	o, h := mk(true, [][]float64{{100 * math.E, 100}, {100, 100}})
	// Pair means log(e)/2 = 0.5 and 0: sd √(0.125).
	assert.InDelta(t, math.Sqrt(0.125), unitSpread(o, h, bench), 1e-12)
	o, h = mk(false, [][]float64{{200, 200}, {100, 100}})
	assert.InDelta(t, math.Ln2/math.Sqrt2, unitSpread(o, h, bench), 1e-12)
	o, h = mk(false, [][]float64{{200}})
	assert.True(t, math.IsNaN(unitSpread(o, h, bench)))
}
