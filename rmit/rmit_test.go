package rmit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// testTemp holds what the tests build once per test binary (buildSuite,
// buildFamily), so that TestMain removes it when they end.
var testTemp string

func TestMain(m *testing.M) {
	var err error
	if testTemp, err = os.MkdirTemp("", "rmit-test-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(testTemp)
	os.Exit(code)
}

// buildSuite builds the test binary of testdata/suite once per test binary.
var buildSuite = sync.OnceValues(func() (*Package, error) {
	dir, err := filepath.Abs("testdata/suite")
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	pkgs, _, err := List(ctx, []string{"."}, ListOptions{Dir: dir})
	if err != nil {
		return nil, err
	}
	out, err := os.MkdirTemp(testTemp, "suite-")
	if err != nil {
		return nil, err
	}
	built, _, failed := Build(ctx, pkgs, BuildOptions{Dir: dir, OutDir: out})
	if len(failed) > 0 {
		return nil, failed[0]
	}
	return built[0], nil
})

func suite(t *testing.T) *Package {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	p, err := buildSuite()
	require.NoError(t, err)
	return p
}

func discover(t *testing.T, pkg *Package, bench string) []*Benchmark {
	t.Helper()
	bs, fails, err := Discover(context.Background(), pkg, DiscoverOptions{Bench: bench, SliceTime: 2 * time.Millisecond, Timeout: time.Minute})
	require.NoError(t, err)
	require.Empty(t, fails)
	return bs
}

func names(bs []*Benchmark) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Base)
	}
	return out
}

func TestDiscoverLeaves(t *testing.T) {
	pkg := suite(t)
	bs := discover(t, pkg, ".")
	assert.Equal(t, []string{
		"BenchmarkFast",
		"BenchmarkSizes/size=16", "BenchmarkSizes/a+b(c)", "BenchmarkSizes/with_space", "BenchmarkSizes/größe",
		"BenchmarkSizes/dup", "BenchmarkSizes/dup#01",
		"BenchmarkPrints", "BenchmarkFaulty", "BenchmarkReadsFile",
	}, names(bs))
	for _, b := range bs {
		assert.Positive(t, b.N, b.Name)
	}
	assert.Equal(t, []string{"BenchmarkSizes/a+b(c)"}, names(discover(t, pkg, `Sizes/a\+b`)))
	assert.Equal(t, []string{"BenchmarkSizes/dup", "BenchmarkSizes/dup#01"}, names(discover(t, pkg, `Sizes/^dup`)))
	// As in go test, a second pattern level leaves out benchmarks
	// without sub-benchmarks.
	assert.Equal(t, []string{"BenchmarkSizes/size=16"}, names(discover(t, pkg, `Fast|Sizes/size`)))
}

func TestDiscoverCPUList(t *testing.T) {
	pkg := suite(t)
	bs, _, err := Discover(context.Background(), pkg, DiscoverOptions{Bench: "Fast", CPU: []int{1, 2}, SliceTime: time.Millisecond})
	require.NoError(t, err)
	var got []string
	for _, b := range bs {
		got = append(got, b.Name)
	}
	assert.Equal(t, []string{"BenchmarkFast", "BenchmarkFast-2"}, got)
}

// collect is an Observer that keeps what it is told.
type collect struct {
	slices []*record.Slice
	runs   []int
	done   []*record.Event // early stops and failures
	atEnd  []*record.Event // stops of the benchmarks still scheduled at the end
}

func (c *collect) SuiteRunStarted(k, _ int)                     { c.runs = append(c.runs, k) }
func (c *collect) Slice(_ *Benchmark, s *record.Slice)          { c.slices = append(c.slices, s) }
func (c *collect) IterationDone(*Benchmark, *Failure)           {}
func (c *collect) BenchmarkDone(_ *Benchmark, e *record.Event)  { c.done = append(c.done, e) }
func (c *collect) StillScheduled(_ *Benchmark, e *record.Event) { c.atEnd = append(c.atEnd, e) }

func runSuite(t *testing.T, bs []*Benchmark, seed uint64, policy Policy) (*collect, *Summary, *record.Run) {
	t.Helper()
	for _, b := range bs {
		b.Config = Config{SuiteRuns: 2, Iterations: 2}
	}
	var raw bytes.Buffer
	w := record.NewWriter(&raw)
	require.NoError(t, w.Write(&record.Header{Seed: seed}))
	obs := &collect{}
	r := &Runner{Benchmarks: bs, Policy: policy, Seed: seed, SliceTime: 2 * time.Millisecond, Timeout: time.Minute, Raw: w, Observer: obs}
	sum, err := r.Run(context.Background())
	require.NoError(t, err)
	run, warns, err := record.Read(&raw, "raw")
	require.NoError(t, err)
	require.Empty(t, warns)
	return obs, sum, run
}

func TestRunStatic(t *testing.T) {
	pkg := suite(t)
	bs := append(discover(t, pkg, "Fast|Prints|ReadsFile"), discover(t, pkg, "Sizes/dup")...)
	require.Len(t, bs, 5)
	obs, sum, run := runSuite(t, bs, 7, Static{Warmup: 1, Slices: 3})
	assert.Equal(t, []int{1, 2}, obs.runs)
	assert.Empty(t, sum.Failed)
	assert.Equal(t, 5*2*2*3, sum.Slices)
	assert.Equal(t, 5*2*2, sum.Warmup)
	assert.Len(t, run.Slices, 5*2*2*4)
	assert.True(t, run.Complete)
	for _, k := range run.Keys() {
		series := run.Series(k, "ns/op")
		require.Len(t, series, 4, k)
		for _, it := range series {
			assert.Len(t, it.Warmup, 1)
			assert.Len(t, it.Values, 3)
		}
		assert.Contains(t, run.Units(k), "B/op")
	}
	assert.Greater(t, sum.Efficiency(), 0.0)
	// Every benchmark ran to its cap: none left early, and each is
	// handed to the observer at the end with the stop event recorded.
	assert.Empty(t, obs.done)
	var handed, recorded []string
	for _, ev := range obs.atEnd {
		handed = append(handed, ev.Event+" "+ev.Benchmark)
	}
	for _, ev := range run.Events {
		if ev.Event == record.EventStop {
			recorded = append(recorded, ev.Event+" "+ev.Benchmark)
		}
	}
	assert.Len(t, handed, 5)
	assert.Equal(t, recorded, handed)
}

// order returns the sequence of benchmarks in schedule order, per suite run.
func order(run *record.Run) [][]string {
	var out [][]string
	last := -1
	for _, s := range run.Slices {
		if s.Slice != 1 {
			continue
		}
		if s.SuiteRun != last {
			out = append(out, nil)
			last = s.SuiteRun
		}
		out[len(out)-1] = append(out[len(out)-1], s.Benchmark)
	}
	return out
}

func TestRunOrderFollowsSeed(t *testing.T) {
	pkg := suite(t)
	bs := discover(t, pkg, "Fast|ReadsFile|Prints")
	_, _, a := runSuite(t, bs, 1, Static{Slices: 1})
	_, _, b := runSuite(t, bs, 1, Static{Slices: 1})
	_, _, c := runSuite(t, bs, 2, Static{Slices: 1})
	assert.Equal(t, order(a), order(b))
	assert.NotEqual(t, order(a), order(c))
}

func TestScheduleCountsAndSeeds(t *testing.T) {
	pkg := &Package{ImportPath: "p"}
	var bs []*Benchmark
	for _, n := range []string{"BenchmarkA", "BenchmarkB", "BenchmarkC", "BenchmarkD", "BenchmarkE"} {
		bs = append(bs, NewBenchmark(pkg, n, 1, false))
	}
	iters := func(*Benchmark) int { return 3 }
	seq := func(es []Entry) []string {
		var out []string
		for _, e := range es {
			out = append(out, e.Bench.Name)
		}
		return out
	}
	a := Schedule(42, 1, bs, iters)
	require.Len(t, a, 15)
	count := map[string]int{}
	for _, e := range a {
		count[e.Bench.Name]++
		assert.Equal(t, count[e.Bench.Name], e.Iteration, "iterations are numbered in order")
	}
	for _, n := range count {
		assert.Equal(t, 3, n)
	}
	rev := slices.Clone(bs)
	slices.Reverse(rev)
	assert.Equal(t, seq(a), seq(Schedule(42, 1, rev, iters)), "input order does not matter")
	assert.NotEqual(t, seq(a), seq(Schedule(43, 1, bs, iters)), "seeds differ")
	assert.NotEqual(t, seq(a), seq(Schedule(42, 2, bs, iters)), "suite runs differ")

	// Interleaved, not grouped: some benchmark's iterations are not adjacent.
	grouped := true
	for i := 1; i < len(a); i++ {
		if a[i].Bench != a[i-1].Bench && count[a[i-1].Bench.Name] > 0 {
			for j := i + 1; j < len(a); j++ {
				if a[j].Bench == a[i-1].Bench {
					grouped = false
				}
			}
		}
	}
	assert.False(t, grouped)
}

func TestPad(t *testing.T) {
	pkg := &Package{ImportPath: "p"}
	a := NewBenchmark(pkg, "BenchmarkA", 1, false)
	spare := []*Benchmark{NewBenchmark(pkg, "BenchmarkB", 1, false), NewBenchmark(pkg, "BenchmarkC", 1, false), NewBenchmark(pkg, "BenchmarkD", 1, false)}
	es := Schedule(1, 3, []*Benchmark{a}, func(*Benchmark) int { return 2 })
	padded, added := Pad(es, 3, spare, 1, 3)
	assert.Len(t, added, 2)
	assert.Len(t, padded, 4)
	n := 0
	for _, e := range padded {
		if e.Padding {
			n++
		}
	}
	assert.Equal(t, 2, n)
	same, none := Pad(es, 1, spare, 1, 3)
	assert.Empty(t, none)
	assert.Equal(t, es, same)
}

func TestBudget(t *testing.T) {
	pkg := suite(t)
	bs := discover(t, pkg, "Fast|ReadsFile|Prints")
	for _, b := range bs {
		b.Config = Config{SuiteRuns: 3, Iterations: 1}
	}
	t.Run("spent before the start", func(t *testing.T) {
		r := &Runner{Benchmarks: bs, Policy: Static{Slices: 2}, Seed: 1, SliceTime: time.Millisecond,
			Budget: time.Nanosecond, Start: time.Now().Add(-time.Second)}
		sum, err := r.Run(context.Background())
		require.NoError(t, err)
		assert.Zero(t, sum.Iterations)
		assert.Len(t, sum.BudgetCut, len(bs), "every benchmark is named as cut short")
	})
	t.Run("spent before the start, sparing the minimum", func(t *testing.T) {
		r := &Runner{Benchmarks: bs, Policy: Static{Slices: 2}, Seed: 1, SliceTime: time.Millisecond,
			Budget: time.Nanosecond, Start: time.Now().Add(-time.Second), MinIterations: 2, BudgetSparesMinimum: true}
		sum, err := r.Run(context.Background())
		require.NoError(t, err)
		assert.Equal(t, 2*len(bs), sum.Iterations, "each benchmark gets its minimum, and no more")
		assert.Len(t, sum.BudgetCut, len(bs), "every benchmark is named as cut short")
	})
	t.Run("ample", func(t *testing.T) {
		r := &Runner{Benchmarks: bs, Policy: Static{Slices: 2}, Seed: 1, SliceTime: time.Millisecond, Budget: time.Hour}
		sum, err := r.Run(context.Background())
		require.NoError(t, err)
		assert.Equal(t, 3*len(bs), sum.Iterations)
		assert.Empty(t, sum.BudgetCut)
	})
}

// baselineOf returns the benchmarks of head as the baseline version of
// the same test binary would list them.
func baselineOf(head []*Benchmark) []*Benchmark {
	var base []*Benchmark
	for _, h := range head {
		pkg := *h.Package
		pkg.Version = record.VersionBaseline
		b := *h
		b.Package = &pkg
		b.ID = b.Key().ID()
		base = append(base, &b)
	}
	return base
}

// A pair stops together: once its comparison is settled, the version that
// did not end the deciding iteration stops at once instead of running one
// more iteration, and both stop records say why, at each version's last
// iteration.
func TestRunPairedStopsTogether(t *testing.T) {
	pkg := suite(t)
	head := discover(t, pkg, "Fast")
	require.Len(t, head, 1)
	base := baselineOf(head)
	p := NewPaired(stableAfter{head[0].ID: 99, base[0].ID: 99}, base, head)
	p.Judge = func(baseMeans, headMeans [][]float64) string {
		if len(baseMeans) >= 1 && len(baseMeans[0]) >= 2 {
			return record.ReasonSettled
		}
		return ""
	}

	obs, sum, run := runSuite(t, append(head, base...), 3, p)
	assert.Equal(t, 2, sum.Stopped)
	assert.Equal(t, 2, sum.Settled)
	assert.Equal(t, 4, sum.Iterations, "two iterations per version, none after the verdict")
	assert.Len(t, obs.done, 2)
	var stops []record.Event
	for _, e := range run.Events {
		if e.Event == record.EventStop {
			stops = append(stops, e)
		}
	}
	require.Len(t, stops, 2)
	for _, e := range stops {
		assert.Equal(t, record.ReasonSettled, e.Reason)
		assert.Equal(t, [2]int{1, 2}, [2]int{e.SuiteRun, e.Iteration}, "stopped at its own last iteration")
	}
	assert.NotEqual(t, stops[0].Version, stops[1].Version)
}
