package steady

import (
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"gonum.org/v1/gonum/stat"
	"math"
	"math/rand/v2"
	"slices"
)

// Differ reports whether the mean of last and that of seg differ by more
// than opts.Tolerance: whether the percentile bootstrap interval, at
// opts.Confidence, of mean(last)/mean(seg) lies wholly below 1 − Tolerance
// or wholly above 1 + Tolerance (Kalibera and Jones's relative change, as
// Traini et al. compared segments). With opts.Strict it reports whether
// the interval fails to lie wholly inside that band instead.
//
// Where a normal approximation of the ratio's interval (delta method)
// clears the band's edges by four standard errors or more, Differ
// answers from it without resampling: the bootstrap interval of a ratio
// of two means of hundreds of values differs from it by a fraction of a
// standard error, and the resampling costs most of the analysis.
func Differ(last, seg []float64, opts Options, rng *rand.Rand) bool {
	return newComparer(last, opts, rng).differ(seg)
}

// A comparer compares segments with one last segment, resampling the
// last segment's mean once for all of them.
type comparer struct {
	last      []float64
	opts      Options
	rng       *rand.Rand
	lastMeans []float64 // bootstrap means of last, drawn on first need
}

func newComparer(last []float64, opts Options, rng *rand.Rand) *comparer {
	return &comparer{last: last, opts: opts.withDefaults(), rng: rng}
}

func (c *comparer) differ(seg []float64) bool {
	opts := c.opts
	lo, hi := 1-opts.Tolerance, 1+opts.Tolerance
	decide := func(ciLo, ciHi float64) bool {
		if opts.Strict {
			return !(ciLo >= lo && ciHi <= hi)
		}
		return ciHi <= lo || ciLo >= hi
	}
	if r, se, ok := ratioSE(c.last, seg); ok {
		z := normalQuantile(1 - (1-opts.Confidence)/2)
		ciLo, ciHi := r-z*se, r+z*se
		m := 4 * se
		// decide is monotone in each end, so the four corners of the
		// square of intervals within m of this one bound its answers.
		a := decide(ciLo-m, ciHi-m)
		if a == decide(ciLo+m, ciHi+m) && a == decide(ciLo-m, ciHi+m) && a == decide(ciLo+m, ciHi-m) {
			return a
		}
	}
	if c.lastMeans == nil {
		c.lastMeans = resampleMeans(c.last, opts.Resamples, c.rng)
	}
	segMeans := resampleMeans(seg, opts.Resamples, c.rng)
	ratios := make([]float64, len(segMeans))
	for i := range ratios {
		ratios[i] = c.lastMeans[i] / segMeans[i]
	}
	slices.Sort(ratios)
	alpha := (1 - opts.Confidence) / 2
	return decide(stats.Quantile(ratios, alpha), stats.Quantile(ratios, 1-alpha))
}

// resampleMeans returns the means of n bootstrap resamples of xs.
func resampleMeans(xs []float64, n int, rng *rand.Rand) []float64 {
	means := make([]float64, n)
	for i := range means {
		s := 0.0
		for range xs {
			s += xs[rng.IntN(len(xs))]
		}
		means[i] = s / float64(len(xs))
	}
	return means
}

// ratioSE returns mean(a)/mean(b) and its delta-method standard error,
// for independent samples whose means are close to normal: no single
// value carries more than 2% of a sample's sum of squared deviations.
// A sample with an outlier that does fails the check: its bootstrap means
// are a mixture, with and without the outlier, that no normal fits.
func ratioSE(a, b []float64) (r, se float64, ok bool) {
	ma, va, okA := meanVarNormal(a)
	mb, vb, okB := meanVarNormal(b)
	if !okA || !okB || mb == 0 || ma == 0 {
		return 0, 0, false
	}
	r = ma / mb
	se = math.Abs(r) * math.Sqrt(va/float64(len(a))/(ma*ma)+vb/float64(len(b))/(mb*mb))
	return r, se, true
}

// meanVarNormal returns the mean and variance of xs, and whether no
// value carries more than 2% of the sum of squared deviations.
func meanVarNormal(xs []float64) (m, v float64, ok bool) {
	if len(xs) < 2 {
		return 0, 0, false
	}
	m = stat.Mean(xs, nil)
	top := 0.0
	for _, x := range xs {
		d := (x - m) * (x - m)
		v += d
		top = max(top, d)
	}
	return m, v / float64(len(xs)-1), top <= 0.02*v
}

// normalQuantile returns the p-quantile of the standard normal.
func normalQuantile(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }
