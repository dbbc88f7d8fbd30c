// Package fakebin stands in for the test binaries that rmit starts and for
// the clock a run reads, so that tests of the runner and of the session
// can drive every way of running a benchmark without building or running
// anything, and without depending on how fast the machine is.
//
// A fake slice takes exactly its setup plus N × its ns/op on the fake
// clock, which moves only while a fake benchmark runs; each slice runs
// only once the reader asks for its line, so that what a run measures
// does not depend on how its goroutines are scheduled.
//
// It is a package of its own, and not a _test.go file, so that the tests
// of rmit (in package rmit_test) and of the packages above it share one
// fake rather than each keeping a copy that drifts from the others.
package fakebin

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// A Clock is a clock that moves only when a fake benchmark runs.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock set to a fixed date, so that records of two
// runs on fresh clocks hold the same times.
func NewClock() *Clock {
	return &Clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

// Now returns the clock's time; it is the Runner's Clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// A Slice is what decides the ns/op of one fake slice.
type Slice struct {
	// Dir is the directory the process runs in, which tells the
	// versions of a package apart; Binary is the binary it runs, which
	// tells the links (layouts) of one version apart.
	Dir, Binary string
	// Name is the benchmark's name without the GOMAXPROCS suffix.
	Name string
	// Index counts the slices of Name printed in Dir before this one,
	// over all processes; InProcess those of this process.
	Index, InProcess int
	// Siblings says that the process runs Name with other leaves: a
	// family's process.
	Siblings bool
	// N is the slice's b.N; 0 where the caller does not know it (Hang).
	N int64
}

// A Line is one result line a fake process printed.
type Line struct {
	Binary, Dir, Name string
	N                 int64
	NsPerOp           float64
	// Setup is the time outside the timer the fake clock moved for it.
	Setup time.Duration
}

// Binaries stands in for the test binaries of one package, example.com/p,
// in every checkout and link. It is an rmit.Starter, an rmit.TurnStarter
// and an rmit.EnvStarter, so that lone processes, duets, process pairs
// and families all run on it.
//
// Its names are leaves: "BenchmarkF/a" is a sub-benchmark of BenchmarkF,
// and a pattern that selects BenchmarkF runs every leaf under it, each
// leaf's -test.count repetitions one after the other, as go test runs a
// parent with its sub-benchmarks.
type Binaries struct {
	Clock *Clock
	// Names are the benchmarks in source order.
	Names []string
	// Suffix is appended to every printed name, as go test appends -N
	// for GOMAXPROCS N.
	Suffix string
	// NsPerOp gives the ns/op of each slice.
	NsPerOp func(Slice) float64
	// OnSlice, if set, is called after every slice printed by an
	// iteration (not a probe), with the number of such slices so far;
	// returning true blocks the process until it is killed.
	OnSlice func(n int) (hang bool)
	// Fails names the benchmarks whose iterations fail after that many
	// slices; FailsAlone those that fail so only when run alone and
	// pass with their family, as a leaf whose parent checks what its
	// siblings computed.
	Fails, FailsAlone map[string]int
	// FailsBeside names the benchmarks whose processes fail at their
	// first slice after another process running them started, while
	// both were alive: as one whose init rewrites a fixed file that the
	// other process reads.
	FailsBeside map[string]bool
	// Hang, if set, says which slices of an iteration never end: the
	// process prints nothing more until it is killed. It is called
	// under the fake's lock; once processes may run, set it with
	// SetHang.
	Hang func(Slice) bool
	// Setup is the wall time outside the timer each call of a
	// benchmark's function takes before its timed run, by name; Loops
	// names the benchmarks written with b.Loop, whose function a worker
	// taking turns calls once for all its slices (the loop hook).
	Setup map[string]time.Duration
	// SetupPerOp is the wall time outside the timer each call spends per
	// op of its b.N, by name: an input built for every op.
	SetupPerOp map[string]time.Duration
	// ParentSetup is the wall time a top-level benchmark's own code
	// takes, by name, before its first sub-benchmark: once in every
	// process that runs any of its leaves, alone or together.
	ParentSetup map[string]time.Duration
	Loops       map[string]bool
	// Parallel names the benchmarks that run b.RunParallel, which
	// discovery finds in their sources and a fake has none of: a test
	// sets Benchmark.Parallel from it.
	Parallel map[string]bool
	// Outside is what each granted turn costs outside the timer besides
	// the setup: the hand-over.
	Outside time.Duration

	mu     sync.Mutex
	counts map[string]int // slices printed, by dir and name
	slices int            // slices printed by iterations
	starts map[string]int // processes started, by binary
	setups map[string]int // calls of setup, by name
	lines  []Line
	frees  []int
	// skips counts the slices left out on a worker's Skip, by name.
	skips map[string]int
	// live holds the processes of an iteration alive, by the names
	// they run (FailsBeside).
	live map[string][]*Process
}

// Start implements rmit.Starter.
func (f *Binaries) Start(bin, dir string, args []string) (rmit.Process, error) {
	return f.start(bin, dir, args, nil, 0)
}

// StartEnv implements rmit.EnvStarter; it reads rmit.FixedNEnv.
func (f *Binaries) StartEnv(bin, dir string, args, env []string) (rmit.Process, error) {
	return f.start(bin, dir, args, env, 0)
}

// StartWorker implements rmit.TurnStarter: a worker runs the first free
// slices of each benchmark at once and each further one when granted.
func (f *Binaries) StartWorker(bin, dir string, args []string, free int) (rmit.Worker, error) {
	f.mu.Lock()
	f.frees = append(f.frees, free)
	f.mu.Unlock()
	return f.start(bin, dir, args, nil, free)
}

// StartWorkerEnv implements rmit.EnvWorkerStarter: a worker with
// rmit.FixedNEnv and rmit.RepsEnv read, whose benchmarks, a family's
// members, ask for each slice past their free ones and are told to skip
// once they have run enough.
func (f *Binaries) StartWorkerEnv(bin, dir string, args, env []string, free int) (rmit.Worker, error) {
	f.mu.Lock()
	f.frees = append(f.frees, free)
	f.mu.Unlock()
	return f.start(bin, dir, args, env, free)
}

func (f *Binaries) start(bin, dir string, args, env []string, free int) (*Process, error) {
	f.mu.Lock()
	if f.starts == nil {
		f.starts = map[string]int{}
	}
	f.starts[bin]++
	f.mu.Unlock()
	flags := map[string]string{}
	for _, a := range args {
		k, v, _ := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		flags[k] = v
	}
	p := &Process{want: make(chan struct{}), lines: make(chan string), done: make(chan struct{}), killed: make(chan struct{}),
		grants: make(chan bool), free: free}
	if _, ok := flags["test.list"]; ok {
		go func() {
			defer close(p.done)
			for _, n := range f.Names {
				if !strings.Contains(n, "/") && !p.send(func() string { return n + "\n" }) {
					return
				}
			}
		}()
		return p, nil
	}
	count, _ := strconv.Atoi(flags["test.count"])
	n, probe := int64(1000), true
	if x, ok := strings.CutSuffix(flags["test.benchtime"], "x"); ok {
		n, _ = strconv.ParseInt(x, 10, 64)
		probe = false
	}
	// A probe ramps by the clock as go test does: each of its calls pays
	// the setup, and it prints the ops of its fixed n.
	probeTime, _ := time.ParseDuration(flags["test.benchtime"])
	fixed, reps := namedValues(env, rmit.FixedNEnv), namedValues(env, rmit.RepsEnv)
	// A worker runs a benchmark's first repetition at its warmup's b.N,
	// when rmit.WarmNEnv gives one.
	var warm map[string]int64
	if p.free > 0 {
		warm = namedValues(env, rmit.WarmNEnv)
	}
	run := matching(f.Names, flags["test.bench"])
	alone := len(run) == 1
	if !probe {
		for _, name := range run {
			if f.Fails[name] > 0 || alone && f.FailsAlone[name] > 0 {
				p.err = errors.New("exit status 1")
			}
		}
	}
	if !probe {
		f.enter(p, run)
	}
	go f.print(p, bin, dir, run, alone, fixed, warm, reps, count, n, probe, probeTime)
	return p, nil
}

// enter counts p alive, running names, until it is killed or its output
// ends, and marks it and every other process alive that runs one of
// them as beside another (FailsBeside).
func (f *Binaries) enter(p *Process, names []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.live == nil {
		f.live = map[string][]*Process{}
	}
	for _, name := range names {
		for _, q := range f.live[name] {
			q.beside, p.beside = true, true
		}
		f.live[name] = append(f.live[name], p)
	}
	p.leave = func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, name := range names {
			f.live[name] = slices.DeleteFunc(f.live[name], func(q *Process) bool { return q == p })
		}
	}
}

// namedValues returns the values by benchmark name that the environment
// variable key of env holds, one "value name" line each (rmit.FixedNEnv,
// rmit.RepsEnv).
func namedValues(env []string, key string) map[string]int64 {
	m := map[string]int64{}
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, key+"="); ok {
			for _, line := range strings.Split(strings.TrimSpace(v), "\n") {
				c, name, _ := strings.Cut(line, " ")
				m[name], _ = strconv.ParseInt(c, 10, 64)
			}
		}
	}
	return m
}

// matching returns the names that pattern selects, as go test matches a
// -test.bench pattern level by level; a pattern with fewer levels than a
// name selects everything under the levels it matches.
func matching(names []string, pattern string) []string {
	var levels []*regexp.Regexp
	for _, l := range strings.Split(pattern, "/") {
		levels = append(levels, regexp.MustCompile(l))
	}
	var out []string
	for _, name := range names {
		parts := strings.Split(name, "/")
		ok := true
		for i, re := range levels {
			if i < len(parts) && !re.MatchString(parts[i]) {
				ok = false
			}
		}
		if ok {
			out = append(out, name)
		}
	}
	return out
}

// print writes the output of one process, one line at a time, moving the
// clock as each slice "runs": for each top-level benchmark, each of its
// leaves in order, count times. A slice runs only once the reader asks for
// its line, so that a process killed after the slices it was asked for
// runs no other: the slices counted and the clock stay the same however
// the goroutines are scheduled.
func (f *Binaries) print(p *Process, bin, dir string, run []string, alone bool, fixed, warm, reps map[string]int64, count int, n int64, probe bool, probeTime time.Duration) {
	defer close(p.done)
	defer p.left()
	line := func(s string) func() string { return func() string { return s } }
	if !p.send(line("goos: linux\ngoarch: amd64\npkg: example.com/p\n")) {
		return
	}
	var groups [][]string
	for _, name := range run {
		top, _, _ := strings.Cut(name, "/")
		if len(groups) == 0 || !strings.HasPrefix(groups[len(groups)-1][0]+"/", top+"/") {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], name)
	}
	inProcess := map[string]int{}
	for _, group := range groups {
		for _, name := range group {
			for i := range count {
				if r, ok := reps[name]; ok && int64(i) >= r {
					// Past the repetitions the hook gives it.
					continue
				}
				if !probe {
					// Under the lock: processes of a run, and of the
					// runs before it, ask at once.
					f.mu.Lock()
					hang := f.Hang != nil && f.Hang(Slice{Dir: dir, Binary: bin, Name: name, Index: f.counts[dir+"|"+name], InProcess: inProcess[name], Siblings: !alone})
					f.mu.Unlock()
					if hang {
						<-p.killed
						return
					}
				}
				if _, named := reps[name]; p.free > 0 && i >= p.free && (len(reps) == 0 || named) {
					var skip bool
					select {
					case skip = <-p.grants:
					case <-p.killed:
						return
					}
					if skip {
						// Its later repetitions are left out too.
						reps[name] = int64(i)
						f.mu.Lock()
						if f.skips == nil {
							f.skips = map[string]int{}
						}
						f.skips[name] += count - i
						f.mu.Unlock()
						continue
					}
					f.Clock.Advance(f.Outside)
				}
				bn := n
				if v, ok := fixed[name]; ok {
					bn = v
				}
				if v, ok := warm[name]; ok && i == 0 {
					bn = v
				}
				parent := time.Duration(0)
				if i == 0 && name == group[0] {
					top, _, _ := strings.Cut(name, "/")
					parent = f.ParentSetup[top]
				}
				slice := func() string {
					f.Clock.Advance(parent)
					f.mu.Lock()
					if f.counts == nil {
						f.counts = map[string]int{}
					}
					key := dir + "|" + name
					ns := f.NsPerOp(Slice{Dir: dir, Binary: bin, Name: name, Index: f.counts[key], InProcess: inProcess[name], Siblings: !alone, N: bn})
					f.counts[key]++
					setup := f.Setup[name]
					switch {
					case setup > 0 && probe:
						calls, _ := rmit.GoTestRamp(ns, probeTime)
						setup *= time.Duration(calls)
					case setup > 0 && (i == 0 || p.free == 0 || !f.Loops[name]):
						if f.setups == nil {
							f.setups = map[string]int{}
						}
						f.setups[name]++
					default:
						setup = 0
					}
					if !probe {
						setup += time.Duration(bn) * f.SetupPerOp[name]
						f.lines = append(f.lines, Line{Binary: bin, Dir: dir, Name: name, N: bn, NsPerOp: ns, Setup: setup})
					}
					f.mu.Unlock()
					f.Clock.Advance(setup + time.Duration(float64(bn)*ns))
					return fmt.Sprintf("%s%s \t %d\t %.1f ns/op\t 0 B/op\t 0 allocs/op\n", name, f.Suffix, bn, ns)
				}
				if !p.send(slice) {
					return
				}
				inProcess[name]++
				if fails := f.Fails[name]; !probe && (fails > 0 && inProcess[name] >= fails || alone && f.FailsAlone[name] > 0 && inProcess[name] >= f.FailsAlone[name]) {
					top, _, _ := strings.Cut(name, "/")
					p.send(line("--- FAIL: " + top + f.Suffix + "\n    x_test.go:9: boom\nFAIL\n"))
					return
				}
				if !probe && f.FailsBeside[name] && f.besideAnother(p) {
					top, _, _ := strings.Cut(name, "/")
					p.fail(errors.New("exit status 1"))
					p.send(line("--- FAIL: " + top + f.Suffix + "\n    x_test.go:12: testdata.json: unexpected end of JSON input\nFAIL\n"))
					return
				}
				if probe || f.OnSlice == nil {
					continue
				}
				f.mu.Lock()
				f.slices++
				k := f.slices
				f.mu.Unlock()
				if f.OnSlice(k) {
					<-p.killed
					return
				}
			}
		}
	}
	p.send(line("PASS\n"))
}

// SetHang sets Hang while processes, of this run or of one cut before
// it, may still be asking it.
func (f *Binaries) SetHang(hang func(Slice) bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Hang = hang
}

// Starts returns how many processes of bin were started.
func (f *Binaries) Starts(bin string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.starts[bin]
}

// Binaries returns the binaries started so far, each with its number of
// processes.
func (f *Binaries) Binaries() map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]int{}
	for b, n := range f.starts {
		out[b] = n
	}
	return out
}

// ResetStarts forgets the processes started so far, for a test that
// counts those of a later run only.
func (f *Binaries) ResetStarts() {
	f.mu.Lock()
	f.starts = nil
	f.mu.Unlock()
}

// Setups returns how many times the setup of benchmark name ran.
func (f *Binaries) Setups(name string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.setups[name]
}

// Lines returns every result line of an iteration printed so far, in the
// order the slices ran.
func (f *Binaries) Lines() []Line {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Line(nil), f.lines...)
}

// Skipped returns how many slices of benchmark name its workers left out
// when told to skip.
func (f *Binaries) Skipped(name string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.skips[name]
}

// Frees returns the free slices of every worker started, in order.
func (f *Binaries) Frees() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]int(nil), f.frees...)
}

// besideAnother reports whether p was alive while another process ran
// one of its benchmarks.
func (f *Binaries) besideAnother(p *Process) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return p.beside
}

// Process is a process of Binaries. Its output goroutine makes each line
// when Read asks for one (want), and hands it over on lines.
type Process struct {
	mu     sync.Mutex
	err    error     // what Wait returns
	free   int       // slices of each benchmark run before its first grant; 0: no grants
	grants chan bool // true: skip
	want   chan struct{}
	lines  chan string
	done   chan struct{} // closed when the output ends
	buf    string
	once   sync.Once
	killed chan struct{}
	// leave, when set, counts the process no longer alive (enter), set
	// before the process runs; beside, under its Binaries' lock, says
	// that another process ran one of its benchmarks while it was alive.
	leave     func()
	leaveOnce sync.Once
	beside    bool
}

// left counts p no longer alive, once.
func (p *Process) left() {
	if p.leave != nil {
		p.leaveOnce.Do(p.leave)
	}
}

// fail sets what Wait returns.
func (p *Process) fail(err error) {
	p.mu.Lock()
	p.err = err
	p.mu.Unlock()
}

// send waits until the reader asks for a line, then makes it and hands it
// over; it returns false, making nothing, once the process is killed.
func (p *Process) send(next func() string) bool {
	// A killed process makes nothing more, even for a reader that
	// drains its output after the kill.
	select {
	case <-p.killed:
		return false
	default:
	}
	select {
	case <-p.want:
	case <-p.killed:
		return false
	}
	p.lines <- next()
	return true
}

// Read implements io.Reader over the process's standard output.
func (p *Process) Read(b []byte) (int, error) {
	for p.buf == "" {
		select {
		case p.want <- struct{}{}:
			p.buf = <-p.lines
		case <-p.done:
			return 0, io.EOF
		}
	}
	n := copy(b, p.buf)
	p.buf = p.buf[n:]
	return n, nil
}

// Stdout implements rmit.Process.
func (p *Process) Stdout() io.Reader { return p }

// StderrTail implements rmit.Process: a fake writes nothing there.
func (p *Process) StderrTail() string { return "" }

// Kill implements rmit.Process.
func (p *Process) Kill() {
	p.once.Do(func() { close(p.killed) })
	p.left()
}

// Wait implements rmit.Process.
func (p *Process) Wait() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// Grant implements rmit.Worker.
func (p *Process) Grant() error { return p.answer(false) }

// Skip implements rmit.Worker.
func (p *Process) Skip() error { return p.answer(true) }

func (p *Process) answer(skip bool) error {
	select {
	case p.grants <- skip:
		return nil
	case <-p.done:
		return errors.New("broken pipe")
	}
}
