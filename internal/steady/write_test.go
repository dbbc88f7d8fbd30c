package steady

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/optime"
)

// Two benchmarks: A steady in both processes (starts 2 and 4 of values
// that take 0.5s each), B in none.
func writeFixture() ([]Input, []Result) {
	series := [][]float64{{9, 8, 1, 1, 1, 1, 1, 1}, {9, 9, 9, 8, 1, 1, 1, 1}}
	a := SeriesInput("p.BenchmarkA", series, 0.5, 10)
	a.Package, a.Benchmark = "p", "BenchmarkA"
	b := SeriesInput("p.BenchmarkB", series, 0.5, 10)
	b.Package, b.Benchmark = "p", "BenchmarkB"
	ra := Result{Class: Steady, Warmup: 4, Series: []Series{
		{Class: Steady, Start: 2, Ends: []int{2, 8}, Means: []float64{8.5, 1}, Penalty: 3},
		{Class: Steady, Start: 4, Ends: []int{4, 8}, Means: []float64{8.75, 1}, Penalty: 3},
	}}
	rb := Result{Class: NotSteady, Warmup: -1, Series: []Series{
		{Class: NotSteady, Start: -1, Ends: []int{8}, Means: []float64{3}, Penalty: 3},
		{Class: NotSteady, Start: -1, Ends: []int{8}, Means: []float64{5}, Penalty: 3},
	}}
	return []Input{a, b}, []Result{ra, rb}
}

func TestWriteTable(t *testing.T) {
	ins, rs := writeFixture()
	var buf bytes.Buffer
	require.NoError(t, WriteTable(&buf, ins, rs))
	out := buf.String()
	assert.Regexp(t, `(?m)^p\.BenchmarkA +steady +2/2 +4 slices +2s$`, out, "the latest start, 4 × 0.5s")
	assert.Regexp(t, `(?m)^p\.BenchmarkB +not steady +0/2 +– +–$`, out)
	assert.Regexp(t, `(?m)^p\.BenchmarkA +1 +steady +4 +2s +8 +2 +3 +1$`, out)
	assert.Regexp(t, `(?m)^p\.BenchmarkB +0 +not steady +– +– +8 +1 +3 +3$`, out)
	assert.Regexp(t, `(?m)^cv +2 +4 slices +4–5 +2 +0 +1$`, out, "WEE of the cv criterion against the steady starts")
}

func TestWriteJSON(t *testing.T) {
	ins, rs := writeFixture()
	var buf bytes.Buffer
	require.NoError(t, WriteJSON(&buf, ins, rs))
	var got []Verdict
	require.NoError(t, json.Unmarshal(buf.Bytes(), &got))
	assert.Equal(t, []Verdict{
		{"p.BenchmarkA", 0, "steady", 2}, {"p.BenchmarkA", 1, "steady", 4},
		{"p.BenchmarkB", 0, "not steady", -1}, {"p.BenchmarkB", 1, "not steady", -1},
	}, got)
}

func TestLearnedConfig(t *testing.T) {
	ins, rs := writeFixture()
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	o := LearnOptions{RunSliceTime: 300 * time.Millisecond, Created: created,
		New: optime.Entry{SuiteRuns: 3, Iterations: 1, Slices: 10, Value: math.NaN()}}

	cf := LearnedConfig(nil, ins, rs, o)
	assert.Equal(t, created, cf.Created)
	require.Len(t, cf.Entries, 1, "B never settled")
	e := cf.Entries[0]
	assert.Equal(t, "BenchmarkA", e.Benchmark)
	assert.Equal(t, 7, e.Warmup, "2s of warmup in slices of 0.3s, rounded up")
	assert.Equal(t, 3, e.SuiteRuns, "a new entry is o.New")
	assert.Equal(t, []int{1}, e.Sources)

	// A second pass updates the entry in place, under a new source.
	o.RunSliceTime = time.Second
	cf = LearnedConfig(cf, ins, rs, o)
	require.Len(t, cf.Entries, 1)
	assert.Equal(t, 2, cf.Entries[0].Warmup)
	assert.Equal(t, []int{1, 2}, cf.Entries[0].Sources)
	assert.Len(t, cf.Sources, 2)
}
