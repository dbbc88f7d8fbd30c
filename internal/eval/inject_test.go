package main

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/record"
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
	assert.Equal(t, "BenchmarkX/y", trimProcs("BenchmarkX/y-8"))
	assert.Equal(t, "BenchmarkX/a-b", trimProcs("BenchmarkX/a-b"))
}

func TestInjectTallyTable(t *testing.T) {
	tally := newInjectTally()
	aa, slow := injectKey{"Unmarshal", 0}, injectKey{"Unmarshal", 0.25}
	// A/A: one false alarm of four for the gate, none for benchstat.
	for _, v := range []string{"no change", "inconclusive", "inconclusive", "improvement"} {
		tally.add(aa, "gate", true, v)
	}
	for range 4 {
		tally.add(aa, "benchstat", true, "~")
	}
	// +25%: the gate finds 3 of 4; benchstat 2 of 4 and one wrong way.
	for _, v := range []string{"regression", "regression", "regression", "inconclusive"} {
		tally.add(slow, "gate", true, v)
	}
	for _, v := range []string{"regression", "regression", "~", "improvement"} {
		tally.add(slow, "benchstat", true, v)
	}
	// Controls of the +25% slowdown: one gate false alarm.
	tally.add(slow, "gate", false, "regression")
	tally.add(slow, "gate", false, "no change")
	tally.add(slow, "benchstat", false, "~")
	tally.add(slow, "benchstat", false, "~")
	tally.addTime(slow, "gate", 3*time.Second)
	tally.addTime(slow, "benchstat", 10*time.Second)
	lines := strings.Split(strings.TrimSpace(tally.table(injectSuites["toml"].targets)), "\n")
	require.Len(t, lines, 5)
	assert.Equal(t, "| Unmarshal (CPU-bound) | +0% | 4 | — | 1/4 | 2/4 | 1/4 | — | 0/4 | 4/4 | 0.0 s | 0.0 s | — |", lines[2])
	assert.Equal(t, "| Unmarshal (CPU-bound) | +25% | 4 | 3/4 | 0/4 | 1/4 | 0/4 | 2/4 | 1/4 | 1/4 | 3.0 s | 10.0 s | 0.30× |", lines[3])
	assert.Equal(t, "| controls (benchmarks the slowed function does not dominate) | 0% | 2 | — | 1/2 | 0/2 | 1/2 | — | 0/2 | 2/2 | | | |", lines[4])
}

// TestRejudgeFormerCap judges 30 paired suite runs of one benchmark whose
// per-suite-run ratios alternate between +20% and −20%: undecided at every
// look, so the former cap's verdict is inconclusive at its last look, 20,
// and its wall is the gate's less the 10 suite runs after the 20th (10 ms
// each).
func TestRejudgeFormerCap(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := &record.Run{Complete: true}
	for k := 1; k <= 30; k++ {
		head := 100 * math.Exp(0.2*float64(2*(k%2)-1))
		for i, v := range map[string]float64{record.VersionBaseline: 100, record.VersionHead: head} {
			for sl := 1; sl <= 3; sl++ {
				r.Slices = append(r.Slices, record.Slice{
					Type: record.TypeSlice, Package: "p", Benchmark: "BenchmarkUnmarshal/x-2", Version: i,
					SuiteRun: k, Iteration: 1, Slice: sl, N: 1000, Values: map[string]float64{"ns/op": v},
					Start: start.Add(time.Duration(k) * 10 * time.Millisecond), WallNs: int64(time.Millisecond),
				})
			}
		}
	}
	tally := newInjectTally()
	key := injectKey{"Unmarshal", 0}
	in := injection{suite: injectSuites["toml"]}
	require.NoError(t, in.rejudge(tally, key, in.suite.targets[0], r, time.Second))
	assert.Equal(t, map[string]int{"": 1, "inconclusive": 1}, tally.verdicts[verdictCell{key, "gate20", true}])
	assert.Equal(t, 900*time.Millisecond, tally.wall[key]["gate20"])
	tally.add(key, "gate", true, "no change")
	lines := strings.Split(strings.TrimSpace(tally.capTable(in.suite.targets)), "\n")
	require.Len(t, lines, 3)
	assert.Equal(t, "| Unmarshal (CPU-bound) | +0% | 1 | — / 0 / 1 / 0 of 1 | — / 1 / 0 / 0 of 1 | 0.0 s | 0.9 s |", lines[2])

	// A pair the gate stopped out of reach before the former cap has no
	// verdict there.
	r.Events = append(r.Events, record.Event{Event: record.EventStop, Benchmark: "BenchmarkUnmarshal/x-2", SuiteRun: 12, Reason: record.ReasonNoVerdict})
	other := injectKey{"Unmarshal", 0.1}
	require.NoError(t, in.rejudge(tally, other, in.suite.targets[0], r, time.Second))
	assert.Empty(t, tally.verdicts[verdictCell{other, "gate20", true}])
	assert.Zero(t, tally.wall[other]["gate20"], "no run to time")
}
