package history

import "math"

// energy finds E-divisive candidates (Matteson and James 2014) in one
// window of a series: the split τ of an interval [a, b) and the end κ
// that maximise the energy statistic Q̂ of x[a:τ] against x[τ:κ].
//
// With weights, every pair of points counts by the product of their
// weights and every count by a sum of weights; equal weights give the
// statistic of the paper and of Apache Otava exactly.
type energy struct {
	x, w []float64
	n    int
	// t[i*(n+1)+j] is the weighted sum of |x_p − x_q| over pairs
	// i ≤ p < q < j.
	t []float64
	// sw and sw2 are prefix sums of the weights and of their squares.
	sw, sw2 []float64
}

func newEnergy(x, w []float64) *energy {
	n := len(x)
	e := &energy{x: x, w: w, n: n, t: make([]float64, (n+1)*(n+1)), sw: make([]float64, n+1), sw2: make([]float64, n+1)}
	for i := range n {
		e.sw[i+1] = e.sw[i] + w[i]
		e.sw2[i+1] = e.sw2[i] + w[i]*w[i]
	}
	// t[i][j] = t[i+1][j] + Σ_{i<q<j} w_i w_q |x_i − x_q|.
	for i := n - 1; i >= 0; i-- {
		row := 0.0
		for j := i + 1; j <= n; j++ {
			if j-1 > i {
				row += w[i] * w[j-1] * math.Abs(x[i]-x[j-1])
			}
			below := 0.0
			if i+1 < j {
				below = e.t[(i+1)*(n+1)+j]
			}
			e.t[i*(n+1)+j] = below + row
		}
	}
	return e
}

func (e *energy) within(i, j int) float64 { return e.t[i*(e.n+1)+j] }

// pairs returns the weight of all pairs inside [i, j).
func (e *energy) pairs(i, j int) float64 {
	s := e.sw[j] - e.sw[i]
	return (s*s - (e.sw2[j] - e.sw2[i])) / 2
}

// q returns Q̂(x[a:τ], x[τ:κ]).
func (e *energy) q(a, tau, kappa int) float64 {
	wx, wy := e.sw[tau]-e.sw[a], e.sw[kappa]-e.sw[tau]
	tx, ty := e.within(a, tau), e.within(tau, kappa)
	cross := e.within(a, kappa) - tx - ty
	v := 2 * cross / (wx * wy)
	if p := e.pairs(a, tau); p > 0 {
		v -= tx / p
	}
	if p := e.pairs(tau, kappa); p > 0 {
		v -= ty / p
	}
	return wx * wy / (wx + wy) * v
}

// candidate returns the best split of [a, b) with at least minSeg points
// on each side, and its Q̂; ok is false when the interval is too short.
// Ties go to the first in Otava's order (τ, then κ); a pair whose κ is
// not beyond τ counts as 0, as the zero entries of Otava's matrix do, so
// that a series where every split scores below zero picks as Otava does.
func (e *energy) candidate(a, b, minSeg int) (tau int, q float64, ok bool) {
	if b-a < 2*minSeg || b-a < 2 {
		return 0, 0, false
	}
	best := math.Inf(-1)
	for t := a + 1; t < b; t++ {
		for k := a + 2; k <= b; k++ {
			v := 0.0
			valid := k > t && t-a >= minSeg && k-t >= minSeg
			if valid {
				v = e.q(a, t, k)
			} else if minSeg > 1 {
				continue
			}
			if v > best {
				best, tau, ok = v, t, true
			}
		}
	}
	return tau, best, ok
}
