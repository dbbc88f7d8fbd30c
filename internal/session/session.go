package session

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"io"
	"os"
	"slices"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/benchout"
	"github.com/gobench-dyn/gobench-dyn/internal/progress"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"github.com/gobench-dyn/gobench-dyn/internal/worktree"
	"github.com/gobench-dyn/gobench-dyn/optime"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// run is one run in progress.
type run struct {
	// repoModules are the directories of the repository's modules,
	// relative to its top level, once AllModules needs them.
	repoModules []string
	opts        *Options
	outs        Outputs
	env         Env
	log         io.Writer
	now         func() time.Time
	start       time.Time
	cleanups    *Cleanups
	undo        []func() // this run's cleanups, run when it returns

	past   *record.Run // the records of the run resumed, or nil
	resume *rmit.Resume
	config *optime.ConfigFile
	raw    *rawFile
	// headName names the code under test in a comparison: HEAD, or the
	// working tree when it has uncommitted changes.
	headName string
	// baseName names the baseline in a comparison, and baseRev is the
	// commit checked out for it.
	baseName, baseRev string
}

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
	// benchmarks would take (goTestTime), and autoBudget the budget it
	// gave the run under Options.AutoBudget, or zero.
	goTest, autoBudget time.Duration
}

// Run plans, prepares and runs the benchmarks opts selects, writing
// results to outs as they are measured, and compares the two versions of
// a baseline run. ctx stops the run: it then ends the running iteration,
// writes what was measured and returns a Result that says it was
// interrupted.
//
// The error is an *Error when the run could not start or measure, and
// any other error when writing its records failed.
func Run(ctx context.Context, opts Options, outs Outputs, env Env) (*Result, error) {
	planned, err := plan(opts, logOf(outs))
	if err != nil {
		return nil, err
	}
	r := newRun(&planned.opts, outs, env)
	r.past, r.resume = planned.past, planned.resume
	defer r.cleanup()
	if err := r.open(); err != nil {
		return nil, err
	}
	var tmp, groups string
	undo, err := r.cleanups.Create(func() (func(), error) {
		var err error
		tmp, groups, err = makeTemp(r.log)
		return func() { os.RemoveAll(tmp) }, err
	})
	if err != nil {
		return nil, err
	}
	r.undo = append(r.undo, undo)
	r.env.Starter = r.starter(groups)
	p, err := r.prepare(ctx, tmp)
	if err != nil {
		return nil, err
	}
	a, err := r.assemble(p)
	if err != nil {
		return nil, err
	}
	runner, obs := a.runner, a.obs
	// A results file that fails stops the run as a failed record does.
	ctx, halt := context.WithCancelCause(ctx)
	defer halt(nil)
	obs.halt = halt
	sum, runErr := runner.Run(ctx)
	obs.progress.Close()
	res := &Result{Summary: sum, PrepareFailures: p.suite.Failures, Options: r.opts, Drifting: drifting(obs.head), Unsettled: unsettled(obs.head), Amortized: amortized(obs.head), GoTest: a.goTest, AutoBudget: a.autoBudget, Unaffected: len(p.unaffected),
		Head: obs.head, NonFinite: obs.odd.list(), Order: obs.order, minimumBudget: a.minimumBudget, prepTime: a.prepTime}
	if p.base != nil && r.opts.ExtendPast > 0 {
		for _, b := range p.head.Benchmarks {
			if obs.done[b] > r.opts.ExtendPast*max(1, b.Config.Iterations) {
				res.PastCap++
			}
		}
	}
	if runErr != nil && !errors.Is(runErr, rmit.ErrInterrupted) {
		// An output failed: what was measured is still written
		// wherever it can be, marked partial.
		res.Stopped = runErr
	}
	var markErr error
	if sum.Interrupted {
		markErr = r.markPartial(obs, res.Stopped)
	}
	// A mark that could not be streamed matters only if the commit, which
	// writes the mark on its first line, fails too.
	if err := r.commit(obs); err != nil {
		if res.Stopped != nil && !errors.Is(err, res.Stopped) {
			err = errors.Join(res.Stopped, err)
		}
		return res, errors.Join(err, markErr)
	}
	if sum.Interrupted {
		// The verdicts reached on what was measured: a sequential
		// comparison judges at the looks the pairs reached.
		if r.opts.Baseline != "" {
			if err := r.compare(res, obs, a.paired); err != nil || len(res.Comparison.Comparisons) == 0 {
				res.Comparison = nil
			}
		}
		if res.Stopped != nil {
			return res, res.Stopped
		}
		return res, nil
	}
	if res.Stopped != nil {
		return res, res.Stopped
	}
	if r.opts.Baseline != "" {
		if err := r.compare(res, obs, a.paired); err != nil {
			return res, err
		}
		if r.opts.Explain {
			r.explainChanges(ctx, p, res)
		}
	}
	return res, nil
}

func newRun(o *Options, outs Outputs, env Env) *run {
	r := &run{opts: o, outs: outs, env: env, log: logOf(outs), now: env.Clock, cleanups: env.Cleanups}
	if r.now == nil {
		r.now = time.Now
	}
	if r.cleanups == nil {
		r.cleanups = &Cleanups{}
	}
	if r.outs.Results == nil {
		r.outs.Results = discard{}
	}
	if r.env.Prepare == nil {
		r.env.Prepare = rmit.Prepare
	}
	r.start = r.now()
	return r
}

// atExit registers fn to run when Run returns, or on an abort.
func (r *run) atExit(fn func()) { r.undo = append(r.undo, r.cleanups.Add(fn)) }

func (r *run) cleanup() {
	for _, fn := range slices.Backward(r.undo) {
		fn()
	}
}

// logOf returns where outs log to.
func logOf(outs Outputs) io.Writer {
	if outs.Log == nil {
		return io.Discard
	}
	return outs.Log
}

// open checks what the run needs from outside before preparing anything:
// a way to check out the baseline, the configuration file and the raw
// file.
func (r *run) open() error {
	o := r.opts
	var err error
	if o.Baseline != "" && r.env.Checkout == nil {
		if err := worktree.Available(); err != nil {
			return usage.Errorf("baseline", "%w", err)
		}
	}
	if o.ConfigFile != "" {
		if r.config, err = optime.ReadConfigFile(o.ConfigFile); err != nil {
			return usage.Errorf("config", "%w", err)
		}
	}
	if o.Raw == "" {
		return nil
	}
	if r.past != nil {
		r.raw, err = appendRaw(o.Raw)
	} else {
		r.raw, err = createRaw(o.Raw, o.Force)
	}
	if errors.Is(err, ErrUnfinished) {
		return usage.ValueErrorf("raw", o.Raw, "%w", err)
	}
	if err != nil {
		return usage.Errorf("raw", "%w", err)
	}
	// commit closes the file and returns its error; this close is for
	// runs that end before the commit, whose first error is returned, so
	// that this one is only logged.
	r.atExit(func() {
		if err := r.raw.Close(); err != nil {
			fmt.Fprintf(r.log, "gobench-dyn: raw records %s: %v\n", o.Raw, err)
		}
	})
	return nil
}

// assemble builds the runner of the prepared suite: its policy, its shard,
// its records and its observer.
func (r *run) assemble(p *prepared) (*assembly, error) {
	o := r.opts
	policy, err := StopPolicy(o.Stop, o.Seed, o.SuiteRuns*o.Iterations)
	if err != nil {
		return nil, err
	}
	ap := assemblePolicy(o, policy, r.config, p, r.log)
	bs := p.suite.Benchmarks
	if !o.Shard.IsZero() {
		// Shard after both versions are known, so that a benchmark and
		// its baseline land in the same shard.
		if bs, err = selectShard(bs, o, r.log); err != nil {
			return nil, err
		}
		fmt.Fprintf(r.log, "gobench-dyn: shard %s: %d benchmarks\n", o.Shard, len(bs))
	}
	fmt.Fprintf(r.log, "gobench-dyn: %s, seed %d\n", describeSuite(bs, o.Baseline), o.Seed)
	header := newHeader(o, ap.compare(o).Plan, p.suite.Packages, r.now())
	rw, err := r.startRecords(header, p.suite)
	if err != nil {
		return nil, err
	}
	prep := r.now().Sub(r.start)
	budget, goTest := o.Budget, time.Duration(0)
	if p.base == nil {
		// go test makes no comparison.
		goTest = goTestTime(bs)
	}
	auto := o.autoBudget() && goTest > 0
	if auto {
		budget = prep + goTest
		fmt.Fprintf(r.log, "gobench-dyn: budget %s: about one go test -bench pass of these benchmarks (%s from their calibration) after %s of building and calibrating; each still gets %d processes, and --budget 0 lifts it\n",
			render.Duration(budget), render.Duration(goTest), render.Duration(prep), max(1, o.Stop.MinIterations))
	}
	var pb progress.Budget
	if budget > 0 {
		pb = progress.Budget{Length: budget, Start: r.start,
			Spared: spared(bs, o.Stop.MinIterations, auto), Needed: min(max(render.FewestProcesses, o.Stop.MinIterations), maxSuiteRunsOf(bs))}
	}
	obs := newObserver(o, bs, header, pb, r.outs, r.log)
	if err := r.recordUnaffected(rw, obs, p.unaffected); err != nil {
		return nil, err
	}
	runner := &rmit.Runner{
		Benchmarks: bs, Policy: ap.policy, Seed: o.Seed,
		SliceTime: o.SliceTime, Timeout: o.Timeout, Budget: budget, BudgetSparesMinimum: auto, Start: r.start,
		MinIterations: o.Stop.MinIterations, Instance: o.Instance,
		Raw: rw, Observer: obs, Resume: r.resume, Starter: r.env.Starter, Clock: r.env.Clock,
	}
	if ap.paired != nil {
		ap.paired.Drive(runner)
		if runner.Turns != nil && runner.Turns.Together {
			if why := sharedCores(); why != "" {
				fmt.Fprintf(r.log, "gobench-dyn: warning: --pairing duet runs both versions at once on two CPUs, and %s: their speeds then move against each other, and --pairing slice is steadier\n", why)
			}
		}
	}
	if r.config != nil {
		runner.MinDistinct = o.MinDistinct
	}
	a := &assembly{runner: runner, obs: obs, paired: ap.paired, prepTime: prep, goTest: goTest}
	if auto {
		a.autoBudget = budget
	}
	a.minimumBudget = r.warnBudget(runner, a.prepTime)
	return a, nil
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

// commit completes the results files, each version's results grouped by
// package and benchmark in the order they were found, and closes the raw
// file.
func (r *run) commit(obs *observer) error {
	// The results files get one line per process of a duet, as they do
	// per slice of any other iteration. An Output's error names the
	// output.
	if err := r.outs.Results.Commit(obs.head.WithDuetsMerged(), obs.order); err != nil {
		return err
	}
	if r.outs.Baseline != nil {
		if err := r.outs.Baseline.Commit(obs.baseline.WithDuetsMerged(), obs.order); err != nil {
			return err
		}
	}
	if err := r.raw.Close(); err != nil {
		return fmt.Errorf("raw records: %w", err)
	}
	return nil
}

// markPartial says in the results of a run that stopped early, inside
// them, that they are partial, and why: on the first line of the results
// as committed, and after the lines streamed so far, which stand in for
// them should the commit fail. Readers of the benchmark format skip the
// line. It returns the error of writing that line.
func (r *run) markPartial(obs *observer, why error) error {
	note := "interrupted; the results are partial"
	if why != nil {
		note = "stopped: " + why.Error() + "; the results are partial"
	}
	if r.opts.Raw != "" {
		note += "; --resume " + r.opts.Raw + " completes them"
	}
	ev := record.Event{Event: record.EventInterrupt, Reason: note, Time: r.now()}
	obs.head.Events = append(obs.head.Events, ev)
	obs.baseline.Events = append(obs.baseline.Events, ev)
	_, err := io.WriteString(r.outs.Results, benchout.NoteLine(note))
	if r.outs.Baseline != nil {
		_, berr := io.WriteString(r.outs.Baseline, benchout.NoteLine(note))
		err = errors.Join(err, berr)
	}
	return err
}

// compare compares the two versions the observer kept.
func (r *run) compare(res *Result, obs *observer, paired *PairedRun) error {
	c, err := paired.Judge(obs.baseline, obs.head)
	if err != nil {
		return err
	}
	c.OldName, c.NewName = cmp.Or(r.baseName, r.opts.Baseline), cmp.Or(r.headName, "HEAD")
	c.OldCommit = r.baseRev
	res.Comparison = c
	res.Regressed = len(c.Regressions(r.opts.FailOn)) > 0
	res.Inconclusive = !res.Regressed && c.Failed(r.opts.FailOn)
	return nil
}

// discard is an Output that keeps nothing.
type discard struct{}

func (discard) Write(p []byte) (int, error)            { return len(p), nil }
func (discard) Commit(*record.Run, []record.Key) error { return nil }

// RandomSeed draws the seed of a run, or of abs, that names none: 63
// random bits, the same draw for every command that prints its seed.
func RandomSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:]) >> 1
}
