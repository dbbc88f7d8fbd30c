package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
