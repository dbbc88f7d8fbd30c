package session

import (
	"fmt"
	"io"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/progress"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"github.com/gobench-dyn/gobench-dyn/internal/shard"
	"github.com/gobench-dyn/gobench-dyn/optime"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// An assembly is a prepared run, ready to measure: its runner and the
// observer of its records, the comparison that judges a baseline run, and
// what preparing took.
type assembly struct {
	runner *rmit.Runner
	obs    *observer
	// paired runs and judges the pairs of a baseline run; nil for a run
	// of one version.
	paired *PairedRun
	// prepTime is the preparation; minimumBudget the budget that gives
	// every benchmark render.FewestProcesses processes, preparation
	// included, as estimated before the run (zero without a budget).
	prepTime, minimumBudget time.Duration
	// goTest is about how long one go test -bench pass of the
	// benchmarks would take to run them (rmit.GoTestPassTime), building the
	// time it would take to build them, as long as this run's
	// (rmit.Suite.Building), and autoBudget the budget the two gave the
	// run under Options.AutoBudget, or zero.
	goTest, building, autoBudget time.Duration
	// warmups keeps the warmups the run learns for later runs; nil
	// when it keeps none.
	warmups *learnedWarmups
}

// assemble builds the runner of the prepared suite from the plan: its
// policy, its shard, its records, its budget and its observer.
func (r *run) assemble(pl *runPlan, p *prepared) (*assembly, error) {
	o := r.opts
	ap := assemblePolicy(o, pl, p, r.log)
	bs := p.suite.Benchmarks
	if !o.Shard.IsZero() {
		// Shard after both versions are known, so that a benchmark and
		// its baseline land in the same shard.
		bs = selectShard(bs, o.Shard, pl.shardTimes)
		fmt.Fprintf(r.log, "gobench-dyn: shard %s: %d benchmarks\n", o.Shard, len(bs))
	}
	fmt.Fprintf(r.log, "gobench-dyn: %s, seed %d\n", describeSuite(bs, o.Baseline), o.Seed)
	header := newHeader(o, ap.compare(o).Plan, p.suite.Packages, r.now())
	rw, err := r.startRecords(header, p.suite)
	if err != nil {
		return nil, err
	}
	a := &assembly{paired: ap.paired, prepTime: r.now().Sub(r.start), warmups: r.takeWarmups(pl, p)}
	budget, pb := r.budget(a, bs, p)
	a.obs = newObserver(o, bs, header, pb, r.outs, r.log)
	if err := r.recordUnaffected(rw, a.obs, p.unaffected); err != nil {
		return nil, err
	}
	a.runner = &rmit.Runner{
		Benchmarks: bs, Policy: ap.policy, Seed: o.Seed,
		SliceTime: o.SliceTime, Timeout: o.Timeout, Budget: budget, BudgetSparesMinimum: a.autoBudget > 0, Start: r.start,
		MinIterations: o.Stop.MinIterations, Instance: o.Instance,
		Raw: rw, Observer: a.obs, Resume: r.resume, Starter: r.env.Starter, Clock: r.env.Clock,
	}
	if ap.paired != nil {
		ap.paired.Drive(a.runner)
		if a.runner.Turns != nil && a.runner.Turns.Together {
			if why := sharedCores(); why != "" {
				fmt.Fprintf(r.log, "gobench-dyn: warning: --pairing duet runs both versions at once on two CPUs, and %s: their speeds then move against each other, and --pairing slice is steadier\n", why)
			}
		}
	}
	if pl.config != nil {
		a.runner.MinDistinct = o.MinDistinct
	}
	a.minimumBudget = r.warnBudget(a.runner, a.prepTime)
	return a, nil
}

// budget returns the run's budget of time and how its progress shows it,
// for the benchmarks bs of the prepared suite p, and sets a's estimate of
// a go test pass and the budget that estimate gave. Only a run of one
// version has the estimate: go test makes no comparison.
func (r *run) budget(a *assembly, bs []*rmit.Benchmark, p *prepared) (time.Duration, progress.Budget) {
	o := r.opts
	budget := o.Budget
	if p.base == nil {
		a.goTest, a.building = rmit.GoTestPassTime(bs, nil), p.suite.Building
	}
	auto := o.autoBudget() && a.goTest > 0
	if auto {
		// A go test pass builds its binaries as this run did, then
		// ramps each benchmark; the calibration and the links of other
		// layouts are this run's own, and come out of the pass's time.
		budget = a.building + a.goTest
		a.autoBudget = budget
		fmt.Fprintf(r.log, "gobench-dyn: budget %s: about one go test -bench pass of these benchmarks (%s of building, as this run's, and %s from their calibration), of which building and calibrating took %s; each still gets %d processes, and --budget 0 lifts it\n",
			render.Duration(budget), render.Duration(a.building), render.Duration(a.goTest), render.Duration(a.prepTime), max(1, o.Stop.MinIterations))
	}
	if budget <= 0 {
		return budget, progress.Budget{}
	}
	return budget, progress.Budget{Length: budget, Start: r.start,
		Spared: spared(bs, o.Stop.MinIterations, auto), Needed: min(max(render.FewestProcesses, o.Stop.MinIterations), maxSuiteRunsOf(bs))}
}

// An assembledPolicy is the stopping policy of a run of one version, or
// for a baseline run the paired run that schedules each pair back to back
// and judges the pairs: o.Compare, paired by suite run, with the looks of
// a sequential plan when o.Sequential.
type assembledPolicy struct {
	policy rmit.Policy
	paired *PairedRun
}

// compare returns the options the run's comparison is judged with.
func (a assembledPolicy) compare(o *Options) gate.Options {
	if a.paired == nil {
		return o.Compare
	}
	return a.paired.Compare()
}

// assemblePolicy wraps the plan's policy for the suite: per-benchmark
// configurations from its configuration file, then the pairing of the two
// versions of a baseline run, outermost so that the runner sees why a pair
// stopped.
func assemblePolicy(o *Options, pl *runPlan, s *prepared, log io.Writer) assembledPolicy {
	policy := pl.policy
	if pl.config != nil {
		policy = applyConfig(o.ConfigFile, pl.config, s.suite.Benchmarks, policy, log)
	}
	if s.base == nil {
		markSlowOps(pl.policy, s.suite.Benchmarks, o.SliceTime)
	}
	if o.Stop.Criterion == stopper.None {
		// A static configuration decides nothing from the data, but its
		// results still carry their intervals.
		policy = stopper.NewIntervals(policy)
	}
	if s.base == nil {
		return assembledPolicy{policy: policy}
	}
	po := pl.pairs
	if plan := &po.Compare.Plan; po.Judged && plan.Confirm {
		// The benchmarks of the run bound those the comparison will
		// judge, and so its confirmation's level from below.
		plan.ConfirmAlpha = gate.ConfirmAlpha(len(s.head.Benchmarks), 1-o.Compare.Confidence)
		if room := plan.ConfirmRoom(); room > 0 {
			// A change found at the last look takes fresh pairs past
			// it; the plan stops every other pair there.
			for _, b := range s.suite.Benchmarks {
				b.Config.SuiteRuns += room
			}
		}
	}
	return assembledPolicy{paired: NewPairedRun(policy, s.base.Benchmarks, s.head.Benchmarks, po)}
}

// applyConfig gives each benchmark its configuration from cf and returns
// the policy that obeys it. It names the benchmarks cf does not know, which
// run with the options' configuration, and the entries that match nothing.
func applyConfig(path string, cf *optime.ConfigFile, bs []*rmit.Benchmark, policy rmit.Policy, log io.Writer) rmit.Policy {
	perBench := map[string]rmit.SliceConfig{}
	caps := map[string]int{}
	warmups := map[string]int{}
	matched := map[record.Bench]bool{}
	var fresh []string
	for _, b := range bs {
		e, ok := cf.Lookup(b.Package.ImportPath, b.Name)
		if !ok {
			fresh = append(fresh, b.String())
			continue
		}
		matched[record.Bench{Package: e.Package, Benchmark: e.Benchmark}] = true
		b.Config = rmit.Config{SuiteRuns: e.SuiteRuns, Iterations: e.Iterations}
		perBench[b.ID] = rmit.SliceConfig{Warmup: e.Warmup, Slices: e.Slices}
		caps[b.ID] = e.Slices
		if l, ok := policy.(warmupLearner); !ok || !l.SetLearnedWarmup(b.ID, e.Warmup) {
			warmups[b.ID] = e.Warmup
		}
	}
	for _, n := range fresh {
		fmt.Fprintf(log, "gobench-dyn: NEW %s is not in --config %s: it runs with the default configuration\n", n, path)
	}
	for _, e := range cf.Entries {
		if !matched[record.Bench{Package: e.Package, Benchmark: e.Benchmark}] {
			fmt.Fprintf(log, "gobench-dyn: --config %s: %s.%s matches no benchmark of this run\n", path, e.Package, e.Benchmark)
		}
	}
	if static, ok := policy.(rmit.Static); ok {
		static.PerBenchmark = perBench
		return static
	}
	return &rmit.Capped{Policy: policy, Slices: caps, Warmup: warmups}
}

// markSlowOps tells policy which benchmarks have slices that cost far
// more than go test times of them, as their calibration found it: one op
// takes about a slice or more, so their slices cannot be made shorter and
// a warmup slice costs a whole op; or each call of the benchmark function
// spends a slice or more outside its timer (its setup), which every slice,
// warmup or not, pays again. A policy that plans by cost (stopper's
// Interval) measures one slice in most of their processes, where such
// benchmarks took most of a run's slice time. It warms a slow op up for
// one slice, or none for an op of a second or more, which go test reports
// cold. A setup-heavy benchmark gets no warmup: its setup runs before the
// timer in every call, and its first call read as its later ones (docs/
// EVALUATION.md, "Slow ops", "Setup-heavy benchmarks" and "No warmup for a
// setup"). Only a run of one version: a pair's two versions keep one plan.
func markSlowOps(policy rmit.Policy, bs []*rmit.Benchmark, sliceTime time.Duration) {
	p, ok := policy.(slowOpPlanner)
	if !ok {
		return
	}
	for _, b := range bs {
		switch {
		case b.N == 1 && b.Probed > 0:
			p.SetSlowOp(b.ID, b.Probed >= float64(rmit.DefaultBenchtime))
		case sliceTime > 0 && b.Setup >= sliceTime:
			p.SetSlowOp(b.ID, true)
		}
	}
}

// A slowOpPlanner (stopper's Interval) plans by what its slices cost a
// benchmark whose slices spend a slice time or more beyond their timed
// ops, and measures a cold one without warmup.
type slowOpPlanner interface {
	SetSlowOp(bench string, cold bool) bool
}

// A warmupLearner learns each benchmark's warmup in its first process
// (stopper's Interval), and can take the warmup an earlier run learned
// instead, so that a run with --config does not pay for it again.
type warmupLearner interface {
	SetLearnedWarmup(bench string, slices int) bool
	LearnedWarmup(bench string) (slices int, settled bool)
}

// selectShard keeps the benchmarks of shard k, balanced by the expected
// times (nil: by count). Both versions of a benchmark share one identity,
// so they land in one shard.
func selectShard(bs []*rmit.Benchmark, k shard.Spec, expected map[record.Bench]time.Duration) []*rmit.Benchmark {
	byID := map[record.Bench][]*rmit.Benchmark{}
	ids := make([]record.Bench, len(bs))
	for i, b := range bs {
		ids[i] = b.Bench()
		byID[ids[i]] = append(byID[ids[i]], b)
	}
	var kept []*rmit.Benchmark
	for _, id := range shard.Select(ids, k, expected) {
		kept = append(kept, byID[id]...)
	}
	return kept
}

// maxSuiteRunsOf returns the most suite runs any of bs may take.
func maxSuiteRunsOf(bs []*rmit.Benchmark) int {
	n := 0
	for _, b := range bs {
		n = max(n, b.Config.SuiteRuns)
	}
	return n
}

// spared returns the iterations of bs that a budget sparing the minimum
// (rmit.Runner.BudgetSparesMinimum) runs whatever it costs: their first
// minIterations suite runs.
func spared(bs []*rmit.Benchmark, minIterations int, sparesMinimum bool) int {
	if !sparesMinimum {
		return 0
	}
	n := 0
	for _, b := range bs {
		n += min(minIterations, b.Config.SuiteRuns) * max(b.Config.Iterations, 1)
	}
	return n
}

// startRecords checks that a resumed run measures the same code, and
// writes the head of the raw records: the header, or for a resumed run a
// resumed event, and the failures met while preparing.
func (r *run) startRecords(header *record.Header, suite *rmit.Suite) (*record.Writer, error) {
	if r.past != nil {
		if err := checkResumeCode(r.opts.Resume, r.past.Header, header); err != nil {
			return nil, err
		}
		fmt.Fprintf(r.log, "gobench-dyn: resuming %s: %d iterations recorded\n", r.opts.Resume, r.resume.Len())
	}
	if r.raw == nil {
		return nil, nil
	}
	rw := record.NewWriter(r.raw)
	first := any(header)
	if r.past != nil {
		// A resumed run appends: the file keeps its one header.
		first = &record.Event{Event: record.EventResumed, Reason: fmt.Sprintf("resumed with seed %d", r.opts.Seed), Time: r.now()}
	}
	if err := rw.Write(first); err != nil {
		return nil, fmt.Errorf("raw records: %w", err)
	}
	if err := suite.WriteEvents(rw, r.resume); err != nil {
		return nil, fmt.Errorf("raw records: %w", err)
	}
	return rw, nil
}

// warnBudget warns when the budget left after preparing for prep cannot
// give every benchmark its minimum iterations, and returns the budget that
// would give each render.FewestProcesses processes; zero without a
// budget.
func (r *run) warnBudget(runner *rmit.Runner, prep time.Duration) time.Duration {
	o := r.opts
	if o.Budget <= 0 {
		return 0
	}
	left := o.Budget - prep
	need := runner.MinimumTime()
	minimum := prep + need*time.Duration(max(render.FewestProcesses, o.Stop.MinIterations))/time.Duration(max(1, o.Stop.MinIterations))
	if need > left {
		fmt.Fprintf(r.log, "gobench-dyn: warning: --budget %s leaves %s after building and calibrating, and the minimum of %d iterations per benchmark needs about %s: some benchmarks will get fewer than their minimum samples\n",
			o.Budget, left.Round(time.Second), max(1, o.Stop.MinIterations), need.Round(time.Second))
	}
	return minimum
}

// recordUnaffected writes an event for each benchmark not measured, to
// the raw records and to both versions' runs, where the comparison and
// the results files find them.
func (r *run) recordUnaffected(rw *record.Writer, obs *observer, unaffected []record.Bench) error {
	for _, b := range unaffected {
		ev := record.Event{Type: record.TypeEvent, Event: record.EventUnaffected, Package: b.Package, Benchmark: b.Benchmark,
			Reason: gate.UnaffectedNote, Time: r.now()}
		if rw != nil {
			if err := rw.Write(&ev); err != nil {
				return fmt.Errorf("raw records: %w", err)
			}
		}
		obs.head.Events = append(obs.head.Events, ev)
		obs.baseline.Events = append(obs.baseline.Events, ev)
	}
	return nil
}
