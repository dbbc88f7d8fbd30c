// Package changepoint finds the points where a series changes its mean or
// its variance: PELT (Killick, Fearnhead and Eckley, JASA 2012) under a
// normal cost, CROPS (Haynes, Eckley and Fearnhead, 2014) for the optimal
// segmentations over a range of penalties, and the elbow of the CROPS
// curve (Kneedle, Satopää et al. 2011) to pick one penalty, as Traini et
// al. (EMSE 2022) chose it for each series.
//
// The cost and the pruning follow the R package changepoint
// (cpt.meanvar, test.stat "Normal", method "PELT"), which produced the
// published segmentations this package is checked against.
//
// The package is pure: a series in, segment ends out.
package changepoint

import (
	"math"
	"slices"
)

// Segment ends are exclusive, 0-based indexes: a segmentation of n values
// into k segments is the increasing list e₁ < … < e_k = n, segment j
// holding the values [e_{j−1}, e_j) with e₀ = 0. The change points are
// every end but the last.

// DefaultMinSegment is R changepoint's minimum segment length for a
// change in mean and variance: two values, the fewest with a variance.
const DefaultMinSegment = 2

// A cost evaluates the normal negative log-likelihood, twice over, of the
// segments of one series in constant time from prefix sums.
type cost struct {
	s1, s2 []float64 // prefix sums of the centred values and their squares
	floor  float64   // the least variance a segment may have
	// k[l] is l·(log 2π + 1 − 2·log l), the part of the cost of a
	// segment of l values that depends on l alone.
	k []float64
	// memo, when not nil, holds the cost of [s, t) at t(t−1)/2 + s once
	// computed (0: not yet). The runs of one CROPS search evaluate the
	// same segments over and over, and at high penalties nearly all of
	// them: PELT cannot prune inside a long steady stretch.
	memo []float64
}

// maxMemo bounds the memo to series of 4,000 values (64 MB).
const maxMemo = 4000

// memoize gives c a memo of its segment costs, for series short enough.
func (c *cost) memoize() {
	n := len(c.s1) - 1
	if n <= maxMemo {
		c.memo = make([]float64, n*(n+1)/2)
	}
}

// newCost returns the cost of xs. The values are centred on their mean
// first: the variance does not change, and the sums of squares lose far
// fewer digits to cancellation.
func newCost(xs []float64) *cost {
	n := len(xs)
	m := 0.0
	for _, x := range xs {
		m += x
	}
	if n > 0 {
		m /= float64(n)
	}
	c := &cost{s1: make([]float64, n+1), s2: make([]float64, n+1)}
	for i, x := range xs {
		d := x - m
		c.s1[i+1] = c.s1[i] + d
		c.s2[i+1] = c.s2[i] + d*d
	}
	c.floor = varianceFloor(xs)
	c.k = make([]float64, n+1)
	for l := 1; l <= n; l++ {
		fl := float64(l)
		c.k[l] = fl * (log2Pi + 1 - 2*math.Log(fl))
	}
	return c
}

// varianceFloor returns the variance of a value rounded to the
// resolution of xs, q²/12, q being the smallest gap between two distinct
// values. A segment of tied values has no variance, and the normal cost
// of one would be −∞: R changepoint floors it at 1e-11, a constant in the
// data's units that suits its data but not nanoseconds. Rounding to the
// printed precision, which is what makes ties, adds q²/12 of variance to
// every value, so no segment is steadier than that. For data without
// ties the floor is far below any real variance and changes nothing.
func varianceFloor(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	q := math.Inf(1)
	for i := 1; i < len(s); i++ {
		if d := s[i] - s[i-1]; d > 0 && d < q {
			q = d
		}
	}
	if math.IsInf(q, 1) {
		// All values equal: any positive floor gives the same answer.
		return 1e-300
	}
	return q * q / 12
}

var log2Pi = math.Log(2 * math.Pi)

// seg returns the cost of the values [s, t): l·(log 2π + log σ̂² + 1), σ̂²
// the maximum-likelihood variance, as R changepoint's mll_meanvar.
//
// It is written as l·log(l·Σx² − (Σx)²) + k[l], which is the same
// number with two divisions fewer: PELT spends most of its time here.
func (c *cost) seg(s, t int) float64 {
	l := t - s
	fl := float64(l)
	x := c.s1[t] - c.s1[s]
	w := (c.s2[t]-c.s2[s])*fl - x*x
	if lo := c.floor * fl * fl; w < lo {
		w = lo
	}
	return fl*math.Log(w) + c.k[l]
}

// total returns the unpenalized cost of a segmentation.
func (c *cost) total(ends []int) float64 {
	sum, s := 0.0, 0
	for _, e := range ends {
		sum += c.seg(s, e)
		s = e
	}
	return sum
}

// PELT returns the segmentation of xs that minimizes the total normal
// cost of its segments plus penalty for every change point, with no
// segment shorter than minSeg (at least 1). Pruning drops every candidate
// last change point that can no longer be optimal, which makes the search
// linear in len(xs) when the number of changes grows with it.
//
// The pruning is exact: it keeps a candidate that a change point at t
// dominates until t+minSeg−1, since no later segment may start at t
// sooner. RPELT prunes as R changepoint does.
func PELT(xs []float64, penalty float64, minSeg int) []int {
	return newCost(xs).pelt(penalty, max(minSeg, 1), true, &peltBuf{})
}

// RPELT is PELT pruned as R changepoint prunes it: a candidate goes as
// soon as a change point at t dominates it, even though a segment from t
// may not end before t+minSeg. With a minimum segment length above one
// that can miss the optimum by a little; the segmentations Traini et al.
// published came from it, and it reproduces more of them exactly (26 of
// their 40 forks, against 24 for PELT).
func RPELT(xs []float64, penalty float64, minSeg int) []int {
	return newCost(xs).pelt(penalty, max(minSeg, 1), false, &peltBuf{})
}

// peltBuf holds the working arrays of pelt, reused across the runs of
// one CROPS search.
type peltBuf struct {
	f     []float64 // f[t]: the least penalized cost of xs[:t]
	last  []int     // last[t]: the last change point of that optimum
	check []int     // candidate last change points
	until []int     // the last time each candidate may still be optimal
	tmp   []float64
}

func (c *cost) pelt(pen float64, minSeg int, exact bool, b *peltBuf) []int {
	n := len(c.s1) - 1
	if n < 2*minSeg {
		if n == 0 {
			return nil
		}
		return []int{n}
	}
	b.f = resize(b.f, n+1)
	b.last = resizeInt(b.last, n+1)
	b.f[0] = -pen
	for t := minSeg; t < 2*minSeg; t++ {
		b.f[t] = c.seg(0, t)
		b.last[t] = 0
	}
	b.check = append(b.check[:0], 0, minSeg)
	b.until = append(b.until[:0], math.MaxInt, math.MaxInt)
	for t := 2 * minSeg; t <= n; t++ {
		b.tmp = resize(b.tmp, len(b.check))
		best, arg := math.Inf(1), 0
		var row []float64
		if c.memo != nil {
			row = c.memo[t*(t-1)/2:]
		}
		for i, s := range b.check {
			var cst float64
			if row != nil {
				if cst = row[s]; cst == 0 {
					cst = c.seg(s, t)
					row[s] = cst
				}
			} else {
				cst = c.seg(s, t)
			}
			v := b.f[s] + cst
			b.tmp[i] = v
			// The first minimum wins ties, as in R changepoint.
			if v < best {
				best, arg = v, s
			}
		}
		b.f[t], b.last[t] = best+pen, arg
		// A candidate s whose cost to t already exceeds the optimum at t
		// can only be the last change of a later optimum that a change at
		// t cannot serve: one closer than minSeg to t. It stays that long.
		keep := 0
		for i, s := range b.check {
			u := b.until[i]
			if u == math.MaxInt && b.tmp[i] > b.f[t] {
				u = t
				if exact {
					u = t + minSeg - 1
				}
			}
			if u > t {
				b.check[keep], b.until[keep] = s, u
				keep++
			}
		}
		b.check = append(b.check[:keep], t-minSeg+1)
		b.until = append(b.until[:keep], math.MaxInt)
	}
	var ends []int
	for t := n; t > 0; t = b.last[t] {
		ends = append(ends, t)
	}
	slices.Reverse(ends)
	return ends
}

func resize(xs []float64, n int) []float64 {
	if cap(xs) < n {
		return make([]float64, n)
	}
	return xs[:n]
}

func resizeInt(xs []int, n int) []int {
	if cap(xs) < n {
		return make([]int, n)
	}
	return xs[:n]
}
