package rmit

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// fakeFamily stands in for a hooked test binary with one family: run
// alone, a leaf of failsAlone fails and any other prints its slices; run
// with its family (a pattern of the top level only, b.N per member from
// FixedNEnv), every member prints its slices in order. A slice takes N ×
// 1 µs on a fake clock, which moves only while a slice runs; a family
// process of a hanging binary prints nothing until killed.
type fakeFamily struct {
	mu         sync.Mutex
	now        time.Time
	members    []string
	failsAlone map[string]bool
	hang       bool
	families   int // family processes started
}

func (f *fakeFamily) clock() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// Start implements Starter: one leaf alone.
func (f *fakeFamily) Start(bin, dir string, args []string) (Process, error) {
	return f.StartEnv(bin, dir, args, nil)
}

// StartEnv implements EnvStarter.
func (f *fakeFamily) StartEnv(_, _ string, args, env []string) (Process, error) {
	flags := map[string]string{}
	for _, a := range args {
		k, v, _ := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		flags[k] = v
	}
	count, _ := strconv.Atoi(flags["test.count"])
	n, _ := strconv.ParseInt(strings.TrimSuffix(flags["test.benchtime"], "x"), 10, 64)
	ns := map[string]int64{}
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, FixedNEnv+"="); ok {
			for _, line := range strings.Split(strings.TrimSpace(v), "\n") {
				c, name, _ := strings.Cut(line, " ")
				ns[name], _ = strconv.ParseInt(c, 10, 64)
			}
		}
	}
	var run []string
	for _, m := range f.members {
		if flags["test.bench"] == LeafPattern(m) {
			run = []string{m}
		}
	}
	family := run == nil
	if family {
		run = f.members
		f.mu.Lock()
		f.families++
		f.mu.Unlock()
	}
	r, w := io.Pipe()
	p := &fakeWorker{out: r, killed: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		defer w.Close()
		fmt.Fprintf(w, "goos: linux\ngoarch: amd64\npkg: p\n")
		if family && f.hang {
			<-p.killed
			return
		}
		for _, name := range run {
			if !family && f.failsAlone[name] {
				fmt.Fprintf(w, "--- FAIL: %s\n    x_test.go:9: mismatch: 0, 10\nFAIL\n", name)
				p.err = fmt.Errorf("exit status 1")
				return
			}
			bn := n
			if v, ok := ns[name]; ok {
				bn = v
			}
			for range count {
				select {
				case <-p.killed:
					return
				default:
				}
				f.mu.Lock()
				f.now = f.now.Add(time.Duration(bn) * time.Microsecond)
				f.mu.Unlock()
				fmt.Fprintf(w, "%s \t %d\t 1000 ns/op\n", name, bn)
			}
		}
	}()
	return p, nil
}

// familyOfThree returns the members of BenchmarkF, whose second fails
// alone, each with slices of 1 ms on the fake clock.
func familyOfThree(f *fakeFamily) []*Benchmark {
	pkg := &Package{ImportPath: "p", Dir: "d", Binary: "p.test", Hooked: true}
	fam := &Family{Top: "BenchmarkF", Pattern: "^BenchmarkF$"}
	f.members = []string{"BenchmarkF/a", "BenchmarkF/b", "BenchmarkF/c"}
	f.failsAlone = map[string]bool{"BenchmarkF/b": true}
	var bs []*Benchmark
	for _, name := range f.members {
		b := NewBenchmark(pkg, name, 1, false)
		b.N, b.Family, b.Config = 1000, fam, Config{SuiteRuns: 3, Iterations: 1}
		fam.Members = append(fam.Members, b)
		bs = append(bs, b)
	}
	return bs
}

// A family's process costs as much as all its members' (3 × 2 slices of
// 1 ms here): it starts only if that fits in what is left of the budget,
// and stops after the slice in which the budget ends, so that the run
// never overruns its budget by more than one slice, whatever the schedule.
func TestFamilyKeepsToTheBudget(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		for _, budget := range []time.Duration{3 * time.Millisecond, 5 * time.Millisecond, 8 * time.Millisecond, 13 * time.Millisecond} {
			f := &fakeFamily{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
			bs := familyOfThree(f)
			obs := &collect{}
			r := &Runner{Benchmarks: bs, Policy: Static{Slices: 2}, Seed: seed, SliceTime: time.Millisecond, FixedN: true,
				Budget: budget, MinIterations: 1, Starter: f, Clock: f.clock, Timeout: time.Minute, Observer: obs}
			sum, err := r.Run(context.Background())
			require.NoError(t, err)
			assert.Empty(t, sum.Failed, "seed %d, budget %v: a leaf that fails alone is measured with its family", seed, budget)
			assert.LessOrEqual(t, sum.Wall(), budget+time.Millisecond, "seed %d, budget %v: at most one slice over the budget", seed, budget)
			iterations := map[string]bool{}
			for _, s := range obs.slices {
				iterations[fmt.Sprint(s.Benchmark, s.SuiteRun, s.Iteration)] = true
			}
			assert.Len(t, iterations, sum.Iterations, "seed %d, budget %v: every iteration counted has slices", seed, budget)
		}
	}
}

// Without a budget the same family is measured together in every suite
// run: the test above does not pass by measuring nothing.
func TestFamilyWithoutBudget(t *testing.T) {
	f := &fakeFamily{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	bs := familyOfThree(f)
	r := &Runner{Benchmarks: bs, Policy: Static{Slices: 2}, Seed: 1, SliceTime: time.Millisecond, FixedN: true,
		Starter: f, Clock: f.clock, Timeout: time.Minute}
	sum, err := r.Run(context.Background())
	require.NoError(t, err)
	assert.Empty(t, sum.Failed)
	require.Len(t, sum.Together, 1)
	assert.Equal(t, 3, f.families, "one family process per suite run")
	assert.Equal(t, 3*3, sum.Iterations)
}

// A family's process may run --timeout for each of its members: a
// process that hangs is killed after 3 × --timeout, and the failure says
// so.
func TestFamilyTimeoutScalesWithItsSize(t *testing.T) {
	f := &fakeFamily{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), hang: true}
	bs := familyOfThree(f)
	for _, b := range bs {
		b.Config.SuiteRuns = 1
	}
	r := &Runner{Benchmarks: bs, Policy: Static{Slices: 2}, Seed: 1, SliceTime: time.Millisecond, FixedN: true,
		Starter: f, Clock: f.clock, Timeout: 5 * time.Millisecond}
	assert.Equal(t, 15*time.Millisecond, r.familyTimeout(bs[0].Family))
	sum, err := r.Run(context.Background())
	require.NoError(t, err)
	require.NotEmpty(t, sum.Failed)
	for _, fail := range sum.Failed {
		if fail.Bench.Name == "BenchmarkF/b" || fail.Reason == "timeout" {
			assert.Equal(t, "timeout", fail.Reason, "%s", fail.Bench)
			assert.Contains(t, fail.Detail, "killed after 15ms: --timeout 5ms for each of its 3 benchmarks")
		}
	}
}

// A family's process that would not fit in what is left of the budget is
// not started: here the one member in the run fails alone at once, and
// its family, 6 ms of slices, would take twice the 3 ms left.
func TestFamilyThatDoesNotFitIsNotStarted(t *testing.T) {
	f := &fakeFamily{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	b := familyOfThree(f)[1]
	r := &Runner{Benchmarks: []*Benchmark{b}, Policy: Static{Slices: 2}, Seed: 1, SliceTime: time.Millisecond, FixedN: true,
		Budget: 3 * time.Millisecond, Starter: f, Clock: f.clock, Timeout: time.Minute}
	sum, err := r.Run(context.Background())
	require.NoError(t, err)
	assert.Zero(t, f.families)
	assert.Empty(t, sum.Failed)
	assert.Equal(t, []*Benchmark{b}, sum.BudgetCut)

	r.Budget = 7 * time.Millisecond
	sum, err = r.Run(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 1, f.families, "with room for it, it runs")
	assert.Empty(t, sum.Failed)
}

// A resumed run of two versions paired slice by slice replays the
// processes its records hold of families measured together, rather than
// running them again; the one the interruption cut short runs again.
func TestFamilyPairResumes(t *testing.T) {
	f := &fakeFamily{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	head := familyOfThree(f)[:2]
	f.members = f.members[:2]
	f.failsAlone = map[string]bool{"BenchmarkF/a": true, "BenchmarkF/b": true}
	head[0].Family.Members = head
	bf := &Family{Top: "BenchmarkF", Pattern: "^BenchmarkF$"}
	bp := &Package{ImportPath: "p", Dir: "base", Binary: "p.test", Version: record.VersionBaseline, Hooked: true}
	var base []*Benchmark
	for _, h := range head {
		b := NewBenchmark(bp, h.Name, 1, false)
		b.N, b.Family, b.Config = h.N, bf, h.Config
		bf.Members = append(bf.Members, b)
		base = append(base, b)
	}
	plan := TurnPlan{Turns: 4}
	newRunner := func(rw *record.Writer, obs Observer, past *Resume) *Runner {
		p := NewPaired(Static{Slices: 2}, base, head)
		return &Runner{Benchmarks: append(append([]*Benchmark(nil), head...), base...), Policy: p, Seed: 1, Pairs: &p.Pairing, Turns: &plan,
			FixedN: true, Starter: f, Clock: f.clock, Raw: rw, Observer: obs, Resume: past, Timeout: time.Minute}
	}
	var raw strings.Builder
	rw := record.NewWriter(&raw)
	require.NoError(t, rw.Write(&record.Header{Seed: 1}))
	ctx, cancel := context.WithCancel(context.Background())
	// Each suite run's pair is two processes of 2 members × 2 slices:
	// the 10th slice falls in the first process of suite run 2.
	_, err := newRunner(rw, &cancelAfter{n: 10, cancel: cancel}, nil).Run(ctx)
	require.ErrorIs(t, err, ErrInterrupted)
	ran := f.families
	require.Equal(t, 3, ran, "two processes in suite run 1, the third cut short")
	past, _, err := record.Read(strings.NewReader(raw.String()), "raw")
	require.NoError(t, err)

	f.families = 0
	for _, fam := range []*Family{head[0].Family, bf} {
		fam.Together, fam.Why = false, "" // a new run knows only the records
	}
	sum, err := newRunner(rw, nil, NewResume(past)).Run(context.Background())
	require.NoError(t, err)
	assert.Empty(t, sum.Failed)
	assert.Equal(t, 2*2, f.families, "suite runs 2 and 3 run again, both versions; suite run 1 is replayed")
	all, _, err := record.Read(strings.NewReader(raw.String()), "raw")
	require.NoError(t, err)
	for _, b := range append(append([]*Benchmark(nil), head...), base...) {
		series := all.Series(b.Key(), "ns/op")
		assert.Len(t, series, 3, "%s: one process per suite run", b)
	}
}
