package compare

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobench-dyn/gobench-dyn/record"
)

// welch is Welch's unequal-variance t test of the ratio of two versions'
// means, with iterations (processes) as the independent units and the
// delta method for the ratio's standard error.
type welch struct {
	ratio, se, df float64
	p             float64 // two-sided p-value of ratio = 1
}

// welchRatio returns Welch's test of mean(news)/mean(olds) over iteration
// means. With fewer than two iterations on a side the variation between
// processes is unknown, and the test never rejects (p = 1).
func welchRatio(olds, news []record.IterationSample) welch {
	return welchMeans(iterationMeans(olds), iterationMeans(news))
}

// welchMeans is welchRatio on the iteration means a (old) and b (new).
func welchMeans(a, b []float64) welch {
	if len(a) < 2 || len(b) < 2 {
		return welch{ratio: math.NaN(), se: math.Inf(1), df: 1, p: 1}
	}
	ma, va := stat.MeanVariance(a, nil)
	mb, vb := stat.MeanVariance(b, nil)
	if ma == 0 || mb == 0 {
		return welch{ratio: math.NaN(), se: math.Inf(1), df: 1, p: 1}
	}
	// Relative variances of the two means: the delta method gives
	// var(mb/ma)/r² ≈ va/(na·ma²) + vb/(nb·mb²).
	ra, rb := va/float64(len(a))/(ma*ma), vb/float64(len(b))/(mb*mb)
	r := mb / ma
	w := welch{ratio: r, se: r * math.Sqrt(ra+rb)}
	if ra+rb == 0 {
		w.df, w.p = 1, 1
		if r != 1 {
			w.p = 0
		}
		return w
	}
	// Welch–Satterthwaite degrees of freedom.
	w.df = (ra + rb) * (ra + rb) / (ra*ra/float64(len(a)-1) + rb*rb/float64(len(b)-1))
	t := math.Abs(r-1) / w.se
	w.p = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: w.df}.Survival(t)
	return w
}

// interval returns the two-sided 1−alpha interval of the ratio.
func (w welch) interval(alpha float64) (lo, hi float64) {
	if math.IsNaN(w.ratio) || math.IsInf(w.se, 0) {
		return math.Inf(-1), math.Inf(1)
	}
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: w.df}.Quantile(1 - alpha/2)
	return w.ratio - q*w.se, w.ratio + q*w.se
}

// iterationMeans returns the mean of each iteration's measurements.
func iterationMeans(its []record.IterationSample) []float64 {
	var out []float64
	for _, it := range its {
		if len(it.Values) > 0 {
			out = append(out, stat.Mean(it.Values, nil))
		}
	}
	return out
}

// SettleMinIterations is the least number of iterations per version
// before Settled can hold: with two, Welch's interval has about two degrees
// of freedom and a corrected level makes it useless.
const SettleMinIterations = 3

// Settled reports whether the iteration means of a benchmark's baseline
// and head already settle a change of at least threshold: Welch's interval
// of mean(head)/mean(base) lies entirely at or beyond 1 ± threshold, at a
// confidence corrected for looks repeated looks (Bonferroni: each look at
// (1 − confidence)/looks). More iterations would only narrow an interval
// that already shows a regression or an improvement, so a run may stop the
// pair there. A pair that shows no change is never settled by this: that
// it is no change is what the stoppage criterion's stability establishes.
func Settled(base, head []float64, threshold, confidence float64, looks int) bool {
	if len(base) < SettleMinIterations || len(head) < SettleMinIterations {
		return false
	}
	w := welchMeans(base, head)
	lo, hi := w.interval((1 - confidence) / float64(max(looks, 1)))
	return lo >= 1+threshold || hi <= 1-threshold
}
