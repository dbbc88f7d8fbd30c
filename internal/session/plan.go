package session

import (
	"bufio"
	"fmt"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/shard"
	"github.com/gobench-dyn/gobench-dyn/optime"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// A runPlan is what a run goes by, decided before anything is prepared.
type runPlan struct {
	// opts are the run's options with the seed and the raw file
	// resolved.
	opts Options
	// past holds the records of the run resumed, and resume what it
	// measured; nil for a fresh run.
	past   *record.Run
	resume *rmit.Resume
}

// plan decides the resume and raw-file rule and the seed, reading the run
// to resume, so that a bad input fails at once rather than after
// building: a resumed run appends to its own raw file with its own seed,
// and a fresh one without --seed draws one.
func plan(o Options, log io.Writer) (runPlan, error) {
	if o.Resume != "" {
		if o.Raw != "" && o.Raw != o.Resume {
			return runPlan{}, usage.ValueErrorf("raw", o.Raw, "a resumed run appends to %s", o.Resume)
		}
		o.Raw = o.Resume
	}
	past, err := readResume(&o, log)
	if err != nil {
		return runPlan{}, err
	}
	p := runPlan{past: past}
	switch {
	case past != nil:
		p.resume = rmit.NewResume(past)
		o.Seed = past.Header.Seed
	case !o.SeedSet:
		o.Seed = RandomSeed()
	}
	p.opts = o
	return p, nil
}

// StopPolicy returns the stopping policy stop asks for, before
// configurations and pairing wrap it, with seed for its draws: the
// Interval criterion plans its slices per process for maxProcesses, the
// cap. Every run drives the runner through it: run, its comparisons and
// abs alike.
func StopPolicy(stop stopper.Config, seed uint64, maxProcesses int) (rmit.Policy, error) {
	if stop.Criterion == stopper.None {
		return rmit.Static{Warmup: stop.WarmupMin, Slices: stop.Measure}, nil
	}
	stop.Seed, stop.MaxIterations = seed, maxProcesses
	p, err := stopper.NewPolicy(stop)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	return p, nil
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

// assemblePolicy wraps policy for the suite: per-benchmark configurations
// from cf, then the pairing of the two versions of a baseline run,
// outermost so that the runner sees why a pair stopped.
func assemblePolicy(o *Options, policy rmit.Policy, cf *optime.ConfigFile, s *prepared, log io.Writer) assembledPolicy {
	base := policy
	if cf != nil {
		policy = applyConfig(o.ConfigFile, cf, s.suite.Benchmarks, policy, log)
	}
	if s.base == nil {
		markSlowOps(base, s.suite.Benchmarks, o.SliceTime)
	}
	if o.Stop.Criterion == stopper.None {
		// A static configuration decides nothing from the data, but its
		// results still carry their intervals.
		policy = stopper.NewIntervals(policy)
	}
	if s.base == nil {
		return assembledPolicy{policy: policy}
	}
	po := PairOptions{Compare: o.Compare}
	po.Compare.Paired = true
	if o.duets() {
		turns := o.Turns
		turns.Together = o.Pairing == PairTogether
		po.Turns, po.TurnTime = &turns, o.TurnTime
	}
	// A fixed configuration stops nothing early, and judges only at the
	// end.
	if o.Sequential && o.Stop.Criterion != stopper.None {
		plan := gate.DefaultPlan(maxSuiteRuns(o, cf), o.ExtendPast)
		plan.Confirm = o.Confirm
		if plan.Confirm {
			// The benchmarks of the run bound those the comparison
			// will judge, and so its confirmation's level from below.
			plan.ConfirmAlpha = gate.ConfirmAlpha(len(s.head.Benchmarks), 1-o.Compare.Confidence)
		}
		if room := plan.ConfirmRoom(); room > 0 {
			// A change found at the last look takes fresh pairs past
			// it; the plan stops every other pair there.
			for _, b := range s.suite.Benchmarks {
				b.Config.SuiteRuns += room
			}
		}
		po.Compare.Plan, po.Judged = plan, true
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
// Interval) warms them up for one slice, or none for an op of a second or
// more, which go test reports cold, and measures one slice in most of
// their processes, where such benchmarks took most of a run's slice time
// (docs/EVALUATION.md, "Slow ops" and "Setup-heavy benchmarks"). Only a
// run of one version: a pair's two versions keep one plan.
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
			p.SetSlowOp(b.ID, false)
		}
	}
}

// A slowOpPlanner plans a benchmark whose slices are one op each by what
// its slices cost (stopper's Interval), and measures one that takes go
// test's whole -benchtime cold, as go test does.
type slowOpPlanner interface {
	SetSlowOp(bench string, cold bool) bool
}

// A warmupLearner learns each benchmark's warmup in its first process
// (stopper's Interval), and can take the warmup an earlier run learned
// instead, so that a run with --config does not pay for it again.
type warmupLearner interface {
	SetLearnedWarmup(bench string, slices int) bool
}

// maxSuiteRuns returns the most suite runs any benchmark of the run can
// take: the last look of a sequential comparison.
func maxSuiteRuns(o *Options, cf *optime.ConfigFile) int {
	n := o.SuiteRuns
	if cf != nil {
		for _, e := range cf.Entries {
			n = max(n, e.SuiteRuns)
		}
	}
	return n
}

// selectShard keeps the benchmarks of the shard the options name. Both
// versions of a benchmark share one identity, so they land in one shard.
func selectShard(bs []*rmit.Benchmark, o *Options, log io.Writer) ([]*rmit.Benchmark, error) {
	var expected map[record.Bench]time.Duration
	if o.ShardTimes != "" {
		run, warns, err := record.ReadFile(o.ShardTimes)
		if err != nil {
			return nil, usage.Errorf("shard-times", "%w", err)
		}
		for _, w := range warns {
			fmt.Fprintf(log, "gobench-dyn: warning: %s\n", w)
		}
		expected = shard.ExpectedTimes(run)
	}
	byID := map[record.Bench][]*rmit.Benchmark{}
	ids := make([]record.Bench, len(bs))
	for i, b := range bs {
		ids[i] = b.Bench()
		byID[ids[i]] = append(byID[ids[i]], b)
	}
	var kept []*rmit.Benchmark
	for _, id := range shard.Select(ids, o.Shard, expected) {
		kept = append(kept, byID[id]...)
	}
	return kept, nil
}

// headerOptions returns the options that shape the results, for the raw
// file's header: a resumed run must match them. plan is the sequential
// plan the run compares with, which it derives from them.
func headerOptions(o *Options, plan gate.Plan) map[string]string {
	cpus := make([]string, len(o.CPU))
	for i, c := range o.CPU {
		cpus[i] = strconv.Itoa(c)
	}
	// The shape of a duet iteration, recorded only for runs that have
	// duets.
	var duet Options
	if o.duets() {
		duet.TurnTime, duet.Turns = o.TurnTime, o.Turns
	}
	m := record.RunOptions{
		Bench:         o.Bench,
		Stop:          o.Stop.Criterion.String(),
		Threshold:     o.Stop.Threshold,
		Window:        o.Stop.Window,
		Warmup:        o.Stop.WarmupMin,
		WarmupMax:     o.Stop.WarmupMax,
		Slices:        o.Stop.Measure,
		MinIterations: o.Stop.MinIterations,
		SuiteRuns:     o.SuiteRuns,
		Iterations:    o.Iterations,
		SliceTime:     o.SliceTime,
		Budget:        o.Budget,
		AutoBudget:    o.autoBudget(),
		Config:        o.ConfigFile,
		Baseline:      o.Baseline,
		EarlyVerdict:  o.Sequential,
		Sequential:    o.Sequential,
		Looks:         looks(plan),
		Spending:      spending(plan),
		Confirm:       plan.Confirm && plan.Sequential(),
		Pairing:       pairing(o),
		TurnTime:      duet.TurnTime,
		Turns:         duet.Turns.Turns,
		TurnWarmup:    time.Duration(duet.Turns.Warmup) * duet.TurnTime,
		MinChange:     o.Compare.Threshold,
		Rule:          string(o.Compare.Rule),
		Correction:    string(o.Compare.Correction),
		FailOn:        strings.Join(o.FailOn, ","),
		Confidence:    o.Compare.Confidence,
		Tags:          o.Tags,
		CPU:           strings.Join(cpus, ","),
		Race:          o.Race,
	}.Encode()
	if len(o.TestArgs) > 0 {
		// Only when given, so that runs recorded before test binary
		// arguments existed resume as they are.
		m["args"] = quoteArgs(o.TestArgs)
	}
	if l := layoutOption(o); l != "" {
		m["layouts"] = l
	}
	return m
}

// quoteArgs writes args on one line, each quoted as Go quotes strings.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = strconv.Quote(a)
	}
	return strings.Join(q, " ")
}

// newHeader returns the raw file header of a run of pkgs on this machine,
// comparing its versions with plan.
func newHeader(o *Options, plan gate.Plan, pkgs []*rmit.Package, now time.Time) *record.Header {
	host, _ := os.Hostname()
	h := &record.Header{
		Tool:      o.Tool,
		GoVersion: runtime.Version(),
		GOOS:      runtime.GOOS,
		GOARCH:    runtime.GOARCH,
		CPU:       cpuModel(),
		NumCPU:    runtime.NumCPU(),
		Host:      host,
		Seed:      o.Seed,
		Start:     now.UTC(),
		Binaries:  map[string]string{},
		Options:   headerOptions(o, plan),
		Instance:  o.Instance,
	}
	if !o.Shard.IsZero() {
		h.Shard = o.Shard.String()
	}
	for _, p := range pkgs {
		key := p.ImportPath
		if p.Version != record.VersionHead {
			key = p.Version + ":" + key
		}
		h.Binaries[key] = p.Hash
	}
	h.Layouts = headerLayouts(pkgs)
	return h
}

// cpuModel returns the CPU model name as go test prints it, or "".
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// spending records how a sequential plan spends its level, or nothing.
func spending(p gate.Plan) string {
	if !p.Sequential() {
		return ""
	}
	return string(p.Spending)
}

// pairing records how a baseline run pairs its versions, or nothing.
func pairing(o *Options) string {
	switch {
	case o.Baseline == "":
		return ""
	case o.Pairing == PairTogether:
		return string(PairTogether)
	case o.duets():
		return string(PairSlices)
	}
	return string(PairProcesses)
}

// looks records the looks of a sequential plan, or nothing.
func looks(p gate.Plan) string {
	if !p.Sequential() {
		return ""
	}
	return p.String()
}
