package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// RatioReplicates returns resamples bootstrap replicates of mean(b)/mean(a),
// resampling a and b independently and hierarchically, in ascending order.
// It returns nil if either tree holds no values. Together with PercentileCI
// it gives RatioCI at any number of confidence levels from one set of
// resamples, and lets callers read achieved significance levels off the
// replicates.
//
// A tree whose values are all equal has that value as the mean of every
// resample, so it is not resampled: allocation counts are usually
// constant, and this halves or removes the work for them.
func RatioReplicates(a, b *Tree, resamples int, rng *rand.Rand) []float64 {
	a, b = a.Prune(), b.Prune()
	if a == nil || b == nil {
		return nil
	}
	ca, aConst := a.constant()
	cb, bConst := b.constant()
	ratios := make([]float64, resamples)
	for i := range ratios {
		ma, mb := ca, cb
		if !aConst {
			s, n := a.resampleSum(rng)
			ma = s / float64(n)
		}
		if !bConst {
			s, n := b.resampleSum(rng)
			mb = s / float64(n)
		}
		ratios[i] = mb / ma
	}
	slices.Sort(ratios)
	return ratios
}

// PercentileCI returns the percentile interval at the given confidence of
// sorted bootstrap replicates, around center.
func PercentileCI(center float64, sorted []float64, confidence float64) Interval {
	return percentile(center, sorted, confidence)
}

// Tails holds the extreme order statistics of a sorted set of bootstrap
// replicates: enough to read the percentile interval at any confidence
// level at or above the one it was trimmed for, in a fraction of the
// memory. At 99% it keeps about 1% of the replicates; a comparison of
// thousands of benchmarks that must wait for a multiple-comparison
// correction before reading its intervals keeps these instead of every
// replicate.
type Tails struct {
	N    int       // number of replicates the tails were taken from
	Low  []float64 // the smallest replicates, ascending
	High []float64 // the largest replicates, ascending
	min  float64   // the lowest confidence the tails can serve
}

// TrimTails returns the tails of sorted that PercentileCI needs at any
// confidence ≥ minConfidence.
func TrimTails(sorted []float64, minConfidence float64) Tails {
	n := len(sorted)
	// The (1−c)/2 quantile interpolates between order statistics
	// ⌊h⌋ and ⌊h⌋+1 with h = (1−c)/2·(n−1); keep both for the widest
	// level, and one more against rounding.
	k := int(math.Floor((1-minConfidence)/2*float64(n-1))) + 3
	if 2*k >= n {
		return Tails{N: n, Low: slices.Clone(sorted), min: minConfidence}
	}
	return Tails{N: n, Low: slices.Clone(sorted[:k]), High: slices.Clone(sorted[n-k:]), min: minConfidence}
}

// at returns the i-th smallest replicate.
func (t Tails) at(i int) float64 {
	if i < len(t.Low) {
		return t.Low[i]
	}
	j := i - (t.N - len(t.High))
	if j < 0 || j >= len(t.High) {
		panic("stats: replicate outside the kept tails")
	}
	return t.High[j]
}

// Interval returns the percentile interval at confidence around center,
// the same interval PercentileCI returns on all the replicates. It
// panics if confidence is below the level the tails were trimmed for.
func (t Tails) Interval(center, confidence float64) Interval {
	if confidence < t.min-1e-12 {
		panic("stats: confidence below the trimmed tails' level")
	}
	alpha := (1 - confidence) / 2
	return Interval{
		Center:     center,
		Lo:         quantileAt(t.N, t.at, alpha),
		Hi:         quantileAt(t.N, t.at, 1-alpha),
		Confidence: confidence,
	}
}
