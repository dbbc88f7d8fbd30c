package rmit_test

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/fakebin"
	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// What a measurement is belongs to no way of running a benchmark: each
// way supplies only how its processes start and interleave
// (docs/GATE.md, "Code layout" and "Time inside the timer"). So every
// way runs here through the same properties, on one fake binary and its
// fake clock: two versions of the same code, A/A, whose ns/op depends on
// the link a process runs (the layout) and on seeded noise.

// A way is one way of running a benchmark's two versions.
type way struct {
	name string
	// turns pairs the versions slice by slice (duets); without it each
	// process runs alone, one version after the other.
	turns bool
	// parallel marks the benchmark as running b.RunParallel, which duets
	// hand over to process pairs.
	parallel bool
	// family measures leaves BenchmarkF/a and /b, the second of which
	// fails alone, with their siblings.
	family bool
	// cuts, for a resumed way, are the slices after which successive
	// runs are interrupted, each resumed from the records of those
	// before it, as fractions of the slices of the whole run.
	cuts []float64
}

func (w way) resumed(cuts ...float64) way {
	w.name += ", resumed"
	w.cuts = cuts
	return w
}

var (
	lone         = way{name: "lone process"}
	duet         = way{name: "duet", turns: true}
	processPairs = way{name: "process pairs", turns: true, parallel: true}
	family       = way{name: "family", family: true}
	familyDuets  = way{name: "family in duets", turns: true, family: true}
	allWays      = []way{
		lone, duet, processPairs, family, familyDuets,
		lone.resumed(0.4), duet.resumed(0.4), processPairs.resumed(0.4), family.resumed(0.4), familyDuets.resumed(0.4),
	}
)

// Each process's ns/op: 1 µs, moved by its link (sd 2.3%, as measured on
// fastjson's twitter leaf), by the process (5%) and by each slice (1%).
const (
	layoutSD  = 0.023
	processSD = 0.05
	sliceSD   = 0.01
	// setup is the time outside the timer of each call of a benchmark.
	setup = 100 * time.Microsecond
)

// normal returns a standard normal draw for the given key and seed.
func normal(seed uint64, key ...any) float64 {
	h := fnv.New64a()
	fmt.Fprint(h, key...)
	return rand.New(rand.NewPCG(seed, h.Sum64())).NormFloat64()
}

// A world is one fake package in two versions, in directories "head" and
// "base", each linked 48 times.
type world struct {
	w          way
	f          *fakebin.Binaries
	head, base []*rmit.Benchmark
	pairs      int
}

func newWorld(w way, pairs int, seed uint64) *world {
	f := &fakebin.Binaries{Clock: fakebin.NewClock(), Setup: map[string]time.Duration{}, FailsAlone: map[string]int{}}
	// The ns/op depends on the process only through its link and the
	// slice's place in it, so that a process run again after an
	// interruption measures what it measured before.
	f.NsPerOp = func(s fakebin.Slice) float64 {
		x := 1000 * math.Exp(layoutSD*normal(seed, s.Binary, s.Name)+processSD*normal(seed, s.Binary, s.Name, "process")+sliceSD*normal(seed, s.Binary, s.Name, s.InProcess))
		return math.Round(x*10) / 10 // as printed
	}
	names := []string{"BenchmarkA"}
	if w.family {
		names = []string{"BenchmarkF/a", "BenchmarkF/b"}
		// It fails alone after a measured slice, which the run then
		// drops from its counts as from its records.
		f.FailsAlone["BenchmarkF/b"] = 2
	}
	f.Names = names
	wd := &world{w: w, f: f, pairs: pairs}
	for _, dir := range []string{"head", "base"} {
		version := ""
		if dir == "base" {
			version = record.VersionBaseline
		}
		pkg := &rmit.Package{ImportPath: "example.com/p", Dir: dir, Binary: dir + "/p.test", Version: version, Hooked: true}
		for _, s := range rmit.LayoutSeeds(seed, dir, 48) {
			pkg.Layouts = append(pkg.Layouts, rmit.Layout{Seed: s, Binary: fmt.Sprintf("%s/p-%d.test", dir, s)})
		}
		var fam *rmit.Family
		if w.family {
			fam = &rmit.Family{Top: "BenchmarkF", Pattern: "^BenchmarkF$"}
		}
		var bs []*rmit.Benchmark
		for _, name := range names {
			f.Setup[name] = setup
			b := rmit.NewBenchmark(pkg, name, 1, false)
			b.N, b.Config, b.Parallel = 1000, rmit.Config{SuiteRuns: pairs, Iterations: 1}, w.parallel
			if fam != nil {
				b.Family = fam
				fam.Members = append(fam.Members, b)
			}
			bs = append(bs, b)
		}
		if dir == "head" {
			wd.head = bs
		} else {
			wd.base = bs
		}
	}
	return wd
}

// runner returns a runner of the world's way that writes to rw.
func (wd *world) runner(rw *record.Writer, obs rmit.Observer, past *rmit.Resume) *rmit.Runner {
	p := rmit.NewPaired(rmit.Static{Warmup: 1, Slices: 3}, wd.base, wd.head)
	r := &rmit.Runner{Benchmarks: append(slices.Clone(wd.head), wd.base...), Policy: p, Pairs: &p.Pairing, Seed: 3,
		SliceTime: time.Millisecond, FixedN: true, Starter: wd.f, Clock: wd.f.Clock.Now, Raw: rw, Observer: obs, Resume: past,
		Timeout: time.Minute}
	if wd.w.turns {
		r.Turns, r.TurnTime = &rmit.TurnPlan{Warmup: 1, Turns: 3}, time.Millisecond
	}
	return r
}

// A cutter interrupts a run after its n-th slice, and counts the slices
// it was told of.
type cutter struct {
	n, seen int
	cancel  func()
}

func (c *cutter) SuiteRunStarted(int, int) {}
func (c *cutter) Slice(*rmit.Benchmark, *record.Slice) {
	c.seen++
	if c.n > 0 && c.seen == c.n {
		c.cancel()
	}
}
func (c *cutter) IterationDone(*rmit.Benchmark, *rmit.Failure)  {}
func (c *cutter) BenchmarkDone(*rmit.Benchmark, *record.Event)  {}
func (c *cutter) StillScheduled(*rmit.Benchmark, *record.Event) {}

// An outcome is what a run of a world left.
type outcome struct {
	sum *rmit.Summary
	// all holds every record, those of interrupted runs before the last
	// included; own those the last run wrote.
	all, own *record.Run
	// elapsed is the fake time the last run took.
	elapsed time.Duration
	err     error
}

// run runs the world to its end, interrupted after the given slices of
// each run but the last and resumed from the records each time; before
// the last run, last may change its runner.
func (wd *world) run(t *testing.T, cuts []int, last func(*rmit.Runner)) outcome {
	t.Helper()
	var raw bytes.Buffer
	rw := record.NewWriter(&raw)
	require.NoError(t, rw.Write(&record.Header{Seed: 3}))
	header := raw.Len()
	var past *rmit.Resume
	for _, n := range cuts {
		ctx, cancel := context.WithCancel(context.Background())
		_, err := wd.runner(rw, &cutter{n: n, cancel: cancel}, past).Run(ctx)
		cancel()
		require.ErrorIs(t, err, rmit.ErrInterrupted, "cut after slice %d", n)
		run, _, err := record.Read(bytes.NewReader(raw.Bytes()), "raw")
		require.NoError(t, err)
		past = rmit.NewResume(run)
		if wd.w.family {
			// A new run knows only the records.
			for _, b := range append(slices.Clone(wd.head), wd.base...) {
				b.Family.Together, b.Family.Why = false, ""
			}
		}
	}
	from := raw.Len()
	r := wd.runner(rw, &cutter{}, past)
	if last != nil {
		last(r)
	}
	start := wd.f.Clock.Now()
	sum, err := r.Run(context.Background())
	o := outcome{sum: sum, err: err, elapsed: wd.f.Clock.Now().Sub(start)}
	o.all, _, err = record.Read(bytes.NewReader(raw.Bytes()), "raw")
	require.NoError(t, err)
	own := append(slices.Clone(raw.Bytes()[:header]), raw.Bytes()[from:]...)
	o.own, _, err = record.Read(bytes.NewReader(own), "raw")
	require.NoError(t, err)
	return o
}

// cutsOf returns the slices after which w's runs are cut, for a whole run
// of total slices.
func cutsOf(w way, total int) []int {
	var cuts []int
	for _, c := range w.cuts {
		cuts = append(cuts, max(1, int(c*float64(total))))
	}
	return cuts
}

// runWay runs a fresh world of w with pairs pairs, as w runs it, and
// returns it with its outcome; last as for world.run.
func runWay(t *testing.T, w way, pairs int, seed uint64, last func(*rmit.Runner)) (*world, outcome) {
	t.Helper()
	var cuts []int
	if len(w.cuts) > 0 {
		_, whole := runWay(t, way{name: w.name, turns: w.turns, parallel: w.parallel, family: w.family}, pairs, seed, nil)
		cuts = cutsOf(w, len(whole.all.Slices))
	}
	wd := newWorld(w, pairs, seed)
	return wd, wd.run(t, cuts, last)
}

func TestConformance(t *testing.T) {
	for _, w := range allWays {
		t.Run(w.name, func(t *testing.T) {
			t.Run("links", func(t *testing.T) { testLinks(t, w) })
			t.Run("timer", func(t *testing.T) { testTimer(t, w) })
			t.Run("resume", func(t *testing.T) { testResume(t, w) })
			t.Run("budget", func(t *testing.T) { testBudget(t, w) })
			t.Run("timeout", func(t *testing.T) { testTimeout(t, w) })
			t.Run("A/A", func(t *testing.T) { testAA(t, w) })
		})
	}
}

// slicesOf returns the slices of run of one benchmark in one version.
func slicesOf(run *record.Run, key record.Key) []record.Slice {
	var out []record.Slice
	for _, s := range run.Slices {
		if s.Key() == key {
			out = append(out, s)
		}
	}
	return out
}

// lineOf returns the line of f that printed slice s, named by its link,
// or false.
func lineOf(f *fakebin.Binaries, s record.Slice) (fakebin.Line, bool) {
	dir := "head"
	if s.Version == record.VersionBaseline {
		dir = "base"
	}
	bin := fmt.Sprintf("%s/p-%d.test", dir, s.Layout)
	for _, l := range f.Lines() {
		if l.Binary == bin && l.Name == s.Benchmark && l.N == s.N && l.NsPerOp == s.Values["ns/op"] {
			return l, true
		}
	}
	return fakebin.Line{}, false
}

// Each pair of processes draws links of its own, and each slice names the
// link of the process that printed it: the fake's ns/op depends on the
// link, so a slice whose value no process of its named link printed names
// the wrong one.
func testLinks(t *testing.T, w way) {
	const pairs = 12
	wd, o := runWay(t, w, pairs, 1, nil)
	require.NoError(t, o.err)
	require.Empty(t, o.sum.Failed)
	for _, b := range append(slices.Clone(wd.head), wd.base...) {
		ss := slicesOf(o.all, b.Key())
		require.NotEmpty(t, ss, "%s", b)
		byRun := map[int]uint64{}
		for _, s := range ss {
			require.NotZero(t, s.Layout, "%s: suite run %d slice %d names no link", b, s.SuiteRun, s.Slice)
			if l, ok := byRun[s.SuiteRun]; ok {
				assert.Equal(t, l, s.Layout, "%s: suite run %d: one process, one link", b, s.SuiteRun)
			}
			byRun[s.SuiteRun] = s.Layout
			_, ok := lineOf(wd.f, s)
			assert.True(t, ok, "%s: suite run %d slice %d (%v ns/op) was not printed by link %d", b, s.SuiteRun, s.Slice, s.Values["ns/op"], s.Layout)
		}
		assert.Len(t, byRun, pairs, "%s: a process in every pair", b)
		seen := map[uint64]int{}
		for k, l := range byRun {
			if other, ok := seen[l]; ok {
				t.Errorf("%s: suite runs %d and %d ran the same link %d", b, other, k, l)
			}
			seen[l] = k
		}
	}
}

// The time inside the timer adds up: every measured slice the run
// recorded took its N × ns/op and the setup the fake charged for it on
// the fake clock, no more, and the summary's time inside slices and
// inside the timer are the sums over the slices the run recorded, of
// which there are as many as it counts.
func testTimer(t *testing.T, w way) {
	wd, o := runWay(t, w, 6, 2, nil)
	require.NoError(t, o.err)
	var inSlices, inTimer time.Duration
	measured, replayed := 0, len(o.all.Slices)-len(o.own.Slices)
	for _, s := range o.own.Slices {
		if s.Warmup {
			continue
		}
		measured++
		inSlices += time.Duration(s.WallNs)
		inTimer += min(s.Timed(), time.Duration(s.WallNs))
		l, ok := lineOf(wd.f, s)
		if !assert.True(t, ok, "%s suite run %d slice %d was not printed", s.Benchmark, s.SuiteRun, s.Slice) {
			continue
		}
		want := l.Setup + time.Duration(float64(l.N)*l.NsPerOp)
		assert.InDelta(t, float64(want), float64(s.WallNs), 2, "%s %s suite run %d slice %d: wall on the fake clock", s.Version, s.Benchmark, s.SuiteRun, s.Slice)
		assert.InDelta(t, float64(l.N)*l.NsPerOp, float64(s.Timed()), 2, "%s suite run %d slice %d: time inside the timer", s.Benchmark, s.SuiteRun, s.Slice)
	}
	require.Positive(t, measured)
	assert.Equal(t, inSlices, o.sum.InSlices, "time inside slices")
	assert.InDelta(t, float64(inTimer), float64(o.sum.InTimer), float64(measured), "time inside the timer")
	assert.Less(t, o.sum.InTimer, o.sum.InSlices, "the setup is outside the timer")
	assert.LessOrEqual(t, o.sum.Measuring(), o.elapsed, "the measuring phase within the run's fake time")
	assert.LessOrEqual(t, o.sum.InSlices, o.sum.Measuring())
	counted := 0
	for _, s := range o.all.Slices {
		if !s.Warmup {
			counted++
		}
	}
	assert.Equal(t, counted, o.sum.Slices, "measured slices, %d of the records replayed", replayed)
}

// normalised returns the records of run without what differs between
// two runs of the same schedule: times, the criteria's own CPU time, and
// the records of interruptions and resumptions. Warmup slices keep no
// wall time: the first slices of a duet's two workers run side by side,
// and which one the fake runs first is the scheduler's choice.
func normalised(run *record.Run) ([]record.Slice, []record.Event) {
	var ss []record.Slice
	for _, s := range run.Slices {
		s.Start = time.Time{}
		if s.Warmup {
			s.WallNs = 0
		}
		ss = append(ss, s)
	}
	slices.SortFunc(ss, func(a, b record.Slice) int {
		return cmp.Or(cmp.Compare(a.SuiteRun, b.SuiteRun), cmp.Compare(a.Iteration, b.Iteration), cmp.Compare(a.Version, b.Version),
			cmp.Compare(a.Benchmark, b.Benchmark), cmp.Compare(a.Slice, b.Slice))
	})
	var evs []record.Event
	for _, e := range run.Events {
		switch e.Event {
		case record.EventInterrupt, record.EventDiscarded, record.EventEnd:
			continue
		}
		e.Time, e.CriterionNs, e.TimeUse = time.Time{}, 0, nil
		evs = append(evs, e)
	}
	slices.SortFunc(evs, func(a, b record.Event) int {
		return cmp.Or(cmp.Compare(a.Event, b.Event), cmp.Compare(a.Version, b.Version), cmp.Compare(a.Benchmark, b.Benchmark),
			cmp.Compare(a.SuiteRun, b.SuiteRun), cmp.Compare(a.Slice, b.Slice), cmp.Compare(a.Reason, b.Reason))
	})
	return ss, evs
}

// A run cut at a slice and resumed from its records yields the records of
// one left alone, wherever it was cut; a resumed way is cut once more.
func testResume(t *testing.T, w way) {
	const pairs = 5
	whole := way{name: w.name, turns: w.turns, parallel: w.parallel, family: w.family}
	_, alone := runWay(t, whole, pairs, 4, nil)
	require.NoError(t, alone.err)
	wantSlices, wantEvents := normalised(alone.all)
	total := len(alone.all.Slices)
	var reordered, repeated [][]int
	for _, at := range []float64{0.1, 0.35, 0.6, 0.85} {
		cuts := append(cutsOf(w, total), max(1, int(at*float64(total))))
		if len(cuts) > 1 && cuts[1] <= cuts[0] {
			// A later cut falls in what the resumed run replays.
			cuts[1] = cuts[0] + max(1, int(at*float64(total-cuts[0])))
		}
		wd := newWorld(w, pairs, 4)
		o := wd.run(t, cuts, nil)
		require.NoError(t, o.err, "cut after slices %v", cuts)
		gotSlices, gotEvents := normalised(o.all)
		// Known limitations, each checked to be all that differs.
		if !slices.Equal(orders(wantSlices), orders(gotSlices)) {
			// A family member whose iteration the cut left short runs
			// again in a process of its own, at its own place in the
			// schedule, where its family's process had measured it
			// with a sibling's.
			reordered = append(reordered, cuts)
			wantSlices, gotSlices = withoutOrder(wantSlices), withoutOrder(gotSlices)
		}
		if !slices.EqualFunc(wantEvents, gotEvents, sameEvent) && slices.EqualFunc(wantEvents, once(gotEvents), sameEvent) {
			// A cut inside a pair's first process pair measures it
			// again after a dropped duet of its own (docs/GATE.md,
			// "Time inside the timer"), which says again why.
			repeated = append(repeated, cuts)
			gotEvents = once(gotEvents)
		}
		assert.Equal(t, wantSlices, gotSlices, "cut after slices %v: slices", cuts)
		assert.Equal(t, wantEvents, gotEvents, "cut after slices %v: events", cuts)
	}
	if t.Failed() {
		return
	}
	if len(reordered) > 0 {
		t.Skipf("known limitation: cut after slices %v, a family member's iteration run again records its own schedule position (Order), not its family process's", reordered)
	}
	if len(repeated) > 0 {
		t.Skipf("known limitation: cut after slices %v, inside a pair's first process pair, the resumed run records its calibrated and process-pairs events again", repeated)
	}
}

// orders returns the schedule positions of ss.
func orders(ss []record.Slice) []int {
	var out []int
	for _, s := range ss {
		out = append(out, s.Order)
	}
	return out
}

func withoutOrder(ss []record.Slice) []record.Slice {
	out := slices.Clone(ss)
	for i := range out {
		out[i].Order = 0
	}
	return out
}

// once returns evs without the repeats of an event.
func once(evs []record.Event) []record.Event {
	var out []record.Event
	for _, e := range evs {
		if !slices.ContainsFunc(out, func(o record.Event) bool { return reflect.DeepEqual(o, e) }) {
			out = append(out, e)
		}
	}
	return out
}

// The budget holds on the fake clock: with half the time the whole run
// took, the run ends at most one round of turns past it, having measured
// part of what it would have, and records why the rest was cut.
func testBudget(t *testing.T, w way) {
	const pairs = 8
	_, whole := runWay(t, w, pairs, 5, nil)
	require.NoError(t, whole.err)
	budget := whole.elapsed / 2
	_, o := runWay(t, w, pairs, 5, func(r *rmit.Runner) { r.Budget = budget })
	require.NoError(t, o.err)
	var longest time.Duration
	for _, s := range o.own.Slices {
		longest = max(longest, time.Duration(s.WallNs))
	}
	assert.LessOrEqual(t, o.sum.Wall(), budget+2*longest, "the run ends within a round of turns of its budget of %v", budget)
	assert.Positive(t, o.sum.Iterations, "something was measured")
	assert.Less(t, o.sum.Iterations, whole.sum.Iterations, "the budget cut the run short")
	require.NotEmpty(t, o.sum.BudgetCut)
	cut := map[string]bool{}
	for _, e := range o.own.Events {
		if e.Event == record.EventBudget {
			cut[e.Key().ID()] = true
		}
	}
	for _, b := range o.sum.BudgetCut {
		assert.True(t, cut[b.ID], "%s: a budget event says why it was cut", b)
	}
}

// The timeout holds: a process that hangs in the middle of the run is
// killed after Runner.Timeout, its benchmark fails with reason "timeout",
// and the run goes on and ends. A duet that hangs is killed so, and its
// pair goes on by process pairs. Runner.Timeout runs on the wall clock, not
// on Runner.Clock (a fake clock does not move while a process hangs), so
// this waits a short real timeout; every other fake process prints its
// lines at once.
func testTimeout(t *testing.T, w way) {
	const pairs = 4
	t.Parallel()
	wd0, whole := runWay(t, w, pairs, 6, nil)
	_, o := runWay(t, w, pairs, 6, func(r *rmit.Runner) {
		r.Timeout = 300 * time.Millisecond
		f := r.Starter.(*fakebin.Binaries)
		// The second slice of the head's first process past the middle
		// of the run never ends.
		// The fake asks under its lock.
		hung, middle := false, len(slicesOf(whole.own, wd0.head[0].Key()))/2
		f.SetHang(func(s fakebin.Slice) bool {
			if hung || s.Dir != "head" || s.InProcess != 1 || s.Index < middle {
				return false
			}
			hung = true
			return true
		})
	})
	require.NoError(t, o.err)
	if w.turns && !w.parallel && !w.family {
		// A duet that timed out goes on by process pairs, in which
		// this benchmark does not hang: nothing fails.
		assert.Empty(t, o.sum.Failed)
		byProcess := 0
		for _, e := range o.own.Events {
			if e.Event == record.EventProcessPairs {
				assert.Contains(t, e.Reason, "failed beside the other version's process (timeout)")
				byProcess++
			}
		}
		assert.Positive(t, byProcess, "the pair went on by process pairs")
		assert.True(t, o.own.Complete, "the run went on to its end")
		return
	}
	require.NotEmpty(t, o.sum.Failed, "the hanging process failed")
	for _, fail := range o.sum.Failed {
		assert.Equal(t, "timeout", fail.Reason, "%s", fail.Bench)
	}
	timeouts := 0
	for _, e := range o.own.Events {
		if e.Event == record.EventFailure {
			assert.Equal(t, "timeout", e.Reason, "%s", e.Benchmark)
			timeouts++
		}
	}
	assert.Equal(t, len(o.sum.Failed), timeouts, "each failure recorded")
	assert.True(t, o.own.Complete, "the run went on to its end")
}

// An A/A comparison of the run's two versions, judged as run --baseline
// judges it (gate.Split and gate.Runs with the header's options, paired),
// reports a change no more often than its nominal level, at 5, 8 and 40
// pairs: every pair draws links of its own, so the layouts' spread is in
// every interval. It is judged at no threshold and 90% confidence, so
// that a few hundred runs tell a level kept from one missed; with one
// link per version, the intervals miss in most runs at 40 pairs.
func testAA(t *testing.T, w way) {
	const confidence = 0.9
	reps := map[int]int{5: 100, 8: 80, 40: 25}
	if testing.Short() || len(w.cuts) > 0 || raceDetector {
		// A resumed way's records are those of the way left alone
		// (testResume): fewer runs tell whether resuming kept them.
		// Under the race detector the runs look for races, which
		// fewer show as well.
		reps = map[int]int{5: 30, 8: 25, 40: 8}
	}
	for _, pairs := range []int{5, 8, 40} {
		comparisons, changes := 0, 0
		for rep := range reps[pairs] {
			_, o := runWay(t, w, pairs, uint64(1000*pairs+rep), nil)
			require.NoError(t, o.err)
			opts := gate.DefaultOptions()
			opts.Threshold, opts.Confidence = 0, confidence
			opts = gate.FromHeader(o.all.Header, opts)
			opts.Paired = true
			base, head := gate.Split(o.all)
			res, err := gate.Runs(base, head, opts)
			require.NoError(t, err)
			for _, c := range res.Comparisons {
				if c.Unit != "ns/op" {
					continue
				}
				comparisons++
				if c.Verdict == gate.Regression || c.Verdict == gate.Improvement {
					changes++
				}
			}
		}
		require.Positive(t, comparisons)
		rate := float64(changes) / float64(comparisons)
		t.Logf("%d pairs: %d of %d comparisons (%.1f%%) report a change, nominal %.0f%%", pairs, changes, comparisons, 100*rate, 100*(1-confidence))
		assert.Greater(t, binomialTail(comparisons, changes, 1-confidence), 0.001,
			"%d pairs: %d changes in %d A/A comparisons is beyond the nominal %.0f%%", pairs, changes, comparisons, 100*(1-confidence))
	}
}

// binomialTail returns P(X ≥ k) for X binomial with n trials of
// probability p.
func binomialTail(n, k int, p float64) float64 {
	tail := 0.0
	for i := k; i <= n; i++ {
		lg, _ := math.Lgamma(float64(n + 1))
		a, _ := math.Lgamma(float64(i + 1))
		b, _ := math.Lgamma(float64(n - i + 1))
		tail += math.Exp(lg - a - b + float64(i)*math.Log(p) + float64(n-i)*math.Log1p(-p))
	}
	return tail
}

func sameEvent(a, b record.Event) bool { return reflect.DeepEqual(a, b) }
