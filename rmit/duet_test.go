package rmit

import (
	"context"
	"errors"
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

// fakeWorkers stands in for the test binaries of a duet: each worker
// prints its free slices at once and then one slice per grant. A slice
// takes N × its ns/op on a fake clock, which moves only while a slice
// runs, and the log keeps the order in which the workers' slices ran.
type fakeWorkers struct {
	mu    sync.Mutex
	now   time.Time
	log   []string // "dir/slice" of every slice, in the order run
	ns    func(dir string, slice int) float64
	fail  map[string]int // dir → the slice at which its worker fails
	exit  map[string]int // dir → the slice after which its worker exits
	hang  map[string]bool
	frees []int // the free slices each worker was started with
	// workers holds every worker started, in order.
	workers []*fakeWorker
	// outside is what each granted turn costs before its timed run.
	outside time.Duration
	// onSlice, if set, is called after each slice runs, with the number
	// run so far by every worker.
	onSlice func(ran int)
}

func newFakeWorkers() *fakeWorkers {
	return &fakeWorkers{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), ns: func(string, int) float64 { return 100 },
		fail: map[string]int{}, exit: map[string]int{}, hang: map[string]bool{}}
}

func (f *fakeWorkers) clock() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// Start implements Starter: a process that runs alone takes no turns.
func (f *fakeWorkers) Start(bin, dir string, args []string) (Process, error) {
	return f.StartWorker(bin, dir, args, 1<<30)
}

// StartWorker implements TurnStarter.
func (f *fakeWorkers) StartWorker(bin, dir string, args []string, free int) (Worker, error) {
	if free < 1<<30 {
		f.mu.Lock()
		f.frees = append(f.frees, free)
		f.mu.Unlock()
	}
	flags := map[string]string{}
	for _, a := range args {
		k, v, _ := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		flags[k] = v
	}
	count, _ := strconv.Atoi(flags["test.count"])
	n, _ := strconv.ParseInt(strings.TrimSuffix(flags["test.benchtime"], "x"), 10, 64)
	name := strings.Trim(flags["test.bench"], "^$")
	r, w := io.Pipe()
	p := &fakeWorker{dir: dir, out: r, grants: make(chan struct{}), killed: make(chan struct{}), done: make(chan struct{})}
	f.mu.Lock()
	f.workers = append(f.workers, p)
	f.mu.Unlock()
	go func() {
		defer close(p.done)
		defer w.Close()
		fmt.Fprintf(w, "goos: linux\ngoarch: amd64\npkg: p\n")
		for i := 1; i <= count; i++ {
			if i > free {
				select {
				case <-p.grants:
				case <-p.killed:
					return
				}
				f.mu.Lock()
				f.now = f.now.Add(f.outside)
				f.mu.Unlock()
			}
			if f.hang[dir] {
				<-p.killed
				return
			}
			f.mu.Lock()
			ns := f.ns(dir, i)
			f.now = f.now.Add(time.Duration(float64(n) * ns))
			f.log = append(f.log, fmt.Sprintf("%s/%d", dir, i))
			ran := len(f.log)
			f.mu.Unlock()
			if f.onSlice != nil {
				f.onSlice(ran)
			}
			if f.fail[dir] == i {
				fmt.Fprintf(w, "--- FAIL: %s\n    x_test.go:9: boom\nFAIL\n", name)
				<-p.killed
				return
			}
			fmt.Fprintf(w, "%s \t %d\t %.1f ns/op\n", name, n, ns)
			if f.exit[dir] == i {
				p.err = errors.New("exit status 3")
				return
			}
		}
	}()
	return p, nil
}

// fakeWorker is a worker of fakeWorkers.
type fakeWorker struct {
	dir    string
	out    io.Reader
	grants chan struct{}
	once   sync.Once
	killed chan struct{}
	done   chan struct{} // closed when the worker has exited
	err    error
}

func (p *fakeWorker) Stdout() io.Reader  { return p.out }
func (p *fakeWorker) StderrTail() string { return "" }
func (p *fakeWorker) Kill()              { p.once.Do(func() { close(p.killed) }) }
func (p *fakeWorker) Wait() error {
	select {
	case <-p.killed:
	case <-p.done:
	}
	<-p.done
	return p.err
}
func (p *fakeWorker) Skip() error { return errors.New("a duet's worker is never told to skip") }
func (p *fakeWorker) Grant() error {
	select {
	case p.grants <- struct{}{}:
		return nil
	case <-p.done:
		return errors.New("broken pipe")
	}
}

// duetPair returns the two versions of BenchmarkA, whose packages live in
// directories "head" and "base".
func duetPair(suiteRuns int) (head, base *Benchmark) {
	hp := &Package{ImportPath: "p", Dir: "head", Binary: "p.test"}
	bp := &Package{ImportPath: "p", Dir: "base", Binary: "p.test", Version: record.VersionBaseline}
	head, base = NewBenchmark(hp, "BenchmarkA", 1, false), NewBenchmark(bp, "BenchmarkA", 1, false)
	head.N, base.N = 1000, 1000
	head.Config = Config{SuiteRuns: suiteRuns, Iterations: 1}
	base.Config = head.Config
	return head, base
}

// runDuets runs head and base paired as duets of plan with policy p (nil:
// a static one) for their configured suite runs.
func runDuets(t *testing.T, f *fakeWorkers, head, base *Benchmark, plan TurnPlan, p *Paired) (*Summary, *record.Run, *collect) {
	t.Helper()
	if p == nil {
		p = NewPaired(Static{Slices: 1}, []*Benchmark{base}, []*Benchmark{head})
	}
	var raw strings.Builder
	rw := record.NewWriter(&raw)
	require.NoError(t, rw.Write(&record.Header{Seed: 1}))
	obs := &collect{}
	r := &Runner{Benchmarks: []*Benchmark{head, base}, Policy: p, Seed: 1, Pairs: &p.Pairing, Turns: &plan, FixedN: true,
		Starter: f, Clock: f.clock, Raw: rw, Observer: obs, Timeout: time.Minute}
	sum, err := r.Run(context.Background())
	require.NoError(t, err)
	run, _, err := record.Read(strings.NewReader(raw.String()), "raw")
	require.NoError(t, err)
	return sum, run, obs
}

// The two workers of a duet run their first slices at once, then take
// turns strictly, a b b a a b b a, warmup turns first; the order of the
// pairs alternates from one duet to the next; both versions' slices of a
// duet share its schedule position, carry their turn, and their measured
// slices pair one to one.
func TestDuetTakesTurns(t *testing.T) {
	f := newFakeWorkers()
	head, base := duetPair(2)
	sum, run, _ := runDuets(t, f, head, base, TurnPlan{Warmup: 1, Turns: 4}, nil)
	assert.Equal(t, []int{1, 1, 1, 1}, f.frees, "each worker runs its first slice freely")
	assert.Equal(t, 2, sum.Iterations/2, "one duet per suite run")
	assert.Equal(t, 16, sum.Slices)
	assert.Equal(t, 8, sum.Warmup)
	require.Len(t, f.log, 24)
	for k := range 2 {
		duet := f.log[12*k : 12*k+12]
		first := strings.Split(duet[2], "/")[0]
		second := "base"
		if first == "base" {
			second = "head"
		}
		var turns []string
		for _, s := range duet[2:] {
			turns = append(turns, strings.Split(s, "/")[0])
		}
		assert.Equal(t, []string{first, second, second, first, first, second, second, first, first, second}, turns, "suite run %d", k+1)
	}
	assert.NotEqual(t, strings.Split(f.log[2], "/")[0], strings.Split(f.log[14], "/")[0], "the next duet starts with the other version")

	var headTurns, baseTurns []int
	orders := map[int]map[int]bool{} // by suite run
	for _, s := range run.Slices {
		if orders[s.SuiteRun] == nil {
			orders[s.SuiteRun] = map[int]bool{}
		}
		orders[s.SuiteRun][s.Order] = true
		if s.Warmup {
			assert.Equal(t, s.Slice == 1, s.Turn == 0, "only the first slice runs before the turns")
			continue
		}
		if s.Version == record.VersionBaseline {
			baseTurns = append(baseTurns, s.Turn)
		} else {
			headTurns = append(headTurns, s.Turn)
		}
	}
	for k, o := range orders {
		assert.Len(t, o, 1, "suite run %d: both versions of a duet share its position", k)
	}
	require.Len(t, headTurns, 8)
	for j := range headTurns {
		assert.Equal(t, 1, max(headTurns[j]-baseTurns[j], baseTurns[j]-headTurns[j]), "slice pair %d", j)
	}
	series := run.Series(record.Key{Bench: head.Bench()}, "ns/op")
	require.Len(t, series, 2)
	assert.True(t, series[0].Duet)
	assert.Len(t, series[0].Values, 4)
}

// A slice's wall time runs from the grant to its result: on the fake
// clock, exactly its N × ns/op.
func TestDuetSliceTimes(t *testing.T) {
	f := newFakeWorkers()
	f.ns = func(dir string, i int) float64 {
		if dir == "base" {
			return 200
		}
		return 100
	}
	head, base := duetPair(1)
	_, run, _ := runDuets(t, f, head, base, TurnPlan{Turns: 3}, nil)
	for _, s := range run.Slices {
		if s.Turn == 0 {
			continue
		}
		want := 100 * time.Microsecond
		if s.Version == record.VersionBaseline {
			want = 200 * time.Microsecond
		}
		assert.Equal(t, int64(want), s.WallNs, "%s turn %d", s.Version, s.Turn)
	}
}

// A worker that fails fails its own benchmark alone, with the failure's
// text; its partner, left with nobody to take turns with, stops too and
// runs on alone in the next suite runs.
func TestDuetFailureIsOneSide(t *testing.T) {
	f := newFakeWorkers()
	f.fail["base"] = 3
	head, base := duetPair(3)
	sum, run, _ := runDuets(t, f, head, base, TurnPlan{Turns: 4}, nil)
	require.Len(t, sum.Failed, 1)
	assert.Equal(t, base, sum.Failed[0].Bench)
	assert.Contains(t, sum.Failed[0].Reason, "boom", "the failure's message is its reason")
	perRun := map[int]int{}
	for _, s := range run.Slices {
		if s.Version == record.VersionHead && !s.Warmup {
			perRun[s.SuiteRun]++
			if s.SuiteRun > 1 {
				assert.Zero(t, s.Turn, "alone after its partner failed")
			}
		}
	}
	assert.Equal(t, 1, perRun[2], "the head's next iterations run on their own, with the static policy's one slice")
	assert.Equal(t, 1, perRun[3])
}

// A worker whose binary exits early fails with its exit status.
func TestDuetWorkerExits(t *testing.T) {
	f := newFakeWorkers()
	f.exit["head"] = 2
	head, base := duetPair(1)
	sum, _, _ := runDuets(t, f, head, base, TurnPlan{Turns: 4}, nil)
	require.Len(t, sum.Failed, 1)
	assert.Equal(t, head, sum.Failed[0].Bench)
	assert.Equal(t, "exit status 3", sum.Failed[0].Reason)
}

// A duet that fails beside the other version's process after the budget
// ended starts no process pair: the pair is cut by the budget, not failed.
func TestDuetFailedPastTheBudget(t *testing.T) {
	f := newFakeWorkers()
	f.fail["base"] = 3 // the base's first turn
	head, base := duetPair(3)
	p := NewPaired(Static{Slices: 1}, []*Benchmark{base}, []*Benchmark{head})
	plan := TurnPlan{Warmup: 1, Turns: 4}
	// Each slice takes 100 µs on the fake clock: the budget ends in
	// the base's first turn, which fails.
	r := &Runner{Benchmarks: []*Benchmark{head, base}, Policy: p, Seed: 1, Pairs: &p.Pairing, Turns: &plan, FixedN: true,
		Starter: f, Clock: f.clock, Budget: 450 * time.Microsecond}
	sum, err := r.Run(context.Background())
	require.NoError(t, err)
	assert.Empty(t, sum.Failed)
	assert.Len(t, f.workers, 2, "no process pair after the budget")
	assert.NotEmpty(t, sum.BudgetCut)
}

// A worker that hangs is killed at the timeout, and so is its partner.
// The pair goes on by process pairs, where the hang is the benchmark's
// own: it fails for the timeout again.
func TestDuetTimeout(t *testing.T) {
	f := newFakeWorkers()
	f.hang["base"] = true
	head, base := duetPair(1)
	p := NewPaired(Static{Slices: 1}, []*Benchmark{base}, []*Benchmark{head})
	plan := TurnPlan{Turns: 2}
	r := &Runner{Benchmarks: []*Benchmark{head, base}, Policy: p, Seed: 1, Pairs: &p.Pairing, Turns: &plan,
		Starter: f, Clock: f.clock, Timeout: 50 * time.Millisecond}
	sum, err := r.Run(context.Background())
	require.NoError(t, err)
	require.NotEmpty(t, sum.Failed)
	assert.Equal(t, base, sum.Failed[0].Bench)
	assert.Equal(t, "timeout", sum.Failed[0].Reason)

	// Every worker was killed and has exited: the head worker, waiting
	// for a turn that never comes, would otherwise be left running. (Its
	// own timer, started with the base's, may kill it first.) The
	// process pair runs the base first or second, and stops at its
	// failure.
	require.GreaterOrEqual(t, len(f.workers), 3)
	for _, w := range f.workers {
		select {
		case <-w.killed:
		default:
			t.Errorf("the %s worker was not killed", w.dir)
		}
		select {
		case <-w.done:
		default:
			t.Errorf("the %s worker has not exited", w.dir)
		}
	}
}

// PlanDuet sees every completed duet's slice ratios and costs, and the
// turns it plans are the next duet's.
func TestDuetTurnsPlanned(t *testing.T) {
	f := newFakeWorkers()
	f.ns = func(dir string, i int) float64 {
		if dir == "head" {
			return 110
		}
		return 100
	}
	head, base := duetPair(3)
	p := NewPaired(Static{Slices: 1}, []*Benchmark{base}, []*Benchmark{head})
	var seen [][][]float64
	var costs [][2]time.Duration
	p.PlanDuet = func(ratios [][]float64, c1, c2 time.Duration) int {
		seen = append(seen, ratios)
		costs = append(costs, [2]time.Duration{c1, c2})
		return 2 + len(ratios)
	}
	_, run, _ := runDuets(t, f, head, base, TurnPlan{Turns: 5}, p)
	measured := map[int]int{}
	for _, s := range run.Slices {
		if s.Version == record.VersionHead && !s.Warmup {
			measured[s.SuiteRun]++
		}
	}
	assert.Equal(t, map[int]int{1: 5, 2: 3, 3: 4}, measured)
	require.NotEmpty(t, seen)
	last := seen[len(seen)-1]
	require.Len(t, last, 3)
	for _, x := range last[0] {
		assert.InDelta(t, 0.0953102, x, 1e-6, "log(110/100)")
	}
	// One turn of each worker: 1000 × (100 + 110) ns; the rest, the
	// first slices, run side by side.
	assert.Equal(t, 210*time.Microsecond, costs[len(costs)-1][0])
	assert.Positive(t, costs[len(costs)-1][1])
}

// An interrupted run of duets resumes: the duets its records hold whole
// are replayed, the one cut short is discarded on both sides and run
// again, and the result has every duet whole, as a run never interrupted.
func TestDuetResume(t *testing.T) {
	f := newFakeWorkers()
	head, base := duetPair(3)
	plan := TurnPlan{Warmup: 1, Turns: 4}
	var raw strings.Builder
	rw := record.NewWriter(&raw)
	require.NoError(t, rw.Write(&record.Header{Seed: 1}))
	ctx, cancel := context.WithCancel(context.Background())
	// A duet runs 6 slices of each worker: the free one, the warmup and
	// 4 turns. The 17th is in the second.
	f.onSlice = func(ran int) {
		if ran == 12+5 {
			cancel()
		}
	}
	p := NewPaired(Static{Slices: 1}, []*Benchmark{base}, []*Benchmark{head})
	r := &Runner{Benchmarks: []*Benchmark{head, base}, Policy: p, Seed: 1, Pairs: &p.Pairing, Turns: &plan, FixedN: true,
		Starter: f, Clock: f.clock, Raw: rw}
	_, err := r.Run(ctx)
	require.ErrorIs(t, err, ErrInterrupted)
	past, _, err := record.Read(strings.NewReader(raw.String()), "raw")
	require.NoError(t, err)

	f.onSlice = nil
	p2 := NewPaired(Static{Slices: 1}, []*Benchmark{base}, []*Benchmark{head})
	r2 := &Runner{Benchmarks: []*Benchmark{head, base}, Policy: p2, Seed: 1, Pairs: &p2.Pairing, Turns: &plan, FixedN: true,
		Starter: f, Clock: f.clock, Raw: rw, Resume: NewResume(past)}
	sum, err := r2.Run(context.Background())
	require.NoError(t, err)
	assert.Empty(t, sum.Failed)
	all, _, err := record.Read(strings.NewReader(raw.String()), "raw")
	require.NoError(t, err)
	discarded := 0
	for _, e := range all.Events {
		if e.Event == record.EventDiscarded {
			discarded++
			assert.Equal(t, 2, e.SuiteRun)
		}
	}
	assert.Equal(t, 2, discarded, "both sides of the duet cut short")
	for _, key := range []record.Key{{Bench: head.Bench()}, {Bench: base.Bench(), Version: record.VersionBaseline}} {
		series := all.Series(key, "ns/op")
		require.Len(t, series, 3, "%v", key)
		for _, it := range series {
			assert.Len(t, it.Values, 4, "%v suite run %d: whole", key, it.SuiteRun)
			assert.True(t, it.Duet)
		}
	}
}

// Turns that cost far more outside the timer than inside it are
// lengthened, for both versions alike, within 64 times the turn time b.N
// was calibrated for: the first duet starts again at the new b.N after
// checkRounds turns of each worker, and the duets after it keep it.
func TestDuetRetunesTurns(t *testing.T) {
	f := newFakeWorkers()
	f.outside = 400 * time.Microsecond // each turn's untimed cost; N × ns/op times 100µs
	head, base := duetPair(3)
	p := NewPaired(Static{Slices: 1}, []*Benchmark{base}, []*Benchmark{head})
	plan := TurnPlan{Turns: 4}
	var raw strings.Builder
	rw := record.NewWriter(&raw)
	require.NoError(t, rw.Write(&record.Header{Seed: 1}))
	r := &Runner{Benchmarks: []*Benchmark{head, base}, Policy: p, Seed: 1, Pairs: &p.Pairing, Turns: &plan, TurnTime: 100 * time.Microsecond,
		FixedN: true, Starter: f, Clock: f.clock, Raw: rw}
	_, err := r.Run(context.Background())
	require.NoError(t, err)
	run, _, err := record.Read(strings.NewReader(raw.String()), "raw")
	require.NoError(t, err)
	ns := map[int]int64{}
	for _, s := range run.Slices {
		if !s.Warmup {
			ns[s.SuiteRun] = s.N
		}
	}
	assert.Equal(t, int64(9333), ns[1], "100µs timed, 400µs outside: 70% inside the timer takes 933µs")
	assert.Equal(t, int64(9333), ns[2], "on target: kept")
	assert.Equal(t, int64(9333), ns[3], "on target: kept")
	assert.Equal(t, head.N, base.N)
	restarts := 0
	for _, ev := range run.Events {
		if ev.Event == record.EventCalibrated && strings.Contains(ev.Reason, "the first duet starts again") {
			restarts++
		}
	}
	assert.Equal(t, 2, restarts, "one event for each version")
}

// Together, both workers take each turn at once: the log shows their
// slices in pairs, and both slices of a pair carry one turn.
func TestDuetTogether(t *testing.T) {
	f := newFakeWorkers()
	head, base := duetPair(1)
	_, run, _ := runDuets(t, f, head, base, TurnPlan{Turns: 3, Together: true}, nil)
	turns := map[string][]int{}
	for _, s := range run.Slices {
		if !s.Warmup {
			turns[s.Version] = append(turns[s.Version], s.Turn)
		}
	}
	assert.Equal(t, []int{1, 2, 3}, turns[record.VersionHead])
	assert.Equal(t, []int{1, 2, 3}, turns[record.VersionBaseline])
}
