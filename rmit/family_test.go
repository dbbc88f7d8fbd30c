package rmit

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// buildFamily builds the test binary of testdata/family with the turn
// hook once per test binary.
var buildFamily = sync.OnceValues(func() (*Package, error) {
	dir, err := filepath.Abs("testdata/family")
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	out, err := os.MkdirTemp(testTemp, "family-")
	if err != nil {
		return nil, err
	}
	ov, err := TurnOverlay(ctx, dir, filepath.Join(out, "overlay"), "")
	if err != nil {
		return nil, err
	}
	pkgs, _, err := List(ctx, []string{"."}, ListOptions{Dir: dir})
	if err != nil {
		return nil, err
	}
	built, _, failed := Build(ctx, pkgs, BuildOptions{Dir: dir, OutDir: out, BuildFlags: []string{"-overlay=" + ov}})
	if len(failed) > 0 {
		return nil, failed[0]
	}
	built[0].Hooked = true
	return built[0], nil
})

func familyPackage(t *testing.T) *Package {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	p, err := buildFamily()
	require.NoError(t, err)
	return p
}

// The hook runs each benchmark FixedNEnv names at its own b.N, b.Loop
// included, a second b.Run of one name (#01) and a name with a space
// too, and the others at -test.benchtime.
func TestFixedNHook(t *testing.T) {
	got := map[string]int{}
	for _, l := range hookedResults(t, []string{FixedNEnv + "=7 BenchmarkFamily/first\n11 BenchmarkFamily/first#01\n13 BenchmarkFamily/with_space\n17 BenchmarkFamily/loop\n"}) {
		got[l.name] = l.n
	}
	assert.Equal(t, map[string]int{"BenchmarkFamily/first": 7, "BenchmarkFamily/first#01": 11, "BenchmarkFamily/with_space": 13,
		"BenchmarkFamily/loop": 17, "BenchmarkAlone": 3}, got)
}

// A hookedResult is one result line of the family binary: the benchmark
// without its GOMAXPROCS suffix, and its b.N.
type hookedResult struct {
	name string
	n    int
}

// hookedResults runs the family binary, built with the hooks, over
// BenchmarkFamily and BenchmarkAlone at b.N = 3 with env added and args
// added, and returns its result lines.
func hookedResults(t *testing.T, env []string, args ...string) []hookedResult {
	t.Helper()
	pkg := familyPackage(t)
	cmd := exec.Command(pkg.Binary, append([]string{"-test.run=^$", "-test.bench=^Benchmark(Family|Alone)$", "-test.benchtime=3x"}, args...)...)
	cmd.Dir = pkg.Dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	require.NoError(t, err, "%s", out)
	var got []hookedResult
	line := regexp.MustCompile(`^(Benchmark\S+?)(-\d+)?\s+(\d+)\s`)
	for sc := bufio.NewScanner(bytes.NewReader(out)); sc.Scan(); {
		if m := line.FindStringSubmatch(sc.Text()); m != nil {
			n, _ := strconv.Atoi(m[3])
			got = append(got, hookedResult{m[1], n})
		}
	}
	return got
}

// The hook runs each benchmark RepsEnv names as many -test.count
// repetitions as it gives, b.Loop and a name with a space included, and
// the others all of them.
func TestRepsHook(t *testing.T) {
	got := map[string]int{}
	for _, l := range hookedResults(t, []string{RepsEnv + "=1 BenchmarkFamily/first\n2 BenchmarkFamily/with_space\n1 BenchmarkFamily/loop\n"}, "-test.count=3") {
		got[l.name]++
	}
	assert.Equal(t, map[string]int{"BenchmarkFamily/first": 1, "BenchmarkFamily/first#01": 3, "BenchmarkFamily/with_space": 2,
		"BenchmarkFamily/loop": 1, "BenchmarkAlone": 3}, got)
}

// A probe of a binary with the hooks tells a b.Loop loop from a b.N one,
// for the price of go test's pass (GoTestLoopTime).
func TestProbeTellsALoop(t *testing.T) {
	pkg := *familyPackage(t)
	bs, fails, err := Discover(context.Background(), &pkg, DiscoverOptions{Bench: "^Benchmark(Family|Alone)$", SliceTime: 2 * time.Millisecond, Timeout: time.Minute})
	require.NoError(t, err)
	require.Empty(t, fails)
	loops := map[string]bool{}
	for _, b := range bs {
		loops[b.Base] = b.Loop
	}
	assert.Equal(t, map[string]bool{"BenchmarkFamily/first": false, "BenchmarkFamily/with_space": false, "BenchmarkFamily/first#01": false,
		"BenchmarkFamily/loop": true, "BenchmarkAlone": false}, loops)
}

// A pattern for BenchmarkNested/outer/inner matches BenchmarkNested/outer
// in part, and go test runs it once as a parent, printing nothing: a
// lone process's turns are the inner leaf's alone, and the outer one, at
// b.N = 1 (loneFixedN), runs one op, where it would run the leaf's b.N.
func TestPartlyMatchedSiblingTakesNoTurns(t *testing.T) {
	pkg := familyPackage(t)
	inner := &Benchmark{Name: "BenchmarkNested/outer/inner", Base: "BenchmarkNested/outer/inner", N: 5, Package: pkg}
	outer := &Benchmark{Name: "BenchmarkNested/outer", Base: "BenchmarkNested/outer", N: 1000, Package: pkg}
	inner.Family = &Family{Members: []*Benchmark{outer, inner}}
	outer.Family = inner.Family
	for _, c := range []struct {
		env      string
		outerOps string
	}{
		{FixedNValue([]*Benchmark{inner}), "5.000"},
		{loneFixedN(inner), "1.000"},
	} {
		cmd := exec.Command(pkg.Binary, inner.args(3)...)
		cmd.Dir = pkg.Dir
		cmd.Env = append(os.Environ(), TurnEnv+"=3", FixedNEnv+"="+c.env)
		out, err := cmd.Output()
		require.NoError(t, err, "%s", out)
		var names []string
		ops := ""
		for _, l := range strings.Split(string(out), "\n") {
			f := strings.Fields(l)
			if len(f) < 2 || !strings.HasPrefix(f[0], "Benchmark") {
				continue
			}
			names = append(names, f[0]+" "+f[1])
			if i := slices.Index(f, "outer-ops"); i > 0 {
				ops = f[i-1]
			}
		}
		want := WithProcs(inner.Name, runtime.GOMAXPROCS(0)) + " 5"
		assert.Equal(t, []string{want, want, want}, names, "%s", c.env)
		// The metric comes after the loop, in the last turn's line.
		assert.Equal(t, c.outerOps, ops, "%s", c.env)
	}
}

// A worker runs a benchmark's first repetition at WarmNEnv's b.N and the
// others at its own, whether it loops over b.N or with b.Loop.
func TestWarmupRunsAtItsOwnN(t *testing.T) {
	pkg := familyPackage(t)
	for _, name := range []string{"BenchmarkAlone", "BenchmarkNested/outer/inner"} {
		b := &Benchmark{Name: name, Base: name, N: 8, Package: pkg}
		cmd := exec.Command(pkg.Binary, b.args(4)...)
		cmd.Dir = pkg.Dir
		cmd.Env = append(os.Environ(), TurnEnv+"=4", FixedNEnv+"="+FixedNValue([]*Benchmark{b}), WarmNEnv+"="+namedValue(warmupN(b.N), b))
		out, err := cmd.Output()
		require.NoError(t, err, "%s", out)
		var ns []string
		for _, l := range strings.Split(string(out), "\n") {
			if f := strings.Fields(l); len(f) > 1 && f[0] == WithProcs(name, runtime.GOMAXPROCS(0)) {
				ns = append(ns, f[1])
			}
		}
		assert.Equal(t, []string{"4", "8", "8", "8"}, ns, name)
	}
}

// In a family's process, every slice is free (TurnEnv at the process's
// count): a member with a b.N loop is called once per repetition after
// the run1 that b.Run makes, not twice, and a b.Loop member runs its
// repetitions in one call, as many as RepsEnv gives it.
func TestFamilyProcessCallsEachSliceOnce(t *testing.T) {
	calls := func(env []string) []string {
		cmd := exec.Command(familyPackage(t).Binary, "-test.run=^$", "-test.bench=^BenchmarkFamily$", "-test.benchtime=3x", "-test.count=3")
		cmd.Dir = familyPackage(t).Dir
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.Output()
		require.NoError(t, err, "%s", out)
		var got []string
		for _, l := range strings.Split(string(out), "\n") {
			if f := strings.Fields(l); len(f) > 2 && strings.HasPrefix(f[0], "BenchmarkFamily/with_space") {
				got = append(got, f[len(f)-2])
			}
		}
		return got
	}
	// go test calls it for run1 and for the timed run of each repetition.
	assert.Equal(t, []string{"2.000", "4.000", "6.000"}, calls(nil))
	assert.Equal(t, []string{"2.000", "3.000", "4.000"}, calls([]string{TurnEnv + "=3"}))

	got := map[string]int{}
	for _, l := range hookedResults(t, []string{TurnEnv + "=3", RepsEnv + "=2 BenchmarkFamily/loop\n1 BenchmarkFamily/first\n"}, "-test.count=3") {
		got[l.name]++
	}
	assert.Equal(t, map[string]int{"BenchmarkFamily/first": 1, "BenchmarkFamily/first#01": 3, "BenchmarkFamily/with_space": 3,
		"BenchmarkFamily/loop": 2, "BenchmarkAlone": 3}, got)
}

// A family's worker asks before each slice of a member after its first,
// and the harness's answers (memberRun.answer) match those waits: a
// member granted all its slices prints them all; one told to skip prints
// no more, a b.Loop member one repeated line that the harness ignores;
// a sibling given one slice, or none named, never waits. The process
// ends without hanging.
func TestFamilyWorkerSkipsMembersDone(t *testing.T) {
	pkg := familyPackage(t)
	args := []string{"-test.run=^$", "-test.bench=^BenchmarkFamily$", "-test.benchtime=3x", "-test.count=4"}
	env := []string{RepsEnv + "=1 BenchmarkFamily/first\n4 BenchmarkFamily/with_space\n4 BenchmarkFamily/first#01\n4 BenchmarkFamily/loop\n"}
	w, err := ExecStarter{}.StartWorkerEnv(pkg.Binary, pkg.Dir, args, env, familyFree)
	require.NoError(t, err)
	hung := time.AfterFunc(time.Minute, w.Kill)
	defer hung.Stop()
	// Done after: with_space 2 slices, first#01 all 4, loop 1.
	doneAfter := map[string]int{"BenchmarkFamily/with_space": 2, "BenchmarkFamily/first#01": 4, "BenchmarkFamily/loop": 1}
	runs := map[string]*memberRun{}
	for name := range doneAfter {
		runs[name] = &memberRun{count: 4}
	}
	printed := map[string]int{}
	line := regexp.MustCompile(`^(Benchmark\S+?)(-\d+)?\s+3\s`)
	for sc := bufio.NewScanner(w.Stdout()); sc.Scan(); {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		printed[m[1]]++
		if mr := runs[m[1]]; mr != nil {
			mr.printed++
			mr.done = mr.printed >= doneAfter[m[1]]
			mr.answer(w)
		}
	}
	require.NoError(t, w.Wait(), w.StderrTail())
	require.True(t, hung.Stop(), "the worker waited for an answer that never came")
	assert.Equal(t, map[string]int{"BenchmarkFamily/first": 1, "BenchmarkFamily/with_space": 2, "BenchmarkFamily/first#01": 4,
		"BenchmarkFamily/loop": 2}, printed)
	assert.True(t, runs["BenchmarkFamily/with_space"].skipped)
	assert.False(t, runs["BenchmarkFamily/first#01"].skipped)
}

// A family whose later leaves fail alone is measured together: no
// failure, every leaf's slices at its own b.N, and each iteration of the
// family one process that records them all.
func TestFamilyMeasuredTogether(t *testing.T) {
	// The seeds put a leaf that passes alone first in one schedule, and
	// one that fails alone first in another.
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) { testFamilyMeasuredTogether(t, seed) })
	}
}

func testFamilyMeasuredTogether(t *testing.T, seed uint64) {
	// Three links of one binary: each process draws one, as a run with
	// --layout draws among its version's links.
	pkg := *familyPackage(t)
	for _, l := range []uint64{11, 12, 13} {
		pkg.Layouts = append(pkg.Layouts, Layout{Seed: l, Binary: pkg.Binary})
	}
	bs, fails, err := Discover(context.Background(), &pkg, DiscoverOptions{Bench: "^Benchmark(Family|Alone)$", SliceTime: 2 * time.Millisecond, Timeout: time.Minute})
	require.NoError(t, err)
	require.Empty(t, fails)
	require.Equal(t, []string{"BenchmarkFamily/first", "BenchmarkFamily/with_space", "BenchmarkFamily/first#01", "BenchmarkFamily/loop", "BenchmarkAlone"}, names(bs))
	for i, b := range bs {
		b.N = int64(100 + i) // distinct, so that a slice at another's N shows
	}
	for _, b := range bs {
		b.Config = Config{SuiteRuns: 2, Iterations: 2}
	}
	var raw bytes.Buffer
	w := record.NewWriter(&raw)
	require.NoError(t, w.Write(&record.Header{Seed: seed}))
	r := &Runner{Benchmarks: bs, Policy: Static{Warmup: 1, Slices: 2}, Seed: seed, FixedN: true, Timeout: time.Minute, Raw: w}
	sum, err := r.Run(context.Background())
	require.NoError(t, err)
	run, warns, err := record.Read(&raw, "raw")
	require.NoError(t, err)
	require.Empty(t, warns)
	assert.Empty(t, sum.Failed)
	require.Len(t, sum.Together, 1)
	fam := sum.Together[0]
	assert.Equal(t, "BenchmarkFamily", fam.Top)
	assert.Contains(t, fam.Why, "failed alone")
	assert.Len(t, fam.Members, 4)
	// In suite run 2, once the family is known, one process measured
	// all four members of each iteration: their slices share its place
	// in the schedule.
	orders := map[int]map[int]bool{}
	for _, s := range run.Slices {
		if s.SuiteRun == 2 && strings.HasPrefix(s.Benchmark, "BenchmarkFamily/") {
			if orders[s.Iteration] == nil {
				orders[s.Iteration] = map[int]bool{}
			}
			orders[s.Iteration][s.Order] = true
		}
	}
	assert.Len(t, orders, 2)
	for it, o := range orders {
		assert.Len(t, o, 1, "iteration %d of suite run 2 ran in one process", it)
	}
	// Every family process drew its link, and its members' slices name
	// it; their time counts inside slices and inside the timer.
	links := map[uint64]bool{}
	for _, s := range run.Slices {
		require.NotZero(t, s.Layout, "%s slice %d names its process's link", s.Benchmark, s.Slice)
		if strings.HasPrefix(s.Benchmark, "BenchmarkFamily/") {
			links[s.Layout] = true
		}
	}
	assert.Greater(t, len(links), 1, "family processes draw different links")
	assert.Positive(t, sum.Measuring())
	assert.Positive(t, sum.InTimer)
	assert.LessOrEqual(t, sum.InTimer, sum.InSlices)
	for _, b := range bs {
		series := run.Series(record.Key{Bench: b.Bench()}, "ns/op")
		assert.Len(t, series, 4, "%s: 2 suite runs × 2 iterations", b.Name)
		slices := 0
		var first record.Process
		for _, s := range run.Slices {
			if s.Benchmark == b.Name && first == (record.Process{}) {
				first = s.Process()
			}
		}
		for _, s := range run.Slices {
			if s.Benchmark == b.Name {
				slices++
				want := b.N
				if s.Warmup && s.Process() != first {
					// The warmup of a process after its first, at half.
					want = warmupN(b.N)
					assert.Equal(t, 1, s.Slice, "%s warms up in its first slice", b.Name)
				}
				assert.Equal(t, want, s.N, "%s runs at its own b.N", b.Name)
			}
		}
		assert.Equal(t, 4*3, slices, "%s: each of its 4 processes measured once, 3 slices each", b.Name)
	}
}

// A leaf discovery leaves out (SkipLeaf: the change cannot reach it)
// stays in its family: here the one its siblings need. They fail alone,
// so the family is measured together, and its processes run the left-out
// leaf, as go test does, without recording it.
func TestFamilyKeepsSkippedLeaf(t *testing.T) {
	pkg := familyPackage(t)
	skip := func(b *Benchmark) bool { return b.Base == "BenchmarkFamily/first" }
	bs, fails, err := Discover(context.Background(), pkg, DiscoverOptions{Bench: "^BenchmarkFamily$", SliceTime: 2 * time.Millisecond, Timeout: time.Minute, SkipLeaf: skip})
	require.NoError(t, err)
	require.Empty(t, fails)
	require.Equal(t, []string{"BenchmarkFamily/with_space", "BenchmarkFamily/first#01", "BenchmarkFamily/loop"}, names(bs))
	require.Len(t, bs[0].Family.Members, 4, "the left-out leaf stays in its family")
	for _, b := range bs {
		b.Config = Config{SuiteRuns: 1, Iterations: 2}
	}
	var raw bytes.Buffer
	w := record.NewWriter(&raw)
	require.NoError(t, w.Write(&record.Header{Seed: 1}))
	r := &Runner{Benchmarks: bs, Policy: Static{Warmup: 1, Slices: 2}, Seed: 1, FixedN: true, Timeout: time.Minute, Raw: w}
	sum, err := r.Run(context.Background())
	require.NoError(t, err)
	run, _, err := record.Read(&raw, "raw")
	require.NoError(t, err)
	assert.Empty(t, sum.Failed)
	require.Len(t, sum.Together, 1)
	for _, s := range run.Slices {
		assert.NotEqual(t, "BenchmarkFamily/first", s.Benchmark, "the left-out leaf is never recorded")
	}
	for _, b := range bs {
		assert.Len(t, run.Series(record.Key{Bench: b.Bench()}, "ns/op"), 2, "%s: 2 iterations", b.Name)
	}
}

// TestSharesSetup: a family goes together when what its members' own
// processes each spend besides their slices, in each of the suite runs
// every benchmark gets, outweighs the slices its first process runs past
// what each member needs; never for less than a quarter of a second, or
// for less than a slice time.
func TestSharesSetup(t *testing.T) {
	pkg := &Package{ImportPath: "example.com/p"}
	f := &Family{Top: "BenchmarkP"}
	policy := Static{PerBenchmark: map[string]SliceConfig{}}
	for i, name := range []string{"BenchmarkP/a", "BenchmarkP/b"} {
		b := NewBenchmark(pkg, name, 1, false)
		f.Members = append(f.Members, b)
		policy.PerBenchmark[b.ID] = SliceConfig{Warmup: 10 * i, Slices: 2} // 2 and 12 slices
	}
	r := &Runner{Policy: policy, SliceTime: 100 * time.Millisecond, MinIterations: 3}
	ms := time.Millisecond
	// a took 150 ms in its 2 slices; b's 10 more would take 750 ms,
	// against 3 suite runs of what a process spent besides its slices.
	assert.True(t, r.sharesSetup(f, 260*ms, 150*ms, 2))
	assert.False(t, r.sharesSetup(f, 250*ms, 150*ms, 2), "the first process's extra slices outweigh it")
	assert.False(t, r.sharesSetup(f, 200*ms, 0, 2), "short of a quarter second")
	assert.True(t, r.sharesSetup(f, 250*ms, 6*time.Second, 12), "no slice past what the member needs")
	r.MinIterations = 1
	assert.False(t, r.sharesSetup(f, 300*ms, 150*ms, 2), "one suite run's savings against 750 ms")
	assert.False(t, (&Runner{Policy: policy}).sharesSetup(f, time.Second, 0, 2), "no slice time: fixed N")
	// A family's worker runs no slice a member's policy does not ask.
	pkg.Hooked = true
	assert.True(t, r.sharesSetup(f, 300*ms, 150*ms, 2))
	assert.False(t, r.sharesSetup(f, 200*ms, 0, 2), "short of a quarter second")
}
