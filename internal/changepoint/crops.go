package changepoint

import (
	"math"
	"slices"
)

// A Segmentation is one optimal segmentation of a CROPS path.
type Segmentation struct {
	// Penalty is the least penalty of the range over which this
	// segmentation is optimal (R changepoint's pen.value.full).
	Penalty float64
	Ends    []int   // segment ends, the last being the series length
	Cost    float64 // total cost of the segments, penalty excluded
}

// Changes returns the number of change points: one less than the
// number of segments.
func (s Segmentation) Changes() int { return max(len(s.Ends)-1, 0) }

// CROPS returns every segmentation of xs that PELT finds optimal for
// some penalty in [minPen, maxPen], ordered by increasing penalty (and so
// decreasing number of change points). It runs PELT only at penalties
// where the optimum may change: between two segmentations with c₁ > c₂
// change points and costs q₁ < q₂, the one penalty at which they tie,
// (q₂ − q₁)/(c₁ − c₂), until neighbouring results differ by at most one
// change point (Haynes et al. 2014, as R changepoint's
// range_of_penalties). Exact chooses PELT's pruning over RPELT's.
func CROPS(xs []float64, minPen, maxPen float64, minSeg int, exact bool) []Segmentation {
	c := newCost(xs)
	c.memoize()
	minSeg = max(minSeg, 1)
	buf := &peltBuf{}
	type run struct {
		pen  float64
		ends []int
		cost float64
	}
	var runs []run
	todo := []float64{minPen, maxPen}
	if maxPen <= minPen {
		todo = todo[:1]
	}
	for len(todo) > 0 {
		for _, pen := range todo {
			ends := c.pelt(pen, minSeg, exact, buf)
			runs = append(runs, run{pen, ends, c.total(ends)})
		}
		slices.SortFunc(runs, func(a, b run) int {
			switch {
			case a.pen < b.pen:
				return -1
			case a.pen > b.pen:
				return 1
			}
			return 0
		})
		todo = todo[:0]
		for i := 0; i+1 < len(runs); i++ {
			a, b := runs[i], runs[i+1]
			dc := len(a.ends) - len(b.ends)
			if dc <= 1 {
				continue
			}
			pen := (b.cost - a.cost) / float64(dc)
			// A penalty already tried, or outside the range, adds nothing.
			tried := false
			for _, r := range runs {
				if math.Abs(r.pen-pen) < 1e-8 {
					tried = true
					break
				}
			}
			if !tried && pen > a.pen && pen < b.pen {
				todo = append(todo, pen)
			}
		}
	}
	// Keep, of runs with equal numbers of change points, the one of least
	// penalty; then the penalty where each becomes optimal.
	var kept []run
	for i, r := range runs {
		if i > 0 && len(r.ends) == len(runs[i-1].ends) {
			continue
		}
		kept = append(kept, r)
	}
	out := make([]Segmentation, len(kept))
	for k, r := range kept {
		out[k] = Segmentation{Penalty: r.pen, Ends: r.ends, Cost: r.cost}
		if k > 0 {
			p := kept[k-1]
			out[k].Penalty = (r.cost - p.cost) / float64(len(p.ends)-len(r.ends))
		}
	}
	return out
}

// Elbow returns the penalty at the elbow of a CROPS path, the point of
// greatest curvature of the number of change points against the penalty,
// as Traini et al. chose it: the Kneedle algorithm with sensitivity 1 on
// the curve from the greatest penalty to the least (the kneed package,
// version 0.7.0, convex and decreasing). It reports false where that
// finds no elbow; Traini et al. then used 15·log n, Barrett et al.'s
// fixed penalty. A path of one segmentation has its own penalty as elbow.
func Elbow(path []Segmentation) (float64, bool) {
	n := len(path)
	if n == 0 {
		return 0, false
	}
	if n < 2 {
		return path[0].Penalty, true
	}
	// x: penalties from the greatest down; y: change points, rising.
	x := make([]float64, n)
	y := make([]float64, n)
	for i := range path {
		x[i] = path[n-1-i].Penalty
		y[i] = float64(path[n-1-i].Changes())
	}
	xn := normalize(x)
	yn := normalize(y)
	if xn == nil || yn == nil {
		return 0, false
	}
	// A convex, decreasing curve becomes a knee by flipping y; the
	// difference curve is its height above the diagonal.
	diff := make([]float64, n)
	for i := range yn {
		diff[i] = (1 - yn[i]) - xn[i]
	}
	isMax := func(i int) bool {
		return diff[i] >= diff[max(i-1, 0)] && diff[i] >= diff[min(i+1, n-1)]
	}
	isMin := func(i int) bool {
		return diff[i] <= diff[max(i-1, 0)] && diff[i] <= diff[min(i+1, n-1)]
	}
	var maxima []int
	for i := range n {
		if isMax(i) {
			maxima = append(maxima, i)
		}
	}
	if len(maxima) == 0 {
		return 0, false
	}
	// The threshold below a local maximum is its height less the mean
	// step of x.
	step := math.Abs((xn[n-1] - xn[0]) / float64(n-1))
	threshold, at := 0.0, 0
	for i := maxima[0]; i < n; i++ {
		// kneed stops where normalized x reaches 1: with x decreasing,
		// at the first point, so a maximum there means no elbow.
		if xn[i] == 1 {
			return 0, false
		}
		if isMax(i) {
			threshold = diff[i] - step
			at = i
		}
		if isMin(i) {
			threshold = 0
		}
		if i+1 == n {
			// kneed reads past the end of the curve here and fails.
			return 0, false
		}
		if diff[i+1] < threshold {
			return x[at], true
		}
	}
	return 0, false
}

// normalize maps xs linearly onto [0, 1]; nil if they are all equal.
func normalize(xs []float64) []float64 {
	lo, hi := slices.Min(xs), slices.Max(xs)
	if !(hi > lo) {
		return nil
	}
	out := make([]float64, len(xs))
	for i, v := range xs {
		out[i] = (v - lo) / (hi - lo)
	}
	return out
}
