// Package steady decides whether and where a benchmark's series of
// measurements reaches a steady state, by the rules of Traini et al.
// (EMSE 2022), who followed Barrett et al. (OOPSLA 2017):
//
//  1. Drop outliers: values outside median ± 3·(p99 − p1) of any
//     200-value sliding window (Filter).
//  2. Segment what is left by PELT, for changes in mean and variance,
//     with the penalty at the elbow of the CROPS path (package
//     changepoint).
//  3. Walk back from the last segment: an earlier segment belongs to the
//     steady state unless the 95% bootstrap confidence interval of the
//     ratio of the last segment's mean to its mean lies wholly beyond
//     [0.95, 1.05]. The first segment that does not belong ends the
//     warmup.
//  4. A series is steady if its steady part covers at least its last
//     MinTail values (500 of 3,000 in the paper).
//
// A benchmark is steady if every series (process, or JMH fork) is,
// never steady if none is, and inconsistent otherwise.
//
// The package is pure: values and a random source in, decisions out.
package steady

import (
	"gonum.org/v1/gonum/stat"
	"math"
	"math/rand/v2"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/changepoint"
)

// Class is the verdict on one series or one benchmark.
type Class int

// Verdicts. A series is Steady or NotSteady; a benchmark is also
// Inconsistent when some of its series are steady and some are not.
const (
	NotSteady Class = iota
	Steady
	Inconsistent
)

var classNames = [...]string{NotSteady: "not steady", Steady: "steady", Inconsistent: "inconsistent"}

// String returns the verdict as reports print it.
func (c Class) String() string {
	if c < 0 || int(c) >= len(classNames) {
		return "unknown"
	}
	return classNames[c]
}

// Defaults of the rules, Traini et al.'s: a change in mean within 5% is
// the same steady state, judged on 10,000 bootstrap resamples; the steady
// part covers at least the last 500 of 3,000 values, a sixth.
const (
	DefaultTolerance = 0.05
	DefaultResamples = 10000
	DefaultMinTail   = 1.0 / 6
)

// DefaultIterationTime is the time one value of a published series took,
// for a series that does not record it.
const DefaultIterationTime = 100 * time.Millisecond

// Options are the parameters of the rules; the zero value means Traini
// et al.'s.
type Options struct {
	// Window is the width of the outlier filter's sliding window; zero
	// means 200.
	Window int
	// Skip is the number of leading values the outlier filter never
	// drops: a warmup's first values are far off by nature. Traini et al.
	// skip ⌈200 / ln(1 + ops)⌉, ops being the operations one value
	// averages (SkipFor).
	Skip int
	// NoFilter turns the outlier filter off.
	NoFilter bool
	// Changepoint chooses the PELT penalty and minimum segment length.
	Changepoint changepoint.Options
	// Tolerance is the relative change in mean that still counts as the
	// same steady state; zero means 0.05.
	Tolerance float64
	// Confidence is the level of the bootstrap interval of the ratio of
	// means; zero means 0.95.
	Confidence float64
	// Resamples is the number of bootstrap resamples; zero means 10,000.
	Resamples int
	// Strict counts a segment as part of the steady state only when the
	// interval lies wholly inside [1 − Tolerance, 1 + Tolerance], an
	// equivalence test. By default it counts unless the interval lies
	// wholly outside, as the published code of Traini et al. decided.
	Strict bool
	// MinTail is the least number of values the steady part must cover
	// for the series to be steady; zero means 500. MinTailFraction, when
	// positive, sets it to that share of the series instead.
	MinTail         int
	MinTailFraction float64
}

func (o Options) withDefaults() Options {
	if o.Window <= 0 {
		o.Window = 200
	}
	if o.Tolerance <= 0 {
		o.Tolerance = DefaultTolerance
	}
	if o.Confidence <= 0 {
		o.Confidence = 0.95
	}
	if o.Resamples <= 0 {
		o.Resamples = DefaultResamples
	}
	if o.MinTail <= 0 {
		o.MinTail = 500
	}
	return o
}

// minTail returns the least steady part of a series of n values.
func (o Options) minTail(n int) int {
	if o.MinTailFraction > 0 {
		return int(math.Ceil(o.MinTailFraction * float64(n)))
	}
	return o.MinTail
}

// SkipFor returns the number of leading values the outlier filter keeps
// when each value is the mean of ops operations: ⌈200 / ln(1 + ops)⌉, as
// Traini et al. computed it. The fewer operations a value averages, the
// noisier the start of the series and the longer the filter leaves it
// alone.
func SkipFor(window int, ops float64) int {
	if window <= 0 {
		window = 200
	}
	ops = math.Ceil(ops)
	if ops < 1 {
		ops = 1
	}
	return int(math.Ceil(float64(window) / math.Log1p(ops)))
}

// A Series is the analysis of one series.
type Series struct {
	Class Class
	// Start is the 0-based index of the first value of the steady state,
	// −1 if the series is not steady.
	Start int
	// WarmupEnd is where the steady part would start even when it is too
	// short to count: len(values) when the last segment itself differs.
	WarmupEnd int
	// Kept lists the indexes of the values the outlier filter kept.
	Kept []int
	// Ends are the segment ends found by PELT, as indexes into the
	// series (not into Kept): segment j covers [Ends[j−1], Ends[j]).
	Ends []int
	// Penalty is the PELT penalty used; Elbow whether it came from the
	// elbow of the CROPS path.
	Penalty float64
	Elbow   bool
	// Means holds each segment's mean over all its values.
	Means []float64
}

// Analyze applies the rules to xs, one series in measurement order. The
// random source drives the bootstrap; a fixed seed makes the result
// reproducible.
func Analyze(xs []float64, opts Options, rng *rand.Rand) Series {
	opts = opts.withDefaults()
	n := len(xs)
	if n == 0 {
		return Series{Class: NotSteady, Start: -1}
	}
	var kept []int
	if opts.NoFilter {
		kept = make([]int, n)
		for i := range kept {
			kept[i] = i
		}
	} else {
		kept = Filter(xs, opts.Window, opts.Skip)
	}
	vals := make([]float64, len(kept))
	for i, j := range kept {
		vals[i] = xs[j]
	}
	cp := changepoint.Detect(vals, opts.Changepoint)
	// Map the ends back onto the series: a segment ends after its last
	// kept value, and the last one at the end of the series, so that
	// outliers belong to the segment they fell in.
	ends := make([]int, len(cp.Ends))
	for i, e := range cp.Ends {
		ends[i] = kept[e-1] + 1
	}
	if len(ends) > 0 {
		ends[len(ends)-1] = n
	}
	s := Series{Kept: kept, Ends: ends, Penalty: cp.Penalty, Elbow: cp.Elbow}
	start := 0
	for _, e := range ends {
		s.Means = append(s.Means, stat.Mean(xs[start:e], nil))
		start = e
	}
	s.WarmupEnd = steadyStart(xs, ends, opts, rng)
	s.Start = s.WarmupEnd
	if n-s.Start >= opts.minTail(n) && s.Start < n {
		s.Class = Steady
	} else {
		s.Class, s.Start = NotSteady, -1
	}
	return s
}

// steadyStart walks back from the last segment and returns the start of
// the earliest segment of the steady state: the end of the latest
// segment that differs from the last one.
func steadyStart(xs []float64, ends []int, opts Options, rng *rand.Rand) int {
	k := len(ends)
	if k < 2 {
		return 0
	}
	cmp := newComparer(xs[ends[k-2]:], opts, rng)
	for j := k - 2; j >= 0; j-- {
		lo := 0
		if j > 0 {
			lo = ends[j-1]
		}
		if cmp.differ(xs[lo:ends[j]]) {
			return ends[j]
		}
	}
	return 0
}

// Benchmark returns the verdict on a benchmark from those on its series:
// steady if all are, not steady if none is, inconsistent otherwise.
func Benchmark(series []Series) Class {
	steady := 0
	for _, s := range series {
		if s.Class == Steady {
			steady++
		}
	}
	switch {
	case len(series) > 0 && steady == len(series):
		return Steady
	case steady == 0:
		return NotSteady
	}
	return Inconsistent
}

// Segments splits the slices of one long process into segments of equal
// mean and returns their ends and means, and the index where its steady
// state starts (−1 when the process is not steady), as a report plots it.
// Its options suit a probe's processes of a few hundred slices.
func Segments(values []float64, rng *rand.Rand) (ends []int, means []float64, steadyFrom int) {
	a := Analyze(values, Options{MinTailFraction: 1.0 / 6, Resamples: 1000}, rng)
	if a.Class != Steady {
		return a.Ends, a.Means, -1
	}
	return a.Ends, a.Means, a.Start
}
