package stopper

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
)

// RCIW is the relative width of the 99% percentile bootstrap confidence
// interval of the mean, resampled hierarchically (suite runs, then
// iterations, then slices). Stable when the values in the window lie
// within t of each other (t = 0.03).
var RCIW = Criterion{&rciwDef}

var rciwDef = definition{
	name:      "rciw",
	help:      "width of the bootstrap interval of the mean",
	threshold: 0.03,
	relative:  true,
	minWindow: 2,
	resamples: true,
	value: func(e *evaluator, xs []float64) float64 {
		e.one.Values = xs
		return e.res.rciw(&e.one, e.n, e.rng)
	},
	next: func(st *benchState, _, resamples int) (float64, bool) {
		return st.cumulativeWidth(resamples, (*resampler).rciw), true
	},
	stable: StableVar,
}

// rciwOf returns the relative width of the 99% percentile bootstrap
// confidence interval of the mean of t, from resamples hierarchical
// resamples drawn from rng. It is NaN for fewer than two values or any NaN.
func rciwOf(t *stats.Tree, resamples int, src *rand.PCG) float64 {
	var r resampler
	return r.rciw(t, resamples, src)
}

// A resampler computes RCIW values with buffers that outlive one call, so
// that the resampling loop allocates nothing.
type resampler struct {
	means []float64
}

func (r *resampler) rciw(t *stats.Tree, resamples int, src *rand.PCG) float64 {
	t = t.Prune()
	if t.Len() < 2 {
		return math.NaN()
	}
	sum, n, ok := sumTree(t)
	if !ok {
		return math.NaN()
	}
	return r.meanCI(t, sum/float64(n), resamples, src).RelWidth()
}

// meanCI returns the percentile interval at Confidence around center of
// the means of resamples hierarchical resamples of t, reusing r's buffer.
func (r *resampler) meanCI(t *stats.Tree, center float64, resamples int, src *rand.PCG) stats.Interval {
	if cap(r.means) < resamples {
		r.means = make([]float64, resamples)
	}
	means := r.means[:resamples]
	for i := range means {
		s, k := resampleSum(t, src)
		means[i] = s / float64(k)
	}
	slices.Sort(means)
	return stats.PercentileCI(center, means, Confidence)
}

// sumTree returns the sum and count of t's values, and false if one of
// them is not finite.
func sumTree(t *stats.Tree) (sum float64, n int, ok bool) {
	for _, v := range t.Values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, 0, false
		}
		sum += v
	}
	n = len(t.Values)
	for _, c := range t.Children {
		s, k, ok := sumTree(c)
		if !ok {
			return 0, 0, false
		}
		sum += s
		n += k
	}
	return sum, n, true
}

// resampleSum draws one hierarchical resample of t, as stats.Tree's
// Resample does, and returns its sum and size. It takes two 32-bit
// indices from each 64-bit word of the concrete generator (whose calls
// inline, unlike those through rand.Rand) by multiply-shift; the bias of
// that mapping is below n/2³², far under the Monte Carlo error of any
// bootstrap.
func resampleSum(t *stats.Tree, src *rand.PCG) (float64, int) {
	if len(t.Children) == 0 {
		vs := t.Values
		n := uint64(len(vs))
		sum := 0.0
		i := 0
		for ; i+1 < len(vs); i += 2 {
			w := src.Uint64()
			sum += vs[(w&0xffffffff)*n>>32] + vs[(w>>32)*n>>32]
		}
		if i < len(vs) {
			sum += vs[(src.Uint64()&0xffffffff)*n>>32]
		}
		return sum, len(vs)
	}
	sum, k := 0.0, 0
	n := uint64(len(t.Children))
	for range t.Children {
		s, m := resampleSum(t.Children[(src.Uint64()&0xffffffff)*n>>32], src)
		sum += s
		k += m
	}
	return sum, k
}
