// Package gate decides whether benchmark results changed between two
// versions of the code, with one of four verdicts: regression,
// improvement, no change, or inconclusive.
//
// The unit of evidence is the process (iteration), never the slice: slices
// of one process share its memory layout, GC pacing and the machine's state
// and are not independent. Each process is reduced to its mean, and the
// ratio NEW/OLD gets a t interval on the log scale, which never leaves
// (−100%, +∞) as a change:
//
//   - paired (Options.Paired, the halves of one run that interleaved both
//     versions): the per-suite-run difference of the mean log process
//     means, so that drift shared by both versions cancels; from
//     MinTrimmedPairs pairs on, the narrower of the t interval of their
//     mean and Yuen's interval of their 20% trimmed mean, each at half the
//     level, so that a few disturbed processes do not hide a change;
//   - unpaired (two separately measured files): Welch's interval of the
//     difference of the mean log process means.
//
// A change counts only when the whole interval lies beyond ±threshold, and
// "no change" only when it lies inside (an equivalence test); an interval
// that straddles the threshold is inconclusive, with the smallest change
// the data could have shown and about how many more processes would settle
// it. Allocation counts that are constant in every process of both versions
// are compared exactly. Rules RuleCIOverlap and RuleUTest change when a
// difference counts, on process means too. The package is pure: records in,
// verdicts out.
package gate

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/combin"

	"github.com/gobench-dyn/gobench-dyn/internal/choice"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchunit"
)

// A Rule decides when a difference counts as a change.
type Rule string

// The rules. Under each, "no change" needs the ratio interval inside
// ±threshold.
const (
	// RuleCI (the default): a change counts when the whole interval of
	// the ratio lies beyond ±threshold.
	RuleCI Rule = "ci"
	// RuleCIOverlap (µOpTime, RQ4): the change is above the threshold and
	// the t intervals of the two versions' means of process means do not
	// overlap.
	RuleCIOverlap Rule = "ci-overlap"
	// RuleUTest (benchstat): the Mann–Whitney U test of
	// golang.org/x/perf/benchmath on the process means rejects at
	// 1 − confidence, and the change of their medians is at least the
	// threshold. Process means, not slices: slices of one process are not
	// independent, and the U test on them raised A/A false alarms far
	// above its level (docs/COMPARE.md, "Rules").
	RuleUTest Rule = "utest"
)

// ParseRule returns the rule named s.
func ParseRule(s string) (Rule, error) {
	return choice.Parse("rule", s, RuleCI, RuleCIOverlap, RuleUTest)
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
	return choice.Parse("correction", s, CorrectionNone, CorrectionHolm, CorrectionBonferroni)
}

// Defaults. DefaultThreshold and DefaultCorrection were chosen from A/A
// comparisons of the published µOpTime Go data and from simulation; see
// docs/COMPARE.md.
const (
	DefaultRule       = RuleCI
	DefaultThreshold  = 0.03
	DefaultConfidence = 0.99
	DefaultCorrection = CorrectionNone
	// DefaultMinProcesses is the least number of processes per version
	// (of paired suite runs, for a paired comparison) before a change or
	// its absence can be declared: a t interval needs two to have any
	// width at all.
	DefaultMinProcesses = 2
)

// Options configures a comparison. The zero value of a field selects its
// default, except Threshold, where zero means no threshold: use
// DefaultOptions.
type Options struct {
	// confirmAlpha is the one-sided level of a confirming plan's fresh
	// pairs, set by decide for the run's number of benchmarks.
	confirmAlpha float64
	Rule         Rule
	Threshold    float64 // minimum relative change that counts, for example 0.03
	Confidence   float64 // confidence level of every interval and test, for example 0.99
	Correction   Correction
	// MinSamples is the number of processes (iterations) each version
	// needs, or of paired suite runs a paired comparison needs, before a
	// comparison is decided; with fewer it is inconclusive. Zero means
	// DefaultMinProcesses, or MinSamples(Confidence) under RuleUTest.
	MinSamples int
	// Paired compares the two versions suite run by suite run: the unit
	// of evidence is the difference of the mean log process means of
	// the two versions within one suite run (and instance), so that drift
	// shared by both cancels. Use it for the halves of one run that
	// interleaved both versions (run --baseline); two separately
	// measured files are compared unpaired.
	Paired bool
	// Plan, when it plans more than one look, judges paired comparisons
	// sequentially, as run --baseline stopped them: the verdict is that
	// of the first decided look, at the plan's split level.
	Plan Plan
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
	if _, err := ParseRule(string(o.Rule)); err != nil {
		return err
	}
	if _, err := ParseCorrection(string(o.Correction)); err != nil {
		return err
	}
	if o.MinSamples == 0 {
		o.MinSamples = DefaultMinProcesses
		if o.Rule == RuleUTest {
			o.MinSamples = MinSamples(o.Confidence)
		}
	}
	switch {
	case !(o.Confidence > 0 && o.Confidence < 1):
		return fmt.Errorf("confidence %v out of range (0, 1)", o.Confidence)
	case !(o.Threshold >= 0) || math.IsInf(o.Threshold, 0):
		return fmt.Errorf("threshold %v must be ≥ 0", o.Threshold)
	case o.MinSamples < 2:
		return fmt.Errorf("%d processes per version is too few for an interval, want ≥ 2", o.MinSamples)
	}
	return nil
}

// A Verdict is the outcome of one comparison.
type Verdict string

// The verdicts.
const (
	// NoChange: the whole interval of the change lies inside ±threshold
	// (an equivalence test), or a deterministic unit did not change.
	NoChange Verdict = "no change"
	// Regression and Improvement: the whole interval lies beyond the
	// threshold on the worse or the better side, or a deterministic unit
	// changed exactly.
	Regression  Verdict = "regression"
	Improvement Verdict = "improvement"
	Changed     Verdict = "changed" // a change in a unit with no known better direction
	// Inconclusive: the interval straddles the threshold, or there are
	// too few processes to have one. The data can neither show a change
	// nor rule one out.
	Inconclusive Verdict = "inconclusive"
	// Unaffected: not measured, as the benchmark executes no code that
	// differs between the versions. Not a measured equivalence, which is
	// NoChange.
	Unaffected Verdict = "unaffected"
)

// The methods behind a comparison.
const (
	MethodPaired = "paired" // t (or trimmed-mean) interval of per-suite-run log ratios
	// MethodSlicePaired: the t (or trimmed-mean) interval of the mean
	// log ratios of the slice pairs of each process pair, for versions
	// that ran as duets taking turns slice by slice.
	MethodSlicePaired = "slice-paired"
	MethodWelch       = "welch" // Welch's t interval of log process means
	MethodExact       = "exact" // a deterministic unit, constant in both versions
	// MethodSeparated: a deterministic unit whose processes of one
	// version all count more than those of the other (an exact
	// permutation test).
	MethodSeparated = "separated"
	MethodNone      = "" // not enough data for any
	// MethodImpact: not measured; the change reaches no code the
	// benchmark executes (a record.EventUnaffected).
	MethodImpact = "impact"
)

// A Summary describes the samples of one benchmark and unit in one
// version.
type Summary struct {
	N          int     `json:"n"`          // measurement samples
	Iterations int     `json:"iterations"` // iterations (processes) they came from
	Mean       float64 `json:"mean"`
	Median     float64 `json:"median"`
	// CI is the t interval of the mean of the process means at the
	// comparison's confidence level: the processes, not the slices, are
	// the independent units.
	CI stats.Interval `json:"ci"`
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
	// Ratio is the interval of NEW/OLD at the level the comparison was
	// decided at, from a t interval on the log scale: its center is the
	// ratio of the geometric means of the process means, or when Trimmed
	// the exponentiated trimmed mean of the per-suite-run log ratios.
	Ratio stats.Interval `json:"ratio"`
	// Change is the relative change the rule judged: Ratio.Center − 1, or
	// the change of the medians of the process means under RuleUTest.
	// +0.2 is 20% higher.
	Change float64 `json:"change"`
	// P is the two-sided p-value of no change: of the t test on the log
	// scale, or of the U test under RuleUTest.
	P float64 `json:"p"`
	// Confidence is the level the comparison was decided at, after any
	// correction for multiple comparisons and sequential looks.
	Confidence float64 `json:"confidence"`
	Verdict    Verdict `json:"verdict"`
	// Method is what the verdict rests on: MethodPaired, MethodWelch,
	// MethodExact, or MethodNone.
	Method string `json:"method,omitempty"`
	// Trimmed reports that a paired interval is Yuen's of the trimmed
	// mean of the per-suite-run log ratios, which was narrower than the t
	// interval of their mean (some pairs lay far out).
	Trimmed bool `json:"trimmed,omitempty"`
	// Units is the number of independent units behind the interval:
	// paired suite runs (MethodPaired) or processes of the smaller
	// version (MethodWelch).
	Units int `json:"units,omitempty"`
	// Look is the number of paired suite runs at which a sequential
	// comparison was decided, or its last look.
	Look int `json:"look,omitempty"`
	// Detectable is, for an inconclusive comparison, the smallest change
	// this interval could have shown: threshold plus half-width.
	Detectable float64 `json:"detectable,omitempty"`
	// More is, for an inconclusive comparison, about how many more units
	// would settle it if the observed change and spread held; −1 if no
	// practical number would.
	More int `json:"more,omitempty"`
	// Note explains an inconclusive verdict or a warning.
	Note string `json:"note,omitempty"`
	// LayoutSpread is, for a slice-paired comparison whose process pairs
	// each ran their own links with randomised code layouts, the
	// standard deviation of the change between layouts when it dominates
	// the pairs' spread: 0.05 is ±5% across layouts. The benchmark is
	// sensitive to where the linker places code, and a change of that
	// size can come of a change that only moves it.
	LayoutSpread float64 `json:"layout_spread,omitempty"`
	// Pairing is PairingProcess for a benchmark of a slice-paired run
	// that was measured by process pairs instead, its Note saying why;
	// "" otherwise.
	Pairing string `json:"pairing,omitempty"`
	// Confirmation is, for a change a confirming plan found, what the
	// fresh pairs measured after it showed; a change they do not confirm
	// is inconclusive, its Note saying so with both intervals.
	Confirmation *Confirmation `json:"confirmation,omitempty"`
	confirmNote  string

	lr     logRatio
	d      []float64 // per-suite-run log ratios of a paired comparison
	oldPMs []float64 // process means
	newPMs []float64
	done   bool // decided before decide: exact, or too few data
	tooFew bool // inconclusive for too few units or processes to judge
}

// A Result is the comparison of two runs.
type Result struct {
	Rule       Rule       `json:"rule"`
	Threshold  float64    `json:"threshold"`
	Confidence float64    `json:"confidence"`
	Correction Correction `json:"correction"`
	Paired     bool       `json:"paired"`
	// SlicePaired reports that the versions ran as duets, and some
	// comparison rests on their slice pairs (MethodSlicePaired).
	SlicePaired bool `json:"slice_paired,omitempty"`
	// From and To bound the time the slices of a slice-paired comparison
	// were measured in: its changes describe the machine of that time.
	From time.Time `json:"from,omitzero"`
	To   time.Time `json:"to,omitzero"`
	// OldCommit is the commit of a baseline checked out of git.
	OldCommit string `json:"old_commit,omitempty"`
	// Looks are the planned looks of a sequential comparison, and
	// Spending how they spend the level.
	Looks    []int    `json:"looks,omitempty"`
	Spending Spending `json:"spending,omitempty"`
	// RunFalseAlarm, when its changes are confirmed on fresh pairs, bounds
	// the chance that a run in which nothing changed reports any
	// regression or improvement, whatever the number of benchmarks.
	RunFalseAlarm float64        `json:"run_false_alarm,omitempty"`
	OldName       string         `json:"old_name,omitempty"`
	NewName       string         `json:"new_name,omitempty"`
	Comparisons   []Comparison   `json:"comparisons"`
	OnlyOld       []record.Bench `json:"only_old,omitempty"`
	OnlyNew       []record.Bench `json:"only_new,omitempty"`
	// Shift is the change of time most benchmarks of two separately
	// measured runs share, when they move together; nil otherwise.
	Shift *Shift `json:"shift,omitempty"`
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
		Paired:     opts.Paired,
	}
	if opts.Paired && opts.Plan.Sequential() {
		res.Looks, res.Spending = opts.Plan.Looks, opts.Plan.Spending
		if opts.Plan.Confirm {
			res.RunFalseAlarm = RunFalseAlarm
		}
	}
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
		allocs := allocsOf(series(old, ok2, "allocs/op"), series(new, nk, "allocs/op"))
		for _, u := range units(old, ok2) {
			if slices.Contains(newUnits, u) {
				olds := series(old, ok2, u)
				// Duets make the design slice-paired even where too few
				// of them to judge leave every comparison without a method
				// (a run interrupted after its first duets).
				res.SlicePaired = res.SlicePaired || opts.Paired && slices.ContainsFunc(olds, func(s record.IterationSample) bool { return s.Duet })
				res.Comparisons = append(res.Comparisons, summarize(b, u, olds, series(new, nk, u), allocs, opts))
			}
		}
	}
	for _, b := range newOrder {
		if _, ok := oldKeys[b]; !ok {
			res.OnlyNew = append(res.OnlyNew, b)
		}
	}
	if res.SlicePaired {
		res.From, res.To = span(old, new)
	}
	decide(res.Comparisons, opts)
	noteProcessPairs(res.Comparisons, old, new)
	res.Shift = suiteShift(res.Comparisons, opts.Paired, opts.Threshold)
	res.Comparisons = append(res.Comparisons, unaffected(new, newKeys)...)
	return res, nil
}

// UnaffectedNote is what a comparison of a benchmark that was not
// measured says.
const UnaffectedNote = "not measured: executes no code and reads no file that differs"

// unaffected returns a comparison for each benchmark r's events say was
// not measured, for it executes no code and reads no file that differs, unless it was
// measured all the same. It comes after the corrections for multiple
// comparisons, which count only what was measured.
func unaffected(r *record.Run, measured map[record.Bench][]record.Key) []Comparison {
	var out []Comparison
	seen := map[record.Bench]bool{}
	for _, ev := range r.Events {
		b := record.Bench{Package: ev.Package, Benchmark: ev.Benchmark}
		if ev.Event != record.EventUnaffected || seen[b] || len(measured[b]) > 0 {
			continue
		}
		seen[b] = true
		out = append(out, Comparison{
			Package: b.Package, Benchmark: b.Benchmark, Unit: "ns/op", Better: -1,
			Old:    Summary{Mean: math.NaN(), Median: math.NaN(), CI: stats.Interval{Center: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}},
			New:    Summary{Mean: math.NaN(), Median: math.NaN(), CI: stats.Interval{Center: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}},
			Ratio:  stats.Interval{Center: math.NaN(), Lo: math.NaN(), Hi: math.NaN()},
			Change: math.NaN(), P: math.NaN(), Verdict: Unaffected, Method: MethodImpact,
			Note: cmp.Or(ev.Reason, UnaffectedNote), done: true,
		})
	}
	return out
}

// span returns the start of the first slice and the end of the last of
// the runs.
func span(runs ...*record.Run) (from, to time.Time) {
	for _, r := range runs {
		for _, s := range r.Slices {
			if s.Start.IsZero() {
				continue
			}
			end := s.Start.Add(time.Duration(s.WallNs))
			if from.IsZero() || s.Start.Before(from) {
				from = s.Start
			}
			if end.After(to) {
				to = end
			}
		}
	}
	return from, to
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

func summary(s []record.IterationSample, pms []float64, conf float64) Summary {
	values := record.Measurements(s)
	sum := Summary{N: len(values), Iterations: len(pms), Mean: math.NaN(), Median: math.NaN(), CI: nanInterval(conf)}
	if len(values) == 0 {
		return sum
	}
	sum.Mean = stat.Mean(values, nil)
	sum.Median = stats.Median(values)
	sum.CI = meanCI(pms, conf)
	return sum
}

// meanCI is the t interval of the mean of the process means pms.
func meanCI(pms []float64, conf float64) stats.Interval {
	if len(pms) < 2 {
		return nanInterval(conf)
	}
	m, v := stat.MeanVariance(pms, nil)
	h := stats.TCritical(1-conf, float64(len(pms)-1)) * math.Sqrt(v/float64(len(pms)))
	return stats.Interval{Center: m, Lo: m - h, Hi: m + h, Confidence: conf}
}

// deterministic reports whether unit counts something a benchmark does the
// same number of times in every run of the same code: allocations.
func deterministic(unit string) bool {
	_, tu := benchunit.Tidy(1, unit)
	return tu == "allocs/op" || tu == "B/op"
}

// constant returns the value of every measurement of s, if they are all
// equal.
func constant(s []record.IterationSample) (float64, bool) {
	vs := record.Measurements(s)
	if len(vs) == 0 {
		return 0, false
	}
	for _, v := range vs[1:] {
		if v != vs[0] {
			return 0, false
		}
	}
	return vs[0], true
}

func summarize(b record.Bench, unit string, olds, news []record.IterationSample, allocs allocCounts, opts Options) Comparison {
	c := Comparison{
		Package:    b.Package,
		Benchmark:  b.Benchmark,
		Unit:       unit,
		Better:     Better(unit, opts.Units),
		Confidence: opts.Confidence,
		P:          math.NaN(),
		Ratio:      nanInterval(opts.Confidence),
		oldPMs:     iterationMeans(olds),
		newPMs:     iterationMeans(news),
	}
	c.Old = summary(olds, c.oldPMs, opts.Confidence)
	c.New = summary(news, c.newPMs, opts.Confidence)
	c.Change = c.New.Mean/c.Old.Mean - 1
	if bad := nonFinite(c.oldPMs, c.newPMs); bad != "" {
		// b.ReportMetric can report NaN and the infinities; they have
		// no interval, and a verdict would rest on nothing.
		c.Verdict, c.done = Inconclusive, true
		c.Note = bad + " among the values: no interval"
		return c
	}
	if deterministic(unit) {
		a, ok1 := constant(olds)
		z, ok2 := constant(news)
		if ok1 && ok2 {
			exact(&c, a, z, opts)
			return c
		}
		if math.Abs(c.New.Mean-c.Old.Mean) < 1 {
			// go test prints these as whole numbers per op: a mean
			// difference below one is below their resolution, such as
			// a stray runtime allocation amortized over b.N.
			c.Method, c.done, c.P, c.Verdict = MethodExact, true, 1, NoChange
			c.Note = fmt.Sprintf("below the resolution of one per op: %.3g → %.3g", c.Old.Mean, c.New.Mean)
			return c
		}
		if allocs.measured && !allocs.whole && allocs.none {
			// The code allocates nothing per op in either version:
			// what the slices counted was made per call.
			c.Method, c.done, c.P, c.Verdict = MethodExact, true, 1, NoChange
			c.Note = fmt.Sprintf("no allocation per op in either version (a slice of each counted 0 allocs/op): %s → %s per call, spread over b.N", fmtCount(c.Old.Mean), fmtCount(c.New.Mean))
			return c
		}
		if separated(&c, opts) {
			return c
		}
		if amortised(&c, allocs) {
			return c
		}
	}
	if opts.Paired {
		// With fewer than two suite runs holding both versions (one
		// suite run of many iterations, say) there is nothing to pair,
		// and Welch's interval over the processes still holds.
		if lr, d, ok := slicePairedLog(olds, news); ok {
			c.lr, c.d, c.Method, c.Units = lr, d, MethodSlicePaired, lr.n
			if s, ok := layoutSpread(olds, news, opts.Threshold); ok {
				c.LayoutSpread = s
			}
		} else if lr, d, ok := pairedLog(olds, news); ok {
			c.lr, c.d, c.Method, c.Units = lr, d, MethodPaired, lr.n
		}
	}
	if c.Method == MethodNone {
		lr, ok := welchLog(c.oldPMs, c.newPMs)
		if !ok && min(len(c.oldPMs), len(c.newPMs)) >= 2 {
			c.Verdict, c.done = Inconclusive, true
			c.Note = "values ≤ 0 have no ratio on the log scale"
			return c
		}
		c.lr, c.Method, c.Units = lr, MethodWelch, lr.n
	}
	need := opts.MinSamples
	if c.Units < need || len(c.oldPMs) < 2 || len(c.newPMs) < 2 {
		c.Verdict, c.done, c.tooFew = Inconclusive, true, true
		if c.paired() {
			c.Note = fmt.Sprintf("too few %s: %d; need ≥ %d", c.unitName(), c.Units, need)
		} else {
			c.Note = fmt.Sprintf("too few processes: %d old, %d new; need ≥ %d each", len(c.oldPMs), len(c.newPMs), need)
		}
		return c
	}
	c.Change = math.Exp(c.lr.mean) - 1
	c.P = c.lr.p
	if opts.Rule == RuleUTest {
		// benchstat's test and center, on process means rather than on
		// slices, which are not independent.
		th := benchmath.Thresholds{CompareAlpha: 1 - opts.Confidence}
		c.P = benchmath.AssumeNothing.Compare(benchmath.NewSample(slices.Clone(c.oldPMs), &th), benchmath.NewSample(slices.Clone(c.newPMs), &th)).P
		c.Change = stats.Median(c.newPMs)/stats.Median(c.oldPMs) - 1
	}
	return c
}

// exact decides a deterministic unit that was constant in both versions:
// any change of allocs/op counts, whatever the threshold (one more
// allocation per operation is real, not noise); a change of B/op counts
// when it reaches the threshold.
func exact(c *Comparison, a, z float64, opts Options) {
	c.Method, c.done, c.P = MethodExact, true, 1
	c.Ratio = stats.Interval{Center: z / a, Lo: z / a, Hi: z / a, Confidence: 1}
	switch {
	case a == z:
		c.Change, c.Ratio = 0, stats.Interval{Center: 1, Lo: 1, Hi: 1, Confidence: 1}
	case a == 0:
		c.Change = math.Inf(1)
	default:
		c.Change = z/a - 1
	}
	c.Confidence = 1
	_, tu := benchunit.Tidy(1, c.Unit)
	if a == z || tu != "allocs/op" && math.Abs(c.Change) < opts.Threshold {
		c.Verdict = NoChange
		return
	}
	c.P = 0
	c.Verdict = directed(c.Better, c.Change > 0)
	c.Note = fmt.Sprintf("exact: %s → %s in every process", fmtNum(a), fmtNum(z))
}

// separated decides a deterministic unit whose processes do not overlap:
// every process of one version counts more than every process of the
// other. A count that is zero in some processes (B/op of a function that
// starts allocating, with a stray runtime allocation amortized over b.N
// in others) has no ratio on the log scale, yet the change is plain. The
// evidence is the exact permutation test of complete separation: with n
// and m processes, two orderings of the (n+m choose n) put one version
// wholly above the other, so p = 2/C(n+m, n), which 99% needs n = m = 5
// to pass. The means must differ by a whole unit per op, the resolution
// go test prints, and by the threshold.
func separated(c *Comparison, opts Options) bool {
	olds, news := c.oldPMs, c.newPMs
	n, m := len(olds), len(news)
	if n == 0 || m == 0 || math.Abs(c.New.Mean-c.Old.Mean) < 1 {
		return false
	}
	up := slices.Min(news) > slices.Max(olds)
	if !up && slices.Max(news) >= slices.Min(olds) {
		return false
	}
	p := 2 * math.Exp(-combin.LogGeneralizedBinomial(float64(n+m), float64(n)))
	if p > 1-opts.Confidence || c.Old.Mean > 0 && math.Abs(c.Change) < opts.Threshold {
		return false
	}
	c.Method, c.done, c.P = MethodSeparated, true, p
	if c.Old.Mean <= 0 {
		c.Change = math.Inf(1)
	}
	lo, hi := slices.Min(news)/slices.Max(olds), slices.Max(news)/slices.Min(olds)
	c.Ratio = stats.Interval{Center: c.Change + 1, Lo: lo, Hi: hi, Confidence: 1 - p}
	c.Verdict = directed(c.Better, up)
	c.Note = fmt.Sprintf("every process: %s–%s → %s–%s (p = %.2g, exact)", fmtCount(slices.Min(olds)), fmtCount(slices.Max(olds)), fmtCount(slices.Min(news)), fmtCount(slices.Max(news)), p)
	return true
}

// allocCounts describes the allocations per op a benchmark's slices
// counted in both versions, which decide how its allocation units are
// read.
type allocCounts struct {
	// measured is whether both versions reported allocs/op.
	measured bool
	// whole is whether every slice of each version counted the same
	// number of allocations per op: then they are the code's, made on
	// every op.
	whole bool
	// none is whether some slice of each version counted fewer than one
	// allocation per op. Allocations the code makes on every op are
	// whole per op, so then it makes none in either version.
	none bool
}

// allocsOf describes the allocs/op slices of a benchmark's two versions.
func allocsOf(olds, news []record.IterationSample) allocCounts {
	a, z := record.Measurements(olds), record.Measurements(news)
	if len(a) == 0 || len(z) == 0 {
		return allocCounts{}
	}
	_, ok1 := constant(olds)
	_, ok2 := constant(news)
	return allocCounts{measured: true, whole: ok1 && ok2, none: slices.Min(a) < 1 && slices.Min(z) < 1}
}

// amortised decides an allocation unit that varies between processes
// while the allocations are not the same whole number per op in every
// slice: some of them, and their bytes, are made once per call of the
// benchmark function and spread over b.N (the goroutines of
// b.RunParallel, the runtime's own), so they move with b.N, the
// goroutines the runtime happens to reuse and the moment of the call, not
// with the code's ops. Their log ratio is not a measure of the code, and
// a change of 15% in such bytes, with the same allocations per op in both
// versions, read as a regression on a function that allocates nothing.
// What remains is what separated decides: every process of one version
// above every process of the other. Short of that the unit is
// inconclusive. (When a slice of each version counted fewer than one
// allocation per op, summarize has already called it no change: the code
// allocates nothing per op in either version.)
func amortised(c *Comparison, allocs allocCounts) bool {
	if !allocs.measured || allocs.whole {
		return false
	}
	c.Method, c.done, c.P = MethodExact, true, 1
	c.Verdict = Inconclusive
	c.Note = fmt.Sprintf("allocations partly per call, spread over b.N: %s → %s is decided only when every process of one version counts more than every process of the other", fmtCount(c.Old.Mean), fmtCount(c.New.Mean))
	return true
}

// fmtCount prints a per-op count as go test would, whole from 100 up, so
// that 18760 does not read 1.88e+04.
func fmtCount(x float64) string {
	if math.Abs(x) >= 100 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

func fmtNum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// directed returns the verdict of a change upwards (or downwards) in a
// unit where better says which way is better.
func directed(better int, upwards bool) Verdict {
	switch {
	case better == 0:
		return Changed
	case upwards == (better > 0):
		return Improvement
	}
	return Regression
}

// decide sets the confidence level and verdict of every comparison that is
// not decided yet, correcting for their number as opts asks.
func decide(cs []Comparison, opts Options) {
	var idx []int
	for i := range cs {
		if !cs[i].done {
			idx = append(idx, i)
		}
	}
	alpha := 1 - opts.Confidence
	m := float64(len(idx))
	if opts.Plan.Confirm {
		// The confirmation's level holds the run's bound over every
		// benchmark the looks judge.
		judged := map[[2]string]bool{}
		for _, i := range idx {
			if cs[i].paired() {
				judged[[2]string{cs[i].Package, cs[i].Benchmark}] = true
			}
		}
		opts.confirmAlpha = ConfirmAlpha(len(judged), alpha)
	}
	corr := opts.Correction
	if corr == CorrectionHolm && opts.Paired && opts.Plan.Sequential() {
		// A step-down needs one p-value per comparison, and a
		// sequential one has one per look.
		corr = CorrectionBonferroni
	}
	switch corr {
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
// allowed is false (a Holm step-down has stopped), no change is declared
// on it.
func verdict(c *Comparison, alpha float64, allowed bool, opts Options) bool {
	level := alpha
	lr := c.lr
	var dir int
	if c.paired() && opts.Plan.Sequential() {
		if opts.Plan.Confirm {
			// The looks judge the pairs up to the one that
			// decided; those after it confirm.
			if n, d := opts.Plan.discovered(c.d, opts.Threshold, alpha); d == up || d == down {
				lr, c.Look, dir = pairedOf(c.d[:n]), n, d
			} else {
				lr, c.Look, dir = opts.Plan.sequential(c.d, opts.Threshold, alpha)
			}
		} else {
			lr, c.Look, dir = opts.Plan.sequential(c.d, opts.Threshold, alpha)
		}
		level = opts.Plan.levelAt(alpha, c.Look)
		c.Units = lr.n
		c.Change, c.P = math.Exp(lr.mean)-1, lr.p
	} else {
		dir = direction(lr, level, opts.Threshold)
	}
	c.Confidence = 1 - level
	center, lo, hi := lr.interval(level)
	c.Ratio = stats.Interval{Center: center, Lo: lo, Hi: hi, Confidence: c.Confidence}
	if form, _ := lr.pick(level); c.paired() && opts.Rule == RuleCI {
		// The change is the center of the interval it is judged by,
		// which may be the trimmed mean of the pairs.
		c.Change, c.Trimmed = center-1, form.trim > 0
	}
	significant := c.P < level
	switch opts.Rule {
	case RuleCIOverlap:
		// µOpTime RQ4: a change above the threshold whose versions'
		// mean intervals do not overlap; otherwise the equivalence test.
		o, n := meanCI(c.oldPMs, c.Confidence), meanCI(c.newPMs, c.Confidence)
		significant = o.Hi < n.Lo || n.Hi < o.Lo
		if significant && math.Abs(c.Change) > opts.Threshold {
			dir = up
			if c.Change < 0 {
				dir = down
			}
		} else if dir != same {
			dir = undecided
		}
	case RuleUTest:
		if significant && math.Abs(c.Change) >= opts.Threshold && c.Change != 0 {
			dir = up
			if c.Change < 0 {
				dir = down
			}
		} else if dir != same {
			dir = undecided
		}
	}
	if !allowed && (dir == up || dir == down) {
		dir = undecided
	}
	if opts.Plan.Confirm && c.paired() && opts.Plan.Sequential() && (dir == up || dir == down) {
		dir = confirm(c, dir, opts.confirmAlpha)
	}
	switch dir {
	case up, down:
		c.Verdict = directed(c.Better, dir == up)
	case same:
		c.Verdict = NoChange
	default:
		c.Verdict = Inconclusive
		switch {
		case c.confirmNote != "":
			c.Note = c.confirmNote
		case lr.n < render.FewestProcesses:
			unbounded(c, lr.n, render.FewestProcesses)
		case lr.halfWidth(level) > maxHalfWidth:
			unbounded(c, lr.n, lr.need(level, opts.Threshold))
		default:
			inconclusive(c, lr, level, opts)
		}
	}
	if c.Trimmed {
		k := trimCount(lr.n)
		note := fmt.Sprintf("interval of the trimmed mean (the %d lowest and %d highest of %d %s set aside)", k, k, lr.n, c.unitName())
		if c.Note != "" {
			note = c.Note + "; " + note
		}
		c.Note = note
	}
	return significant && allowed
}

// maxHalfWidth is the widest half-width, in logs, an undecided interval is
// printed with: beyond a factor of ten either way its limits say only that
// the units cannot tell.
const maxHalfWidth = 2.302585092994046 // ln 10

// unbounded explains an undecided comparison whose units are too few to
// bound the change: fewer than render.FewestProcesses, or so few for the
// corrected level that the interval spans more than a factor of ten either
// way. With one degree of freedom the t interval reaches 64 standard
// errors either side at 99%, and with two, after a correction for many
// comparisons, still hundreds: its limits, and the change it could detect,
// print as dozens of digits. The comparison says so instead, as the run's
// summary does, with the units that would bound it where that is within
// reach.
func unbounded(c *Comparison, n, need int) {
	c.Ratio, c.Detectable, c.More, c.tooFew = nanInterval(c.Confidence), 0, 0, true
	c.Note = fmt.Sprintf("too few %s to bound: %d", c.unitName(), n)
	if need > n && need <= maxUnits {
		c.Note += fmt.Sprintf("; need ≥ %d", need)
	}
}

// inconclusive explains an interval that straddles the threshold: the
// smallest change it could have shown, and about how many more units would
// settle it if the observed change and spread held.
func inconclusive(c *Comparison, lr logRatio, level float64, opts Options) {
	h := lr.halfWidth(level)
	c.Detectable = math.Exp(math.Log1p(opts.Threshold)+h) - 1
	unit := c.unitName()
	c.More = -1
	more := "no practical number of " + unit + " would settle it"
	if n := lr.need(level, opts.Threshold); n <= maxUnits {
		c.More = max(n-lr.n, 1)
		more = fmt.Sprintf("about %d more %s would settle it", c.More, unit)
	}
	c.Note = fmt.Sprintf("the interval straddles ±%s: with %d %s only changes beyond ±%s are detectable; %s",
		pctSize(opts.Threshold), lr.n, unit,
		pctSize(c.Detectable), more)
}

// paired reports whether c rests on paired units: suite runs or process
// pairs.
func (c *Comparison) paired() bool {
	return c.Method == MethodPaired || c.Method == MethodSlicePaired
}

// unitName names the units c's interval is computed over, as its notes
// count them.
func (c *Comparison) unitName() string {
	switch c.Method {
	case MethodPaired:
		return "paired suite runs"
	case MethodSlicePaired:
		return "process pairs"
	}
	return "processes per version"
}

// iterationMeans returns the mean of each iteration's measurements.
// nonFinite names the first NaN or infinity in the process means of
// either version, or returns "".
func nonFinite(pms ...[]float64) string {
	for _, xs := range pms {
		for _, x := range xs {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return strconv.FormatFloat(x, 'g', -1, 64)
			}
		}
	}
	return ""
}

func iterationMeans(its []record.IterationSample) []float64 {
	var out []float64
	for _, it := range its {
		if len(it.Values) > 0 {
			out = append(out, stat.Mean(it.Values, nil))
		}
	}
	return out
}

func nanInterval(conf float64) stats.Interval {
	return stats.Interval{Center: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Confidence: conf}
}

// Tree nests the measurement values of series as instance → suite run →
// iteration → slice, for hierarchical bootstrap resampling.
func Tree(series []record.IterationSample) *stats.Tree {
	root := &stats.Tree{}
	var inst, run *stats.Tree
	for i, it := range series {
		if i == 0 || it.Instance != series[i-1].Instance {
			inst = &stats.Tree{}
			root.Children = append(root.Children, inst)
			run = nil
		}
		if run == nil || it.SuiteRun != series[i-1].SuiteRun {
			run = &stats.Tree{}
			inst.Children = append(inst.Children, run)
		}
		run.Children = append(run.Children, stats.Leaf(it.Values))
	}
	return root.Prune()
}
