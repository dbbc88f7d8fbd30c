package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// Of two benchmarks of four processes each, the one whose fourth process
// read three times the others is named; warmup slices are not read.
func TestTwoSpeedsNamesProcessesAtTwoSpeeds(t *testing.T) {
	run := &record.Run{}
	add := func(name string, process int, warmup bool, ns ...float64) {
		for i, v := range ns {
			run.Slices = append(run.Slices, record.Slice{Package: "p", Benchmark: name, SuiteRun: process, Iteration: 1,
				Slice: i + 1, Warmup: warmup, N: 1000, Values: map[string]float64{"ns/op": v}})
		}
	}
	for p, ns := range [][]float64{{440, 445}, {463, 460}, {450, 452}, {1372, 1380}} {
		add("BenchmarkTwo", p+1, false, ns...)
		add("BenchmarkOne", p+1, true, 4000) // a slow warmup
		add("BenchmarkOne", p+1, false, 440+float64(10*p), 445)
	}
	got := twoSpeeds(run)
	require.Len(t, got, 1)
	assert.Equal(t, "BenchmarkTwo", got[0].Key.Benchmark)
	assert.Len(t, got[0].Speeds.Fast, 3)
	assert.InDelta(t, 1376, got[0].Speeds.Slow[0], 1e-9)
}
