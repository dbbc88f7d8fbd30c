// Package report turns raw records into a report people read after a run:
// one self-contained HTML page with a plot per benchmark, and the same
// essentials as Markdown for pull-request comments and
// $GITHUB_STEP_SUMMARY.
//
// For every benchmark the report shows its slices over time (coloured by
// suite run and iteration, warmup slices hollow, stop points marked), the
// mean and stats.MedianInPlace with hierarchical bootstrap confidence intervals, and
// whether its stoppage criterion held. For the suite it shows the time spent
// against the full configuration. When the records interleave a baseline
// with the code under test, it shows the ratio of the means with its
// interval and the verdict of package compare, regressions first.
//
// Plots are inline SVG drawn with gonum.org/v1/plot (vg/vgsvg): it belongs
// to the gonum family the statistics already use, is maintained, needs no
// cgo, and writes plain SVG whose text falls back to the browser's fonts,
// so the page loads nothing from anywhere.
package report

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"gonum.org/v1/gonum/stat"
)

// Defaults of a report: the unit of time, and a confidence level as high
// as the intervals of replay's A/A test.
const (
	DefaultUnit       = "ns/op"
	DefaultConfidence = 0.99
)

// Options control what a report computes. The zero value of a field
// selects its default.
type Options struct {
	Title      string  // page title; default the package, if only one, or "Benchmark report"
	Unit       string  // the unit plotted and summarised; default DefaultUnit
	Confidence float64 // confidence level of the intervals; default DefaultConfidence
	Resamples  int     // bootstrap resamples per interval; default 1000
	Seed       uint64  // seed of the bootstrap's random source
	// Compare configures the comparison of a baseline with the code under
	// test; the zero value means gate.DefaultOptions with Seed.
	Compare *gate.Options
	// NoPlots leaves the per-benchmark plots out.
	NoPlots bool
	// Segments, when set, splits the slices of one long process into
	// segments of equal mean and tells where its steady state starts
	// (−1 for none), for the plots; the steady package provides it.
	// Without it the plots show no segments.
	Segments func(values []float64, rng *rand.Rand) (ends []int, means []float64, steadyFrom int)
}

func (o *Options) fill() error {
	if o.Unit == "" {
		o.Unit = DefaultUnit
	}
	if o.Confidence == 0 {
		o.Confidence = DefaultConfidence
	}
	if o.Resamples == 0 {
		o.Resamples = 1000
	}
	switch {
	case !(o.Confidence > 0 && o.Confidence < 1):
		return fmt.Errorf("confidence %v out of range (0, 1)", o.Confidence)
	case o.Resamples < 100:
		return fmt.Errorf("%d resamples, want ≥ 100", o.Resamples)
	}
	return nil
}

// A Status says how a benchmark's run ended.
type Status string

// The statuses.
const (
	StatusStable Status = "stable"      // the stoppage criterion held
	StatusCap    Status = "cap hit"     // it ran to its cap without the criterion holding
	StatusFixed  Status = "fixed"       // no stoppage criterion: the static configuration
	StatusBudget Status = "budget"      // the time budget cut it short
	StatusFailed Status = "failed"      // at least one iteration failed
	StatusEmpty  Status = "no data"     // no measurement in the unit
	StatusFull   Status = "full config" // a criterion was on, but the benchmark ran its full configuration
	// StatusSettled: it stopped with its baseline because their
	// comparison was already decided (run --sequential).
	StatusSettled Status = "settled"
	// StatusOutOfReach: it stopped before its cap because its interval
	// was predicted to stay far from the target within it, or, with its
	// baseline, because a verdict was.
	StatusOutOfReach Status = "out of reach"
)

// A Report is everything the HTML and Markdown pages show.
type Report struct {
	Title      string
	Unit       string
	Confidence float64
	Sources    []Source
	Suite      Suite
	Benchmarks []*Benchmark
	// Comparison holds the verdicts of the baseline against the code
	// under test; nil if the records hold a single version.
	Comparison *gate.Result
	Warnings   []string
}

// A Source describes one input run.
type Source struct {
	Tool, GoVersion, GOOS, GOARCH, CPU, Host, Instance string
	Seed                                               uint64
	Start                                              time.Time
	Options                                            map[string]string
	Complete                                           bool
}

// A Suite sums up the run of the whole suite.
type Suite struct {
	Benchmarks int
	Count      map[Status]int // benchmarks by status
	// Spent is the wall time of every slice, warmup included. Full is the
	// estimate of what the full configuration would have cost; zero if
	// the records do not say what the full configuration was.
	Spent, Full time.Duration
	Slices      int // slices run, warmup included
	FullSlices  int // slices of the full configuration
	// Criterion is the time spent computing stoppage criteria.
	Criterion time.Duration
	// Config is the full configuration per benchmark, from the header
	// options; zero fields are unknown.
	Config Config
}

// Saved returns the share of the full configuration's time not spent, or
// NaN if the full configuration is unknown.
func (s Suite) Saved() float64 {
	if s.Full <= 0 {
		return math.NaN()
	}
	return 1 - float64(s.Spent)/float64(s.Full)
}

// A Config is a (suite runs, iterations, slices, warmup) configuration.
type Config struct {
	SuiteRuns, Iterations, Slices, Warmup int
}

// slicesPerInstance returns the slices one instance runs, or 0 if the
// configuration is not fully known.
func (c Config) slicesPerInstance() int {
	if c.SuiteRuns <= 0 || c.Iterations <= 0 || c.Slices <= 0 {
		return 0
	}
	return c.SuiteRuns * c.Iterations * (c.Warmup + c.Slices)
}

// A Benchmark is the report on one benchmark, all its versions together.
type Benchmark struct {
	ID         string // unique HTML anchor
	Package    string
	Name       string
	Head       *Result // the code under test
	Baseline   *Result // nil without a baseline
	Failures   []string
	Status     Status
	Spent      time.Duration
	Full       time.Duration // 0 if unknown
	Comparison *gate.Comparison

	// SVG is the plot of the slices over time, an <svg> element.
	SVG string
	// Drift is the within-process trend of the code under test when its
	// slices drift (stats.Trend.Drifts); nil otherwise.
	Drift *stats.Trend
	// Speeds holds the process means of the code under test of a run of
	// one version when they read at two speeds (stats.Speeds.Two); nil
	// otherwise.
	Speeds *stats.Speeds

	points   []point
	marks    []mark
	segments []segment
}

// A Result summarises the measurements of one version of a benchmark.
type Result struct {
	Version      string
	Samples      int // measurement slices
	Warmup       int // warmup slices
	Iterations   int // iterations with measurements
	SuiteRuns    int
	Instances    int
	Mean, Median stats.Interval
	CV           float64 // sd/mean of the measurements
	RCIW         float64 // relative width of the mean's interval
	Stop         *record.Event
}

// A point is one slice on the timeline plot.
type point struct {
	X         int // position among the benchmark's slices, in run order
	Value     float64
	SuiteRun  int
	Iteration int
	Warmup    bool
	Baseline  bool
}

// A mark is a vertical line on the timeline plot, after slice X.
type mark struct {
	X    float64
	Kind markKind
}

type markKind int

const (
	markSuiteRun markKind = iota // a new suite run starts
	markStop                     // the benchmark left the schedule, criterion met
	markStopCap                  // the benchmark left the schedule, criterion not met
	markSteady                   // a process reached its steady state
)

// A segment is one PELT segment of a process on the timeline plot: its
// mean from slice X0 to slice X1.
type segment struct {
	X0, X1, Mean float64
	Steady       bool // part of the process's steady state
}

// minSteadySlices is the fewest slices of a process the timeline plot
// segments: fewer hold no warmup and steady part worth telling apart
// (gobench-dyn steady's probe runs 200).
const minSteadySlices = 30

// Build computes a report from the records of one or more runs. Runs from
// several instances or shards are read together as one.
func Build(runs []*record.Run, opts Options) (*Report, error) {
	if err := opts.fill(); err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("report: no runs")
	}
	rep := &Report{Title: opts.Title, Unit: opts.Unit, Confidence: opts.Confidence}
	run := merge(runs, rep)
	rep.Suite.Config = config(runs)

	order, keys := group(run)
	ev := readEvents(run)
	rep.Suite.Criterion = ev.criterion
	slicesOf := map[record.Key][]*record.Slice{}
	for i := range run.Slices {
		s := &run.Slices[i]
		slicesOf[s.Key()] = append(slicesOf[s.Key()], s)
	}
	rep.Benchmarks = make([]*Benchmark, len(order))
	for i, id := range order {
		rep.Benchmarks[i] = &Benchmark{ID: "b" + strconv.Itoa(i+1), Package: id.Package, Name: id.Benchmark, Failures: ev.failures[id]}
	}
	// Benchmarks are independent: summarise them in parallel, each with
	// its own random stream derived from the seed and its position, so
	// that the result does not depend on scheduling.
	stopOn := stopCriterion(runs)
	parallel(len(order), func(i int) {
		rep.Benchmarks[i].build(keys[order[i]], slicesOf, ev, stopOn, rep.Suite.Config, opts, rand.New(rand.NewPCG(opts.Seed, uint64(i))))
	})
	rep.finish(run, order)
	if err := rep.compare(run, opts); err != nil {
		return nil, err
	}
	return rep, nil
}

// runEvents are the events of a run the report uses.
type runEvents struct {
	failures  map[record.Bench][]string
	stops     map[record.Key]*record.Event
	budget    map[record.Key]bool
	criterion time.Duration // spent computing criteria, over all benchmarks
}

func readEvents(run *record.Run) runEvents {
	ev := runEvents{failures: map[record.Bench][]string{}, stops: map[record.Key]*record.Event{}, budget: map[record.Key]bool{}}
	critNs := map[record.Key]int64{}
	for i := range run.Events {
		e := &run.Events[i]
		k := e.Key()
		switch e.Event {
		case record.EventFailure:
			msg := e.Reason
			if e.SuiteRun > 0 {
				msg = fmt.Sprintf("suite run %d, iteration %d: %s", e.SuiteRun, e.Iteration, e.Reason)
			}
			ev.failures[k.Bench] = append(ev.failures[k.Bench], msg)
		case record.EventStop:
			ev.stops[k] = e
			critNs[k] = max(critNs[k], e.CriterionNs)
		case record.EventBudget:
			ev.budget[k] = true
		}
	}
	for _, ns := range critNs {
		ev.criterion += time.Duration(ns)
	}
	return ev
}

// stopCriterion reports whether any of runs ran under a stoppage
// criterion.
func stopCriterion(runs []*record.Run) bool {
	for _, r := range runs {
		if r.Header != nil {
			if s, ok := r.Header.Options["stop"]; ok && s != "" && s != "none" {
				return true
			}
		}
	}
	return false
}

// build summarises b, whose versions are keys, from its slices.
func (b *Benchmark) build(keys []record.Key, slicesOf map[record.Key][]*record.Slice, ev runEvents, stopOn bool, c Config, opts Options, rng *rand.Rand) {
	for _, k := range keys {
		// Series scans every slice of the run it is given: give it only
		// this benchmark's.
		own := &record.Run{Slices: make([]record.Slice, len(slicesOf[k]))}
		for j, s := range slicesOf[k] {
			own.Slices[j] = *s
		}
		r := summarize(own, k, opts, rng)
		r.Stop = ev.stops[k]
		if k.Version == record.VersionBaseline {
			b.Baseline = r
		} else if b.Head == nil {
			b.Head = r
			var procs [][]float64
			for _, it := range own.Series(k, "ns/op") {
				procs = append(procs, it.Values)
			}
			if t := stats.TrendOf(procs); t.Drifts() {
				b.Drift = &t
			}
			// A comparison pairs the versions' processes, and reads
			// what their speeds do to it.
			if sp := stats.SpeedsOf(procs); sp.Two() && len(keys) == 1 {
				b.Speeds = &sp
			}
		}
	}
	b.timeline(slicesOf, keys, ev.stops, opts)
	b.cost(slicesOf, keys, c)
	b.Status = status(b, stopOn, ev.budget, keys)
	if !opts.NoPlots {
		b.SVG = timelinePlot(b, opts.Unit)
	}
}

// finish fills in the suite's title, warnings and totals once every
// benchmark is summarised.
func (rep *Report) finish(run *record.Run, order []record.Bench) {
	if rep.Title == "" {
		rep.Title = "Benchmark report"
		pkgs := map[string]bool{}
		for _, id := range order {
			pkgs[id.Package] = true
		}
		if len(pkgs) == 1 {
			rep.Title = order[0].Package
		}
	}
	rep.Suite.Benchmarks = len(order)
	for _, b := range rep.Benchmarks {
		if b.Drift != nil {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s.%s is not steady: its slices drift %+.1f%% inside each process (Mann-Kendall z = %.1f)", b.Package, b.Name, 100*b.Drift.Change, b.Drift.Z))
		}
		if sp := b.Speeds; sp != nil {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s.%s reads at two speeds: %s, each steady inside; a go test pass is one process and reads one of them", b.Package, b.Name, render.TwoSpeeds(sp.Fast, sp.Slow, sp.Gap)))
		}
	}
	rep.Suite.Count = map[Status]int{}
	for _, b := range rep.Benchmarks {
		rep.Suite.Count[b.Status]++
		rep.Suite.Spent += b.Spent
		rep.Suite.Full += b.Full
	}
	rep.Suite.Slices = len(run.Slices)
	perInstance := rep.Suite.Config.slicesPerInstance()
	if perInstance <= 0 {
		rep.Suite.Full = 0
		return
	}
	for _, b := range rep.Benchmarks {
		for _, r := range []*Result{b.Head, b.Baseline} {
			if r != nil {
				rep.Suite.FullSlices += perInstance * max(r.Instances, 1)
			}
		}
	}
}

// merge reads several runs as one. Slices of two runs that share an
// instance label and a benchmark would be mistaken for one iteration, so
// the later run's instance gets a suffix.
func merge(runs []*record.Run, rep *Report) *record.Run {
	out := &record.Run{Complete: true}
	type ik struct {
		inst string
		key  record.Key
	}
	seen := map[ik]bool{}
	for n, r := range runs {
		if r.Header != nil {
			h := r.Header
			rep.Sources = append(rep.Sources, Source{Tool: h.Tool, GoVersion: h.GoVersion, GOOS: h.GOOS, GOARCH: h.GOARCH, CPU: h.CPU, Host: h.Host, Instance: h.Instance, Seed: h.Seed, Start: h.Start, Options: h.Options, Complete: r.Complete})
			if out.Header == nil {
				out.Header = h
			}
		}
		if !r.Complete {
			out.Complete = false
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("run %d is partial: it was interrupted or cut off", n+1))
		}
		clash := false
		for i := range r.Slices {
			if seen[ik{r.Slices[i].Instance, r.Slices[i].Key()}] {
				clash = true
				break
			}
		}
		suffix := ""
		if clash {
			suffix = "#" + strconv.Itoa(n+1)
		}
		for _, s := range r.Slices {
			s.Instance += suffix
			out.Slices = append(out.Slices, s)
		}
		for _, e := range r.Events {
			e.Instance += suffix
			out.Events = append(out.Events, e)
		}
		for i := range r.Slices {
			seen[ik{r.Slices[i].Instance + suffix, r.Slices[i].Key()}] = true
		}
	}
	return out
}

// config reads the full configuration from the first header that states
// it.
func config(runs []*record.Run) Config {
	var c Config
	first := func(dst *int, v int) {
		if *dst == 0 && v > 0 {
			*dst = v
		}
	}
	for _, r := range runs {
		if r.Header == nil {
			continue
		}
		o, _ := record.ParseRunOptions(r.Header.Options)
		first(&c.SuiteRuns, o.SuiteRuns)
		first(&c.Iterations, o.Iterations)
		first(&c.Slices, o.Slices)
		first(&c.Warmup, o.Warmup)
	}
	return c
}

// group returns the benchmarks of run by package and name, in order of
// first appearance, with the keys of their versions.
func group(run *record.Run) ([]record.Bench, map[record.Bench][]record.Key) {
	var order []record.Bench
	keys := map[record.Bench][]record.Key{}
	for _, k := range run.Keys() {
		id := k.Bench
		if _, ok := keys[id]; !ok {
			order = append(order, id)
		}
		keys[id] = append(keys[id], k)
	}
	return order, keys
}

func summarize(run *record.Run, k record.Key, opts Options, rng *rand.Rand) *Result {
	series := run.Series(k, opts.Unit)
	r := &Result{Version: k.Version}
	runs, insts := map[[2]string]bool{}, map[string]bool{}
	for _, it := range series {
		r.Warmup += len(it.Warmup)
		if len(it.Values) > 0 {
			r.Iterations++
			runs[[2]string{it.Instance, strconv.Itoa(it.SuiteRun)}] = true
			insts[it.Instance] = true
		}
	}
	r.SuiteRuns, r.Instances = len(runs), len(insts)
	values := record.Measurements(series)
	r.Samples = len(values)
	nan := stats.Interval{Center: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Confidence: opts.Confidence}
	r.Mean, r.Median, r.CV, r.RCIW = nan, nan, math.NaN(), math.NaN()
	if len(values) == 0 {
		return r
	}
	t := gate.Tree(series)
	r.Mean = stats.MeanCI(t, opts.Confidence, opts.Resamples, rng)
	r.Median = stats.CI(t, stats.MedianInPlace, opts.Confidence, opts.Resamples, rng)
	r.CV = cv(values)
	r.RCIW = r.Mean.RelWidth()
	return r
}

// timeline lays out the slices of every version of b in run order and
// places the suite-run and stop marks.
func (b *Benchmark) timeline(slicesOf map[record.Key][]*record.Slice, keys []record.Key, stops map[record.Key]*record.Event, opts Options) {
	var all []*record.Slice
	for _, k := range keys {
		all = append(all, slicesOf[k]...)
	}
	slices.SortStableFunc(all, func(a, c *record.Slice) int {
		return cmp.Or(cmp.Compare(a.Instance, c.Instance), cmp.Compare(a.SuiteRun, c.SuiteRun),
			cmp.Compare(a.Order, c.Order), cmp.Compare(a.Version, c.Version),
			cmp.Compare(a.Iteration, c.Iteration), cmp.Compare(a.Slice, c.Slice))
	})
	type iterKey struct {
		inst    string
		version string
		sr, it  int
	}
	last := map[iterKey]int{}
	procs := map[iterKey][]point{}
	var order []iterKey
	x := 0
	for i, s := range all {
		v, ok := s.Values[opts.Unit]
		if !ok {
			continue
		}
		x++
		if i > 0 && (s.SuiteRun != all[i-1].SuiteRun || s.Instance != all[i-1].Instance) {
			b.marks = append(b.marks, mark{X: float64(x) - 0.5, Kind: markSuiteRun})
		}
		b.points = append(b.points, point{X: x, Value: v, SuiteRun: s.SuiteRun, Iteration: s.Iteration, Warmup: s.Warmup, Baseline: s.Version == record.VersionBaseline})
		ik := iterKey{s.Instance, s.Version, s.SuiteRun, s.Iteration}
		last[ik] = x
		if _, ok := procs[ik]; !ok {
			order = append(order, ik)
		}
		procs[ik] = append(procs[ik], point{X: x, Value: v})
	}
	// Long processes (a steady probe's) get their PELT segments and the
	// start of their steady state.
	rng := rand.New(rand.NewPCG(1, uint64(len(all))))
	for _, ik := range order {
		pts := procs[ik]
		if len(pts) < minSteadySlices || opts.Segments == nil {
			continue
		}
		vals := make([]float64, len(pts))
		for i, pt := range pts {
			vals[i] = pt.Value
		}
		ends, means, start := opts.Segments(vals, rng)
		from := 0
		for j, e := range ends {
			b.segments = append(b.segments, segment{X0: float64(pts[from].X), X1: float64(pts[e-1].X), Mean: means[j], Steady: start >= 0 && from >= start})
			from = e
		}
		if start > 0 {
			b.marks = append(b.marks, mark{X: float64(pts[start].X) - 0.5, Kind: markSteady})
		}
	}
	for _, k := range keys {
		e := stops[k]
		if e == nil {
			continue
		}
		x, ok := last[iterKey{e.Instance, k.Version, e.SuiteRun, e.Iteration}]
		if !ok {
			continue
		}
		kind := markStop
		if !e.Met && e.Reason != record.ReasonSettled {
			kind = markStopCap
		}
		b.marks = append(b.marks, mark{X: float64(x) + 0.5, Kind: kind})
	}
}

// cost sums the wall time b spent and estimates what its full
// configuration would have cost at the same mean time per slice.
func (b *Benchmark) cost(slicesOf map[record.Key][]*record.Slice, keys []record.Key, c Config) {
	n := 0
	insts := map[string]bool{}
	for _, k := range keys {
		ks := map[string]bool{}
		for _, s := range slicesOf[k] {
			b.Spent += time.Duration(s.WallNs)
			n++
			ks[s.Instance] = true
		}
		for i := range ks {
			insts[k.Version+"\x00"+i] = true
		}
	}
	full := c.slicesPerInstance() * len(insts)
	if full == 0 || n == 0 {
		return
	}
	b.Full = time.Duration(float64(b.Spent) / float64(n) * float64(full))
	// A dynamic warmup can run more slices than the fixed minimum.
	b.Full = max(b.Full, b.Spent)
}

func status(b *Benchmark, stopOn bool, budget map[record.Key]bool, keys []record.Key) Status {
	if len(b.Failures) > 0 {
		return StatusFailed
	}
	if b.Head == nil || b.Head.Samples == 0 {
		return StatusEmpty
	}
	for _, k := range keys {
		if budget[k] {
			return StatusBudget
		}
	}
	switch {
	case b.Head.Stop != nil && b.Head.Stop.Reason == record.ReasonSettled:
		return StatusSettled
	case b.Head.Stop != nil && b.Head.Stop.Met:
		return StatusStable
	case b.Head.Stop != nil && (b.Head.Stop.Reason == record.ReasonOutOfReach || b.Head.Stop.Reason == record.ReasonNoVerdict):
		return StatusOutOfReach
	case b.Head.Stop != nil:
		return StatusCap
	case stopOn:
		return StatusFull
	}
	return StatusFixed
}

// compare runs package compare on the baseline and the code under test.
func (rep *Report) compare(run *record.Run, opts Options) error {
	base, head := gate.Split(run)
	if len(base.Slices) == 0 || len(head.Slices) == 0 {
		return nil
	}
	// Both versions ran in the same suite runs: compare them paired.
	copts := gate.FromHeader(run.Header, gate.DefaultOptions())
	copts.Paired = true
	if opts.Compare != nil {
		copts = *opts.Compare
	}
	res, err := gate.Runs(onlyUnit(base, opts.Unit), onlyUnit(head, opts.Unit), copts)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	res.OldName, res.NewName = "baseline", "head"
	rep.Comparison = res
	byID := map[record.Bench]*Benchmark{}
	for _, b := range rep.Benchmarks {
		byID[record.Bench{Package: b.Package, Benchmark: b.Name}] = b
	}
	for i := range res.Comparisons {
		c := &res.Comparisons[i]
		if b := byID[record.Bench{Package: c.Package, Benchmark: c.Benchmark}]; b != nil {
			b.Comparison = c
		}
	}
	return nil
}

// onlyUnit returns r with every other unit dropped, so that the
// comparison spends its resamples on the unit the report is about.
func onlyUnit(r *record.Run, unit string) *record.Run {
	out := &record.Run{Header: r.Header, Events: r.Events, Complete: r.Complete}
	for _, s := range r.Slices {
		v, ok := s.Values[unit]
		if !ok {
			continue
		}
		s.Values = map[string]float64{unit: v}
		out.Slices = append(out.Slices, s)
	}
	return out
}

// parallel calls f(0) … f(n-1) on as many goroutines as there are CPUs.
func parallel(n int, f func(int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), max(n, 1)) {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// cv returns the coefficient of variation of xs, with the sample standard
// deviation.
func cv(xs []float64) float64 {
	if len(xs) < 2 {
		return math.NaN()
	}
	m, sd := stat.MeanStdDev(xs, nil)
	return sd / m
}

// statuses lists the statuses in the order the report shows them.
var statuses = []Status{StatusStable, StatusSettled, StatusCap, StatusOutOfReach, StatusFull, StatusFixed, StatusBudget, StatusFailed, StatusEmpty}
