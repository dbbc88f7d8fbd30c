package rmit

import (
	"context"
	"fmt"
	"time"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// A TurnPlan is the shape of a duet iteration, in which the two versions
// of a benchmark run as two live workers that take their slices in turns.
//
// The host of a shared machine changes speed from one moment to the next
// (states of 20 ms to a second), so two versions measured one process
// after the other see different moments; taking turns slice by slice,
// they see the same ones, and the log ratio of each pair of slices is
// measured with most of that noise taken out. The two workers are one
// fresh pair of processes per duet iteration, so that what differs
// between processes (memory layout, the heap's growth) stays in the
// spread between iterations, which is what the comparison's interval
// rests on.
type TurnPlan struct {
	// Warmup is the number of warmup turns each worker takes after its
	// first slice, which both run at once as they start; their values
	// are left out. They take turns as the measured slices do: run at
	// once, each worker's slices cost several times as much (on a
	// 2-vCPU machine, 8 ms a slice instead of 2.3 ms), since the two
	// compete for the CPUs in the garbage collection go test runs before
	// every timed run.
	Warmup int
	// Turns is the number of measured turns of each worker.
	Turns int
	// Together runs both workers' turns at once, each on its own CPU,
	// instead of one after the other: duet benchmarking (Bulej et al.,
	// ICPE 2020). It pays only where the two CPUs do not share a
	// physical core; on a shared 2-vCPU machine the two workers' speeds
	// move against each other.
	Together bool
}

// free returns the slices each worker runs before its first turn.
func (p TurnPlan) free() int { return 1 }

// warmups returns the slices of each worker that are left out: its
// first and its warmup turns.
func (p TurnPlan) warmups() int { return p.free() + p.Warmup }

// slices returns the slices each worker is asked for.
func (p TurnPlan) slices() int { return p.warmups() + p.Turns }

// duetSide is one worker of a duet iteration in progress.
type duetSide struct {
	e        Entry
	k        int // the suite run
	proc     *process
	worker   Worker
	stream   *itemStream
	stop     func() // ends the watch on the process
	slice    int    // slices recorded so far
	started  time.Time
	ended    bool // the worker's output ended before the duet did
	measured []float64
	times    processTimes
	timed    time.Duration // of times.inSlices, the time go test timed: N × ns/op
	fail     *Failure
	failText failureDetail
	// turns holds its first checkRounds turns, warmup included, by which
	// a pair's first duet is checked (checkPairing).
	turns []*record.Slice
}

// duet runs entries a and b, the two versions of one benchmark, as one
// duet iteration: both workers start and warm up at once, and then they
// take turns in the order a b b a a b b a …, so that neither version is
// always first. Measured slice j of one worker and measured slice j of
// the other form a pair.
func (r *Runner) duet(ctx context.Context, a, b Entry, k, order int, sum *Summary) error {
	if r.state[a.Bench].byProcess != "" {
		return r.processPair(ctx, a, b, k, order, sum)
	}
	start := r.now()
	plan := r.duetPlan(a.Bench)
	sides := []*duetSide{{e: a, k: k}, {e: b, k: k}}
	// Its records are held until it ends, so that a duet the pair
	// leaves for process pairs, or starts again, leaves none.
	var held heldRecords
	before := sum.tally()
	for _, s := range sides {
		s.times.held = &held
	}
	check := r.checkPairing(sides, plan)
	defer func() {
		for _, s := range sides {
			if s.stream != nil {
				s.stream.close()
			}
		}
	}()
	ok := true
	for _, s := range sides {
		if ok = r.startWorker(ctx, s, plan); !ok {
			break
		}
	}
	// Both warm up at once; their turns begin once both have. Their
	// slices are read as they come, from either, so that each is timed
	// from the end of its own one before, the first from the start.
	for ok && (sides[0].slice < plan.free() || sides[1].slice < plan.free()) {
		var chans [2]chan outputItem
		for i, s := range sides {
			if s.slice < plan.free() {
				chans[i] = s.stream.items
			}
		}
		var s *duetSide
		var it outputItem
		var more bool
		select {
		case it, more = <-chans[0]:
			s = sides[0]
		case it, more = <-chans[1]:
			s = sides[1]
		}
		if done, got := r.duetItem(ctx, s, it, more, k, order, 0, s.started.Add(s.times.wall), plan, sum); done {
			ok = got
		}
	}
	turn := 0
	for t := 1; ok && t <= plan.Warmup+plan.Turns; t++ {
		pair := sides
		if t%2 == 0 {
			pair = []*duetSide{sides[1], sides[0]}
		}
		if plan.Together {
			// Both at once, each on its own CPU: one turn for the two.
			turn++
			begin := r.now()
			for _, s := range pair {
				_ = s.worker.Grant()
			}
			for _, s := range pair {
				if ok = r.duetSlice(ctx, s, k, order, turn, begin, plan, sum); !ok {
					break
				}
			}
		} else {
			for _, s := range pair {
				turn++
				begin := r.now()
				// A worker that cannot take its turn has gone: reading
				// its output to the end then says why.
				_ = s.worker.Grant()
				if ok = r.duetSlice(ctx, s, k, order, turn, begin, plan, sum); !ok {
					break
				}
			}
		}
		if check && ok && t == checkRounds {
			why := r.turnsOutweighed(sides)
			if a.Bench.Parallel {
				why = parallelReason
			}
			if why != "" {
				r.abandon(sides, &held, before, sum)
				r.byProcesses(sides, plan, why)
				return r.processPair(ctx, a, b, k, order, sum)
			}
			if n := r.checkedN(sides); n > 0 {
				r.abandon(sides, &held, before, sum)
				r.retuneChecked(sides, n)
				return r.duet(ctx, a, b, k, order, sum)
			}
			check = false
		}
		if ok && r.Budget > 0 && !r.now().Before(r.deadline) && t < plan.Warmup+plan.Turns {
			// The budget ends now: keep the pairs measured and start
			// no other.
			r.spent = true
			break
		}
	}
	r.endDuet(sides, plan)
	if why := r.failedBeside(sides); why != "" && ctx.Err() == nil {
		drop(&held, before, sum)
		r.byProcesses(sides, plan, why)
		if r.Budget > 0 && !r.now().Before(r.deadline) {
			// The budget ended during the duet: no process pair
			// starts after it, and the pair is cut, not failed.
			r.spent = true
			return nil
		}
		return r.processPair(ctx, a, b, k, order, sum)
	}
	held.release()
	judge, err := r.accountSides(ctx, sides, k, start, sum)
	if err != nil {
		return err
	}
	r.retune(sides, plan, true)
	outside := duetOutside(sides)
	for i, s := range sides {
		if judge[i] && len(s.measured) == plan.Turns {
			r.judge(s.e, k, s.measured, s.times.inSlices, s.times.inSlices+outside, sum)
		}
	}
	return nil
}

// duetOutside is each side's share of what a duet cost besides its
// turns: the two workers start and warm up side by side, so the duet
// pays the longer of their warmups once, half of it on each side's
// account. The policy's cost of a duet, the two sides' together, is then
// its turns and that warmup, from the records alone, as a resumed run
// sees them.
func duetOutside(sides []*duetSide) time.Duration {
	var longest time.Duration
	for _, s := range sides {
		longest = max(longest, s.times.wall-s.times.inSlices)
	}
	return longest / time.Duration(len(sides))
}

// startWorker starts the worker of side s for plan.
func (r *Runner) startWorker(ctx context.Context, s *duetSide, plan TurnPlan) bool {
	b := s.e.Bench
	ts, _ := r.Starter.(TurnStarter)
	if r.Starter == nil {
		ts = ExecStarter{}
	}
	if ts == nil {
		s.failWith("cannot start test binary", "the runner's starter cannot start workers that take turns")
		return false
	}
	w, err := ts.StartWorker(r.layoutOf(b, s.k, s.e.Iteration).Binary, b.Package.Dir, b.args(plan.slices()), plan.free())
	if err != nil {
		s.failWith("cannot start test binary", err.Error())
		return false
	}
	r.processes++
	s.worker, s.started = w, r.now()
	s.proc = &process{proc: w, stdout: w.Stdout(), stderr: stderrTail{w}}
	s.stop = s.proc.watch(ctx, r.Timeout)
	s.stream = streamOutput(s.proc.stdout, func(name string, n int64) bool { return name == b.Name && n == b.N })
	return true
}

// duetSlice waits for the next slice of side s, begun at begin, the
// turn-th of the pair's turns (0 for the slices run before the turns),
// and records it. It reports false when the worker failed or its output
// ended instead.
func (r *Runner) duetSlice(ctx context.Context, s *duetSide, k, order, turn int, begin time.Time, plan TurnPlan, sum *Summary) bool {
	for {
		it, more := s.stream.next()
		if done, got := r.duetItem(ctx, s, it, more, k, order, turn, begin, plan, sum); done {
			return got
		}
	}
}

// duetItem takes one item of side s's output (more false: the output
// ended), for a slice begun at begin, and reports whether it ends the
// wait for that slice (done) and whether with the slice, recorded (got).
func (r *Runner) duetItem(ctx context.Context, s *duetSide, it outputItem, more bool, k, order, turn int, begin time.Time, plan TurnPlan, sum *Summary) (done, got bool) {
	b := s.e.Bench
	if !more {
		s.ended = true
		return true, false
	}
	if ctx.Err() != nil {
		// Interrupted: a slice that ends now belongs to a duet cut
		// short, and none is recorded, however soon the kill lands.
		return true, false
	}
	switch it.kind {
	case itemResult:
		if it.name != b.Name {
			return false, false
		}
		s.slice++
		now := r.now()
		warmup := s.slice <= plan.warmups()
		rec := &record.Slice{
			Package: b.Package.ImportPath, Benchmark: b.Name, Version: b.Package.Version, Instance: r.Instance,
			SuiteRun: k, Iteration: s.e.Iteration, Order: order, Slice: s.slice, Turn: turn, Warmup: warmup,
			N: it.n, Values: it.values, Start: begin, WallNs: int64(now.Sub(begin)), Layout: r.layoutOf(b, k, s.e.Iteration).Seed,
		}
		r.keep(b, rec, &s.times, sum)
		if turn > 0 && len(s.turns) < checkRounds {
			s.turns = append(s.turns, rec)
		}
		if !warmup {
			s.timed += time.Duration(float64(it.n) * it.values["ns/op"])
			s.measured = append(s.measured, primaryValue(it.values))
		}
		if s.slice == plan.warmups() {
			r.warmupEnd(b, k, s.e.Iteration, s.slice, true, s.times.held)
		}
		return true, true
	case itemFailure, itemPanic:
		// The first failure's message is its reason; the detail holds
		// the rest, and every later failure.
		s.failText.add(it, s.fail == nil)
		if s.fail == nil {
			s.failWith(it.reason, "")
		}
		// A failed slice prints no result: the worker waits for its
		// next turn, which would never come.
		return true, false
	}
	return false, false
}

// accountSides accounts for the sides of a duet or process pair that
// started at start, each with its share of the wall time, and returns
// which of them may be judged; ErrInterrupted when the run or a side was
// interrupted, as nothing of an interrupted pair is judged.
func (r *Runner) accountSides(ctx context.Context, sides []*duetSide, k int, start time.Time, sum *Summary) ([]bool, error) {
	wall := r.now().Sub(start)
	if ctx.Err() != nil {
		return nil, ErrInterrupted
	}
	for _, s := range sides {
		if s.fail != nil && s.fail.Reason == "interrupted" {
			return nil, ErrInterrupted
		}
	}
	judge := make([]bool, len(sides))
	for i, s := range sides {
		judge[i] = r.account(s.e, k, wall/time.Duration(len(sides)), s.fail, sum)
	}
	return judge, nil
}

// endDuet stops both workers once the duet is over, whether it completed,
// failed or was interrupted, and says why a side failed, if it did. A side
// fails for what its own worker did: it failed, its output ended early, or
// it was killed for a timeout or an interrupt. Its partner is left
// incomplete, not failed: it had nobody left to take turns with.
func (r *Runner) endDuet(sides []*duetSide, plan TurnPlan) {
	for _, s := range sides {
		if s.proc != nil {
			s.proc.kill("done")
		}
	}
	for _, s := range sides {
		if s.proc == nil {
			continue
		}
		waitErr := s.proc.wait()
		s.stop()
		s.stream.close()
		switch why := s.proc.killedFor(); {
		// A worker killed by the timeout after its last slice, while
		// something it started held its output open, measured all it
		// had to.
		case why == "interrupted" || why == "timeout" && s.slice < plan.slices():
			s.failWith(why, killDetail(why, r.Timeout, s.proc.stderr.String()))
		case s.fail != nil:
			s.fail.Detail = s.failText.with(s.proc.stderr.String())
		case s.ended && s.slice < plan.slices():
			reason := fmt.Sprintf("the test binary printed %d of the %d slices asked for", s.slice, plan.slices())
			if waitErr != nil {
				reason = withCause(exitReason(waitErr), s.proc.stderr.String())
			}
			s.failWith(reason, s.proc.stderr.String())
		}
	}
}

func (s *duetSide) failWith(reason, detail string) {
	s.fail = &Failure{Bench: s.e.Bench, SuiteRun: s.k, Iteration: s.e.Iteration, Reason: reason, Detail: detail}
}

// plannedTurns returns the measured turns (or slices) that the policy
// planned for the next iteration of b's pair (Paired.DuetTurns), or 0.
func (r *Runner) plannedTurns(b *Benchmark) int {
	if dp, ok := r.Policy.(interface{ DuetTurns(string) int }); ok {
		return dp.DuetTurns(b.ID)
	}
	return 0
}

// duetPlan returns the shape of the next duet of b and its partner:
// Runner.Turns, with the measured turns its policy planned, if it did.
func (r *Runner) duetPlan(b *Benchmark) TurnPlan {
	if r.state[b].byProcess != "" {
		return r.processPlan(b)
	}
	plan := *r.Turns
	if t := r.plannedTurns(b); t > 0 {
		plan.Turns = t
	}
	plan.Turns = max(plan.Turns, r.state[b].turns)
	if w := r.state[b].warmupTurns; w > 0 && plan.Warmup > 0 {
		plan.Warmup = w
	}
	return plan
}

// replayDuet takes the recorded duet of entries a and b in suite run k in
// place of running it, if the records of an interrupted run hold it
// whole: both workers' measured slices, as many as the plan asked for,
// or a failure. It reports whether it did. A duet the interruption cut
// short is discarded, both sides, to be run again; the policy, fed the
// same duets in the same order as the run that recorded them, plans the
// same turns, so a whole duet is told by its count.
func (r *Runner) replayDuet(a, b Entry, k int, sum *Summary) bool {
	pa, pb := r.Resume.lookup(a.Bench, k, a.Iteration), r.Resume.lookup(b.Bench, k, b.Iteration)
	if pa == nil && pb == nil {
		return false
	}
	if pa != nil && pa.failure != nil || pb != nil && pb.failure != nil {
		// The failed side replays its failure and leaves the schedule;
		// the other, which had nobody left to take turns with, runs its
		// iteration again, alone.
		for _, x := range []struct {
			e    Entry
			past *pastIteration
		}{{a, pa}, {b, pb}} {
			switch {
			case x.past == nil:
			case x.past.failure != nil:
				r.replay(x.e, k, x.past, sum)
			default:
				r.discard(x.e, k)
			}
		}
		return false
	}
	r.restoreProcessPairs(a.Bench, b.Bench, pa, pb)
	plan := r.duetPlan(a.Bench)
	whole := pa != nil && pb != nil
	for _, p := range []*pastIteration{pa, pb} {
		whole = whole && measuredCount(p) == plan.Turns
	}
	if !whole {
		for _, x := range []struct {
			e    Entry
			past *pastIteration
		}{{a, pa}, {b, pb}} {
			if x.past != nil {
				r.discard(x.e, k)
			}
		}
		return false
	}
	var sides []*duetSide
	var duetWall time.Duration
	for _, x := range []struct {
		e    Entry
		past *pastIteration
	}{{a, pa}, {b, pb}} {
		sd := &duetSide{e: x.e, k: k}
		for i := range x.past.slices {
			s := &x.past.slices[i]
			// A replayed slice counts as measured, but its time was
			// spent before this run started: Summary.InSlices is this
			// run's.
			sd.times.add(s)
			if s.Warmup {
				sum.Warmup++
			} else {
				sum.Slices++
				sd.timed += time.Duration(float64(s.N) * s.Values["ns/op"])
				sd.measured = append(sd.measured, primaryValue(s.Values))
			}
			x.e.Bench.N = s.N
			if r.Observer != nil {
				r.Observer.Slice(x.e.Bench, s)
			}
		}
		duetWall += sd.times.wall
		sides = append(sides, sd)
	}
	judge := make([]bool, len(sides))
	for i, sd := range sides {
		judge[i] = r.account(sd.e, k, duetWall/time.Duration(len(sides)), nil, sum)
	}
	// As the run that recorded the duet retuned its turns after it;
	// the records hold that already.
	r.retune(sides, plan, false)
	outside := duetOutside(sides)
	for i, sd := range sides {
		if judge[i] {
			r.judgeRecorded(sd.e, k, sd.measured, sd.times.inSlices, sd.times.inSlices+outside, sum)
		}
	}
	return true
}

// restoreProcessPairs sets the pair of a and b to go on by process pairs
// when the records hold that it did and a whole process pair of it, past
// and pb: a resumed run that replays the pair's first process pair does
// not check its first duet again, and would otherwise go on in duets.
func (r *Runner) restoreProcessPairs(a, b *Benchmark, pa, pb *pastIteration) {
	if r.state[a].byProcess != "" || pa == nil || pb == nil {
		return
	}
	n := measuredCount(pa)
	if n == 0 || measuredCount(pb) != n {
		return
	}
	if r.Resume.byProcess[a.ID] == "" || r.Resume.byProcess[b.ID] == "" {
		return
	}
	for _, x := range []*Benchmark{a, b} {
		st := r.state[x]
		st.byProcess, st.processSlices, st.checked = r.Resume.byProcess[x.ID], n, true
	}
}

// measuredCount returns the measured slices of a recorded iteration.
func measuredCount(p *pastIteration) int {
	n := 0
	for _, s := range p.slices {
		if !s.Warmup {
			n++
		}
	}
	return n
}

// retune lengthens the turns of a pair whose duet spent far more of each
// turn outside the timer than inside it. A turn costs more than its b.N
// operations: the grant, the garbage collection go test runs before each
// timed run, the benchmark's own setup before its timer starts (run again
// in every turn, as go test -count runs it in every count). Turns far
// shorter than that cost waste the machine; turns far longer track the
// host's changes of speed less closely. So the duets after a pair's first
// take turns that spend TimerShare of their wall time inside the timer at
// the cost the first one measured, within [TurnTime/2, 64 × TurnTime],
// changing b.N of both versions alike only when its turns are more than a
// fifth shorter (shorterThanWanted). Turns are never shortened: b.N was
// calibrated for TurnTime, the short end already. Only the first duet
// retunes: on a busy machine the cost moves from duet to duet with the
// waits for a CPU, and b.N would follow it back and forth. With write it
// records the new b.N.
func (r *Runner) retune(sides []*duetSide, plan TurnPlan, write bool) {
	if r.state[sides[0].e.Bench].iterations != 1 {
		return
	}
	var outside, timed time.Duration
	turns := 0
	for _, s := range sides {
		if s.fail != nil || len(s.measured) != plan.Turns {
			return
		}
		outside += s.times.inSlices - s.timed
		timed += s.timed
		turns += len(s.measured)
	}
	if turns == 0 || timed <= 0 || r.TurnTime <= 0 {
		return
	}
	per, cost := timed/time.Duration(turns), max(outside/time.Duration(turns), 0)
	want := r.turnFor(cost)
	a := sides[0].e.Bench
	n := a.N
	if shorterThanWanted(per, want) {
		n = max(1, int64(float64(a.N)*float64(want)/float64(per)))
	}
	r.amortiseStart(sides, plan, time.Duration(float64(per)*float64(n)/float64(a.N)), cost, write)
	if n == a.N {
		return
	}
	r.warmupAt(sides, time.Duration(float64(per)*float64(n)/float64(a.N)))
	for _, s := range sides {
		b := s.e.Bench
		b.N = n
		if !write {
			continue
		}
		r.event(&record.Event{Event: record.EventCalibrated, Package: b.Package.ImportPath, Benchmark: b.Name, Version: b.Package.Version,
			Value: float64(n), Reason: fmt.Sprintf("turns retuned: %v timed and %v outside the timer per turn", per, cost)})
	}
}
