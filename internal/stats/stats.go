// Package stats holds the statistics gobench-dyn computes, each written
// once: quantiles and medians, Student-t critical values, confidence
// intervals, the hierarchical percentile bootstrap of nested benchmark
// samples, and the variance components of slices within processes. Means
// and standard deviations come from gonum's stat package.
//
// The package is pure: samples in, estimates out. A random source is
// always passed in, never global, so that every result can be reproduced
// from a seed.
package stats

import (
	"math"
	"slices"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"
)

// Interval is a two-sided confidence interval around a point estimate.
type Interval struct {
	Center     float64 // the statistic on the original sample
	Lo, Hi     float64
	Confidence float64 // for example 0.99
}

// RelWidth returns the interval's width relative to its center, the
// "relative confidence interval width" (RCIW). It is +Inf when the
// center is zero and the interval has any width.
func (iv Interval) RelWidth() float64 {
	w := iv.Hi - iv.Lo
	if w == 0 {
		return 0
	}
	return w / math.Abs(iv.Center)
}

// Contains reports whether x lies inside the closed interval.
func (iv Interval) Contains(x float64) bool { return iv.Lo <= x && x <= iv.Hi }

// HalfWidth returns (Hi − Lo)/2.
func (iv Interval) HalfWidth() float64 { return (iv.Hi - iv.Lo) / 2 }

// RelHalfWidth returns the half-width relative to the center, the ±x of
// "±2%". It is NaN for an interval that is NaN or centered on zero.
func (iv Interval) RelHalfWidth() float64 {
	if iv.Center == 0 {
		return math.NaN()
	}
	return iv.HalfWidth() / math.Abs(iv.Center)
}

// Quantile reads the p-quantile of sorted, interpolating linearly between
// order statistics (R's type 7, NumPy's default; gonum's stat.Quantile
// offers only the empirical and type-4 definitions). Next to an infinite
// order statistic it returns the infinite one, so that an unbounded tail
// stays unbounded.
func Quantile(sorted []float64, p float64) float64 {
	return quantileAt(len(sorted), func(i int) float64 { return sorted[i] }, p)
}

// quantileAt is Quantile over n sorted values read through at.
func quantileAt(n int, at func(int) float64, p float64) float64 {
	if n == 1 {
		return at(0)
	}
	h := p * float64(n-1)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return at(n - 1)
	}
	a, b := at(lo), at(lo+1)
	switch {
	case math.IsInf(a, -1):
		return a
	case math.IsInf(b, 1):
		return b
	}
	return a + (h-float64(lo))*(b-a)
}

// Median returns the median of xs, the mean of the middle two for an even
// count, and NaN for none. It leaves xs unchanged.
func Median(xs []float64) float64 {
	return MedianInPlace(slices.Clone(xs))
}

// MedianInPlace is Median that reorders xs instead of copying it. It
// selects rather than sorts, for callers that take the median of every
// bootstrap resample.
func MedianInPlace(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	hi := selectKth(xs, n/2)
	if n%2 == 1 {
		return hi
	}
	// After selection the lower half holds the values ≤ hi; the largest
	// of them is the other middle value.
	lo := xs[0]
	for _, x := range xs[1 : n/2] {
		lo = math.Max(lo, x)
	}
	return (lo + hi) / 2
}

// selectKth reorders xs so that xs[k] is the value a sort would put there,
// with no greater value before it and no smaller one after (Hoare's
// selection), and returns it.
func selectKth(xs []float64, k int) float64 {
	lo, hi := 0, len(xs)-1
	for lo < hi {
		// Median of three guards against sorted input.
		mid := lo + (hi-lo)/2
		if xs[mid] < xs[lo] {
			xs[mid], xs[lo] = xs[lo], xs[mid]
		}
		if xs[hi] < xs[lo] {
			xs[hi], xs[lo] = xs[lo], xs[hi]
		}
		if xs[hi] < xs[mid] {
			xs[hi], xs[mid] = xs[mid], xs[hi]
		}
		pivot := xs[mid]
		i, j := lo, hi
		for i <= j {
			for xs[i] < pivot {
				i++
			}
			for xs[j] > pivot {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return xs[k]
		}
	}
	return xs[k]
}

// StudentT returns Student's t distribution with df degrees of freedom,
// centred on zero with unit scale.
func StudentT(df float64) distuv.StudentsT {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
}

// TCritical returns the two-sided critical value of Student's t at level
// alpha with df degrees of freedom: the 1 − alpha/2 quantile, so that a
// 1 − alpha interval is the estimate ± TCritical·se. Planning asks for the
// same few values many times, and each costs an inverse incomplete beta
// function, so those of whole degrees of freedom are kept.
func TCritical(alpha, df float64) float64 {
	if df != math.Trunc(df) {
		return StudentT(df).Quantile(1 - alpha/2)
	}
	k := tKey{alpha, df}
	if q, ok := tCache.Load(k); ok {
		return q.(float64)
	}
	q := StudentT(df).Quantile(1 - alpha/2)
	tCache.Store(k, q)
	return q
}

type tKey struct{ alpha, df float64 }

var tCache sync.Map

// TPValue returns the two-sided p-value of the t statistic m/se with df
// degrees of freedom: 1 for 0/0, and 0 for a nonzero m with no error.
func TPValue(m, se, df float64) float64 {
	if se == 0 {
		if m == 0 {
			return 1
		}
		return 0
	}
	return 2 * StudentT(df).Survival(math.Abs(m)/se)
}
