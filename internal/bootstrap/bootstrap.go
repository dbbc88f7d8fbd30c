// Package bootstrap computes percentile bootstrap confidence intervals of
// hierarchical samples.
//
// Benchmark measurements are nested: instances hold suite runs, suite runs
// hold iterations (processes), iterations hold slices. Slices of one process
// share its memory layout and scheduling luck, so they are not independent.
// Resampling every level in turn, as Kalibera and Jones recommend, gives an
// interval that reflects the variation between processes and suite runs
// rather than only the variation between slices of one process.
package bootstrap

import (
	"math"
	"math/rand/v2"
	"slices"
)

// A Tree is one level of a hierarchical sample. A leaf holds Values and no
// Children; an inner node holds Children and no Values.
type Tree struct {
	Values   []float64
	Children []*Tree
}

// Leaf returns a tree of one level holding values.
func Leaf(values []float64) *Tree { return &Tree{Values: values} }

// Node returns an inner tree node over children.
func Node(children ...*Tree) *Tree { return &Tree{Children: children} }

// Len reports the number of values in t.
func (t *Tree) Len() int {
	if t == nil {
		return 0
	}
	n := len(t.Values)
	for _, c := range t.Children {
		n += c.Len()
	}
	return n
}

// Flatten appends every value in t to dst, depth first, and returns it.
func (t *Tree) Flatten(dst []float64) []float64 {
	if t == nil {
		return dst
	}
	dst = append(dst, t.Values...)
	for _, c := range t.Children {
		dst = c.Flatten(dst)
	}
	return dst
}

// Prune returns t without empty leaves and without inner nodes whose
// subtrees are all empty. It returns nil if t holds no values.
func (t *Tree) Prune() *Tree {
	if t == nil {
		return nil
	}
	if len(t.Children) == 0 {
		if len(t.Values) == 0 {
			return nil
		}
		return t
	}
	var kept []*Tree
	for _, c := range t.Children {
		if p := c.Prune(); p != nil {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	// A level with a single child adds no variation to resample; collapse
	// it so that one-suite-run data behave like plain iteration data.
	if len(kept) == 1 {
		return kept[0]
	}
	return &Tree{Children: kept}
}

// Resample appends one hierarchical resample of t to dst: at every inner
// node it draws as many children as there are, with replacement, and at
// every leaf as many values as there are, with replacement.
func (t *Tree) Resample(rng *rand.Rand, dst []float64) []float64 {
	if t == nil {
		return dst
	}
	if len(t.Children) == 0 {
		for range t.Values {
			dst = append(dst, t.Values[rng.IntN(len(t.Values))])
		}
		return dst
	}
	for range t.Children {
		dst = t.Children[rng.IntN(len(t.Children))].Resample(rng, dst)
	}
	return dst
}

// resampleMean returns the mean of one hierarchical resample of t without
// materialising it.
func (t *Tree) resampleSum(rng *rand.Rand) (sum float64, n int) {
	if len(t.Children) == 0 {
		for range t.Values {
			sum += t.Values[rng.IntN(len(t.Values))]
		}
		return sum, len(t.Values)
	}
	for range t.Children {
		s, k := t.Children[rng.IntN(len(t.Children))].resampleSum(rng)
		sum += s
		n += k
	}
	return sum, n
}

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

// MeanCI returns the percentile bootstrap confidence interval of the mean
// of t, from the given number of hierarchical resamples.
func MeanCI(t *Tree, confidence float64, resamples int, rng *rand.Rand) Interval {
	t = t.Prune()
	if t == nil {
		return Interval{Center: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Confidence: confidence}
	}
	if c, ok := t.constant(); ok {
		return Interval{Center: c, Lo: c, Hi: c, Confidence: confidence}
	}
	all := t.Flatten(nil)
	means := make([]float64, resamples)
	for i := range means {
		s, n := t.resampleSum(rng)
		means[i] = s / float64(n)
	}
	return percentile(mean(all), means, confidence)
}

// CI returns the percentile bootstrap confidence interval of an arbitrary
// statistic of t, such as the median.
func CI(t *Tree, stat func([]float64) float64, confidence float64, resamples int, rng *rand.Rand) Interval {
	t = t.Prune()
	if t == nil {
		return Interval{Center: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Confidence: confidence}
	}
	center := stat(t.Flatten(nil))
	stats := make([]float64, resamples)
	buf := make([]float64, 0, t.Len())
	for i := range stats {
		buf = t.Resample(rng, buf[:0])
		stats[i] = stat(buf)
	}
	return percentile(center, stats, confidence)
}

// RatioCI returns the percentile bootstrap confidence interval of
// mean(b)/mean(a), resampling a and b independently.
func RatioCI(a, b *Tree, confidence float64, resamples int, rng *rand.Rand) Interval {
	a, b = a.Prune(), b.Prune()
	if a == nil || b == nil {
		return Interval{Center: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Confidence: confidence}
	}
	return percentile(mean(b.Flatten(nil))/mean(a.Flatten(nil)), RatioReplicates(a, b, resamples, rng), confidence)
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// percentile sorts stats and reads the (1±confidence)/2 quantiles off it.
func percentile(center float64, stats []float64, confidence float64) Interval {
	slices.Sort(stats)
	alpha := (1 - confidence) / 2
	return Interval{
		Center:     center,
		Lo:         quantile(stats, alpha),
		Hi:         quantile(stats, 1-alpha),
		Confidence: confidence,
	}
}

// quantile reads the p-quantile of sorted xs with linear interpolation
// between order statistics (R's type 7, NumPy's default).
func quantile(xs []float64, p float64) float64 {
	return quantileAt(len(xs), func(i int) float64 { return xs[i] }, p)
}

// quantileAt is quantile over n sorted values read through at.
func quantileAt(n int, at func(int) float64, p float64) float64 {
	if n == 1 {
		return at(0)
	}
	h := p * float64(n-1)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return at(n - 1)
	}
	return at(lo) + (h-float64(lo))*(at(lo+1)-at(lo))
}

// constant reports whether every value in t is the same, and which. The
// mean of every resample of such a tree is that value, exactly.
func (t *Tree) constant() (float64, bool) {
	var v float64
	first, same := true, true
	t.walk(func(x float64) {
		if first {
			v, first = x, false
		} else if x != v {
			same = false
		}
	})
	return v, same && !first
}

func (t *Tree) walk(f func(float64)) {
	for _, x := range t.Values {
		f(x)
	}
	for _, c := range t.Children {
		c.walk(f)
	}
}
