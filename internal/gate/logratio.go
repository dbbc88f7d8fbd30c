package gate

import (
	"cmp"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// logRatio is a t interval of the mean log ratio NEW/OLD. Its units are
// processes: in the unpaired form the log of each process mean (Welch's
// test), in the paired form the per-suite-run difference of the mean log
// process means of the two versions. Exponentiated, its interval is a ratio
// interval that never leaves (0, +∞), that is (−100%, +∞) as a change.
type logRatio struct {
	paired bool
	// n is the number of units: pairs (paired), or the processes of the
	// smaller side (unpaired).
	n      int
	mean   float64 // mean log ratio
	se, df float64
	// s2 is the variance one unit adds, so that se² = s2/n when both
	// versions have n units: the variance of the pair differences, or the
	// sum of the two versions' process variances.
	s2 float64
	// p is the two-sided p-value of ratio = 1.
	p float64
	// trim is the share cut from each end of the units for the mean
	// (zero: the plain mean).
	trim float64
	// trimmed, in the paired form, is the trimmed-mean interval of the
	// same pairs (see pairedOf); nil otherwise.
	trimmed *logRatio
}

// pairedLog returns the paired log ratio of the processes of olds and news,
// matched by instance and suite run, and the per-unit log ratios in suite
// run order (for a sequential analysis). ok is false when fewer than two
// suite runs hold both versions with positive values.
func pairedLog(olds, news []record.IterationSample) (lr logRatio, d []float64, ok bool) {
	type key struct {
		inst string
		sr   int
	}
	group := func(its []record.IterationSample) (map[key][]float64, bool) {
		m := map[key][]float64{}
		for _, it := range its {
			if len(it.Values) == 0 {
				continue
			}
			pm := stat.Mean(it.Values, nil)
			if !(pm > 0) {
				return nil, false
			}
			k := key{it.Instance, it.SuiteRun}
			m[k] = append(m[k], math.Log(pm))
		}
		return m, true
	}
	og, ok1 := group(olds)
	ng, ok2 := group(news)
	if !ok1 || !ok2 {
		return logRatio{}, nil, false
	}
	var keys []key
	for k := range og {
		if _, ok := ng[k]; ok {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.sr, b.sr), cmp.Compare(a.inst, b.inst))
	})
	for _, k := range keys {
		d = append(d, stat.Mean(ng[k], nil)-stat.Mean(og[k], nil))
	}
	if len(d) < 2 {
		return logRatio{}, d, false
	}
	return pairedOf(d), d, true
}

// slicePairedLog returns the paired log ratio of olds and news that ran
// as duets, one unit per process pair (matched by instance, suite run and
// iteration): the mean over its slice pairs of log(new/old), slice j of
// one worker with slice j of the other. Slices of one pair ran next to
// each other, so the host's changing speed, which moves both alike, drops
// out of their ratio; the pairs' means are the units because slices of
// one process pair share that pair's start, heap and layout, and so are
// not independent. ok is false when fewer than two process pairs hold
// both versions' slices, one for one, all positive.
func slicePairedLog(olds, news []record.IterationSample) (lr logRatio, d []float64, ok bool) {
	type key struct {
		inst    string
		sr, itn int
	}
	byKey := map[key]record.IterationSample{}
	for _, it := range olds {
		if it.Duet {
			byKey[key{it.Instance, it.SuiteRun, it.Iteration}] = it
		}
	}
	// news is ordered by instance, suite run and iteration, which is the
	// order in which the units were measured within each instance.
	for _, h := range news {
		b, found := byKey[key{h.Instance, h.SuiteRun, h.Iteration}]
		if !h.Duet || !found || len(h.Values) == 0 || len(h.Values) != len(b.Values) {
			continue
		}
		var sum float64
		for j, x := range h.Values {
			if !(x > 0) || !(b.Values[j] > 0) {
				return logRatio{}, nil, false
			}
			sum += math.Log(x) - math.Log(b.Values[j])
		}
		d = append(d, sum/float64(len(h.Values)))
	}
	if len(d) < 2 {
		return logRatio{}, d, false
	}
	return pairedOf(d), d, true
}

// pairedOf is the interval of the center of the per-pair log ratios d:
// the one-sample t interval of their mean and Yuen's interval of their
// trimmed mean, each at half the level, of which an interval takes the
// narrower (see pick).
//
// Process means are not always normal: on a shared machine a few
// processes run much slower than the rest (a neighbour's burst, a
// page-cache miss; docs/COMPARE.md, "Outlying processes"), and each such
// process puts one far-out log ratio among the pairs. One of them can triple the t interval; the
// trimmed mean sets it aside. On normal data the trimmed interval is the
// wider (it has fewer degrees of freedom), and the t interval is kept.
// Taking either at half the level keeps the chance that the one taken
// misses the true ratio at most the level (Bonferroni), so no rule built
// on the interval loses its false-alarm guarantee.
func pairedOf(d []float64) logRatio {
	lr := tInterval(d)
	if len(d) < MinTrimmedPairs {
		return lr
	}
	if t := yuenInterval(d, trimCount(len(d))); t.se > 0 || lr.se == 0 {
		lr.trimmed = &t
		lr.p = math.Min(1, 2*math.Min(lr.p, t.p))
	}
	return lr
}

// MinTrimmedPairs is the least number of pairs with which a trimmed
// interval is considered. With fewer, one pair is cut at each end of at
// most 7, leaving 4 degrees of freedom or fewer, and three equal middle
// values of five would winsorize to a spread of zero.
const MinTrimmedPairs = 8

// tInterval is the one-sample t interval of the mean of d.
func tInterval(d []float64) logRatio {
	m, v := stat.MeanVariance(d, nil)
	n := len(d)
	lr := logRatio{paired: true, n: n, mean: m, s2: v, df: float64(n - 1), se: math.Sqrt(v / float64(n))}
	lr.p = stats.TPValue(lr.mean, lr.se, lr.df)
	return lr
}

// Trim is the share of pairs cut from each end for the trimmed mean: 20%,
// the usual choice for Yuen's interval (Wilcox, "Introduction to Robust
// Estimation and Hypothesis Testing"), which keeps its efficiency near the
// mean's on normal data and sets aside up to a fifth of outlying pairs on
// either side.
const Trim = 0.2

// trimCount is the number of pairs cut from each end of n.
func trimCount(n int) int { return int(math.Floor(Trim * float64(n))) }

// yuenInterval is Yuen's interval of the trimmed mean of d with k values
// cut from each end: the mean of the rest, with the standard error of
// the winsorized sample (the k extremes at each end replaced by the
// nearest kept value) divided by the kept share, and n − 2k − 1 degrees of
// freedom.
func yuenInterval(d []float64, k int) logRatio {
	x := slices.Sorted(slices.Values(d))
	n := len(x)
	w := slices.Clone(x)
	for i := range k {
		w[i], w[n-1-i] = x[k], x[n-1-k]
	}
	g := float64(n-2*k) / float64(n)
	v := stat.Variance(w, nil) / (g * g)
	lr := logRatio{paired: true, n: n, mean: stat.Mean(x[k:n-k], nil), s2: v, df: float64(n - 2*k - 1), se: math.Sqrt(v / float64(n)), trim: Trim}
	lr.p = stats.TPValue(lr.mean, lr.se, lr.df)
	return lr
}

// pick returns the form of lr an interval at level alpha is built from,
// and the level to build it at: lr itself at alpha when it has no trimmed
// form, else whichever of its two forms is narrower at alpha/2.
func (lr logRatio) pick(alpha float64) (logRatio, float64) {
	if lr.trimmed == nil {
		return lr, alpha
	}
	a := alpha / 2
	t, plain := *lr.trimmed, lr
	plain.trimmed = nil
	if t.width(a) < plain.width(a) {
		return t, a
	}
	return plain, a
}

// width is the half-width of the interval of this very form.
func (lr logRatio) width(alpha float64) float64 {
	if lr.se == 0 {
		return 0
	}
	return stats.TCritical(alpha, lr.df) * lr.se
}

// welchLog returns Welch's t interval of the difference of the mean log
// process means of news and olds. ok is false when a side has fewer than
// two processes or a value that is not positive.
func welchLog(a, b []float64) (logRatio, bool) {
	if len(a) < 2 || len(b) < 2 {
		return logRatio{}, false
	}
	la, lb := make([]float64, len(a)), make([]float64, len(b))
	for i, x := range a {
		if !(x > 0) {
			return logRatio{}, false
		}
		la[i] = math.Log(x)
	}
	for i, x := range b {
		if !(x > 0) {
			return logRatio{}, false
		}
		lb[i] = math.Log(x)
	}
	ma, va := stat.MeanVariance(la, nil)
	mb, vb := stat.MeanVariance(lb, nil)
	na, nb := float64(len(a)), float64(len(b))
	qa, qb := va/na, vb/nb
	lr := logRatio{n: min(len(a), len(b)), mean: mb - ma, se: math.Sqrt(qa + qb), s2: va + vb}
	if qa+qb == 0 {
		lr.df = na + nb - 2
	} else {
		// Welch–Satterthwaite degrees of freedom.
		lr.df = (qa + qb) * (qa + qb) / (qa*qa/(na-1) + qb*qb/(nb-1))
	}
	lr.p = stats.TPValue(lr.mean, lr.se, lr.df)
	return lr, true
}

// halfWidth is the interval's half-width on the log scale at level alpha.
func (lr logRatio) halfWidth(alpha float64) float64 {
	f, a := lr.pick(alpha)
	return f.width(a)
}

// interval returns the 1 − alpha interval of the ratio NEW/OLD and its
// center.
func (lr logRatio) interval(alpha float64) (center, lo, hi float64) {
	f, a := lr.pick(alpha)
	h := f.width(a)
	return math.Exp(f.mean), math.Exp(f.mean - h), math.Exp(f.mean + h)
}

// maxUnits bounds the sample sizes need reports; beyond it a comparison is
// as good as unsettleable.
const maxUnits = 10000

// need returns the number of units (pairs, or processes per version) at
// which the interval at level alpha would no longer straddle a threshold,
// if the observed center and spread held: its half-width must fall below
// the distance from the center to the nearest of ±threshold. It returns
// maxUnits+1 when that is out of reach.
func (lr logRatio) need(alpha, threshold float64) int {
	lr, alpha = lr.pick(alpha)
	up, down := math.Log1p(threshold), math.Log1p(-math.Min(threshold, 0.999999))
	var dist float64
	switch m := lr.mean; {
	case m > up:
		dist = m - up
	case m < down:
		dist = down - m
	default:
		dist = math.Min(up-m, m-down)
	}
	if !(dist > 0) {
		return maxUnits + 1
	}
	fits := func(n int) bool {
		df := float64(n - 1)
		if lr.trim > 0 {
			df = float64(n - 2*trimCount(n) - 1)
		}
		if !lr.paired {
			df = 2 * float64(n-1) // Welch's df with equal sizes and variances
		}
		return stats.TCritical(alpha, df)*math.Sqrt(lr.s2/float64(n)) < dist
	}
	// The half-width shrinks as n grows: search the first n that fits.
	lo := max(lr.n, 2)
	if !fits(maxUnits) {
		return maxUnits + 1
	}
	hi := maxUnits
	for lo < hi {
		if mid := (lo + hi) / 2; fits(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}
