package rmit

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// A pair of versions whose benchmark spends far longer outside its timer
// at every call than a turn may last is measured by process pairs
// instead of duets: one process of each version after the other, each
// running its slices back to back. A b.N-loop benchmark calls its setup
// once per slice (one -test.count repetition each), so a turn that spent
// TimerShare inside the timer would be timedFor(setup) long; turns longer
// than maxTurn follow the host's changes of speed (20 ms to a second)
// too loosely to be paired slice by slice (docs/GATE.md, "Time inside
// the timer"). Process slices may be longer, up to maxStretched of
// the slice time, and pay the setup once each.

// checkRounds is the number of turns each worker of a pair's first duet
// takes before the runner decides whether the pair goes on in turns:
// the least time outside the timer over two turns of each is the cost
// of a call, with one slow turn of a busy machine left out.
const checkRounds = 2

// minProcessSlices is the fewest measured slices of a process of a
// process pair: its process mean rests on more than one call.
const minProcessSlices = 3

// PairingObserver is an Observer that is told when a pair of versions
// leaves duets for process pairs, with the record.EventProcessPairs event
// of each version.
type PairingObserver interface {
	ProcessPairs(b *Benchmark, ev *record.Event)
}

// maxTurn returns the longest turn a duet takes.
func (r *Runner) maxTurn() time.Duration { return 64 * r.TurnTime }

// turnFor returns the time inside the timer of the turns a duet takes
// for calls that spend cost outside the timer each: TimerShare of the
// turn inside, within [TurnTime/2, maxTurn].
func (r *Runner) turnFor(cost time.Duration) time.Duration {
	return min(max(timedFor(cost), r.TurnTime/2), r.maxTurn())
}

// checkPairing reports whether the duet of sides, the first of their
// pair, is checked after checkRounds turns for whether the pair goes on
// in turns. It is not when there is nothing to check: not the first
// duet, both workers running at once, or fewer turns than the check
// needs.
func (r *Runner) checkPairing(sides []*duetSide, plan TurnPlan) bool {
	if plan.Together || r.TurnTime <= 0 || plan.Warmup+plan.Turns <= checkRounds {
		return false
	}
	for _, s := range sides {
		if st := r.state[s.e.Bench]; st.iterations > 0 || st.byProcess != "" || st.checked {
			return false
		}
	}
	for _, s := range sides {
		r.state[s.e.Bench].checked = true
	}
	return true
}

// turnsOutweighed returns why the pair of sides is to be measured by
// process pairs, or "" when its turns can spend TimerShare inside the
// timer within maxTurn.
func (r *Runner) turnsOutweighed(sides []*duetSide) string {
	least := time.Duration(-1)
	for _, s := range sides {
		for _, rec := range s.turns {
			if d := time.Duration(untimedNs(rec)); least < 0 || d < least {
				least = d
			}
		}
	}
	if least < 0 || timedFor(least) <= r.maxTurn() {
		return ""
	}
	return fmt.Sprintf("%v outside the timer per call outweighs turns of at most %v", least.Round(time.Millisecond), r.maxTurn())
}

// checkedN returns the b.N at which the turns of the pair of sides spend
// TimerShare inside the timer, from the median time inside and outside
// the timer of the turns checked, when it differs from theirs as much as
// retune asks for, or 0 when theirs will do. A duet retuned this early
// is started again, so that a pair's first duet measures at the b.N of
// the rest rather than at one that spends most of each turn outside the
// timer.
func (r *Runner) checkedN(sides []*duetSide) int64 {
	var timed, outside []float64
	for _, s := range sides {
		for _, rec := range s.turns {
			timed = append(timed, float64(rec.Timed()))
			outside = append(outside, untimedNs(rec))
		}
	}
	if len(timed) == 0 {
		return 0
	}
	per, cost := time.Duration(stats.Median(timed)), time.Duration(stats.Median(outside))
	if per <= 0 {
		return 0
	}
	want := r.turnFor(cost)
	if want <= 2*per && 5*per >= 4*want {
		return 0
	}
	return max(1, int64(float64(sides[0].e.Bench.N)*float64(want)/float64(per)))
}

// warmupAt sets the warmup turns of the pair of sides for turns of
// perTurn inside the timer: as many as hold the warmup Runner.Turns asks
// for in turns of TurnTime, at least one. The warmup is a duration, and
// turns lengthened for a costly setup would otherwise pay it many times
// over in every duet: ten warmup turns of 1 ms become one of 23 ms.
func (r *Runner) warmupAt(sides []*duetSide, perTurn time.Duration) {
	if r.Turns == nil || r.Turns.Warmup <= 0 || perTurn <= 0 {
		return
	}
	warmup := time.Duration(r.Turns.Warmup) * r.TurnTime
	turns := max(1, int(math.Ceil(float64(warmup)/float64(perTurn))))
	for _, s := range sides {
		r.state[s.e.Bench].warmupTurns = turns
	}
}

// retuneChecked sets b.N of both sides to n and records it, for cost
// outside the timer per turn, with the warmup turns that go with it.
func (r *Runner) retuneChecked(sides []*duetSide, n int64) {
	var timed []float64
	for _, s := range sides {
		for _, rec := range s.turns {
			timed = append(timed, float64(rec.Timed()))
		}
	}
	r.warmupAt(sides, time.Duration(stats.Median(timed)*float64(n)/float64(sides[0].e.Bench.N)))
	for _, s := range sides {
		b := s.e.Bench
		old := b.N
		b.N = n
		r.event(&record.Event{Event: record.EventCalibrated, Package: b.Package.ImportPath, Benchmark: b.Name, Version: b.Package.Version,
			Value: float64(n), Reason: fmt.Sprintf("turns retuned after %d turns of b.N %d: the first duet starts again", checkRounds, old)})
	}
}

// abandon ends the duet of sides, whose pair goes on by process pairs
// or starts again: the workers are stopped, and the duet is dropped.
func (r *Runner) abandon(sides []*duetSide, held *heldRecords, before sliceTally, sum *Summary) {
	for _, s := range sides {
		if s.proc == nil {
			continue
		}
		s.proc.kill("done")
		_ = s.proc.wait()
		s.stop()
		s.stream.close()
	}
	drop(held, before, sum)
}

// drop forgets a duet that ended: the records held are not written, and
// the summary counts as before it. The time spent stays in the measuring
// phase.
func drop(held *heldRecords, before sliceTally, sum *Summary) {
	*held = nil
	sum.restore(before)
}

// failedBeside returns why the pair of sides, whose duet has ended, is to
// be measured by process pairs because a side failed beside the other
// version's process, or "" when none failed, or one was interrupted, or
// the pair was already measured so. go test runs one process of a
// package at a time: a benchmark that writes a fixed file or binds a
// fixed port can fail only beside another process, and one that waits
// on a lock the other holds can only time out there, and a gate that
// failed it would be red for no regression. A failure by process pairs
// too is the benchmark's own; a hang costs a second timeout to tell.
func (r *Runner) failedBeside(sides []*duetSide) string {
	for _, s := range sides {
		if r.state[s.e.Bench].byProcess != "" {
			return ""
		}
	}
	for _, s := range sides {
		if f := s.fail; f != nil && f.Reason != "interrupted" {
			return fmt.Sprintf("it failed beside the other version's process (%s), and is measured one version after the other, as go test runs one process at a time", f.Reason)
		}
	}
	return ""
}

// byProcesses sets the pair of sides to be measured by process pairs,
// for why: both versions' b.N makes a slice spend TimerShare inside the
// timer at the cost the turns measured (at least the slice time, at most
// maxStretched of it), and a process takes as many measured slices
// as hold the time a duet's turns would have timed, at least
// minProcessSlices: plan.Turns turns of the length the duet would have
// retuned them to (turnFor). A costly setup stretches them to maxTurn;
// a b.RunParallel benchmark's would have stayed near TurnTime, and
// sizing its processes for turns of maxTurn gave each process 64 slices
// of 100 ms, where the spread between process pairs, not the slices in
// them, bounds the verdict (docs/GATE.md). It records both and tells the
// observer.
func (r *Runner) byProcesses(sides []*duetSide, plan TurnPlan, why string) {
	var perOp, outside []float64
	for _, s := range sides {
		for _, rec := range s.turns {
			perOp = append(perOp, timePerOp(rec))
			outside = append(outside, untimedNs(rec))
		}
	}
	if len(perOp) == 0 {
		// A duet that failed before its first turn measured nothing:
		// the calibration's figures stand in.
		for _, s := range sides {
			perOp = append(perOp, s.e.Bench.Probed)
			outside = append(outside, float64(s.e.Bench.Setup))
		}
	}
	cost, base := time.Duration(stats.Median(outside)), max(r.SliceTime, r.maxTurn())
	perSlice := min(max(timedFor(cost), base), maxStretched(base))
	n := NForSlice(stats.Median(perOp), perSlice)
	turnsTimed := time.Duration(plan.Turns) * r.turnFor(cost)
	slices := min(max(int(math.Ceil(float64(turnsTimed)/float64(perSlice))), minProcessSlices), max(plan.Turns, minProcessSlices))
	for _, s := range sides {
		b := s.e.Bench
		st := r.state[b]
		st.byProcess, st.processSlices = why, slices
		b.N = n
		r.event(&record.Event{Event: record.EventCalibrated, Package: b.Package.ImportPath, Benchmark: b.Name, Version: b.Package.Version,
			Value: float64(n), Reason: fmt.Sprintf("process pairs of %d slices of %v timed each", slices, perSlice.Round(time.Millisecond))})
		ev := &record.Event{Event: record.EventProcessPairs, Package: b.Package.ImportPath, Benchmark: b.Name, Version: b.Package.Version, Reason: why}
		r.event(ev)
		if po, ok := r.Observer.(PairingObserver); ok {
			po.ProcessPairs(b, ev)
		}
	}
}

// processPlan returns the shape of each process of a process pair of b:
// the slices its pairs were sized for (byProcesses), or fewer, at least
// minProcessSlices, once the policy has planned the pair's iterations
// from what its first pairs measured (Paired.DuetTurns). Where processes
// differ more than the slices within them, as they do for benchmarks whose
// every call rebuilds its data and for b.RunParallel, more and shorter
// processes narrow the interval faster for the same time; a pair never
// takes longer processes than it was sized for.
func (r *Runner) processPlan(b *Benchmark) TurnPlan {
	n := r.state[b].processSlices
	if t := r.plannedTurns(b); t > 0 {
		n = max(min(n, t), minProcessSlices)
	}
	return TurnPlan{Turns: n}
}

// processPair runs entries a and b, the two versions of one benchmark, as
// one process pair: a process of each, one after the other, the first
// slice of each left out as warmup. Which
// version goes first alternates from one suite run and iteration to the
// next, so that neither always does.
func (r *Runner) processPair(ctx context.Context, a, b Entry, k, order int, sum *Summary) error {
	start := r.now()
	plan := r.processPlan(a.Bench)
	sides := []*duetSide{{e: a, k: k}, {e: b, k: k}}
	first := sides
	if (k+a.Iteration)%2 == 0 {
		first = []*duetSide{sides[1], sides[0]}
	}
	for _, s := range first {
		ok := r.processSide(ctx, s, k, order, plan, sum)
		r.endDuet([]*duetSide{s}, plan)
		if !ok || s.fail != nil {
			break
		}
	}
	judge, err := r.accountSides(ctx, sides, k, start, sum)
	if err != nil {
		return err
	}
	for i, s := range sides {
		if judge[i] && len(s.measured) == plan.Turns {
			r.judge(s.e, k, s.measured, s.times.inSlices, s.times.wall, sum)
		}
	}
	return nil
}

// processSide runs the process of side s and records its slices. It
// reports false when the process failed, or the budget ran out before
// its last slice.
func (r *Runner) processSide(ctx context.Context, s *duetSide, k, order int, plan TurnPlan, sum *Summary) bool {
	if !r.startWorker(ctx, s, plan) {
		return false
	}
	for s.slice < plan.slices() {
		if s.slice >= plan.free() {
			// Granted at once: the worker runs its slices back to
			// back, and each is timed from the end of the one before.
			_ = s.worker.Grant()
		}
		if !r.duetSlice(ctx, s, k, order, 0, s.started.Add(s.times.wall), plan, sum) {
			return false
		}
		if r.Budget > 0 && !r.now().Before(r.deadline) && s.slice < plan.slices() {
			// The budget ends now: this process is cut short, as a
			// duet is.
			r.spent = true
			return false
		}
	}
	return true
}
