// Package compare decides whether benchmark results changed between two
// versions of the code: regression, improvement, no change, or
// inconclusive.
//
// Every benchmark and unit present in both versions gets a center (mean and
// median), the hierarchical percentile bootstrap confidence interval of the
// ratio NEW/OLD of the means, the relative change, and a verdict under one
// of three rules:
//
//   - RuleCI (the default): the CI of the ratio excludes 1 and the change
//     is at least the threshold.
//   - RuleCIOverlap (µOpTime, RQ4): the change is above the threshold and
//     the bootstrap CIs of the two means do not overlap.
//   - RuleUTest (benchstat): the Mann–Whitney U test of
//     golang.org/x/perf/benchmath rejects at alpha = 1 − confidence, and the
//     change of the medians is at least the threshold.
//
// The bootstrap resamples the hierarchy of a raw record (instance, suite
// run, iteration, slice), so the interval reflects the variation between
// processes, not only between slices of one process. The package is pure:
// records in, verdicts out, with the random source seeded from Options.
package compare

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/gobench-dyn/gobench-dyn/bootstrap"
	"github.com/gobench-dyn/gobench-dyn/record"
	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchunit"
)

// A Rule decides when a difference counts as a change.
type Rule string

// The rules.
const (
	RuleCI        Rule = "ci"
	RuleCIOverlap Rule = "ci-overlap"
	RuleUTest     Rule = "utest"
)

// ParseRule returns the rule named s.
func ParseRule(s string) (Rule, error) {
	switch r := Rule(s); r {
	case RuleCI, RuleCIOverlap, RuleUTest:
		return r, nil
	}
	return "", fmt.Errorf("unknown rule %q (want ci, ci-overlap or utest)", s)
}

// A Correction adjusts the significance level of each comparison for the
// number of comparisons made, so that a large suite does not raise false
// alarms merely by being large.
type Correction string

// The corrections.
const (
	// CorrectionNone tests every comparison at 1 − confidence.
	CorrectionNone Correction = "none"
	// CorrectionHolm is the Holm–Bonferroni step-down procedure: it
	// bounds the chance of any false alarm in the whole comparison by
	// 1 − confidence and is uniformly more powerful than Bonferroni.
	CorrectionHolm Correction = "holm"
	// CorrectionBonferroni tests every one of m comparisons at
	// (1 − confidence)/m.
	CorrectionBonferroni Correction = "bonferroni"
)

// ParseCorrection returns the correction named s.
func ParseCorrection(s string) (Correction, error) {
	switch c := Correction(s); c {
	case CorrectionNone, CorrectionHolm, CorrectionBonferroni:
		return c, nil
	}
	return "", fmt.Errorf("unknown correction %q (want none, holm or bonferroni)", s)
}

// Defaults. DefaultThreshold and DefaultCorrection were chosen from A/A
// comparisons of the published µOpTime Go data and from simulation; see
// docs/COMPARE.md.
const (
	DefaultRule       = RuleCI
	DefaultThreshold  = 0.03
	DefaultConfidence = 0.99
	DefaultCorrection = CorrectionNone
	DefaultResamples  = 10000
)

// Options configures a comparison. The zero value of a field selects its
// default, except Threshold, where zero means no threshold: use
// DefaultOptions.
type Options struct {
	Rule       Rule
	Threshold  float64 // minimum relative change that counts, for example 0.03
	Confidence float64 // confidence level of every interval and test, for example 0.99
	Correction Correction
	Resamples  int // bootstrap resamples per interval
	// MinSamples is the number of samples each version needs before a
	// comparison is decided; with fewer it is inconclusive. Zero means
	// MinSamples(Confidence).
	MinSamples int
	Seed       uint64 // seed of the bootstrap's random source
	// Units holds unit metadata, as read from benchmark text files, that
	// says which direction of a custom unit is better.
	Units benchfmt.UnitMetadataMap
}

// DefaultOptions returns the options of gobench-dyn compare without flags.
func DefaultOptions() Options {
	return Options{
		Rule:       DefaultRule,
		Threshold:  DefaultThreshold,
		Confidence: DefaultConfidence,
		Correction: DefaultCorrection,
		Resamples:  DefaultResamples,
	}
}

func (o *Options) fill() error {
	if o.Rule == "" {
		o.Rule = DefaultRule
	}
	if o.Confidence == 0 {
		o.Confidence = DefaultConfidence
	}
	if o.Correction == "" {
		o.Correction = DefaultCorrection
	}
	if o.Resamples == 0 {
		o.Resamples = DefaultResamples
	}
	if o.MinSamples == 0 {
		o.MinSamples = MinSamples(o.Confidence)
	}
	if _, err := ParseRule(string(o.Rule)); err != nil {
		return err
	}
	if _, err := ParseCorrection(string(o.Correction)); err != nil {
		return err
	}
	switch {
	case !(o.Confidence > 0 && o.Confidence < 1):
		return fmt.Errorf("confidence %v out of range (0, 1)", o.Confidence)
	case !(o.Threshold >= 0) || math.IsInf(o.Threshold, 0):
		return fmt.Errorf("threshold %v must be ≥ 0", o.Threshold)
	case o.Resamples < 100:
		return fmt.Errorf("%d resamples, want ≥ 100", o.Resamples)
	}
	return nil
}

// A Verdict is the outcome of one comparison.
type Verdict string

// The verdicts.
const (
	NoChange     Verdict = "no change"
	Regression   Verdict = "regression"
	Improvement  Verdict = "improvement"
	Changed      Verdict = "changed" // a change in a unit with no known better direction
	Inconclusive Verdict = "inconclusive"
)

// A Summary describes the samples of one benchmark and unit in one
// version.
type Summary struct {
	N          int     `json:"n"`          // measurement samples
	Iterations int     `json:"iterations"` // iterations (processes) they came from
	Mean       float64 `json:"mean"`
	Median     float64 `json:"median"`
	// CI is the hierarchical bootstrap interval of the mean at the
	// comparison's confidence level.
	CI bootstrap.Interval `json:"ci"`
}

// A Comparison is the result for one benchmark and unit.
type Comparison struct {
	Package   string `json:"pkg,omitempty"`
	Benchmark string `json:"bench"`
	Unit      string `json:"unit"`
	// Better is +1 if higher values of Unit are better, −1 if lower
	// values are, 0 if unknown.
	Better int     `json:"better"`
	Old    Summary `json:"old"`
	New    Summary `json:"new"`
	// Ratio is the bootstrap interval of mean(NEW)/mean(OLD) at the
	// confidence level the comparison was decided at.
	Ratio bootstrap.Interval `json:"ratio"`
	// Change is the relative change the rule judged: of the means, or of
	// the medians under RuleUTest. +0.2 is 20% higher.
	Change float64 `json:"change"`
	// P is the p-value of the rule's test: the achieved significance
	// level of the ratio interval (the smallest α at which the 1 − α
	// interval excludes 1) for the CI rules, the U test's p for utest.
	P float64 `json:"p"`
	// Confidence is the level the comparison was decided at, after any
	// correction for multiple comparisons.
	Confidence float64 `json:"confidence"`
	Verdict    Verdict `json:"verdict"`
	// Note explains an inconclusive verdict or a warning.
	Note string `json:"note,omitempty"`

	ratios *bootstrap.Tails // the ratio's bootstrap replicates, as far as verdict reads them
	welch  welch            // Welch's test of the iteration means
	rng    *rand.Rand
	oldT   *bootstrap.Tree
	newT   *bootstrap.Tree
}

// A Result is the comparison of two runs.
type Result struct {
	Rule        Rule           `json:"rule"`
	Threshold   float64        `json:"threshold"`
	Confidence  float64        `json:"confidence"`
	Correction  Correction     `json:"correction"`
	Resamples   int            `json:"resamples"`
	Seed        uint64         `json:"seed"`
	OldName     string         `json:"old_name,omitempty"`
	NewName     string         `json:"new_name,omitempty"`
	Comparisons []Comparison   `json:"comparisons"`
	OnlyOld     []record.Bench `json:"only_old,omitempty"`
	OnlyNew     []record.Bench `json:"only_new,omitempty"`
}

// Split separates a run that interleaves a baseline with the code under
// test into the baseline (Version record.VersionBaseline) and the head
// (every other version). Both share r's header and events.
func Split(r *record.Run) (baseline, head *record.Run) {
	baseline = &record.Run{Header: r.Header, Events: r.Events, Complete: r.Complete}
	head = &record.Run{Header: r.Header, Events: r.Events, Complete: r.Complete}
	for _, s := range r.Slices {
		if s.Version == record.VersionBaseline {
			baseline.Slices = append(baseline.Slices, s)
		} else {
			head.Slices = append(head.Slices, s)
		}
	}
	return baseline, head
}

// benches groups the keys of r by package and benchmark, ignoring the
// version label, in order of first appearance.
func benches(r *record.Run) ([]record.Bench, map[record.Bench][]record.Key) {
	var order []record.Bench
	keys := map[record.Bench][]record.Key{}
	for _, k := range r.Keys() {
		b := k.Bench
		if _, ok := keys[b]; !ok {
			order = append(order, b)
		}
		keys[b] = append(keys[b], k)
	}
	return order, keys
}

// series returns the samples of b in unit across all its version labels.
func series(r *record.Run, keys []record.Key, unit string) []record.IterationSample {
	var out []record.IterationSample
	for _, k := range keys {
		out = append(out, r.Series(k, unit)...)
	}
	return out
}

func units(r *record.Run, keys []record.Key) []string {
	var us []string
	for _, k := range keys {
		us = append(us, r.Units(k)...)
	}
	us = record.SortUnits(us)
	return slices.Compact(us)
}

// Runs compares every benchmark and unit present in both old and new.
// Benchmarks are matched by package and full name; version labels are
// ignored, so the halves returned by Split compare directly.
func Runs(old, new *record.Run, opts Options) (*Result, error) {
	if old == nil || new == nil {
		return nil, errors.New("compare: nil run")
	}
	if err := opts.fill(); err != nil {
		return nil, err
	}
	res := &Result{
		Rule:       opts.Rule,
		Threshold:  opts.Threshold,
		Confidence: opts.Confidence,
		Correction: opts.Correction,
		Resamples:  opts.Resamples,
		Seed:       opts.Seed,
	}
	type job struct {
		b          record.Bench
		unit       string
		olds, news []record.IterationSample
	}
	var jobs []job
	oldOrder, oldKeys := benches(old)
	newOrder, newKeys := benches(new)
	for _, b := range oldOrder {
		nk, ok := newKeys[b]
		if !ok {
			res.OnlyOld = append(res.OnlyOld, b)
			continue
		}
		ok2 := oldKeys[b]
		newUnits := units(new, nk)
		for _, u := range units(old, ok2) {
			if slices.Contains(newUnits, u) {
				jobs = append(jobs, job{b, u, series(old, ok2, u), series(new, nk, u)})
			}
		}
	}
	// The resampling dominates and every comparison is independent, so
	// they run on all CPUs. Each draws from its own stream, derived from
	// the seed and its position, so the result does not depend on the
	// number of workers, and adding a benchmark does not change the
	// verdicts of the others.
	res.Comparisons = make([]Comparison, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(jobs)) {
		wg.Go(func() {
			for i := range next {
				j := jobs[i]
				rng := rand.New(rand.NewPCG(opts.Seed, uint64(i)))
				res.Comparisons[i] = summarize(j.b, j.unit, j.olds, j.news, opts, rng)
			}
		})
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, b := range newOrder {
		if _, ok := oldKeys[b]; !ok {
			res.OnlyNew = append(res.OnlyNew, b)
		}
	}
	decide(res.Comparisons, opts)
	for i := range res.Comparisons {
		c := &res.Comparisons[i]
		c.ratios, c.rng, c.oldT, c.newT = nil, nil, nil, nil
	}
	return res, nil
}

// Better reports whether higher (+1) or lower (−1) values of unit are
// better, or 0 if unknown. Metadata in units wins; then benchfmt's
// built-in defaults (time, allocation and MB/s); then any other per-op
// unit counts as a cost, as go test's custom metrics almost always are.
func Better(unit string, units benchfmt.UnitMetadataMap) int {
	_, tidy := benchunit.Tidy(1, unit)
	if units != nil {
		if m := units.Get(unit, "better"); m != nil {
			return units.GetBetter(unit)
		}
	}
	if b := units.GetBetter(tidy); b != 0 {
		return b
	}
	if b := units.GetBetter(unit); b != 0 {
		return b
	}
	if strings.HasSuffix(unit, "/op") {
		return -1
	}
	return 0
}

// MinSamples returns the number of samples per version needed before a
// difference can be declared at the given confidence: the smallest n for
// which the U test on n against n samples can reach p ≤ 1 − confidence at
// all (5 at 99%, 4 at 95%). Below it the U test cannot reject, and a
// percentile bootstrap of so few values is far too narrow to trust.
func MinSamples(confidence float64) int {
	alpha := 1 - confidence
	// The smallest two-sided p of the U test for n against n samples
	// with no ties is 2/C(2n, n).
	for n := 2; n < 64; n++ {
		if 2/binom(2*n, n) <= alpha*(1+1e-9) {
			return n
		}
	}
	return 64
}

func binom(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

func summary(t *bootstrap.Tree, s []record.IterationSample, values []float64, opts Options, rng *rand.Rand) Summary {
	sum := Summary{N: len(values), Mean: math.NaN(), Median: math.NaN()}
	for _, it := range s {
		if len(it.Values) > 0 {
			sum.Iterations++
		}
	}
	if len(values) == 0 {
		return sum
	}
	sum.Mean = mean(values)
	sum.Median = median(values)
	sum.CI = bootstrap.MeanCI(t, opts.Confidence, opts.Resamples, rng)
	return sum
}

func summarize(b record.Bench, unit string, olds, news []record.IterationSample, opts Options, rng *rand.Rand) Comparison {
	oldV, newV := record.Measurements(olds), record.Measurements(news)
	c := Comparison{
		Package:    b.Package,
		Benchmark:  b.Benchmark,
		Unit:       unit,
		Better:     Better(unit, opts.Units),
		Confidence: opts.Confidence,
		oldT:       record.Tree(olds),
		newT:       record.Tree(news),
		rng:        rng,
	}
	c.Old = summary(c.oldT, olds, oldV, opts, rng)
	c.New = summary(c.newT, news, newV, opts, rng)
	need := max(opts.MinSamples, 1)
	if c.Old.N < need || c.New.N < need {
		c.Verdict = Inconclusive
		c.Note = fmt.Sprintf("too few samples: %d old, %d new; need ≥ %d each at %s confidence", c.Old.N, c.New.N, need, pct(opts.Confidence))
		c.Change = c.New.Mean/c.Old.Mean - 1
		c.P = math.NaN()
		c.Ratio = nanInterval(opts.Confidence)
		return c
	}
	th := benchmath.Thresholds{CompareAlpha: 1 - opts.Confidence}
	utest := func() float64 {
		return benchmath.AssumeNothing.Compare(benchmath.NewSample(slices.Clone(oldV), &th), benchmath.NewSample(slices.Clone(newV), &th)).P
	}
	if c.Old.Mean == 0 {
		// The ratio is undefined; only the U test can tell.
		c.Change, c.P = 0, 1
		if c.New.Mean != 0 {
			c.Change, c.P = math.Inf(1), utest()
		}
		return c
	}
	c.Change = c.New.Mean/c.Old.Mean - 1
	ratios := bootstrap.RatioReplicates(c.oldT, c.newT, opts.Resamples, rng)
	for i, r := range ratios {
		if math.IsNaN(r) { // a resample of zeros in both versions
			ratios[i] = 1
		}
	}
	slices.Sort(ratios)
	c.P = asl(ratios)
	// A correction only ever raises the confidence level, so the tails
	// at opts.Confidence serve every level verdict may ask for.
	if len(ratios) > 0 {
		tails := bootstrap.TrimTails(ratios, opts.Confidence)
		c.ratios = &tails
	}
	if opts.Rule != RuleCIOverlap {
		c.oldT, c.newT = nil, nil // only ci-overlap resamples again
	}
	c.welch = welchRatio(olds, news)
	if opts.Rule == RuleCI {
		// A difference counts only if the Welch test on iteration means
		// agrees with the bootstrap: with a handful of processes the
		// percentile bootstrap's interval is too narrow (it covered 69–93%
		// instead of 99% with 2–6 iterations in stopper's simulation).
		c.P = max(c.P, c.welch.p)
	}
	if opts.Rule == RuleUTest {
		// benchstat compares medians with the U test.
		c.Change = c.New.Median/c.Old.Median - 1
		c.P = utest()
	}
	return c
}

// asl returns the achieved significance level of the hypothesis ratio = 1
// from sorted bootstrap replicates of the ratio: the smallest α at which
// the 1 − α percentile interval excludes 1, that is twice the share of
// replicates on the far side of 1. When fewer than 10 replicates lie
// there, the share is too coarse to resolve small α (as a corrected level
// needs), and the tail is taken from a normal fit to the log ratios.
func asl(sorted []float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	below, _ := slices.BinarySearch(sorted, 1)
	above := n - below
	for _, r := range sorted[below:] {
		if r != 1 {
			break
		}
		above-- // replicates equal to 1 count half on each side
	}
	equal := n - below - above
	tail := math.Min(float64(below), float64(above)) + float64(equal)/2
	if tail >= 10 {
		return math.Min(1, 2*tail/float64(n))
	}
	var s, ss float64
	k := 0
	for _, r := range sorted {
		if r > 0 && !math.IsInf(r, 0) {
			l := math.Log(r)
			s += l
			ss += l * l
			k++
		}
	}
	if k < 2 {
		return math.Min(1, 2*tail/float64(n))
	}
	m := s / float64(k)
	sd := math.Sqrt(math.Max(0, ss/float64(k)-m*m))
	if sd == 0 {
		if m == 0 {
			return 1
		}
		return 0
	}
	return math.Erfc(math.Abs(m) / sd / math.Sqrt2)
}

// decide sets the confidence level and verdict of every comparison that
// has enough samples, correcting for their number as opts asks.
func decide(cs []Comparison, opts Options) {
	var idx []int
	for i := range cs {
		if cs[i].Verdict != Inconclusive {
			idx = append(idx, i)
		}
	}
	alpha := 1 - opts.Confidence
	m := float64(len(idx))
	switch opts.Correction {
	case CorrectionHolm:
		// Step down through the p-values in ascending order: the k-th
		// smallest is tested at α/(m−k+1), and after the first one that
		// is not significant no later one is.
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(cs[a].P, cs[b].P) })
		stopped := false
		for k, i := range idx {
			if !verdict(&cs[i], alpha/(m-float64(k)), !stopped, opts) {
				stopped = true
			}
		}
	case CorrectionBonferroni:
		for _, i := range idx {
			verdict(&cs[i], alpha/m, true, opts)
		}
	default:
		for _, i := range idx {
			verdict(&cs[i], alpha, true, opts)
		}
	}
}

// verdict decides one comparison at significance level alpha and reports
// whether the difference is statistically significant at that level. If
// allowed is false (a Holm step-down has stopped), it is not.
func verdict(c *Comparison, alpha float64, allowed bool, opts Options) bool {
	c.Confidence = 1 - alpha
	if c.ratios != nil {
		c.Ratio = c.ratios.Interval(c.New.Mean/c.Old.Mean, c.Confidence)
		if opts.Rule == RuleCI {
			lo, hi := c.welch.interval(alpha)
			c.Ratio.Lo, c.Ratio.Hi = min(c.Ratio.Lo, lo), max(c.Ratio.Hi, hi)
		}
	} else {
		c.Ratio = nanInterval(c.Confidence)
	}
	var significant bool
	switch opts.Rule {
	case RuleCIOverlap:
		if c.Confidence != opts.Confidence {
			c.Old.CI = bootstrap.MeanCI(c.oldT, c.Confidence, opts.Resamples, c.rng)
			c.New.CI = bootstrap.MeanCI(c.newT, c.Confidence, opts.Resamples, c.rng)
		}
		significant = c.Old.CI.Hi < c.New.CI.Lo || c.New.CI.Hi < c.Old.CI.Lo
	default:
		significant = c.P < alpha
	}
	significant = significant && allowed
	// The paper's rule asks for a change strictly above the threshold;
	// the others for at least the threshold.
	big := math.Abs(c.Change) >= opts.Threshold
	if opts.Rule == RuleCIOverlap {
		big = math.Abs(c.Change) > opts.Threshold
	}
	switch {
	case !significant || !big || c.Change == 0 || math.IsNaN(c.Change):
		c.Verdict = NoChange
	case c.Better == 0:
		c.Verdict = Changed
	case (c.Change > 0) == (c.Better > 0):
		c.Verdict = Improvement
	default:
		c.Verdict = Regression
	}
	return significant
}

func nanInterval(conf float64) bootstrap.Interval {
	return bootstrap.Interval{Center: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Confidence: conf}
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func pct(conf float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.4f", conf*100), "0"), ".") + "%"
}
