// Hierarchical samples and their percentile bootstrap intervals.
//
// Benchmark measurements are nested: instances hold suite runs, suite runs
// hold iterations (processes), iterations hold slices. Slices of one process
// share its memory layout and scheduling luck, so they are not independent.
// Resampling every level in turn, as Kalibera and Jones recommend, gives an
// interval that reflects the variation between processes and suite runs
// rather than only the variation between slices of one process.

package stats

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"
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
	return percentile(stat.Mean(all, nil), means, confidence)
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
	return percentile(stat.Mean(b.Flatten(nil), nil)/stat.Mean(a.Flatten(nil), nil), RatioReplicates(a, b, resamples, rng), confidence)
}

// percentile sorts stats and reads the (1±confidence)/2 quantiles off it.
func percentile(center float64, stats []float64, confidence float64) Interval {
	slices.Sort(stats)
	alpha := (1 - confidence) / 2
	return Interval{
		Center:     center,
		Lo:         Quantile(stats, alpha),
		Hi:         Quantile(stats, 1-alpha),
		Confidence: confidence,
	}
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
