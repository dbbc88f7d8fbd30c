package stopper

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
)

// Precision states a guarantee instead of a steadiness: the relative
// width of a 99% confidence interval of the mean that holds its level
// with few iterations (precisionCIOf). The benchmark stops once that width
// is at most t (t = PrecisionThreshold: the mean is known to about
// ±1.5%). Warmup ends when a slice is no longer faster than the one
// before it (WarmupSettled).
var Precision = Criterion{&precisionDef}

var precisionDef = definition{
	name:      "precision",
	help:      "width of an interval of the mean safe with few processes",
	threshold: PrecisionThreshold,
	relative:  true,
	resamples: true,
	settled:   func(warmup []float64) bool { return WarmupSettled(warmup, WarmupTolerance) },
	next: func(st *benchState, _, resamples int) (float64, bool) {
		return st.cumulativeWidth(resamples, (*resampler).precisionWidth), true
	},
	stable: StablePrecision,
}

// PrecisionThreshold is the default threshold of the Precision criterion:
// a 99% interval of the mean at most 3% wide, about ±1.5%. It matches the
// smallest change gobench-dyn compare reports by default (3%, µOpTime's
// RQ4): two results that each meet it and differ by more than 3% have
// disjoint intervals. Replayed on the published µOpTime Go data it saves
// about as much time as RCIW (docs/REPLAY.md).
const PrecisionThreshold = 0.03

// WarmupTolerance is the largest drop from one warmup slice to the next
// that the Precision criterion still takes as steady (see WarmupSettled).
// A smaller tolerance did not lower the bias of the measurement slices on
// the example suite, and a larger one ends the warmup of a lazily filled
// cache, whose slices drop by about as much each, too early
// (docs/EVALUATION.md, "Simulations behind the defaults").
const WarmupTolerance = 0.05

// WarmupSettled reports whether the warmup of an iteration is over by the
// rule of the Precision criterion: the newest of xs, the warmup slices so
// far, is no more than tol faster than the slice before it. A fresh
// process gets faster as caches, page tables and the heap fill; once a
// slice stops being faster than its predecessor, that transient is over.
//
// The rule compares two values because it must work on two: a bootstrap or
// a CV of two or three slices says nothing. It sees no future, so a slow
// plateau that drops later ends warmup on the plateau. It is false for
// fewer than two values or any NaN.
func WarmupSettled(xs []float64, tol float64) bool {
	if len(xs) < 2 {
		return false
	}
	prev, last := xs[len(xs)-2], xs[len(xs)-1]
	// NaN compares false.
	return last >= (1-tol)*prev
}

// precisionCIOf returns the 99% confidence interval of the mean of t that
// the Precision criterion compares with its threshold: the union of the
// hierarchical percentile bootstrap interval (resamples resamples from
// src, as rciwOf draws them) and the Student-t interval over the means of
// t's leaves, the iterations. Its Center is the mean of all values.
//
// The percentile bootstrap alone is too narrow with few iterations, since
// resampling n values cannot reach beyond their range (its coverage in
// simulation: docs/EVALUATION.md, "Simulations behind the defaults").
// Iteration means of independent processes are independent, so the t
// interval with n−1 degrees of freedom is exact for normal data at any n;
// the union keeps it a 99% interval and keeps the bootstrap's account of
// suite runs, whose variation the t interval over iterations does not
// see.
//
// With a single leaf there are no iterations to compare, and the interval
// is NaN: one process says nothing about the variation between processes.
// The interval is NaN also for any non-finite value.
func precisionCIOf(t *stats.Tree, resamples int, src *rand.PCG) stats.Interval {
	var r resampler
	return r.precisionCI(t, resamples, src)
}

// precisionWidthOf returns the relative width (hi − lo)/mean of precisionCIOf.
func precisionWidthOf(t *stats.Tree, resamples int, src *rand.PCG) float64 {
	return precisionCIOf(t, resamples, src).RelWidth()
}

func (r *resampler) precisionWidth(t *stats.Tree, resamples int, src *rand.PCG) float64 {
	return r.precisionCI(t, resamples, src).RelWidth()
}

func (r *resampler) precisionCI(t *stats.Tree, resamples int, src *rand.PCG) stats.Interval {
	nan := stats.Interval{Center: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Confidence: Confidence}
	t = t.Prune()
	if t == nil || len(t.Children) == 0 {
		return nan
	}
	sum, n, ok := sumTree(t)
	if !ok {
		return nan
	}
	center := sum / float64(n)

	iv := r.meanCI(t, center, resamples, src)

	leaves := leafMeans(nil, t)
	k := float64(len(leaves))
	m, sd := stat.MeanStdDev(leaves, nil)
	q := stats.TCritical(1-Confidence, k-1)
	h := q * sd / math.Sqrt(k)
	iv.Lo = min(iv.Lo, m-h)
	iv.Hi = max(iv.Hi, m+h)
	return iv
}

// leafMeans appends the mean of every leaf of t to dst.
func leafMeans(dst []float64, t *stats.Tree) []float64 {
	if len(t.Children) == 0 {
		return append(dst, stat.Mean(t.Values, nil))
	}
	for _, c := range t.Children {
		dst = leafMeans(dst, c)
	}
	return dst
}

// StablePrecision is the stable function of the Precision criterion: the
// newest interval width is at most t. Earlier values do not matter: the
// guarantee is about the interval at the stop, not about its history. It
// is false for no values or a NaN.
func StablePrecision(values []float64, t float64) bool {
	// NaN compares false.
	return len(values) > 0 && values[len(values)-1] <= t
}
