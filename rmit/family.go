package rmit

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper/policy"
)

// A Family is the leaves of one top-level benchmark that discovery ran
// together, in one process, as go test runs them.
//
// Most leaves measure the same run alone, selected by their own pattern,
// as with their siblings. Some do not: a parent that checks what its
// sub-benchmarks computed, a sub-benchmark that skips unless a sibling ran
// before it, a TestMain that counts what ran. go test -bench runs all of
// them in order, so such a suite passes there; run one leaf alone and the
// parent's check fails. A leaf of a family that fails in its first
// iteration alone, which discovery saw pass with its siblings, has its
// whole family measured together from then on: one process runs the
// parent with all its sub-benchmarks in source order, each at its own
// fixed b.N (FixedNEnv), and records every sibling's slices. Nothing of
// the failed iteration is kept.
//
// A family is measured together for its cost too, when the first process
// of one of its members alone spent a slice time and a quarter of a
// second or more besides that member's slices, and more than measuring
// the family together would cost beyond its members' slices
// (sharesSetup): a parent that builds the inputs of every sub-benchmark
// before it runs any of them costs each member's own process all of
// that again. That iteration is kept.
type Family struct {
	// Top is the top-level benchmark's name.
	Top string
	// Pattern is the -test.bench pattern discovery ran the family with.
	Pattern string
	// Procs is the -test.cpu value it runs with; 0 leaves GOMAXPROCS alone.
	Procs int
	// Members are its leaves in the order go test ran them.
	Members []*Benchmark
	// Together says that the family is measured together, because a
	// member failed alone or its siblings share a costly setup; Why
	// says which.
	Together bool
	Why      string
}

// FamilyNote is what a run says once per family measured together.
const FamilyNote = "measured with its siblings"

// An EnvStarter is a Starter that can add to the environment of the
// binaries it starts. A family runs at the b.N of each member only
// through one.
type EnvStarter interface {
	StartEnv(bin, dir string, args, env []string) (Process, error)
}

// StartEnv implements EnvStarter.
func (s ExecStarter) StartEnv(bin, dir string, args, env []string) (Process, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	return s.startExec(cmd, dir)
}

// startProcessEnv is startProcess with env added to the environment.
func startProcessEnv(s Starter, bin, dir string, args, env []string) (*process, error) {
	if s == nil {
		s = ExecStarter{}
	}
	es, ok := s.(EnvStarter)
	if !ok {
		return nil, fmt.Errorf("the runner's starter cannot set the environment of a test binary")
	}
	p, err := es.StartEnv(bin, dir, args, env)
	if err != nil {
		return nil, err
	}
	return &process{proc: p, stdout: p.Stdout(), stderr: stderrTail{p}}, nil
}

// familyOf returns the family discovery found b in, or nil when b has no
// sibling: then it runs alone as go test runs it.
func familyOf(b *Benchmark) *Family {
	if f := b.Family; f != nil && len(f.Members) > 1 {
		return f
	}
	return nil
}

// firstAlone runs the first iteration of e, a member of a family, alone,
// holding its records until it is over: if it fails, none is kept, its
// family is measured together from then on (in both versions), and the
// iteration runs again as one of its family, as does partner's, if any.
// It reports false, having run nothing, when e is not the first
// iteration of a family member or when its pair runs as a duet, whose
// members are run alone for one op beforehand instead (withSiblings).
func (r *Runner) firstAlone(ctx context.Context, e Entry, partner *Entry, k, order int, sum *Summary) (bool, error) {
	b := e.Bench
	f := familyOf(b)
	if f == nil || !b.Package.Hooked || r.aloneChecked[b] || f.Together || partner != nil {
		return false, nil
	}
	r.aloneChecked[b] = true
	var held heldRecords
	before := sum.tally()
	start := r.now()
	times := processTimes{held: &held}
	measured, fail := r.runProcess(ctx, e, k, order, &times, sum)
	wall := r.now().Sub(start)
	if fail != nil && ctx.Err() == nil {
		sum.restore(before)
		r.together(b, fmt.Sprintf("its parent checks what they compute: %s failed alone: %s", b.Name, fail.Reason))
		return true, r.familyIterations(ctx, e, nil, k, order, sum)
	}
	held.release()
	if fail != nil && fail.Reason == "interrupted" {
		return true, ErrInterrupted
	}
	if r.account(e, k, wall, fail, sum) {
		r.judge(e, k, measured, times.inSlices, times.wall, sum)
	}
	if fail == nil {
		if shared, own := times.sharedCost(wall); r.sharesSetup(b.Family, shared, own, times.slices) {
			r.together(b, fmt.Sprintf("they share a setup: a process of %s alone spent %v besides its own slices, which took %v",
				b.Name, shared.Round(time.Millisecond), own.Round(time.Millisecond)))
		}
	}
	return true, nil
}

// sharesSetup reports whether family f, one of whose members spent shared
// in its process alone besides its own slices, which took own over
// slices slices, is better measured together: a process of the whole
// family pays shared once for all of them, where each member's own
// process pays it again, in every suite run. Against that, the first
// process of the family runs each member that has not learned its warmup
// for as many slices as its policy may ask, while alone its process ends
// when its policy is done: the slices past those this member needed, at
// its time per slice, for each member. The family goes together when
// shared is at least a slice time and minSharedSetup, and, in each of
// the suite runs every benchmark gets (MinIterations), outweighs that;
// a family whose process is a worker runs no such slice (startFamily),
// so there shared is enough. Shared is what a parent that builds the
// inputs of all its sub-benchmarks before any runs costs, or a TestMain
// that sets up what they all use (docs/EVALUATION.md, "A parent's
// setup").
func (r *Runner) sharesSetup(f *Family, shared, own time.Duration, slices int) bool {
	if r.SliceTime <= 0 || slices == 0 || shared < max(r.SliceTime, minSharedSetup) {
		return false
	}
	if _, ok := r.envWorkers(f.Members[0].Package); ok {
		return true
	}
	most := 0
	for _, m := range f.Members {
		most = max(most, r.Policy.MaxSlices(m.ID))
	}
	waste := time.Duration(max(most-slices, 0)) * (own / time.Duration(slices))
	return time.Duration(max(r.MinIterations, 1))*shared > waste
}

// minSharedSetup is the least that a member's process alone must spend
// besides its slices for sharesSetup: a test binary takes tens of
// milliseconds to start and exit on a busy machine, which a family
// process saves too, but which is no setup, and which varies too much
// to decide on.
const minSharedSetup = 250 * time.Millisecond

// together marks the families of b, in every version, measured together.
func (r *Runner) together(b *Benchmark, why string) {
	for _, t := range r.twins[b.Bench()] {
		if tf := familyOf(t); tf != nil && !tf.Together {
			tf.Together, tf.Why = true, why
			if t != b {
				tf.Why = "its other version's family is measured together"
			}
		}
	}
}

// withSiblings reports whether b is measured with its siblings. Before the
// first duet of a member of a family, it runs each version's member alone
// for one op: a duet's workers wait for their turns, and a failure after
// the last of them goes unseen. If one fails alone, both versions'
// families are measured together, so that the two versions are measured
// alike, one process after the other.
func (r *Runner) withSiblings(ctx context.Context, b *Benchmark) bool {
	if familyOf(b) == nil || !b.Package.Hooked {
		return false
	}
	twins := r.twins[b.Bench()]
	for _, t := range twins {
		if r.Turns == nil {
			break
		}
		if r.aloneChecked[t] || ctx.Err() != nil {
			continue
		}
		r.aloneChecked[t] = true
		if tf := familyOf(t); tf != nil && !tf.Together {
			if why := r.runAlone(ctx, t); why != "" && ctx.Err() == nil {
				r.together(t, fmt.Sprintf("%s failed alone: %s", t.Name, why))
			}
		}
	}
	for _, t := range twins {
		if tf := familyOf(t); tf != nil && tf.Together {
			r.together(t, tf.Why)
			return true
		}
	}
	return false
}

// runAlone runs b alone for one op, as its iterations would, and returns
// how it failed, or "" if it printed its result and the binary exited 0.
func (r *Runner) runAlone(ctx context.Context, b *Benchmark) string {
	one := *b
	one.N = 1
	p, err := startProcess(r.Starter, r.layoutOf(b, 0, 0).Binary, b.Package.Dir, one.args(1))
	if err != nil {
		return "cannot start test binary: " + err.Error()
	}
	stop := p.watch(ctx, r.Timeout)
	defer stop()
	got, why := false, ""
	_ = scanOutput(p.stdout, func(name string, n int64) bool { return name == b.Name && n == 1 }, func(it outputItem) bool {
		switch it.kind {
		case itemResult:
			got = got || it.name == b.Name
		case itemFailure, itemPanic:
			if why == "" {
				why = it.reason
			}
		}
		return false
	})
	waitErr := p.wait()
	switch {
	case why != "":
	case p.killedFor() != "":
		why = p.killedFor()
	case waitErr != nil:
		why = withCause(exitReason(waitErr), p.stderr.String())
	case !got:
		why = "printed no result (it skipped itself)"
	}
	return why
}

// covered reports whether entry e of suite run k was measured already, by
// a process of its family.
func (r *Runner) covered(e Entry, k int) bool {
	return r.familyRan[familyIteration{e.Bench, k, e.Iteration}]
}

// ran notes that entry e of suite run k was measured, alone or with its
// family, so that no process of its family measures it again.
func (r *Runner) ran(e Entry, k int) {
	if familyOf(e.Bench) != nil {
		r.familyRan[familyIteration{e.Bench, k, e.Iteration}] = true
	}
}

// familyIteration names one iteration of one member of a family.
type familyIteration struct {
	b         *Benchmark
	k, number int
}

// memberRun is one member's part of a family process: count is the
// slices it runs there (RepsEnv).
type memberRun struct {
	b       *Benchmark
	feed    *policy.Feed
	slice   int // slices recorded
	printed int // result lines printed, recorded or not
	count   int
	// warmN is the b.N of its first slice, a warmup at warmupN's b.N,
	// or 0 when that slice runs at its own b.N.
	warmN   int64
	done    bool
	skipped bool // told to leave out its later slices (Worker.Skip)
	times   processTimes
}

// familyIterations runs entry e, and then its partner, if any, as
// iterations of their families.
//
// Like a single process, a family's process starts only if it fits in
// what is left of the budget (familyEstimate), both versions' when they
// are a pair; and when the budget ends while it runs, it stops after the
// slice it is in (scanFamily).
func (r *Runner) familyIterations(ctx context.Context, e Entry, partner *Entry, k, order int, sum *Summary) error {
	if r.Budget > 0 {
		need, cut := r.familyEstimate(e.Bench.Family), []*Benchmark{e.Bench}
		if partner != nil {
			need, cut = need+r.familyEstimate(partner.Bench.Family), append(cut, partner.Bench)
		}
		if r.now().Add(need).After(r.deadline) {
			r.cutByBudget(sum, cut)
			return nil
		}
	}
	if err := r.familyRun(ctx, e, k, order, sum); err != nil || partner == nil {
		return err
	}
	if r.spent || !r.runnable(*partner) || r.covered(*partner, k) {
		return nil
	}
	if err := r.familyRun(ctx, *partner, k, order+1, sum); err != nil {
		return err
	}
	r.lengthenFamilyPair(e.Bench.Family, partner.Bench.Family, true)
	return nil
}

// lengthenFamilyPair sets, after a pair of families' first processes,
// the slices of each member in both versions alike, at the larger of the
// two versions' costs outside the timer per slice, by the rules of the
// other ways of running. A member whose calls spend far longer outside
// the timer than a slice gets slices long enough for TimerShare inside
// the timer, at most maxStretched of the slice time, as recalibrate gives a
// benchmark of one version. Any other gets the slices of the turns a
// duet would take (turnFor), when its own are more than a fifth shorter,
// as retune lengthens a duet's: the processes of a family pair run back
// to back like those of a process pair, and slices of one turn time
// (the b.N a comparison calibrates for) spend about half their wall on
// go test's garbage collection and output around each. A comparison
// keeps its b.N equal in both versions (FixedN), so neither is
// recalibrated alone. A resumed run sets them again from the replayed
// slices, without recording it twice (write).
func (r *Runner) lengthenFamilyPair(fa, fb *Family, write bool) {
	if !r.FixedN || fa == nil || fb == nil || r.SliceTime <= 0 {
		return
	}
	partners := map[string]*Benchmark{}
	for _, m := range fb.Members {
		partners[m.Name] = m
	}
	var pairs []familyMemberPair
	for _, a := range fa.Members {
		b := partners[a.Name]
		if b == nil || a.N != b.N {
			continue
		}
		sa, sb := r.state[a], r.state[b]
		if sa == nil || sb == nil || sa.iterations != 1 || sb.iterations != 1 {
			continue
		}
		pa, ua := sa.latest.medians()
		pb, ub := sb.latest.medians()
		if !(pa > 0) || !(pb > 0) {
			continue
		}
		mp := familyMemberPair{a: a, b: b, n: a.N, perOp: (pa + pb) / 2}
		cost := time.Duration(max(ua, ub))
		per := time.Duration(mp.perOp * float64(a.N))
		want, why := r.stretchedSlice(cost), fmt.Sprintf("family slices lengthened: %v outside the timer per slice", cost.Round(time.Microsecond))
		switch {
		case want > r.SliceTime:
		case r.TurnTime > 0:
			want, why = r.turnFor(cost), fmt.Sprintf("family slices retuned: %v timed and %v outside the timer per slice", per.Round(time.Microsecond), cost.Round(time.Microsecond))
		default:
			want = 0
		}
		if shorterThanWanted(per, want) {
			mp.n, mp.why = NForSlice(mp.perOp, want), why
		}
		pairs = append(pairs, mp)
	}
	r.balanceFamilyPair(fa, fb, pairs)
	for _, mp := range pairs {
		if mp.n == mp.a.N {
			continue
		}
		for _, m := range []*Benchmark{mp.a, mp.b} {
			m.N = mp.n
			if write {
				r.event(&record.Event{Event: record.EventCalibrated, Package: m.Package.ImportPath, Benchmark: m.Name, Version: m.Package.Version,
					Value: float64(mp.n), Reason: mp.why})
			}
		}
	}
}

// familyInsidePerOutside is how long a balanced family process spends
// inside the timer for each unit of time outside it (balanceFamilyPair).
// The best length of a pair's processes depends on how their variance
// splits between processes and within them, which the runner does not
// know after one pair. Over A/A gates of families the best lay past one
// unit a unit, and two gave narrower intervals in the same wall time
// (docs/GATE.md, "Family processes twice as long inside the timer").
const familyInsidePerOutside = 2

// A familyMemberPair is one member of a pair of families in both
// versions, the b.N lengthenFamilyPair gives them and why.
type familyMemberPair struct {
	a, b  *Benchmark
	perOp float64 // ns per op, the mean of the two versions'
	n     int64
	why   string
}

// balanceFamilyPair lengthens the slices of all members of a pair of
// families alike, at their new b.N in pairs, when the processes of either
// version would still spend less than familyInsidePerOutside times as
// long inside the timer as outside it: starting, calling each member's
// function, go test's collection and output around each slice, and its
// share of the links of the suite run (Package.LinkTime), which the
// processes of the package's other benchmarks split with it. A pair costs
// that fixed part F and its slices c·t; the interval of a difference over
// pairs narrows with the number of pairs and, within each, with t, as
// σ²_between + σ²_within/t. Whatever the two variances are, slices with
// c·t = k·F cost at most 1+k times the time of the best t for a given
// interval, where slices of one turn time can cost many times that
// (docs/GATE.md, "Where a gate's time goes"). No slice grows past the
// slice time.
func (r *Runner) balanceFamilyPair(fa, fb *Family, pairs []familyMemberPair) {
	if len(pairs) == 0 {
		return
	}
	factor, why := 1.0, ""
	for v, f := range []*Family{fa, fb} {
		var outside, timed time.Duration
		for _, mp := range pairs {
			m := mp.a
			if v == 1 {
				m = mp.b
			}
			t := r.state[m].latest
			outside += t.wall - t.timed
			timed += time.Duration(float64(t.timed) * float64(mp.n) / float64(m.N))
		}
		share := r.linkShare(f)
		outside += share
		want := time.Duration(familyInsidePerOutside * float64(outside))
		if timed > 0 && shorterThanWanted(timed, want) && float64(want)/float64(timed) > factor {
			factor = float64(want) / float64(timed)
			why = fmt.Sprintf("family processes balanced: %v outside the timer a process (%v of it its share of the links) against %v inside", outside.Round(time.Millisecond), share.Round(time.Millisecond), timed.Round(time.Millisecond))
		}
	}
	if factor == 1 {
		return
	}
	for i := range pairs {
		mp := &pairs[i]
		per := time.Duration(mp.perOp * float64(mp.n))
		longest := max(r.SliceTime, per)
		n := min(int64(math.Ceil(float64(mp.n)*factor)), NForSlice(mp.perOp, longest))
		if n > mp.n {
			mp.n, mp.why = n, why
		}
	}
}

// linkShare returns the part of the links of a suite run that a process
// of family f bears: its package's links of both versions, linked side by
// side (linkAhead), split between the processes of one version of the
// package in a suite run, a family's counting once.
func (r *Runner) linkShare(f *Family) time.Duration {
	p := f.Members[0].Package
	if p.LinkTime <= 0 {
		return 0
	}
	procs := map[any]bool{}
	for _, b := range r.Benchmarks {
		if b.Package != p || !r.runnable(Entry{Bench: b}) {
			continue
		}
		if g := familyOf(b); g != nil && g.Together {
			procs[g] = true
		} else {
			procs[b] = true
		}
	}
	return p.LinkTime / time.Duration(2*max(len(procs), 1))
}

// familyEstimate returns the expected wall time of one process of f: the
// mean of its processes so far or, before the first, the sum over its
// members of one iteration of each, every sibling included, since the
// process runs them all.
func (r *Runner) familyEstimate(f *Family) time.Duration {
	if ws := r.familyWall[f]; len(ws) > 0 {
		var t time.Duration
		for _, w := range ws {
			t += w
		}
		return t / time.Duration(len(ws))
	}
	count := 1
	for _, m := range f.Members {
		if r.state[m] != nil {
			count = max(count, r.Policy.MaxSlices(m.ID))
		}
	}
	var t time.Duration
	for _, m := range f.Members {
		if st := r.state[m]; st != nil && st.iterations > 0 {
			t += st.wall / time.Duration(st.iterations)
		} else {
			// A sibling outside the run prints as many slices, each
			// at a b.N calibrated for the slice time.
			t += time.Duration(count) * r.SliceTime
		}
	}
	return t
}

// familyFree is the slices each member of a family's worker runs before
// it asks for the next: the first, which every member runs.
const familyFree = 1

// startFamily starts a family's process of binary bin in pkg with args
// and env, which run count repetitions at most. A binary built with the
// turn hook runs as a worker (w), whose members each ask before every
// slice after their first: one that has run enough is told to skip the
// rest (scanFamily), so that a member whose warmup is still to learn does
// not run its whole cap of slices for nothing. Every slice is a turn, as
// in a lone process (startSlices): a member with a b.N loop skips go
// test's run1 before each repetition after its first, which only ran its
// setup once more, and a b.Loop member runs all its slices in one call.
// A starter that cannot start workers with an environment runs every
// slice free.
func (r *Runner) startFamily(pkg *Package, bin string, args, env []string, count int) (*process, Worker, error) {
	ws, ok := r.envWorkers(pkg)
	if !ok {
		p, err := startProcessEnv(r.Starter, bin, pkg.Dir, args, append(env, TurnEnv+"="+strconv.Itoa(count)))
		return p, nil, err
	}
	w, err := ws.StartWorkerEnv(bin, pkg.Dir, args, env, familyFree)
	if err != nil {
		return nil, nil, err
	}
	return &process{proc: w, stdout: w.Stdout(), stderr: stderrTail{w}}, w, nil
}

// answer answers the wait of mr's next slice in worker w, if its process
// waits for one: a grant while mr needs slices, or, once, a skip. A
// member waits before each repetition past the free ones, up to its
// count, unless told to skip.
func (mr *memberRun) answer(w Worker) {
	if w == nil || mr.skipped || mr.printed < familyFree || mr.printed >= mr.count {
		return
	}
	// An answer that cannot be written finds the process gone: its
	// output ends, and the scan reports how.
	if mr.done {
		mr.skipped = true
		_ = w.Skip()
		return
	}
	_ = w.Grant()
}

// familySpent stops family process p, which the end of the budget cut
// short: what its members measured is kept, as for a process cut short
// alone, but none of them is judged on it (account).
func (r *Runner) familySpent(p *process, runs []*memberRun) {
	r.spent = true
	for _, mr := range runs {
		mr.done = true
	}
	p.kill("done")
}

// familyTimeout is how long a process of f may run: --timeout for each of
// its members, since it runs each of them as long as a process of its own
// would.
func (r *Runner) familyTimeout(f *Family) time.Duration {
	return r.Timeout * time.Duration(len(f.Members))
}

// familyRun runs one process of e's family, the parent with all its
// sub-benchmarks as go test runs them, each at its own b.N, and records
// the slices of every member still scheduled as its iteration e.Iteration
// of suite run k.
func (r *Runner) familyRun(ctx context.Context, e Entry, k, order int, sum *Summary) error {
	f := e.Bench.Family
	start := r.now()
	var runs []*memberRun
	byName := map[string]*memberRun{}
	count := 1
	for _, m := range f.Members {
		me := Entry{Bench: m, Iteration: e.Iteration, Padding: e.Padding}
		// A member whose iteration an interrupted run recorded replays
		// it when its own entry comes.
		if r.state[m] == nil || !r.runnable(me) || r.covered(me, k) || r.Resume.lookup(m, k, e.Iteration) != nil {
			continue
		}
		mr := &memberRun{b: m, count: max(1, r.Policy.MaxSlices(m.ID))}
		runs = append(runs, mr)
		byName[m.Name] = mr
		count = max(count, mr.count)
	}
	args := []string{
		"-test.run=^$",
		"-test.bench=" + f.Pattern,
		"-test.benchtime=" + strconv.FormatInt(e.Bench.N, 10) + "x",
		"-test.count=" + strconv.Itoa(count),
		"-test.benchmem",
	}
	if f.Procs > 0 {
		args = append(args, "-test.cpu="+strconv.Itoa(f.Procs))
	}
	args = append(args, e.Bench.Package.TestArgs...)
	fails := map[*Benchmark]*Failure{}
	failAll := func(reason, detail string) {
		for _, mr := range runs {
			if fails[mr.b] == nil {
				fails[mr.b] = &Failure{Bench: mr.b, SuiteRun: k, Iteration: e.Iteration, Reason: reason, Detail: detail}
			}
		}
	}
	// The process runs one of its version's links, as every process
	// does, and each member's slices name it.
	link := r.layoutOf(e.Bench, k, e.Iteration)
	env := []string{FixedNEnv + "=" + FixedNValue(f.Members), RepsEnv + "=" + repsValue(f.Members, byName)}
	var warm strings.Builder
	for _, mr := range runs {
		mr.feed = r.loop.Begin(mr.b.ID)
		if r.halfWarmup(mr.b, mr.feed.Step, mr.count) {
			mr.warmN = warmupN(mr.b.N)
			writeNamed(&warm, mr.warmN, mr.b)
		}
	}
	if warm.Len() > 0 {
		env = append(env, WarmNEnv+"="+warm.String())
	}
	p, w, err := r.startFamily(e.Bench.Package, link.Binary, args, env, count)
	if err != nil {
		failAll("cannot start test binary", err.Error())
	} else {
		r.processes++
		r.scanFamily(ctx, p, w, e, k, order, link.Seed, runs, byName, failAll, sum)
	}
	wall := r.now().Sub(start)
	if ctx.Err() != nil {
		return ErrInterrupted
	}
	if err == nil && !r.spent {
		r.familyWall[f] = append(r.familyWall[f], wall)
	}
	for _, mr := range runs {
		if r.spent && mr.slice == 0 && fails[mr.b] == nil {
			// The budget ended before its turn in the process came:
			// it has no iteration here.
			continue
		}
		me := Entry{Bench: mr.b, Iteration: e.Iteration, Padding: e.Padding}
		fail := fails[mr.b]
		if fail == nil && !mr.done {
			fail = &Failure{Bench: mr.b, SuiteRun: k, Iteration: e.Iteration,
				Reason: fmt.Sprintf("the test binary printed %d of the %d slices asked for", mr.slice, r.Policy.MaxSlices(mr.b.ID))}
		}
		if r.account(me, k, wall/time.Duration(len(runs)), fail, sum) {
			r.judge(me, k, mr.feed.Measured, mr.times.inSlices, mr.times.wall, sum)
		}
		if fail == nil {
			r.recalibrate(mr.b, &mr.times)
		}
	}
	return nil
}

// scanFamily reads the output of family process p and records its
// members' slices; failAll marks every member failed.
func (r *Runner) scanFamily(ctx context.Context, p *process, w Worker, e Entry, k, order int, layout uint64, runs []*memberRun, byName map[string]*memberRun, failAll func(reason, detail string), sum *Summary) {
	f := e.Bench.Family
	timeout := r.familyTimeout(f)
	stop := p.watch(ctx, timeout)
	defer stop()
	accept := func(name string, n int64) bool {
		if mr := byName[name]; mr != nil && mr.slice == 0 && mr.warmN > 0 && n == mr.warmN {
			return true
		}
		for _, m := range f.Members {
			if m.Name == name {
				return n == m.N
			}
		}
		return false
	}
	last := r.now()
	left := len(runs)
	var failure string
	var failText failureDetail
	_ = scanOutput(p.stdout, accept, func(it outputItem) bool {
		if ctx.Err() != nil {
			return true
		}
		switch it.kind {
		case itemResult:
			now := r.now()
			// When the budget ends, the process keeps this slice, if it
			// is a member's, and starts no other, as a single process.
			spent := r.Budget > 0 && !now.Before(r.deadline)
			mr := byName[it.name]
			if mr != nil {
				mr.printed++
			}
			if mr == nil || mr.done {
				// A sibling no longer scheduled, or past what its
				// policy asked for: it ran all the same, as go test
				// runs it, and its time belongs to no slice.
				last = now
				if spent {
					r.familySpent(p, runs)
					return true
				}
				if mr != nil {
					mr.answer(w)
				}
				return false
			}
			mr.slice++
			rec := &record.Slice{
				Package: mr.b.Package.ImportPath, Benchmark: mr.b.Name, Version: mr.b.Package.Version, Instance: r.Instance,
				SuiteRun: k, Iteration: e.Iteration, Order: order, Slice: mr.slice, Warmup: mr.feed.Step.Warmup,
				N: it.n, Values: it.values, Start: last, WallNs: int64(now.Sub(last)), Layout: layout,
			}
			last = now
			r.keep(mr.b, rec, &mr.times, sum)
			if mr.feed.Add(primaryValue(it.values)) {
				r.warmupEnd(mr.b, k, e.Iteration, mr.slice, mr.feed.Step.Met, nil)
			}
			if mr.feed.Step.Done || mr.slice == mr.count {
				mr.done = true
				left--
			}
			if spent && left > 0 {
				r.familySpent(p, runs)
				return true
			}
			if left == 0 {
				// Every member has its slices; the siblings after them
				// need not run.
				p.kill("done")
				return true
			}
			mr.answer(w)
		case itemFailure, itemPanic:
			failText.add(it, failure == "")
			if failure == "" {
				failure = it.reason
			}
			if w != nil {
				// One failure fails the family's iteration; a worker
				// would wait for an answer after it.
				p.kill("failed")
			}
		}
		return false
	})
	waitErr := p.wait()
	stop()
	why := p.killedFor()
	if ctx.Err() != nil {
		return
	}
	if r.spent {
		left = 0
	}
	switch {
	case why == "timeout" && left > 0:
		failAll(why, fmt.Sprintf("killed after %v: --timeout %v for each of its %d benchmarks\n%s", timeout, r.Timeout, len(f.Members), p.stderr.String()))
	case failure != "":
		failAll(failure, failText.with(p.stderr.String()))
	case waitErr != nil && left > 0:
		failAll(withCause(exitReason(waitErr), p.stderr.String()), p.stderr.String())
	}
}

// resumeFamilyPair replays, in a resumed run, the pair of entries a and b
// when their families are measured together: their records then hold
// processes of their families, one after the other, not a duet. Each side
// the records hold whole is replayed as such a process; a side cut short
// or missing runs again as one of its family. It reports false, having
// replayed nothing, when the records hold neither side or the pair runs
// as a duet, which replayDuet replays. Whether the family is measured
// together is found as it was in the interrupted run: by running each
// version's member alone for one op before its first pair (withSiblings).
func (r *Runner) resumeFamilyPair(ctx context.Context, a, b Entry, k, order int, sum *Summary) (bool, error) {
	if r.Resume == nil || familyOf(a.Bench) == nil {
		return false, nil
	}
	pa, pb := r.Resume.lookup(a.Bench, k, a.Iteration), r.Resume.lookup(b.Bench, k, b.Iteration)
	if pa == nil && pb == nil || !r.withSiblings(ctx, a.Bench) {
		return false, nil
	}
	for i, x := range []struct {
		e    Entry
		past *pastIteration
	}{{a, pa}, {b, pb}} {
		if !r.runnable(x.e) || r.covered(x.e, k) || x.past != nil && r.replay(x.e, k, x.past, sum) {
			continue
		}
		if err := r.familyIterations(ctx, x.e, nil, k, order+i, sum); err != nil {
			return true, err
		}
	}
	r.lengthenFamilyPair(a.Bench.Family, b.Bench.Family, pa == nil || pb == nil)
	return true, nil
}
