package rmit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper/policy"
)

// ErrInterrupted is returned by Run when its context was cancelled. What
// was measured up to then has been recorded.
var ErrInterrupted = errors.New("interrupted")

// An Observer is told what happens during a run, as it happens. The
// runner calls it from one goroutine, between slices, never while a slice
// runs.
type Observer interface {
	SuiteRunStarted(k, iterations int)
	Slice(b *Benchmark, s *record.Slice)
	IterationDone(b *Benchmark, failure *Failure)
	// BenchmarkDone is called once per benchmark that leaves the
	// schedule early, because its policy stopped it, it failed or the
	// budget ran out, with the event recorded for it.
	BenchmarkDone(b *Benchmark, ev *record.Event)
	// StillScheduled is called when the run ends, once per benchmark
	// that was still in the schedule (it ran to its cap, or the budget
	// or the end of the run cut it short), with the stop event recorded
	// for it.
	StillScheduled(b *Benchmark, ev *record.Event)
}

// A Failure is an iteration that did not complete.
type Failure struct {
	Bench     *Benchmark
	SuiteRun  int
	Iteration int
	Reason    string // "timeout", "exit status 2", "--- FAIL", …
	Detail    string // the failure output and the tail of stderr
}

func (f *Failure) Error() string {
	return fmt.Sprintf("%s: suite run %d iteration %d: %s", f.Bench, f.SuiteRun, f.Iteration, f.Reason)
}

// A Runner runs the iterations of a set of calibrated benchmarks in
// randomized multiple interleaved trials.
type Runner struct {
	Benchmarks []*Benchmark
	Policy     Policy
	Seed       uint64
	// SliceTime is the target duration of one slice; slices that land
	// far from it trigger a recalibration of b.N between iterations.
	SliceTime time.Duration
	// Timeout kills an iteration that runs longer. Zero means none.
	Timeout time.Duration
	// Budget bounds the whole run, counted from Start. Zero means none.
	// An iteration that would not fit is not started, and one running
	// when the budget ends stops after its current slice.
	Budget time.Duration
	// BudgetSparesMinimum keeps Budget from cutting any benchmark before
	// its MinIterations suite runs: the budget is a price the run aims
	// at, and the minimum is what makes its intervals worth printing.
	BudgetSparesMinimum bool
	// Start is when the run began, building and calibration included;
	// zero means when Run is called.
	Start time.Time
	// MinIterations is the number of iterations every benchmark gets
	// before a budget is spent on the least stable ones.
	MinIterations int
	// MinDistinct pads suite runs holding fewer distinct benchmarks.
	MinDistinct int
	// FixedN keeps every benchmark's b.N as calibrated: two versions
	// compared must run the same N, since how a slice lines up with the
	// scheduler's time slices depends on its length.
	FixedN bool
	// Pairs, when set, schedules the two versions of each benchmark as
	// adjacent pairs (PairedSchedule).
	Pairs *Pairing
	// Turns, when set with Pairs, runs each pair as one duet iteration
	// of this shape: the two versions' workers alive together, taking
	// their slices in turns. The binaries must be built with the
	// overlay of TurnHook, and Starter, when set, must be a TurnStarter.
	Turns *TurnPlan
	// TurnTime is the length of a turn b.N was calibrated for; duets
	// retune their b.N so that a turn spends TimerShare of its wall
	// time inside the timer, within [TurnTime/2, 64 × TurnTime]. Zero
	// keeps b.N as it is.
	TurnTime time.Duration
	Instance string
	Raw      *record.Writer // may be nil
	Observer Observer       // may be nil
	// Resume, when not nil, holds the records of an interrupted run with
	// the same seed and options: the iterations it completed are
	// replayed rather than run.
	Resume *Resume
	// Starter starts the test binaries; nil starts real processes.
	Starter Starter
	// Clock tells the time of slices, events and the budget; nil is
	// time.Now.
	Clock func() time.Time

	now      func() time.Time
	halt     context.CancelCauseFunc // stops the run for a cause other than an interrupt
	loop     *policy.Loop            // feeds Policy and times it
	state    map[*Benchmark]*benchState
	byID     map[string]*Benchmark // for the benchmarks a policy stops together
	deadline time.Time             // Start + Budget, when there is a budget
	spent    bool                  // the budget ran out during an iteration

	// twins holds each benchmark's versions; aloneChecked the members
	// of families run alone once (withSiblings); familyRan the
	// iterations a process of their family measured.
	twins        map[record.Bench][]*Benchmark
	aloneChecked map[*Benchmark]bool
	processes    int // started for iterations (Summary.Processes)
	familyRan    map[familyIteration]bool
	// familyWall holds the wall times of each family's processes, for
	// the budget (familyEstimate).
	familyWall map[*Family][]time.Duration
	// drawn are the links processes drew (layoutOf), kept so that every
	// slice of a process names the link it ran.
	drawMu sync.Mutex
	drawn  map[drawKey]Layout
}

// benchState is what the runner tracks of one benchmark.
type benchState struct {
	iterations int // completed iterations
	// last is the suite run and iteration of the latest of them.
	last      [2]int
	wall      time.Duration // wall time of its iterations, for estimates
	stopped   bool          // the policy stopped it
	turns     int           // the fewest measured turns of its duets that amortise their start (amortiseStart)
	failed    bool
	budgetCut bool
	// beyondBudget says that the budget cut it as its predicted stop lay
	// beyond what was left of it (fitBudget).
	beyondBudget bool

	// byProcess says why its pair is measured by process pairs of
	// processSlices measured slices each, or is "" (processPair).
	byProcess     string
	processSlices int
	// checked says that its pair's first duet was checked
	// (checkPairing).
	checked bool
	// warmupTurns, when set, is the warmup turns of its duets at its
	// retuned b.N (warmupAt).
	warmupTurns int
	// latest holds the times of its latest iteration with measured
	// slices (recalibrate), by which a family pair is lengthened
	// (lengthenFamilyPair).
	latest processTimes
	// stretchedFrom is the b.N and cost outside the timer from which
	// recalibrate last stretched its slices; setupPerOp says that its
	// setup grew with b.N then, and its slices stay at the slice time.
	stretchedFrom callCost
	setupPerOp    bool
	// fewOps is the b.N and time per op from which recalibrate tried a
	// b.N FewOpsStep times larger (checkFewOps), n < 0 when it will not;
	// fewOpsChecked says the try has been judged, and minN is the b.N
	// it kept, below which recalibrate does not go.
	fewOps        perOpAt
	fewOpsChecked bool
	minN          int64
}

// A Summary describes a finished run.
type Summary struct {
	Start, End time.Time
	Benchmarks int
	Iterations int
	// Processes counts the test binary processes that ran iterations:
	// one per iteration alone, one per process of a family measured
	// together, which runs an iteration of each member, and one per
	// worker of a duet or process pair.
	Processes  int
	Slices     int // measurement slices
	Warmup     int // warmup slices
	InSlices   time.Duration
	Stopped    int // benchmarks the policy stopped early
	Settled    int // of those, benchmarks stopped with their baseline on a settled verdict
	OutOfReach int // of those, benchmarks stopped unmet because their target was out of reach
	NoVerdict  int // of those, benchmarks stopped with their baseline because a verdict was out of reach
	AtCap      int // of those, benchmarks stopped with their baseline undecided at the default cap of an extended plan
	CapHit     int // benchmarks that reached their cap
	Failed     []*Failure
	Padded     int
	BudgetCut  []*Benchmark
	// BeyondBudget counts the benchmarks of BudgetCut whose predicted
	// stop lay beyond what was left of the budget (fitBudget).
	BeyondBudget int
	Interrupted  bool

	// InTimer is the part of InSlices inside the benchmarks' timers;
	// the rest went to setup, run1, garbage collection and hand-overs.
	InTimer time.Duration
	// FirstSlice and LastSlice bound the measuring phase: the start of
	// the run's first slice, warmup included, and the end of its last.
	FirstSlice, LastSlice time.Time
	// CapEstimate estimates how long the cap configuration would have
	// taken: the time taken plus the iterations left out at each
	// benchmark's mean iteration time.
	CapEstimate time.Duration
	// HarnessCPU is the CPU time gobench-dyn itself used, children
	// excluded.
	HarnessCPU time.Duration
	// Linked counts the links of randomised layouts made while the run
	// measured, before the suite runs that drew them (linkAhead), and
	// Linking is the wall time they took.
	Linked  int
	Linking time.Duration
	// Criterion is the time spent computing stoppage criteria.
	Criterion time.Duration
	// Precision holds, for every benchmark that completed an iteration,
	// how well its mean is known at the end, in the order of Benchmarks.
	Precision []BenchPrecision
	// Together are the families measured with their siblings, since a
	// member failed alone (Family).
	Together []*Family
}

// A BenchPrecision is the precision one benchmark's mean reached.
type BenchPrecision struct {
	Bench      *Benchmark
	Iterations int
	Precision  policy.Precision
}

// Wall returns the run's wall time.
func (s *Summary) Wall() time.Duration { return s.End.Sub(s.Start) }

// Efficiency returns the share of wall time spent inside slices.
func (s *Summary) Efficiency() float64 {
	if s.Wall() <= 0 {
		return 0
	}
	return float64(s.InSlices) / float64(s.Wall())
}

// Measuring returns the wall time of the measuring phase, from the
// start of the first slice to the end of the last.
func (s *Summary) Measuring() time.Duration {
	if s.FirstSlice.IsZero() {
		return 0
	}
	return s.LastSlice.Sub(s.FirstSlice)
}

// TimerShare returns the share of the measuring phase spent inside the
// benchmarks' timers.
func (s *Summary) TimerShare() float64 {
	if s.Measuring() <= 0 {
		return 0
	}
	return float64(s.InTimer) / float64(s.Measuring())
}

// TimeUse returns the summary's time figures for the raw file's last
// record.
func (s *Summary) TimeUse() *record.TimeUse {
	return &record.TimeUse{WallNs: int64(s.Wall()), MeasuringNs: int64(s.Measuring()), InSlicesNs: int64(s.InSlices), InTimerNs: int64(s.InTimer)}
}

// sliceTally is what the summary has counted of slices, kept before an
// iteration whose slices may be dropped (a family member's lone try, a
// pair's first turns), to put back when they are.
type sliceTally struct {
	slices, warmup    int
	inSlices, inTimer time.Duration
}

func (s *Summary) tally() sliceTally {
	return sliceTally{s.Slices, s.Warmup, s.InSlices, s.InTimer}
}

func (s *Summary) restore(t sliceTally) {
	s.Slices, s.Warmup, s.InSlices, s.InTimer = t.slices, t.warmup, t.inSlices, t.inTimer
}

// sliceDone counts slice rec, measured by this run, in the measuring
// phase and among the warmup or the measurement slices, and, unless it is
// a warmup slice, in the time inside slices and inside the timer.
func (s *Summary) sliceDone(rec *record.Slice) {
	end := rec.Start.Add(time.Duration(rec.WallNs))
	if s.FirstSlice.IsZero() || rec.Start.Before(s.FirstSlice) {
		s.FirstSlice = rec.Start
	}
	if end.After(s.LastSlice) {
		s.LastSlice = end
	}
	if rec.Warmup {
		s.Warmup++
		return
	}
	s.Slices++
	s.InSlices += time.Duration(rec.WallNs)
	s.InTimer += min(rec.Timed(), time.Duration(rec.WallNs))
}

// Run runs the schedule until every benchmark has reached its cap or been
// stopped by the policy, the budget is spent, or ctx is cancelled (then it
// returns ErrInterrupted). Every slice is written to Raw as it finishes.
//
// A record that cannot be written stops the run at once, as an interrupt
// does, and Run returns the write's error. So does a cancellation of ctx
// with a cause (context.WithCancelCause) other than context.Canceled,
// such as a results file that could not be written: Run returns the cause.
// Either way the summary is marked interrupted: the results are partial.
func (r *Runner) Run(ctx context.Context) (*Summary, error) {
	ctx, r.halt = context.WithCancelCause(ctx)
	defer r.halt(nil)
	r.now = r.Clock
	if r.now == nil {
		r.now = time.Now
	}
	r.loop = &policy.Loop{Policy: r.Policy, Now: r.now}
	r.state = map[*Benchmark]*benchState{}
	r.byID = map[string]*Benchmark{}
	r.twins, r.aloneChecked, r.familyRan = map[record.Bench][]*Benchmark{}, map[*Benchmark]bool{}, map[familyIteration]bool{}
	r.familyWall = map[*Family][]time.Duration{}
	sum := &Summary{Start: r.now(), Benchmarks: len(r.Benchmarks)}
	for _, b := range r.Benchmarks {
		r.state[b] = &benchState{}
		r.byID[b.ID] = b
		r.twins[b.Bench()] = append(r.twins[b.Bench()], b)
		if reason, ok := r.Resume.cutByBudget(b.ID); ok {
			r.state[b].budgetCut = true
			sum.BudgetCut = append(sum.BudgetCut, b)
			if strings.HasPrefix(reason, record.ReasonBeyondBudget) {
				r.state[b].beyondBudget = true
				sum.BeyondBudget++
			}
		}
	}
	if !r.Start.IsZero() {
		sum.Start = r.Start
	}
	cpu0 := selfCPU()
	err := r.run(ctx, sum)
	if !errors.Is(err, ErrInterrupted) {
		// An interrupted run has not reached any configuration's end.
		r.finish(sum)
	}
	sum.End = r.now()
	sum.HarnessCPU = selfCPU() - cpu0
	sum.Processes = r.processes
	sum.CapEstimate = sum.Wall()
	for _, b := range r.Benchmarks {
		st := r.state[b]
		if left := b.Config.SuiteRuns*b.Config.Iterations - st.iterations; left > 0 && st.iterations > 0 && !st.failed {
			sum.CapEstimate += time.Duration(left) * st.wall / time.Duration(st.iterations)
		}
	}
	for _, b := range r.Benchmarks {
		if f := familyOf(b); f != nil && f.Together && !slices.Contains(sum.Together, f) {
			sum.Together = append(sum.Together, f)
		}
		sum.Criterion += r.loop.Spent(b.ID)
		if st := r.state[b]; st.iterations > 0 {
			d, _ := r.loop.Last(b.ID)
			sum.Precision = append(sum.Precision, BenchPrecision{Bench: b, Iterations: st.iterations, Precision: d.Precision})
		}
	}
	if errors.Is(err, ErrInterrupted) {
		sum.Interrupted = true
		reason := "interrupted by signal"
		if cause := haltCause(ctx); cause != nil {
			reason, err = "stopped: "+cause.Error(), cause
		}
		r.event(&record.Event{Event: record.EventInterrupt, Reason: reason + "; results are partial", TimeUse: sum.TimeUse()})
	} else if err == nil {
		r.event(&record.Event{Event: record.EventEnd, TimeUse: sum.TimeUse()})
		// A record of the run's end that could not be written leaves
		// the file unfinished.
		err = haltCause(ctx)
	}
	return sum, err
}

func (r *Runner) run(ctx context.Context, sum *Summary) error {
	maxRuns := 0
	for _, b := range r.Benchmarks {
		maxRuns = max(maxRuns, b.Config.SuiteRuns)
	}
	for k := 1; k <= maxRuns; k++ {
		var active, spare []*Benchmark
		for _, b := range r.Benchmarks {
			st := r.state[b]
			switch {
			case st.failed || st.budgetCut:
			case st.stopped || k > b.Config.SuiteRuns:
				spare = append(spare, b)
			default:
				active = append(active, b)
			}
		}
		r.setDeadline(sum.Start, k)
		if r.Budget > 0 && k > r.MinIterations {
			var cut, beyond []*Benchmark
			active, cut, beyond = r.fitBudget(active, r.deadline.Sub(r.now()))
			r.cutByBudget(sum, cut)
			r.cutBeyondBudget(sum, beyond)
		}
		if len(active) == 0 {
			break
		}
		its := func(b *Benchmark) int { return b.Config.Iterations }
		var entries []Entry
		if r.Pairs != nil {
			entries = PairedSchedule(r.Seed, k, active, its, *r.Pairs)
		} else {
			entries = Schedule(r.Seed, k, active, its)
		}
		if r.MinDistinct > 0 {
			var added []*Benchmark
			entries, added = Pad(entries, r.MinDistinct, spare, r.Seed, k)
			for _, b := range added {
				sum.Padded++
				r.event(&record.Event{Event: record.EventPadding, Package: b.Package.ImportPath, Benchmark: b.Name, Version: b.Package.Version, SuiteRun: k,
					Reason: fmt.Sprintf("suite run %d held fewer than %d distinct benchmarks", k, r.MinDistinct)})
			}
		}
		r.linkAhead(entries, k, sum)
		if r.Observer != nil {
			r.Observer.SuiteRunStarted(k, len(entries))
		}
		for order := 0; order < len(entries); {
			if ctx.Err() != nil {
				return ErrInterrupted
			}
			took, halt, err := r.place(ctx, entries, order, k, sum)
			if err != nil || halt {
				return err
			}
			order += took
		}
	}
	return nil
}

// A placement is one entry of a suite run's schedule about to run, at
// position pos (from 1), with partner, the next entry, when the schedule
// pairs the two to run in turns and the partner still runs.
type placement struct {
	e       Entry
	partner *Entry
	k, pos  int
}

// A way is one way of running a benchmark. It runs the placement's entry
// (with its partner, when it takes it too) and says how many entries of
// the schedule it took; none when the entry is not its to run. Every way
// draws its processes' links (layoutOf), counts their time inside the
// timer through keep, writes records and events through the runner, and
// resumes from the records of an interrupted run, as the conformance
// suite (conformance_test.go) holds each of them to.
type way func(r *Runner, ctx context.Context, p *placement, sum *Summary) (took int, err error)

// replayed are the ways an entry is taken from the records of an
// interrupted run, tried in this order before any process starts.
var replayed = []way{
	(*Runner).resumedFamilyPair, // both sides of a family pair, or its members again
	(*Runner).replayedDuet,      // a pair in turns, or its process pairs
	(*Runner).replayedProcess,   // one process, alone
}

// measured are the ways an entry is measured by processes, tried in this
// order once it fits in what is left of the budget.
var measured = []way{
	(*Runner).aloneFirst,  // a family member's first process, tried without its siblings
	(*Runner).withFamily,  // a family member with its siblings, in family processes
	(*Runner).inTurns,     // a pair in turns (duet), or in process pairs (processPair)
	(*Runner).loneProcess, // one process
}

// place runs entries[order] in the first way that takes it, and returns
// how many entries it took; halt says that the budget ended the run.
func (r *Runner) place(ctx context.Context, entries []Entry, order, k int, sum *Summary) (took int, halt bool, err error) {
	e := entries[order]
	if !r.runnable(e) || r.covered(e, k) {
		return 1, false, nil
	}
	p := &placement{e: e, k: k, pos: order + 1}
	if r.Turns != nil && e.PairedWithNext && order+1 < len(entries) && r.runnable(entries[order+1]) {
		p.partner = &entries[order+1]
	}
	for _, w := range replayed {
		if took, err := w(r, ctx, p, sum); took > 0 || err != nil {
			return max(took, 1), false, err
		}
	}
	if p.partner != nil {
		// A side that failed in the records leaves the other to run
		// alone.
		if !r.runnable(e) {
			return 1, false, nil
		}
		if !r.runnable(*p.partner) {
			p.partner = nil
		}
	}
	if r.Budget > 0 {
		if !r.now().Before(r.deadline) {
			r.cutByBudget(sum, r.Benchmarks)
			return 0, true, nil
		}
		need, cut := r.estimate(e.Bench), []*Benchmark{e.Bench}
		if p.partner != nil {
			need, cut = need+r.estimate(p.partner.Bench), append(cut, p.partner.Bench)
		}
		if r.now().Add(need).After(r.deadline) {
			// This one does not fit; a cheaper one later may.
			r.cutByBudget(sum, cut)
			return 1, false, nil
		}
	}
	for _, w := range measured {
		took, err := w(r, ctx, p, sum)
		if err != nil {
			return 0, false, err
		}
		if took > 0 {
			if r.spent {
				r.cutByBudget(sum, r.Benchmarks)
				return 0, true, nil
			}
			return took, false, nil
		}
	}
	panic("rmit: no way of running took " + e.Bench.String())
}

// resumedFamilyPair replays, or runs again, a family pair that the
// records of an interrupted run hold (resumeFamilyPair).
func (r *Runner) resumedFamilyPair(ctx context.Context, p *placement, sum *Summary) (int, error) {
	if p.partner == nil {
		return 0, nil
	}
	if resumed, err := r.resumeFamilyPair(ctx, p.e, *p.partner, p.k, p.pos, sum); !resumed || err != nil {
		return 0, err
	}
	return 2, nil
}

// replayedDuet replays a pair that ran in turns, or as process pairs.
func (r *Runner) replayedDuet(_ context.Context, p *placement, sum *Summary) (int, error) {
	if p.partner == nil || !r.replayDuet(p.e, *p.partner, p.k, sum) {
		return 0, nil
	}
	return 2, nil
}

// replayedProcess replays a process that ran alone.
func (r *Runner) replayedProcess(_ context.Context, p *placement, sum *Summary) (int, error) {
	if p.partner != nil {
		return 0, nil
	}
	if past := r.Resume.lookup(p.e.Bench, p.k, p.e.Iteration); past == nil || !r.replay(p.e, p.k, past, sum) {
		return 0, nil
	}
	return 1, nil
}

// aloneFirst runs a family member's first process without its siblings
// (firstAlone).
func (r *Runner) aloneFirst(ctx context.Context, p *placement, sum *Summary) (int, error) {
	alone, err := r.firstAlone(ctx, p.e, p.partner, p.k, p.pos, sum)
	if err != nil || !alone {
		return 0, err
	}
	return 1, nil
}

// withFamily runs a family member, and its partner, with their siblings.
func (r *Runner) withFamily(ctx context.Context, p *placement, sum *Summary) (int, error) {
	if !r.withSiblings(ctx, p.e.Bench) {
		return 0, nil
	}
	if err := r.familyIterations(ctx, p.e, p.partner, p.k, p.pos, sum); err != nil {
		return 0, err
	}
	if p.partner != nil {
		return 2, nil
	}
	return 1, nil
}

// inTurns runs a pair in turns, or in process pairs.
func (r *Runner) inTurns(ctx context.Context, p *placement, sum *Summary) (int, error) {
	if p.partner == nil {
		return 0, nil
	}
	return 2, r.duet(ctx, p.e, *p.partner, p.k, p.pos, sum)
}

// loneProcess runs the entry as one process, alone.
func (r *Runner) loneProcess(ctx context.Context, p *placement, sum *Summary) (int, error) {
	return 1, r.iteration(ctx, p.e, p.k, p.pos, sum)
}

// iteration runs one scheduled iteration and updates the benchmark's state.
func (r *Runner) iteration(ctx context.Context, e Entry, k, order int, sum *Summary) error {
	start := r.now()
	measured, inSlices, slicesWall, fail := r.runIteration(ctx, e, k, order, nil, sum)
	wall := r.now().Sub(start)
	if fail != nil && fail.Reason == "interrupted" {
		return ErrInterrupted
	}
	if r.account(e, k, wall, fail, sum) {
		r.judge(e, k, measured, inSlices, slicesWall, sum)
	}
	return nil
}

// account counts a finished iteration of entry e in suite run k, which
// took wall, and records its failure, if any. It reports whether the
// iteration is the policy's to judge: it completed, is no padding, and
// the budget did not cut it short.
func (r *Runner) account(e Entry, k int, wall time.Duration, fail *Failure, sum *Summary) bool {
	b := e.Bench
	st := r.state[b]
	st.wall += wall
	st.iterations++
	st.last = [2]int{k, e.Iteration}
	sum.Iterations++
	r.ran(e, k)
	if r.Observer != nil {
		r.Observer.IterationDone(b, fail)
	}
	if fail != nil {
		st.failed = true
		sum.Failed = append(sum.Failed, fail)
		ev := &record.Event{Event: record.EventFailure, Package: b.Package.ImportPath, Benchmark: b.Name, Version: b.Package.Version,
			SuiteRun: k, Iteration: e.Iteration, Reason: fail.Reason, Detail: fail.Detail}
		r.event(ev)
		if r.Observer != nil {
			r.Observer.BenchmarkDone(b, ev)
		}
		return false
	}
	// A padding iteration is extra data, and one cut by the budget is
	// incomplete: neither is the policy's to judge.
	return !e.Padding && !r.spent
}

// judge gives the policy the completed iteration of entry e in suite run
// k and stops the benchmark if the policy says so.
func (r *Runner) judge(e Entry, k int, measured []float64, inSlices, slicesWall time.Duration, sum *Summary) {
	if d := r.loop.End(e.Bench.ID, costs(k, e.Iteration, measured, inSlices, slicesWall)); d.Stop {
		r.stop(e.Bench, k, e.Iteration, sum, nil, d)
	}
}

// costs describes a completed iteration to its policy: its measurement
// values, the mean wall time of one measurement slice (c₁) and the rest of
// its slices' wall time, the process start and the warmup (c₂). Both come
// from the slices' recorded wall times, the first of which runs from the
// process start, so that a resumed run, which knows only the records,
// gives the policy the same costs as the run that recorded them.
func costs(k, process int, measured []float64, inSlices, wall time.Duration) policy.Iteration {
	it := policy.Iteration{SuiteRun: k, Process: process, Measured: measured}
	if len(measured) > 0 && inSlices > 0 {
		it.SliceCost = inSlices / time.Duration(len(measured))
		it.ProcessCost = max(0, wall-inSlices)
	}
	return it
}

// runnable reports whether entry e is still to run: its benchmark has
// neither failed nor been cut by the budget, and a stopped benchmark runs
// only as padding.
func (r *Runner) runnable(e Entry) bool {
	st := r.state[e.Bench]
	return !st.failed && (!st.stopped || e.Padding) && !st.budgetCut
}

// stop marks b stopped by its policy after iteration it of suite run k
// and records why; then the benchmarks the policy stops with it (the other
// version of a pair), which would otherwise run one more iteration only to
// learn that they are done. A stop already in recorded (a resumed run's
// records) is not written again.
func (r *Runner) stop(b *Benchmark, k, it int, sum *Summary, recorded map[string]bool, d policy.Decision) {
	st := r.state[b]
	st.stopped = true
	sum.Stopped++
	reason := d.Reason
	if reason == "" {
		reason = record.ReasonCriterionMet
	}
	ev := r.stopEvent(b, k, it, reason)
	switch ev.Reason {
	case record.ReasonSettled:
		sum.Settled++
	case record.ReasonOutOfReach:
		sum.OutOfReach++
	case record.ReasonNoVerdict:
		sum.NoVerdict++
	case record.ReasonUndecidedAtCap:
		sum.AtCap++
	}
	if !recorded[b.ID] {
		r.event(ev)
	}
	if r.Observer != nil {
		r.Observer.BenchmarkDone(b, ev)
	}
	for _, id := range d.With {
		o, ok := r.byID[id]
		if !ok {
			continue // not in this run, for example in another shard
		}
		if ost := r.state[o]; !ost.stopped && !ost.failed && !ost.budgetCut && ost.iterations > 0 {
			r.stop(o, ost.last[0], ost.last[1], sum, recorded, policy.Decision{Reason: d.Reason})
		}
	}
}

func (r *Runner) stopEvent(b *Benchmark, k, it int, reason string) *record.Event {
	ev := &record.Event{Event: record.EventStop, Package: b.Package.ImportPath, Benchmark: b.Name, Version: b.Package.Version,
		SuiteRun: k, Iteration: it, Reason: reason}
	d, _ := r.loop.Last(b.ID)
	ev.Met, ev.CriterionNs = d.Met, int64(r.loop.Spent(b.ID))
	ev.Precision = precisionRecord(d.Precision)
	if u := d.Unsettled; u != nil {
		// The warmup of a benchmark's first process, whose slices all
		// ran at its b.N (halfWarmup).
		ev.Unsettled = &record.Unsettled{Slices: u.Slices, Ops: int64(u.Slices) * b.N, Drop: u.Drop}
	}
	return ev
}

// precisionRecord returns p as the stop record holds it, or nil when the
// policy estimated no interval.
func precisionRecord(p policy.Precision) *record.Precision {
	if !p.Known() {
		return nil
	}
	return &record.Precision{RelHalfWidth: p.Width, Confidence: p.Confidence, Target: p.Target, Processes: p.Processes}
}

// finish records a stop event for every benchmark that ran to its cap.
func (r *Runner) finish(sum *Summary) {
	for _, b := range r.Benchmarks {
		st := r.state[b]
		if st.stopped || st.failed || st.iterations == 0 {
			continue
		}
		reason := "configuration done"
		if d, _ := r.loop.Last(b.ID); d.Criterion != "" {
			reason = "cap reached before the criterion held"
			switch {
			case st.beyondBudget:
				reason = record.ReasonBeyondBudget
			case st.budgetCut:
				reason = "budget spent before the criterion held"
			default:
				sum.CapHit++
			}
		}
		ev := r.stopEvent(b, 0, 0, reason)
		r.event(ev)
		if r.Observer != nil {
			r.Observer.StillScheduled(b, ev)
		}
	}
}

// runIteration runs one process of the test binary for entry e, records
// its slices and returns the measurement values (ns/op), the wall time of
// the measurement slices and of all slices. A nil failure means the
// iteration completed. held, when set, holds its records.
func (r *Runner) runIteration(ctx context.Context, e Entry, k, order int, held *heldRecords, sum *Summary) ([]float64, time.Duration, time.Duration, *Failure) {
	times := processTimes{held: held}
	measured, fail := r.runProcess(ctx, e, k, order, &times, sum)
	return measured, times.inSlices, times.wall, fail
}

// runProcess is runIteration, counting the slice times in times.
func (r *Runner) runProcess(ctx context.Context, e Entry, k, order int, times *processTimes, sum *Summary) ([]float64, *Failure) {
	b := e.Bench
	maxSlices := r.Policy.MaxSlices(b.ID)
	fail := func(reason, detail string) *Failure {
		return &Failure{Bench: b, SuiteRun: k, Iteration: e.Iteration, Reason: reason, Detail: detail}
	}
	if maxSlices < 1 {
		return nil, fail("policy allows no slices", "")
	}
	feed := r.loop.Begin(b.ID)
	p, warmN, err := r.startSlices(b, r.layoutOf(b, k, e.Iteration).Binary, maxSlices, r.halfWarmup(b, feed.Step, maxSlices))
	if err != nil {
		return nil, fail("cannot start test binary", err.Error())
	}
	r.processes++
	stop := p.watch(ctx, r.Timeout)
	defer stop()

	done := feed.Step.Done
	last := r.now()
	var failure *Failure
	var failText failureDetail
	slice := 0
	// The result of a slice is the line of this benchmark over the b.N
	// asked for, the warmup's for the first; any other is a print of the
	// benchmark's own.
	accept := func(name string, n int64) bool {
		return name == b.Name && (n == b.N || warmN > 0 && slice == 0 && n == warmN)
	}
	scanErr := scanOutput(p.stdout, accept, func(it outputItem) bool {
		if ctx.Err() != nil {
			// Interrupted: the slices printed since belong to an
			// iteration that was cut short; none is recorded, however
			// soon the kill lands.
			return true
		}
		switch it.kind {
		case itemResult:
			if it.name != b.Name {
				return false
			}
			slice++
			last, done = r.recordSlice(e, k, order, slice, it, last, feed, times, sum)
			if done {
				if slice < maxSlices {
					p.kill("done")
				}
				return true
			}
		case itemFailure, itemPanic:
			// The first failure's message is its reason; the detail
			// holds the rest, and every later failure.
			failText.add(it, failure == nil)
			if failure == nil {
				failure = fail(it.reason, "")
			}
		}
		return false
	})
	waitErr := p.wait()
	stop()
	// A process killed by the timeout after its last slice, while
	// something it started held its output open, measured all it had to.
	why := p.killedFor()
	if ctx.Err() != nil && !done {
		why = "interrupted" // whether the kill or the binary's end came first
	}
	if why == "interrupted" || why == "timeout" && !done {
		return feed.Measured, fail(why, killDetail(why, r.Timeout, p.stderr.String()))
	}
	if failure != nil || (waitErr != nil && !done) {
		if failure == nil {
			failure = fail(withCause(exitReason(waitErr), p.stderr.String()), "")
		}
		failure.Detail = failText.with(p.stderr.String())
		return feed.Measured, failure
	}
	if scanErr != nil && !done {
		return feed.Measured, fail("reading output: "+scanErr.Error(), p.stderr.String())
	}
	if !done {
		return feed.Measured, fail(fmt.Sprintf("the test binary printed %d of the %d slices asked for", slice, maxSlices), p.stderr.String())
	}
	r.recalibrate(b, times)
	return feed.Measured, nil
}

// halfWarmup reports whether b's process of slices slices, whose first
// slice first announces, warms up at half its b.N (warmupN): once a
// process of b has run, or its policy knows its warmup from an earlier
// run, so that a first process that learns the warmup compares slices of
// one length, and when there is a slice after the warmup and more than
// one op to halve.
func (r *Runner) halfWarmup(b *Benchmark, first policy.Step, slices int) bool {
	st := r.state[b]
	return first.Warmup && slices > 1 && b.N > 1 && st != nil && (st.iterations > 0 || r.warmupKnown(b))
}

// A warmupKeeper knows a benchmark's warmup before its first process
// when an earlier run learned it (stopper's Policy): that process then
// learns none.
type warmupKeeper interface {
	LearnedWarmup(bench string) (slices int, settled bool)
}

// warmupKnown reports whether the policy knows b's warmup already.
func (r *Runner) warmupKnown(b *Benchmark) bool {
	k, ok := r.Policy.(warmupKeeper)
	if !ok {
		return false
	}
	n, settled := k.LearnedWarmup(b.ID)
	return settled && n > 0
}

// recordSlice records slice number slice of entry e, printed as it and
// measured since last, feeds it to the policy, and returns when it ended
// and whether the iteration is done: the policy has what it needs or the
// budget has run out.
func (r *Runner) recordSlice(e Entry, k, order, slice int, it outputItem, last time.Time, feed *policy.Feed, times *processTimes, sum *Summary) (time.Time, bool) {
	b := e.Bench
	now := r.now()
	rec := &record.Slice{
		Package: b.Package.ImportPath, Benchmark: b.Name, Version: b.Package.Version, Instance: r.Instance,
		SuiteRun: k, Iteration: e.Iteration, Order: order, Slice: slice, Warmup: feed.Step.Warmup,
		N: it.n, Values: it.values, Start: last, WallNs: int64(now.Sub(last)), Layout: r.layoutOf(b, k, e.Iteration).Seed,
	}
	r.keep(b, rec, times, sum)
	if feed.Add(primaryValue(it.values)) {
		r.warmupEnd(b, k, e.Iteration, slice, feed.Step.Met, times.held)
	}
	done := feed.Step.Done
	if !done && r.Budget > 0 && !now.Before(r.deadline) {
		// The budget ends now: keep what this slice measured and start
		// no other.
		r.spent, done = true, true
	}
	return now, done
}

func killDetail(why string, timeout time.Duration, stderr string) string {
	if why == "timeout" {
		return fmt.Sprintf("killed after --timeout %v\n%s", timeout, stderr)
	}
	return stderr
}

func exitReason(err error) string {
	var ee interface{ ExitCode() int }
	if errors.As(err, &ee) {
		return fmt.Sprintf("exit status %d", ee.ExitCode())
	}
	if err != nil {
		return err.Error()
	}
	return "failed"
}

// recalibrate resets b.N when the iteration's slices landed far from the
// target slice time, for example because the benchmark's speed changed
// after its warm-up, from the times of the iteration's process. It keeps
// those times for the family pair that b may be a member of
// (lengthenFamilyPair). Measurement slices within one iteration always
// share one N.
//
// A benchmark whose setup runs on every call would spend most of a
// slice of the target time outside its timer, so its slices are made
// long enough to spend TimerShare inside it, up to maxStretched of the
// target, by steps that a setup growing with b.N could not make costly
// (stretchStep). A setup that grew with b.N when stretched builds an
// input per op, which no b.N outgrows: its slices go back to the target
// time.
func (r *Runner) recalibrate(b *Benchmark, times *processTimes) {
	perOp, untimed := times.perOp, times.untimed
	st := r.state[b]
	if st != nil && len(perOp) > 0 {
		st.latest = *times
	}
	if len(perOp) == 0 || r.SliceTime <= 0 || r.FixedN {
		return
	}
	med := slices.Clone(perOp)
	slices.Sort(med)
	ns := med[len(med)/2]
	if ns <= 0 {
		return
	}
	if st != nil && st.stretchedFrom.n == 0 {
		if n, ok := r.checkFewOps(st, b.N, ns); ok {
			b.N = n
			return
		}
	}
	want := r.SliceTime
	got := time.Duration(ns * float64(b.N))
	var outside float64
	if len(untimed) > 0 && (st == nil || !st.setupPerOp) {
		outside = stats.Median(untimed)
		if st != nil && st.stretchedFrom.n > 0 && setupGrew(st.stretchedFrom, b.N, outside) {
			st.setupPerOp = true
		} else {
			want = max(r.SliceTime, min(r.stretchedSlice(time.Duration(outside)), stretchStep(got, times)))
		}
	}
	// Slices far from the slice time are recalibrated; slices that
	// spend less than TimerShare inside the timer, as soon as they are
	// a fifth short of the time that would.
	low := want / 3
	if want > r.SliceTime {
		low = want * 4 / 5
	}
	if got > low && got < want*3 {
		return
	}
	n := NForSlice(ns, want)
	if st != nil && want > r.SliceTime && n > b.N {
		st.stretchedFrom = callCost{n: b.N, outside: outside}
	}
	if st != nil {
		n = max(n, st.minN)
	}
	b.N = n
}

// A perOpAt is a benchmark's median time per op, in ns, at one b.N.
type perOpAt struct {
	n  int64
	ns float64
}

// FewOps is the most ops a slice may hold for its benchmark to be tried
// at FewOpsStep times its b.N, and AmortizedRatio how much faster per op
// the larger b.N must be for it to keep it. A cost that each call of a
// benchmark function pays inside its timer (a heap grown again after the
// garbage collection go test runs before each call, goroutines started
// per call) reads as a cost per op: go test's ramp spreads it over the
// ops of a second, a slice of a few ops hardly at all, and recalibration
// never moves such a b.N threefold, which is how a run sees it for any
// other benchmark. A noise that moves a process mean by a quarter moves
// it either way.
const (
	FewOps         = 3
	FewOpsStep     = 4
	AmortizedRatio = 1.25
)

// checkFewOps returns the b.N of a benchmark's next process, and true,
// when its slices hold FewOps ops or fewer and it has not been tried at
// more: FewOpsStep times as many, within maxStretched. After that try it
// keeps the larger b.N as the least it runs at when its time per op fell
// by AmortizedRatio, as go test's ramp would have measured it, and goes
// back to the b.N it had otherwise. The run then compares the processes
// at both (the session's amortized check).
func (r *Runner) checkFewOps(st *benchState, n int64, ns float64) (int64, bool) {
	switch {
	case st.fewOps.n == 0 && n <= FewOps && NForSlice(ns, r.SliceTime) <= FewOps:
		more := n * FewOpsStep
		if time.Duration(ns*float64(more)) > maxStretched(r.SliceTime) {
			st.fewOps.n = -1
			return 0, false
		}
		st.fewOps = perOpAt{n: n, ns: ns}
		return more, true
	case st.fewOps.n > 0 && !st.fewOpsChecked:
		st.fewOpsChecked = true
		if ns*AmortizedRatio <= st.fewOps.ns {
			st.minN = n
			return n, true
		}
		return st.fewOps.n, true
	}
	return 0, false
}

// A callCost is the time a benchmark's calls spent outside the timer, in
// ns, at one b.N.
type callCost struct {
	n       int64
	outside float64
}

// setupGrew reports whether calls at b.N = n that spent outside ns
// outside the timer spent it in proportion to b.N since was: with b.N at
// least doubled, by at least the square root of its growth, where a
// setup that is one cost per call stays where it was.
func setupGrew(was callCost, n int64, outside float64) bool {
	grew := float64(n) / float64(was.n)
	return grew >= 2 && was.outside > 0 && outside >= was.outside*math.Sqrt(grew)
}

// stretchedSlice returns the slice time at which calls that spend cost
// outside the timer each spend TimerShare inside it: at least the slice
// time, at most maxStretched of it.
func (r *Runner) stretchedSlice(cost time.Duration) time.Duration {
	return min(max(r.SliceTime, timedFor(cost)), maxStretched(r.SliceTime))
}

// warmupEnd records that b's warmup ended at slice, through held.
func (r *Runner) warmupEnd(b *Benchmark, k, it, slice int, met bool, held *heldRecords) {
	held.do(func() {
		r.event(&record.Event{Event: record.EventWarmupEnd, Package: b.Package.ImportPath, Benchmark: b.Name, Version: b.Package.Version,
			SuiteRun: k, Iteration: it, Slice: slice, Met: met})
	})
}

func (r *Runner) slice(b *Benchmark, s *record.Slice) {
	r.write(s)
	if r.Observer != nil {
		r.Observer.Slice(b, s)
	}
}

func (r *Runner) event(ev *record.Event) {
	if ev.Time.IsZero() {
		ev.Time = r.now()
	}
	if ev.Instance == "" {
		ev.Instance = r.Instance
	}
	r.write(ev)
}

// write writes one record to Raw. The first that fails stops the run:
// measuring on would take slices that no record keeps.
func (r *Runner) write(rec any) {
	if r.Raw == nil {
		return
	}
	if err := r.Raw.Write(rec); err != nil {
		r.halt(err)
	}
}

// haltCause returns why ctx was cancelled when it was for a cause other
// than an interrupt, or nil.
func haltCause(ctx context.Context) error {
	cause := context.Cause(ctx)
	if cause == nil || errors.Is(cause, context.Canceled) || errors.Is(cause, context.DeadlineExceeded) {
		return nil
	}
	return cause
}

// MinimumTime estimates how long the first MinIterations suite runs take,
// which give every benchmark its minimum samples before a budget is spent
// on the least stable ones.
func (r *Runner) MinimumTime() time.Duration {
	var t time.Duration
	for _, b := range r.Benchmarks {
		t += time.Duration(max(1, r.MinIterations)) * time.Duration(r.Policy.MaxSlices(b.ID)) * r.SliceTime
	}
	return t
}

// estimate returns the expected wall time of one iteration of b.
func (r *Runner) estimate(b *Benchmark) time.Duration {
	if st := r.state[b]; st.iterations > 0 {
		return st.wall / time.Duration(st.iterations)
	}
	return time.Duration(r.Policy.MaxSlices(b.ID)) * r.SliceTime
}

// setDeadline sets when the budget ends for suite run k of a run started
// at start, before anything in that suite run checks it. A budget that
// spares the minimum has no end before the suite run that follows it, and
// every check of the deadline passes until then.
func (r *Runner) setDeadline(start time.Time, k int) {
	switch {
	case r.Budget <= 0:
	case r.BudgetSparesMinimum && k <= r.MinIterations:
		r.deadline = noDeadline
	default:
		r.deadline = start.Add(r.Budget)
	}
}

// noDeadline is a deadline no run reaches.
var noDeadline = time.Unix(1<<62, 0)

// fitBudget keeps, of the benchmarks due in the next suite run, those that
// fit in the remaining budget, and returns the others as cut or beyond.
//
// A benchmark at its MinIterations processes gets its next one first:
// those that it stops at their target, then those that it stops out of
// reach of it, then the others. Then it sets aside what each benchmark
// whose policy predicts its stop within its cap (policy.Precision.Stop)
// still needs to get there, the soonest first, as far as the budget goes:
// a benchmark stopped at its target, or said out of reach of it, is a
// result, where a process more of one the budget cuts anyway only narrows
// its interval a little (docs/EVALUATION.md, "A budget funds the stops it
// can reach"). What is left it fills greedily by the expected narrowing of
// each benchmark's interval per second (policy.Gain), so that the time
// goes where the intervals are furthest from their target and cheapest to
// narrow.
//
// beyond are the benchmarks it cuts for those stops: a suite run spent by
// gain alone had room for them. A run of two versions funds no stops: its
// pairs stop on their comparison.
func (r *Runner) fitBudget(active []*Benchmark, remaining time.Duration) (fit, cut, beyond []*Benchmark) {
	// toStop is the time each benchmark with a predicted stop still
	// needs to get there, and next ranks those that get there in the
	// next suite run: 2 at their target, 1 out of reach of it.
	toStop := map[*Benchmark]time.Duration{}
	next := map[*Benchmark]int{}
	for _, b := range active {
		d, _ := r.loop.Last(b.ID)
		n := d.Precision.Stop - r.state[b].iterations
		if r.Pairs != nil || d.Precision.Stop <= 0 || n <= 0 {
			continue
		}
		toStop[b] = time.Duration(n) * r.estimate(b)
		switch {
		case n > b.Config.Iterations:
		case d.Precision.Width <= d.Precision.Target:
			next[b] = 2
		default:
			next[b] = 1
		}
	}
	// The process after a benchmark's minimum comes first: it narrows
	// an interval of the minimum's 3 processes by about a third, the
	// cheapest narrowing there is (docs/EVALUATION.md, "Out of reach at
	// the third process").
	atMinimum := func(b *Benchmark) bool { return r.state[b].iterations <= r.MinIterations }
	first := r.sortedByGain(slices.DeleteFunc(slices.Clone(active), func(b *Benchmark) bool { return !atMinimum(b) }))
	slices.SortStableFunc(first, func(a, b *Benchmark) int { return cmp.Compare(next[b], next[a]) })
	left := remaining
	fit, cut = r.fill(first, &left)
	// Then each later stop, the soonest first, as far as the budget goes.
	var soonest []*Benchmark
	for _, b := range active {
		if _, ok := toStop[b]; ok && !atMinimum(b) {
			soonest = append(soonest, b)
		}
	}
	slices.SortStableFunc(soonest, func(a, b *Benchmark) int { return cmp.Compare(toStop[a], toStop[b]) })
	funded := map[*Benchmark]bool{}
	for _, b := range soonest {
		if toStop[b] <= left {
			funded[b] = true
			fit = append(fit, b)
			left -= toStop[b]
		}
	}
	rest := slices.DeleteFunc(slices.Clone(active), func(b *Benchmark) bool { return funded[b] || atMinimum(b) })
	fitsRest, cutRest := r.fill(r.sortedByGain(rest), &left)
	fit, cut = append(fit, fitsRest...), append(cut, cutRest...)
	if len(toStop) == 0 {
		return fit, cut, nil
	}
	// A benchmark that the budget, spent by gain alone, had room for
	// was cut for the stops it funded.
	all := remaining
	fitByGain, _ := r.fill(r.sortedByGain(active), &all)
	byGain := map[*Benchmark]bool{}
	for _, b := range fitByGain {
		byGain[b] = true
	}
	cut = slices.DeleteFunc(cut, func(b *Benchmark) bool {
		if byGain[b] {
			beyond = append(beyond, b)
			return true
		}
		return false
	})
	return fit, cut, beyond
}

// sortedByGain returns bs sorted by policy.Gain, the greatest first.
func (r *Runner) sortedByGain(bs []*Benchmark) []*Benchmark {
	bs = slices.Clone(bs)
	gains := map[*Benchmark]float64{}
	for _, b := range bs {
		gains[b] = r.gain(b)
	}
	slices.SortStableFunc(bs, func(a, b *Benchmark) int { return cmp.Compare(gains[b], gains[a]) })
	return bs
}

// fill takes one suite run of each of bs, in order, out of *remaining
// while it lasts, and returns those that fit and those that do not.
func (r *Runner) fill(bs []*Benchmark, remaining *time.Duration) (fit, cut []*Benchmark) {
	for _, b := range bs {
		if cost := time.Duration(b.Config.Iterations) * r.estimate(b); cost <= *remaining {
			fit = append(fit, b)
			*remaining -= cost
		} else {
			cut = append(cut, b)
		}
	}
	return fit, cut
}

// gain is policy.Gain of b's last decision at its expected iteration
// time.
func (r *Runner) gain(b *Benchmark) float64 {
	d, _ := r.loop.Last(b.ID)
	return policy.Gain(d.Precision, r.estimate(b))
}

// cutByBudget marks the benchmarks of bs that are neither stopped nor
// failed as cut short by the budget.
func (r *Runner) cutByBudget(sum *Summary, bs []*Benchmark) {
	r.cut(sum, bs, false)
}

// cutBeyondBudget marks the benchmarks of bs that are neither stopped nor
// failed as cut short by the budget, their stop predicted beyond it
// (fitBudget).
func (r *Runner) cutBeyondBudget(sum *Summary, bs []*Benchmark) {
	r.cut(sum, bs, true)
}

func (r *Runner) cut(sum *Summary, bs []*Benchmark, beyond bool) {
	for _, b := range bs {
		st := r.state[b]
		if st.stopped || st.failed || st.budgetCut {
			continue
		}
		st.budgetCut, st.beyondBudget = true, beyond
		sum.BudgetCut = append(sum.BudgetCut, b)
		reason := fmt.Sprintf("--budget %v spent after %d iterations", r.Budget, st.iterations)
		if beyond {
			sum.BeyondBudget++
			reason = fmt.Sprintf("%s: --budget %v has too little left after %d iterations for its predicted stop, once the benchmarks predicted to stop sooner have theirs", record.ReasonBeyondBudget, r.Budget, st.iterations)
		}
		ev := &record.Event{Event: record.EventBudget, Package: b.Package.ImportPath, Benchmark: b.Name, Version: b.Package.Version, Reason: reason}
		r.event(ev)
		if r.Observer != nil {
			r.Observer.BenchmarkDone(b, ev)
		}
	}
}
