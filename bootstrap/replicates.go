package bootstrap

import (
	"math/rand/v2"
	"slices"
)

// RatioReplicates returns resamples bootstrap replicates of mean(b)/mean(a),
// resampling a and b independently and hierarchically, in ascending order.
// It returns nil if either tree holds no values. Together with PercentileCI
// it gives RatioCI at any number of confidence levels from one set of
// resamples, and lets callers read achieved significance levels off the
// replicates.
func RatioReplicates(a, b *Tree, resamples int, rng *rand.Rand) []float64 {
	a, b = a.Prune(), b.Prune()
	if a == nil || b == nil {
		return nil
	}
	ratios := make([]float64, resamples)
	for i := range ratios {
		sa, na := a.resampleSum(rng)
		sb, nb := b.resampleSum(rng)
		ratios[i] = (sb / float64(nb)) / (sa / float64(na))
	}
	slices.Sort(ratios)
	return ratios
}

// PercentileCI returns the percentile interval at the given confidence of
// sorted bootstrap replicates, around center.
func PercentileCI(center float64, sorted []float64, confidence float64) Interval {
	return percentile(center, sorted, confidence)
}
