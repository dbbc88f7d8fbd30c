package rmit

import (
	"fmt"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// TimerShare is the share of a slice's wall time that should be spent
// inside the benchmark's timer. The rest is what each slice costs besides
// its b.N operations: the setup a benchmark function runs before its
// timer starts, go test's run1 and garbage collection, and for turns the
// hand-over. A slice shorter than its cost measures little for the wall
// time it takes (docs/GATE.md, "Time inside the timer").
const TimerShare = 0.7

// timedFor returns how long a slice must run inside the timer to spend
// TimerShare of its wall time there, given its cost outside the timer.
func timedFor(outside time.Duration) time.Duration {
	return time.Duration(float64(max(outside, 0)) * TimerShare / (1 - TimerShare))
}

// processTimes is where the wall time of one process's slices went, as
// every way of running counts it: all its slices, the first from the
// process's start (wall), how many (slices) and how long inside the timer
// (timed), its measurement slices (inSlices), and of each measurement
// slice the time per op (timePerOp) and the wall time outside the timer
// in ns (untimedNs), by which b.N is recalibrated. held, when set, holds
// the process's records until its iteration is known to be kept.
type processTimes struct {
	wall, inSlices, timed time.Duration
	slices                int
	perOp, untimed        []float64
	held                  *heldRecords
	// first is the wall time of the first slice, from the process's
	// start, and its b.N, and sliceWalls those of the measurement slices,
	// at b.N n, by which sharedCost tells the process's own slices from
	// what it ran besides.
	first      time.Duration
	firstN, n  int64
	sliceWalls []float64
}

// heldRecords are the records of an iteration that are written only if it
// is kept: a family member's first process, run alone (firstAlone), and
// the first turns of a pair's first duet (checkPairing).
type heldRecords []func()

// do writes a record through write, or holds it when h is set.
func (h *heldRecords) do(write func()) {
	if h == nil {
		write()
		return
	}
	*h = append(*h, write)
}

// release writes what h held.
func (h *heldRecords) release() {
	for _, write := range *h {
		write()
	}
	*h = nil
}

// medians returns the medians, over the measurement slices, of the time
// per op and of the wall time outside the timer in ns; zeros without
// any.
func (t *processTimes) medians() (perOp, untimed float64) {
	if len(t.perOp) == 0 {
		return 0, 0
	}
	return stats.Median(t.perOp), stats.Median(t.untimed)
}

// add counts slice s.
func (t *processTimes) add(s *record.Slice) {
	d := time.Duration(s.WallNs)
	if t.slices == 0 {
		t.first, t.firstN = d, s.N
	}
	t.wall += d
	t.slices++
	t.timed += min(s.Timed(), d)
	if s.Warmup {
		return
	}
	t.inSlices += d
	t.n = s.N
	t.perOp = append(t.perOp, timePerOp(s))
	t.untimed = append(t.untimed, untimedNs(s))
	t.sliceWalls = append(t.sliceWalls, float64(d))
}

// sharedCost returns what a process that took wall, and whose slices t
// counts, ran besides its benchmark's slices: starting, a parent's code
// before the benchmark's first call and after its last, and what the
// first slice took beyond a measurement slice's median (a setup that the
// first call does once for the whole process, the median scaled to the
// first slice's b.N, a warmup's shorter one); and the time of the slices
// at that median. Siblings run in one process pay the first part once.
// Without a measurement slice, or when the process took no longer than
// its slices, nothing is shared.
func (t *processTimes) sharedCost(wall time.Duration) (shared, own time.Duration) {
	if len(t.sliceWalls) == 0 {
		return 0, t.wall
	}
	typical := time.Duration(stats.Median(t.sliceWalls))
	if t.n > 0 && t.firstN > 0 && t.firstN < t.n {
		typical = time.Duration(float64(typical) * float64(t.firstN) / float64(t.n))
	}
	extra := max(t.first-typical, 0)
	return max(wall-t.wall, 0) + extra, t.wall - extra
}

// keep records slice rec of b's process in the raw records and the
// observer, in the summary and in times: every way of running takes its
// slices through it, so that all count them alike.
func (r *Runner) keep(b *Benchmark, rec *record.Slice, times *processTimes, sum *Summary) {
	times.held.do(func() { r.slice(b, rec) })
	sum.sliceDone(rec)
	times.add(rec)
}

// shorterThanWanted reports whether slices or turns that spend per inside
// the timer are more than a fifth shorter than want: within that, a new
// b.N would only follow the noise of the measurement it was taken from.
func shorterThanWanted(per, want time.Duration) bool {
	return 5*per < 4*want
}

// maxSliceStretch bounds how far recalibrate lengthens the slices of a
// benchmark with a costly setup beyond the target slice time.
const maxSliceStretch = 30

// maxStretchStep bounds how many times longer recalibrate makes the
// slices of a benchmark with a costly setup at once, when they already
// take go test's -benchtime or more of wall time (stretchStep).
const maxStretchStep = 3

// stretchStep returns the longest time inside the timer that slices which
// spent timed there, in a process whose slices times counts, may be
// stretched to at once. The stretch guesses that the setup is one cost
// per call; a setup that builds an input for every op grows as much as
// the slices do, and the next recalibration sees it (setupGrew). Until
// then each slice costs the stretch's factor times its wall: a factor
// that keeps a slice within go test's -benchtime (DefaultBenchtime) of
// wall is taken at once, and slices already longer grow by
// maxStretchStep at each recalibration. One stretch of ten times cost a
// benchmark that clones its input for every op 37 s for a slice of 1.2 s
// (docs/EVALUATION.md, "A parent's setup").
func stretchStep(timed time.Duration, times *processTimes) time.Duration {
	wall := time.Duration(stats.Median(times.sliceWalls))
	if wall <= 0 {
		return maxStretchStep * timed
	}
	return time.Duration(float64(timed) * max(maxStretchStep, float64(DefaultBenchtime)/float64(wall)))
}

// maxStretched returns the longest time inside the timer that a slice of
// base may be stretched to: maxSliceStretch times base, and never past go
// test's own -benchtime (DefaultBenchtime). A stretched slice then runs no
// more ops than go test's last run of the benchmark, whose memory its
// author sized: a setup that builds an input for every op grows with b.N
// as fast as the time inside the timer, so stretching cannot raise its
// share, and 30 slice times of such a benchmark exhausted the machine's
// memory (docs/EVALUATION.md, "Setup-heavy benchmarks").
func maxStretched(base time.Duration) time.Duration {
	return max(base, min(maxSliceStretch*base, DefaultBenchtime))
}

// untimedNs returns the wall time slice s spent outside the timer, in
// ns; 0 for a benchmark that reports no ns/op, whose time inside the
// timer is unknown.
func untimedNs(s *record.Slice) float64 {
	if _, ok := s.Values["ns/op"]; !ok {
		return 0
	}
	return float64(max(time.Duration(s.WallNs)-s.Timed(), 0))
}

// maxTurnStretch bounds how many times the planned turns amortiseStart
// gives a duet.
const maxTurnStretch = 8

// amortiseStart sets, from a pair's first duet, how many measured turns
// its later duets take when the workers' start, not their turns, took
// most of the duet. Two workers start, set up and warm up side by side,
// and a benchmark written with b.Loop runs its setup there only (the
// loop hook): with a setup of 400 ms and ten turns of 10 ms, the start
// is four fifths of the duet. perTurn is the time each turn will spend
// inside the timer, costTurn its cost outside. With T turns on each side
// and a start of s, the duet spends 2T·perTurn inside the timer of about
// s + 2T·(perTurn + costTurn), so it spends TimerShare there from T ≥
// k·s / (2(perTurn − k·costTurn)), k = TimerShare/(1 − TimerShare). A
// start shorter than the turns is left alone: more turns would change
// the duets of benchmarks with no setup to speak of. With write it
// records the turns.
func (r *Runner) amortiseStart(sides []*duetSide, plan TurnPlan, perTurn, costTurn time.Duration, write bool) {
	var start time.Duration
	for _, s := range sides {
		start = max(start, s.times.wall-s.times.inSlices)
	}
	spare := 2 * (perTurn - timedFor(costTurn))
	if spare <= 0 || start <= 2*time.Duration(plan.Turns)*(perTurn+costTurn) {
		return
	}
	turns := min(maxTurnStretch*plan.Turns, int((timedFor(start)+spare-1)/spare))
	if turns <= plan.Turns {
		return
	}
	for _, s := range sides {
		b := s.e.Bench
		r.state[b].turns = turns
		if write {
			r.event(&record.Event{Event: record.EventCalibrated, Package: b.Package.ImportPath, Benchmark: b.Name, Version: b.Package.Version,
				Value: float64(b.N), Reason: fmt.Sprintf("%d turns a duet: its workers take %v to start and warm up, for %v timed a turn", turns, start, perTurn)})
		}
	}
}
