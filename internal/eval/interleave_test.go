package main

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

func slicesOf(bench string, procs [][]float64) []record.Slice {
	var out []record.Slice
	for p, vs := range procs {
		for i, v := range vs {
			out = append(out, record.Slice{Package: "p", Benchmark: bench, SuiteRun: p + 1, Iteration: 1, Slice: i + 1,
				N: 1, Values: map[string]float64{"ns/op": v}})
		}
	}
	return out
}

// Two rounds of two processes each pool into four processes, none merged
// with another of the same suite-run number.
func TestPoolKeepsProcessesApart(t *testing.T) {
	a := &result{run: &record.Run{Slices: slicesOf("B", [][]float64{{1, 1}, {2, 2}})}}
	b := &result{run: &record.Run{Slices: slicesOf("B", [][]float64{{3, 3}, {4, 4}})}}
	got := pool([]*result{a, b}).Series(record.Key{Bench: record.Bench{Package: "p", Benchmark: "B"}}, "ns/op")
	require.Len(t, got, 4)
	for i, it := range got {
		assert.Equal(t, []float64{float64(i + 1), float64(i + 1)}, it.Values)
	}
}

// Process means 99, 100 and 101: sd 1, so the 95% interval is
// ±t(0.975, 2)·1/√3 = ±4.3027·0.57735 = ±2.4841 around 100.
func TestAchievedIsTheProcessLevelInterval(t *testing.T) {
	run := &record.Run{Slices: slicesOf("B", [][]float64{{98, 100}, {99, 101}, {100, 102}})}
	series := run.Series(record.Key{Bench: record.Bench{Package: "p", Benchmark: "B"}}, "ns/op")
	assert.InDelta(t, 0.024841, achieved(series, false), 1e-5)
}

// Benchstat's ± over 3 samples is infinite: a median needs 6 samples for
// a 95% interval.
func TestAchievedGoTestIsBenchstatsPlusMinus(t *testing.T) {
	run := &record.Run{Slices: slicesOf("B", [][]float64{{98}, {100}, {102}})}
	series := run.Series(record.Key{Bench: record.Bench{Package: "p", Benchmark: "B"}}, "ns/op")
	assert.True(t, math.IsInf(achieved(series, true), 1))
}

func TestMedianSkipsNaN(t *testing.T) {
	assert.Equal(t, 2.0, median([]float64{3, math.NaN(), 1, 2}))
	assert.Equal(t, 2.5, median([]float64{4, 1, 2, 3}))
	assert.True(t, math.IsNaN(median(nil)))
}

func TestInterleavingCheckNamesTheFlag(t *testing.T) {
	ok := interleaving{rounds: 3, refProcs: 10, cap: 5, target: 0.03, slices: 5}
	require.NoError(t, ok.check())
	for flag, il := range map[string]interleaving{
		"-rounds": {rounds: 0, refProcs: 10, cap: 5, target: 0.03, slices: 5},
		"-cap":    {rounds: 3, refProcs: 10, cap: 2, target: 0.03, slices: 5},
		"-target": {rounds: 3, refProcs: 10, cap: 5, target: 3, slices: 5},
	} {
		assert.ErrorContains(t, il.check(), flag)
	}
}

func TestAlsoIsLabelledByItsFlags(t *testing.T) {
	il := interleaving{cap: 10, also: strings.Fields("--min-iterations 6")}
	assert.Equal(t, "default --min-iterations 6 (cap 10)", label(&track{name: "also"}, il))
}
