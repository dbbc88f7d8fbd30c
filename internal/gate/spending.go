package gate

import (
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobench-dyn/gobench-dyn/internal/choice"
)

// A Spending is how a sequential plan spends its significance level over
// its looks. Every choice keeps the chance that any look's interval
// misses the true ratio at most the level, which every wrong verdict
// needs; they differ in where they put their width.
type Spending string

// The spendings.
const (
	// SpendBonferroni gives every look the level α/K of K looks: simple
	// and conservative, since the looks' intervals overlap in the data
	// they rest on.
	SpendBonferroni Spending = "bonferroni"
	// SpendPocock gives every look one level, the largest at which the
	// K intervals miss the true value together with chance α (Pocock's
	// repeated confidence intervals, Jennison and Turnbull 1989): early
	// looks decide as readily as late ones.
	SpendPocock Spending = "pocock"
	// SpendOBrienFleming gives look k the critical value c·√(n_K/n_k):
	// very strict early and close to the fixed-sample level at the last
	// look.
	SpendOBrienFleming Spending = "obrien-fleming"
	// SpendWangTsiatis gives look k the critical value
	// c·(n_k/n_K)^(Δ−½) with Δ = ¼, the member of Wang and Tsiatis's
	// family halfway between Pocock (Δ = ½) and O'Brien–Fleming (Δ = 0).
	SpendWangTsiatis Spending = "wang-tsiatis"
)

// Name returns the spending as people name it.
func (sp Spending) Name() string {
	switch sp {
	case SpendPocock:
		return "Pocock"
	case SpendOBrienFleming:
		return "O'Brien–Fleming"
	case SpendWangTsiatis:
		return "Wang–Tsiatis Δ = ¼"
	}
	return "Bonferroni"
}

// DefaultSpending is the spending of a baseline run's plan. Simulated over
// the default looks (TestSpendingEvaluation, docs/COMPARE.md), it decides
// nearly as often at the cap as O'Brien–Fleming's strict early looks,
// and stops an easy pair nearly as early as Pocock's.
const DefaultSpending = SpendWangTsiatis

// ParseSpending reads a Spending by name.
func ParseSpending(s string) (Spending, error) {
	return choice.Parse("spending", s, SpendBonferroni, SpendPocock, SpendOBrienFleming, SpendWangTsiatis)
}

// levels returns the significance level of each look of p when alpha is
// spent over the whole plan.
func (p Plan) levels(alpha float64) []float64 {
	k := len(p.Looks)
	out := make([]float64, k)
	switch p.Spending {
	case SpendPocock, SpendOBrienFleming, SpendWangTsiatis:
		cs := boundaries(p.Looks, alpha, p.Spending)
		for i, c := range cs {
			out[i] = 2 * distuv.UnitNormal.Survival(c)
		}
	default:
		for i := range out {
			out[i] = alpha / float64(max(k, 1))
		}
	}
	return out
}

// levelAt returns the significance level of the look at n units: that of
// the last planned look at or before n (the first look's before it), so
// that a look a run takes between planned ones, at its cap or the end of
// its budget, is never laxer than the planned look it replaces.
func (p Plan) levelAt(alpha float64, n int) float64 {
	ls := p.levels(alpha)
	if len(ls) == 0 {
		return alpha
	}
	l := ls[0]
	for i, look := range p.Looks {
		if look <= n {
			l = ls[i]
		}
	}
	return l
}

// boundaries returns the two-sided critical values c_k, in units of the
// standard normal, of looks after ns[k] units under spending sp, such
// that a standardized mean of independent normal units crosses ±c_k at
// some look with chance alpha when the true mean is zero. It integrates
// the density of the running sum look by look on a grid (Armitage,
// McPherson and Rowe 1969) and finds the constant by bisection. Results
// are kept: a plan asks for the same few many times.
func boundaries(ns []int, alpha float64, sp Spending) []float64 {
	key := fmt.Sprint(ns, alpha, sp)
	if cs, ok := boundaryCache.Load(key); ok {
		return cs.([]float64)
	}
	shape := make([]float64, len(ns))
	last := float64(ns[len(ns)-1])
	for i, n := range ns {
		shape[i] = 1
		switch sp {
		case SpendOBrienFleming:
			shape[i] = math.Sqrt(last / float64(n))
		case SpendWangTsiatis:
			shape[i] = math.Pow(last/float64(n), 0.25)
		}
	}
	scaled := func(c float64) []float64 {
		cs := make([]float64, len(shape))
		for i, w := range shape {
			cs[i] = c * w
		}
		return cs
	}
	lo, hi := 0.5, 8.0
	for range 60 {
		mid := (lo + hi) / 2
		if crossing(ns, scaled(mid)) > alpha {
			lo = mid
		} else {
			hi = mid
		}
	}
	cs := scaled(hi)
	boundaryCache.Store(key, cs)
	return cs
}

var boundaryCache sync.Map

// crossingGrid is the number of grid points per standard deviation of the
// narrowest step of the running sum between two looks: Simpson's rule then
// integrates the normal kernels to far better than the levels a gate uses
// need.
const crossingGrid = 12

// crossing returns the chance that the standardized running sum of
// independent N(0, 1) units, looked at after ns[k] units, crosses ±cs[k]
// at some look.
func crossing(ns []int, cs []float64) float64 {
	// f holds the sub-density of the running sum S on a grid over the
	// continuation region of the current look, |S| < c·√n.
	step := math.Sqrt(float64(ns[0]))
	for k := 1; k < len(ns); k++ {
		step = math.Min(step, math.Sqrt(float64(ns[k]-ns[k-1])))
	}
	step /= crossingGrid
	var xs, f []float64
	prev := 0
	for k, n := range ns {
		b := cs[k] * math.Sqrt(float64(n))
		m := max(2, int(math.Ceil(b/step))*2)
		h := 2 * b / float64(m)
		next := make([]float64, m+1)
		nx := make([]float64, m+1)
		for i := range nx {
			nx[i] = -b + float64(i)*h
		}
		sd := math.Sqrt(float64(n - prev))
		for i, x := range nx {
			if k == 0 {
				next[i] = normPDF(x, sd)
				continue
			}
			var s float64
			for j, u := range xs {
				s += simpson(j, len(xs)-1) * f[j] * normPDF(x-u, sd)
			}
			next[i] = s * (xs[1] - xs[0]) / 3
		}
		xs, f, prev = nx, next, n
	}
	var stay float64
	for j := range f {
		stay += simpson(j, len(f)-1) * f[j]
	}
	stay *= (xs[1] - xs[0]) / 3
	return 1 - stay
}

// simpson returns the weight of point j of n+1 (n even) in Simpson's rule.
func simpson(j, n int) float64 {
	switch {
	case j == 0 || j == n:
		return 1
	case j%2 == 1:
		return 4
	}
	return 2
}

func normPDF(x, sd float64) float64 {
	z := x / sd
	return math.Exp(-z*z/2) / (sd * math.Sqrt(2*math.Pi))
}
