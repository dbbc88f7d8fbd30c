package apiscore

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// MaxSpread returns the largest gap between two runs' means of one
// benchmark over the mean of all runs (Laaber & Leitner, MSR'18, Eq. 1): 0
// when every run agrees, 1 when the slowest run's mean was twice the
// fastest's in units of the overall mean. runs holds each run's
// measurements; runs without any are left out, and fewer than two runs
// give NaN.
func MaxSpread(runs [][]float64) float64 {
	var means, all []float64
	for _, r := range runs {
		if len(r) > 0 {
			means = append(means, stat.Mean(r, nil))
			all = append(all, r...)
		}
	}
	if len(means) < 2 {
		return math.NaN()
	}
	return (slices.Max(means) - slices.Min(means)) / stat.Mean(all, nil)
}

// Slowdown returns the slowdown to inject for a suite whose benchmarks
// have the given maxSpreads: twice the maxSpread that 95% of the
// benchmarks stay at or under, the k-th smallest with k = ⌊0.95·n⌋
// (Laaber & Leitner, MSR'18, §6.2), at least 1 as an index. NaN spreads
// are left out; with none left it returns NaN.
func Slowdown(spreads []float64) float64 {
	var ms []float64
	for _, s := range spreads {
		if !math.IsNaN(s) {
			ms = append(ms, s)
		}
	}
	if len(ms) == 0 {
		return math.NaN()
	}
	slices.Sort(ms)
	k := max(1, int(math.Floor(0.95*float64(len(ms)))))
	return 2 * ms[k-1]
}
