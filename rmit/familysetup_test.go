package rmit_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/fakebin"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// setupFamily returns fake binaries of a family of 1 µs ops,
// BenchmarkF/setup with a setup of 50 ms a call and BenchmarkF/b with
// none, whose members failsAlone fail when run alone.
func setupFamily(failsAlone ...string) *fakebin.Binaries {
	f := &fakebin.Binaries{Clock: fakebin.NewClock(), Names: []string{"BenchmarkF/setup", "BenchmarkF/b"},
		Setup:      map[string]time.Duration{"BenchmarkF/setup": 50 * time.Millisecond},
		FailsAlone: map[string]int{},
		NsPerOp:    func(fakebin.Slice) float64 { return 1000 }}
	for _, name := range failsAlone {
		f.FailsAlone[name] = 1
	}
	return f
}

// fakeFamilies returns the benchmarks of the fake package example.com/p
// named names, each a member of the family of its top level, at b.N =
// 1000 for 3 suite runs of one iteration.
func fakeFamilies(names []string) []*rmit.Benchmark {
	pkg := &rmit.Package{ImportPath: "example.com/p", Dir: "head", Binary: "head/p.test", Hooked: true}
	fams := map[string]*rmit.Family{}
	var bs []*rmit.Benchmark
	for _, name := range names {
		top, _, _ := strings.Cut(name, "/")
		if fams[top] == nil {
			fams[top] = &rmit.Family{Top: top, Pattern: "^" + top + "$"}
		}
		b := rmit.NewBenchmark(pkg, name, 1, false)
		b.N, b.Family, b.Config = 1000, fams[top], rmit.Config{SuiteRuns: 3, Iterations: 1}
		fams[top].Members = append(fams[top].Members, b)
		bs = append(bs, b)
	}
	return bs
}

// newRaw returns a raw record writer into a buffer, its header written.
func newRaw(t *testing.T) (*bytes.Buffer, *record.Writer) {
	t.Helper()
	var raw bytes.Buffer
	rw := record.NewWriter(&raw)
	require.NoError(t, rw.Write(&record.Header{Seed: 1}))
	return &raw, rw
}

// TestFamilyMemberSetupStretchesItsSlices: a member of a family whose
// every call spends far longer outside the timer than a slice gets
// slices long enough to spend TimerShare inside it, up to 30 slice times,
// as a benchmark run alone does; its sibling keeps its b.N. A family
// whose members were never stretched spent most of its time in setups
// (docs/GATE.md, "Time inside the timer").
func TestFamilyMemberSetupStretchesItsSlices(t *testing.T) {
	f := setupFamily("BenchmarkF/b")
	bs := fakeFamilies(f.Names)
	r := &rmit.Runner{Benchmarks: bs, Policy: rmit.Static{Warmup: 1, Slices: 2}, Seed: 1, SliceTime: time.Millisecond,
		Timeout: time.Minute, Starter: f, Clock: f.Clock.Now}
	sum, err := r.Run(context.Background())
	require.NoError(t, err)
	assert.Equal(t, int64(30*1000), bs[0].N, "30 slice times of 1 µs ops: the stretch's cap, short of the 117 ms that 70% would take")
	assert.Equal(t, int64(1000), bs[1].N, "no setup: its slices stay at the slice time")
	t.Logf("time inside the timer: %.1f%% of the measuring phase", 100*sum.TimerShare())
	assert.Greater(t, sum.TimerShare(), 0.12, "time inside the timer, of the measuring phase")
}

// familyPairWorld returns the fake binaries and the two versions of a
// family of two members that fail alone, one with a setup of 50 slice
// times a call, and a runner of them as a comparison writing to rw.
func familyPairWorld(rw *record.Writer, obs rmit.Observer, past *rmit.Resume) (*rmit.Runner, []*rmit.Benchmark, []*rmit.Benchmark) {
	f := setupFamily("BenchmarkF/setup", "BenchmarkF/b")
	versions := map[string][]*rmit.Benchmark{}
	for _, dir := range []string{"head", "base"} {
		version := ""
		if dir == "base" {
			version = record.VersionBaseline
		}
		pkg := &rmit.Package{ImportPath: "example.com/p", Dir: dir, Binary: dir + "/p.test", Version: version, Hooked: true}
		fam := &rmit.Family{Top: "BenchmarkF", Pattern: "^BenchmarkF$"}
		for _, name := range f.Names {
			b := rmit.NewBenchmark(pkg, name, 1, false)
			b.N, b.Family, b.Config = 1000, fam, rmit.Config{SuiteRuns: 3, Iterations: 1}
			fam.Members = append(fam.Members, b)
			versions[dir] = append(versions[dir], b)
		}
	}
	head, base := versions["head"], versions["base"]
	p := rmit.NewPaired(rmit.Static{Warmup: 1, Slices: 2}, base, head)
	r := &rmit.Runner{Benchmarks: append(slices.Clone(head), base...), Policy: p, Pairs: &p.Pairing, Seed: 1,
		SliceTime: time.Millisecond, FixedN: true, Timeout: time.Minute, Starter: f, Clock: f.Clock.Now, Raw: rw,
		Observer: obs, Resume: past, Turns: &rmit.TurnPlan{Warmup: 1, Turns: 3}, TurnTime: time.Millisecond}
	return r, head, base
}

// sliceNs returns the b.N of every measured slice of raw, by benchmark,
// version and suite run.
func sliceNs(t *testing.T, raw []byte) map[string]int64 {
	t.Helper()
	run, _, err := record.Read(bytes.NewReader(raw), "raw")
	require.NoError(t, err)
	ns := map[string]int64{}
	for _, s := range run.Slices {
		if !s.Warmup {
			ns[fmt.Sprintf("%s %s %d", s.Benchmark, s.Version, s.SuiteRun)] = s.N
		}
	}
	return ns
}

// calibrations returns the reasons of the calibrated events of raw, by
// the b.N each set.
func calibrations(t *testing.T, raw []byte) map[int64][]string {
	t.Helper()
	run, _, err := record.Read(bytes.NewReader(raw), "raw")
	require.NoError(t, err)
	out := map[int64][]string{}
	for _, ev := range run.Events {
		if ev.Event == record.EventCalibrated {
			out[int64(ev.Value)] = append(out[int64(ev.Value)], ev.Reason)
		}
	}
	return out
}

// TestFamilyPairSetupStretchesBothVersions: in a comparison, where both
// versions keep one b.N, a family pair lengthens the slices of its
// member with a costly setup after its first pair of processes, in both
// versions alike, and records why; the sibling without one keeps its b.N.
func TestFamilyPairSetupStretchesBothVersions(t *testing.T) {
	raw, rw := newRaw(t)
	r, head, base := familyPairWorld(rw, nil, nil)
	_, err := r.Run(context.Background())
	require.NoError(t, err)
	assert.Equal(t, int64(30*1000), head[0].N)
	assert.Equal(t, head[0].N, base[0].N, "both versions alike")
	assert.Equal(t, int64(1000), head[1].N)
	assert.Equal(t, int64(1000), base[1].N)
	lengthened := calibrations(t, raw.Bytes())[30000]
	assert.Len(t, lengthened, 2, "one event per version")
	for _, why := range lengthened {
		assert.Contains(t, why, "family slices lengthened")
	}
	run, _, err := record.Read(bytes.NewReader(raw.Bytes()), "raw")
	require.NoError(t, err)
	for _, s := range run.Slices {
		want := int64(1000)
		if s.Benchmark == "BenchmarkF/setup" && s.SuiteRun > 1 {
			want = 30000
		}
		if s.Warmup && s.SuiteRun > 1 {
			want /= 2 // a warmup of half a slice, after the first process
		}
		assert.Equal(t, want, s.N, "%s %s suite run %d", s.Benchmark, s.Version, s.SuiteRun)
	}
}

// TestFamilyPairStretchResumes: a comparison of that family cut after any
// of its first slices and resumed measures every later slice at the b.N
// of one left alone, whether its slices were lengthened for a member's
// setup or balanced with its links.
func TestFamilyPairStretchResumes(t *testing.T) {
	for _, link := range []time.Duration{0, 200 * time.Millisecond} {
		world := func(rw *record.Writer, obs rmit.Observer, past *rmit.Resume) *rmit.Runner {
			r, head, base := familyPairWorld(rw, obs, past)
			head[0].Package.LinkTime, base[0].Package.LinkTime = link, link
			return r
		}
		whole, rw := newRaw(t)
		_, err := world(rw, nil, nil).Run(context.Background())
		require.NoError(t, err)
		want := sliceNs(t, whole.Bytes())
		for _, cut := range []int{3, 6, 9, 12, 13} {
			raw, rw := newRaw(t)
			ctx, cancel := context.WithCancel(context.Background())
			_, err := world(rw, &cutter{n: cut, cancel: cancel}, nil).Run(ctx)
			cancel()
			require.ErrorIs(t, err, rmit.ErrInterrupted, "link %v, cut after slice %d", link, cut)
			run, _, err := record.Read(bytes.NewReader(raw.Bytes()), "raw")
			require.NoError(t, err)
			_, err = world(rw, &cutter{}, rmit.NewResume(run)).Run(context.Background())
			require.NoError(t, err, "link %v, resumed after slice %d", link, cut)
			assert.Equal(t, want, sliceNs(t, raw.Bytes()), "link %v, cut after slice %d", link, cut)
		}
	}
}

// TestFamilyPairRetunesItsSlicesLikeADuet: a member of a family pair
// whose calls cost more outside the timer than its slices of one turn
// time spend inside it, but far less than a slice time, gets the slices
// a duet's turns would be retuned to, in both versions alike: TimerShare
// of each inside the timer. The sibling without a cost keeps its b.N.
func TestFamilyPairRetunesItsSlicesLikeADuet(t *testing.T) {
	raw, rw := newRaw(t)
	r, head, base := familyPairWorld(rw, nil, nil)
	r.SliceTime = 100 * time.Millisecond
	r.Starter.(*fakebin.Binaries).Setup["BenchmarkF/setup"] = 2 * time.Millisecond
	_, err := r.Run(context.Background())
	require.NoError(t, err)
	// 2 ms outside the timer a slice: 70% inside it takes 4.67 ms of 1 µs ops.
	assert.InDelta(t, 4667, head[0].N, 5)
	assert.Equal(t, head[0].N, base[0].N, "both versions alike")
	assert.Equal(t, int64(1000), head[1].N)
	assert.Equal(t, int64(1000), base[1].N)
	retuned := calibrations(t, raw.Bytes())
	assert.Len(t, retuned, 1, "one b.N")
	assert.Len(t, retuned[head[0].N], 2, "one event per version")
	for _, why := range retuned[head[0].N] {
		assert.Contains(t, why, "family slices retuned")
	}
}

// TestFamilyPairBalancesItsProcessesWithItsLinks: a family pair whose
// processes spend far less inside the timer than their share of the
// links of a suite run lengthens all its members' slices alike, in both
// versions, until they spend as much inside the timer as outside it,
// within the slice time; without links to share it keeps its b.N.
func TestFamilyPairBalancesItsProcessesWithItsLinks(t *testing.T) {
	for _, link := range []time.Duration{0, 200 * time.Millisecond, 10 * time.Second} {
		raw, rw := newRaw(t)
		r, head, base := familyPairWorld(rw, nil, nil)
		r.SliceTime = 100 * time.Millisecond
		delete(r.Starter.(*fakebin.Binaries).Setup, "BenchmarkF/setup")
		head[0].Package.LinkTime, base[0].Package.LinkTime = link, link
		_, err := r.Run(context.Background())
		require.NoError(t, err)
		// Each version's first process: 2 members of 1 warmup and 2
		// measured slices of 1 ms; a share of half the link outside the
		// timer, which the slices are lengthened to twice of.
		want := map[time.Duration]int64{0: 1000, 200 * time.Millisecond: 33334, 10 * time.Second: 100000}[link]
		for _, b := range append(slices.Clone(head), base...) {
			assert.Equal(t, want, b.N, "link %v: %s %s", link, b.Name, b.Package.Version)
		}
		balanced := calibrations(t, raw.Bytes())[want]
		if link == 0 {
			assert.Empty(t, calibrations(t, raw.Bytes()), "no link to share: b.N kept")
			continue
		}
		assert.Len(t, balanced, 4, "link %v: one event per member and version", link)
		for _, why := range balanced {
			assert.Contains(t, why, "family processes balanced")
		}
	}
}

// TestFamilySharingASetupIsMeasuredTogether: a family whose parent builds,
// before its first sub-benchmark, what costs a process far more than a
// member's slices is measured together once a member's first process
// alone shows it, that process kept; a family whose parent costs less
// than a member's slices goes on alone.
func TestFamilySharingASetupIsMeasuredTogether(t *testing.T) {
	f := &fakebin.Binaries{Clock: fakebin.NewClock(),
		Names:       []string{"BenchmarkP/a", "BenchmarkP/b", "BenchmarkP/c", "BenchmarkQ/a", "BenchmarkQ/b"},
		ParentSetup: map[string]time.Duration{"BenchmarkP": 500 * time.Millisecond, "BenchmarkQ": 2 * time.Millisecond},
		NsPerOp:     func(fakebin.Slice) float64 { return 1000 }}
	bs := fakeFamilies(f.Names)
	raw, rw := newRaw(t)
	r := &rmit.Runner{Benchmarks: bs, Policy: rmit.Static{Warmup: 1, Slices: 2}, Seed: 1, SliceTime: time.Millisecond,
		Timeout: time.Minute, Starter: f, Clock: f.Clock.Now, Raw: rw}
	sum, err := r.Run(context.Background())
	require.NoError(t, err)
	assert.Empty(t, sum.Failed)
	require.Len(t, sum.Together, 1)
	assert.Equal(t, "BenchmarkP", sum.Together[0].Top)
	assert.Contains(t, sum.Together[0].Why, "they share a setup: a process of BenchmarkP/")
	assert.Contains(t, sum.Together[0].Why, "spent 500ms besides its own slices, which took 3ms")

	run, _, err := record.Read(raw, "raw")
	require.NoError(t, err)
	processes := map[string]map[[2]int]bool{} // by top, the suite run and order of each process
	iterations := map[string]int{}
	for _, s := range run.Slices {
		top, _, _ := strings.Cut(s.Benchmark, "/")
		if processes[top] == nil {
			processes[top] = map[[2]int]bool{}
		}
		processes[top][[2]int{s.SuiteRun, s.Order}] = true
		if s.Slice == 1 {
			iterations[s.Benchmark]++
		}
	}
	assert.Len(t, processes["BenchmarkP"], 4, "one member alone, then one process a suite run for all three")
	assert.Len(t, processes["BenchmarkQ"], 6, "each member alone in each suite run")
	assert.Equal(t, 10, sum.Processes)
	assert.Equal(t, 15, sum.Iterations)
	for _, b := range bs {
		assert.Equal(t, 3, iterations[b.Name], "%s: an iteration in every suite run, the one alone kept", b.Name)
	}
}

// TestFamilyMembersRunTheirOwnSlices: in a family's process each member
// runs the slices its policy may ask of it, not those of the member that
// needs the most: a member of 3 slices beside one of 9 prints 3 in every
// process, where it printed 9 before and 6 of them measured nothing. A
// sibling that is not to be measured in the process runs once, as its
// parent may need it, unless it comes after the last member measured:
// with this seed, BenchmarkP/many runs alone first, and the family's
// process in that suite run ends once BenchmarkP/few, before it, is done.
func TestFamilyMembersRunTheirOwnSlices(t *testing.T) {
	f, bs := sharedParent("BenchmarkP/few", "BenchmarkP/many")
	policy := rmit.Static{PerBenchmark: map[string]rmit.SliceConfig{}}
	for i, b := range bs {
		policy.PerBenchmark[b.ID] = rmit.SliceConfig{Warmup: 1, Slices: 2 + 6*i}
	}
	printed := runSharedParent(t, f, bs, policy)
	assert.Equal(t, map[string]int{"BenchmarkP/few": 3 * 3, "BenchmarkP/many": 9 * 3}, printed)
}

// A family's process is a worker: a member whose policy is done before
// the cap of slices it was given is told to skip the rest, where it ran
// them all for nothing before. Each member here may take 9 slices and
// needs 3.
func TestFamilyWorkerStopsMembersAtTheirPolicy(t *testing.T) {
	f, bs := sharedParent("BenchmarkP/a", "BenchmarkP/b")
	policy := &rmit.Capped{Policy: rmit.Static{Warmup: 1, Slices: 8}, Slices: map[string]int{}}
	for _, b := range bs {
		policy.Slices[b.ID] = 2
	}
	printed := runSharedParent(t, f, bs, policy)
	// Three suite runs of 3 slices each, where each member printed 9 a
	// process before. With this seed b runs alone first, in a process
	// that ends at its third slice, and a then in a family process that
	// ends once it is done. In the two family processes after them, a
	// is told to skip its 6 slices left, and b, the last member, ends
	// the process when done.
	assert.Equal(t, map[string]int{"BenchmarkP/a": 9, "BenchmarkP/b": 9}, printed)
	assert.Equal(t, []int{9, 1, 1, 1}, f.Frees(), "b alone with every slice free, then three family workers")
	assert.Equal(t, 2*6, f.Skipped("BenchmarkP/a"))
	assert.Zero(t, f.Skipped("BenchmarkP/b"))
}

// sharedParent returns fake binaries of the leaves names of BenchmarkP,
// whose parent spends 500 ms in every process, and their benchmarks.
func sharedParent(names ...string) (*fakebin.Binaries, []*rmit.Benchmark) {
	f := &fakebin.Binaries{Clock: fakebin.NewClock(), Names: names,
		ParentSetup: map[string]time.Duration{"BenchmarkP": 500 * time.Millisecond},
		NsPerOp:     func(fakebin.Slice) float64 { return 1000 }}
	return f, fakeFamilies(f.Names)
}

// runSharedParent runs bs on f under policy, checks that the family went
// together, and returns the slices each benchmark printed.
func runSharedParent(t *testing.T, f *fakebin.Binaries, bs []*rmit.Benchmark, policy rmit.Policy) map[string]int {
	t.Helper()
	r := &rmit.Runner{Benchmarks: bs, Policy: policy, Seed: 1, SliceTime: time.Millisecond,
		Timeout: time.Minute, Starter: f, Clock: f.Clock.Now}
	sum, err := r.Run(context.Background())
	require.NoError(t, err)
	require.Len(t, sum.Together, 1)
	printed := map[string]int{}
	for _, l := range f.Lines() {
		printed[l.Name]++
	}
	return printed
}

// A process after a benchmark's first warms up at half its b.N, and
// measures at its own; the first, which learns the warmup, warms up at
// its own too. A benchmark without warmup measures every slice at its
// own b.N.
func TestWarmupAtHalfTheSlice(t *testing.T) {
	f := &fakebin.Binaries{Clock: fakebin.NewClock(), Names: []string{"BenchmarkA", "BenchmarkB"},
		NsPerOp: func(fakebin.Slice) float64 { return 1000 }}
	bs := fakeFamilies(f.Names)
	raw, rw := newRaw(t)
	r := &rmit.Runner{Benchmarks: bs, Seed: 1, SliceTime: time.Millisecond, Timeout: time.Minute, Starter: f, Clock: f.Clock.Now, Raw: rw,
		Policy: rmit.Static{Warmup: 1, Slices: 2, PerBenchmark: map[string]rmit.SliceConfig{bs[1].ID: {Slices: 2}}}}
	sum, err := r.Run(context.Background())
	require.NoError(t, err)
	assert.Empty(t, sum.Failed)
	run, _, err := record.Read(bytes.NewReader(raw.Bytes()), "raw")
	require.NoError(t, err)
	got := map[string][]int64{}
	for _, s := range run.Slices {
		got[s.Benchmark] = append(got[s.Benchmark], s.N)
	}
	assert.Equal(t, map[string][]int64{
		"BenchmarkA": {1000, 1000, 1000, 500, 1000, 1000, 500, 1000, 1000},
		"BenchmarkB": {1000, 1000, 1000, 1000, 1000, 1000},
	}, got)
	assert.Equal(t, 3, sum.Warmup)

	// A warmup an earlier run learned is known before the first
	// process, which then learns none: it warms up at half the b.N too.
	f = &fakebin.Binaries{Clock: fakebin.NewClock(), Names: []string{"BenchmarkA"}, NsPerOp: func(fakebin.Slice) float64 { return 1000 }}
	bs = fakeFamilies(f.Names)
	raw, rw = newRaw(t)
	r = &rmit.Runner{Benchmarks: bs, Seed: 1, SliceTime: time.Millisecond, Timeout: time.Minute, Starter: f, Clock: f.Clock.Now, Raw: rw,
		Policy: knownWarmup{rmit.Static{Warmup: 1, Slices: 2}}}
	_, err = r.Run(context.Background())
	require.NoError(t, err)
	run, _, err = record.Read(bytes.NewReader(raw.Bytes()), "raw")
	require.NoError(t, err)
	var ns []int64
	for _, s := range run.Slices {
		ns = append(ns, s.N)
	}
	assert.Equal(t, []int64{500, 1000, 1000, 500, 1000, 1000, 500, 1000, 1000}, ns)
}

// knownWarmup is a static policy that knows every benchmark's warmup, as
// one an earlier run learned.
type knownWarmup struct{ rmit.Static }

func (k knownWarmup) LearnedWarmup(string) (int, bool) { return k.Warmup, true }
