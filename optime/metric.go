package optime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/gobench-dyn/gobench-dyn/internal/choice"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
)

// A Metric is a stability metric: a relative measure of the variability of
// a sample. Lower is more stable.
type Metric int

// The stability metrics of µOpTime (Japke et al., §2).
const (
	// CV is the coefficient of variation: the population standard
	// deviation over the mean.
	CV Metric = iota + 1
	// RMAD is the relative median absolute deviation:
	// median(|x − median(x)|) / median(x), without the 1.4826 scale
	// factor that makes the MAD estimate a normal standard deviation.
	RMAD
	// RCIWMean is the width of the percentile bootstrap confidence
	// interval of the mean over the mean (the paper's RCIW₁).
	RCIWMean
	// RCIWMeanT is the width of the studentized (bootstrap-t) confidence
	// interval of the mean over the mean (the paper's RCIW₂).
	RCIWMeanT
	// RCIWMedian is the width of the percentile bootstrap confidence
	// interval of the median over the median (the paper's RCIW₃).
	//
	// The published µOpTime code computed the interval of the mean here
	// and divided it by the median; this is the interval of the median,
	// as the paper defines it.
	RCIWMedian
)

var metricNames = []struct {
	m    Metric
	name string
}{
	{CV, "cv"},
	{RMAD, "rmad"},
	{RCIWMean, "rciw-mean"},
	{RCIWMeanT, "rciw-mean-t"},
	{RCIWMedian, "rciw-median"},
}

// Metrics returns every metric, in the paper's order.
func Metrics() []Metric {
	out := make([]Metric, len(metricNames))
	for i, mn := range metricNames {
		out[i] = mn.m
	}
	return out
}

// String returns the metric's name as the --metric flag and configuration
// files spell it: cv, rmad, rciw-mean, rciw-mean-t or rciw-median.
func (m Metric) String() string {
	for _, mn := range metricNames {
		if mn.m == m {
			return mn.name
		}
	}
	return fmt.Sprintf("Metric(%d)", int(m))
}

// ParseMetric returns the metric named s.
func ParseMetric(s string) (Metric, error) {
	return choice.ParseFunc("metric", s, Metric.String, Metrics()...)
}

func (m Metric) valid() bool { return m >= CV && m <= RCIWMedian }

// Median reports whether results under m are summarized by the median
// rather than the mean: the metrics built on the median (RMAD and
// RCIWMedian) are paired with it, as in the paper's RQ1.
func (m Metric) Median() bool { return m == RMAD || m == RCIWMedian }

// Resampled reports whether m is estimated by bootstrap resampling, and so
// depends on the random source.
func (m Metric) Resampled() bool { return m == RCIWMean || m == RCIWMeanT || m == RCIWMedian }

// Average returns the summary of xs that goes with m: the median for the
// median-based metrics, else the mean.
func (m Metric) Average(xs []float64) float64 {
	if m.Median() {
		return stats.Median(xs)
	}
	return stat.Mean(xs, nil)
}

// Instability returns the metric m of the sample xs. The bootstrap metrics
// draw resamples resamples from rng and use a two-sided confidence interval
// at the given level (for example 0.99). Samples are treated as
// independent: µOpTime resamples the flat prefix subset, not the suite run
// and iteration levels.
//
// The result is NaN for an empty sample, and +Inf when a bootstrap
// interval is unbounded (see RCIWMeanT).
func Instability(m Metric, xs []float64, resamples int, confidence float64, rng *rand.Rand) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	switch m {
	case CV:
		mean, sd := stat.PopMeanStdDev(xs, nil)
		return sd / mean
	case RMAD:
		return relMAD(xs)
	case RCIWMean:
		return stats.MeanCI(stats.Leaf(xs), confidence, resamples, rng).RelWidth()
	case RCIWMeanT:
		return rciwMeanT(xs, resamples, confidence, rng)
	case RCIWMedian:
		return stats.CI(stats.Leaf(xs), stats.Median, confidence, resamples, rng).RelWidth()
	}
	panic(fmt.Sprintf("optime: unknown metric %d", int(m)))
}

func relMAD(xs []float64) float64 {
	med := stats.Median(xs)
	dev := make([]float64, len(xs))
	for i, x := range xs {
		dev[i] = math.Abs(x - med)
	}
	return stats.MedianInPlace(dev) / med
}

// rciwMeanT returns the relative width of the bootstrap-t interval of the
// mean, the standard error estimated by s/√n in the sample and in every
// resample.
//
// A resample whose values are all equal has a zero standard error, so its
// t is unbounded unless its mean equals the sample mean. The published
// code replaced that zero by 1e-6 ns, which has the same effect (a huge
// t); here such a t is ±Inf, and when one lands on a percentile the
// interval is unbounded and the relative width +Inf: a sample so small or
// so coarse that resamples often repeat one value is not called stable.
func rciwMeanT(xs []float64, resamples int, confidence float64, rng *rand.Rand) float64 {
	n := len(xs)
	if n < 2 {
		return math.NaN()
	}
	mean, sd := stat.MeanStdDev(xs, nil)
	se := sd / math.Sqrt(float64(n))
	if se == 0 {
		return 0
	}
	ts := make([]float64, resamples)
	buf := make([]float64, n)
	for r := range ts {
		for j := range buf {
			buf[j] = xs[rng.IntN(n)]
		}
		bm, bsd := stat.MeanStdDev(buf, nil)
		d := bm - mean
		switch {
		case bsd > 0:
			ts[r] = d / (bsd / math.Sqrt(float64(n)))
		case d == 0:
			ts[r] = 0
		default:
			ts[r] = math.Inf(int(math.Copysign(1, d)))
		}
	}
	slices.Sort(ts)
	alpha := (1 - confidence) / 2
	lo, hi := stats.Quantile(ts, alpha), stats.Quantile(ts, 1-alpha)
	width := (hi - lo) * se
	if math.IsNaN(width) {
		return math.Inf(1)
	}
	return math.Abs(width) / math.Abs(mean)
}
