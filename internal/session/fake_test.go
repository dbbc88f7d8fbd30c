package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// fakeClock is a clock that moves only when a fake benchmark runs.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// fakeBinaries stands in for the test binaries of one package,
// example.com/p, in every checkout. A benchmark's slice takes exactly
// N × its ns/op on the fake clock, and prints that ns/op.
type fakeBinaries struct {
	clock *fakeClock
	// names are the top-level benchmarks, in source order.
	names []string
	// nsPerOp gives the ns/op of slice i (from 0, counted over all
	// processes of that benchmark in that directory).
	nsPerOp func(dir, name string, i int) float64
	// onSlice, if set, is called after every measured slice printed by
	// an iteration (not a probe), with the number of such slices so far;
	// returning true blocks the process until it is killed.
	onSlice func(n int) (hang bool)
	// fails names the benchmarks whose iterations fail after one slice.
	fails map[string]bool
	// setup is the wall time outside the timer each call of a
	// benchmark's function takes before its timed run, by name; loops
	// names the benchmarks written with b.Loop, whose function a worker
	// taking turns calls once for all its slices (the loop hook).
	setup map[string]time.Duration
	loops map[string]bool
	// parallel names the benchmarks that run b.RunParallel, which
	// discovery finds in their sources.
	parallel map[string]bool

	mu     sync.Mutex
	counts map[string]int // slices printed, by dir and name
	slices int            // slices printed by iterations
	starts int
	bins   map[string]int // processes started, by binary
	setups map[string]int // calls of setup, by name
}

// suffix is the GOMAXPROCS suffix go test appends to names.
func suffix() string {
	if p := runtime.GOMAXPROCS(0); p > 1 {
		return "-" + strconv.Itoa(p)
	}
	return ""
}

// Start implements rmit.Starter.
func (f *fakeBinaries) Start(bin, dir string, args []string) (rmit.Process, error) {
	return f.StartWorker(bin, dir, args, 0)
}

// StartWorker implements rmit.TurnStarter: a worker runs its first free
// slices at once and each further one when granted (free 0: all at once).
func (f *fakeBinaries) StartWorker(bin, dir string, args []string, free int) (rmit.Worker, error) {
	f.mu.Lock()
	f.starts++
	if f.bins == nil {
		f.bins = map[string]int{}
	}
	f.bins[bin]++
	f.mu.Unlock()
	flags := map[string]string{}
	for _, a := range args {
		k, v, _ := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		flags[k] = v
	}
	p := &fakeProcess{want: make(chan struct{}), lines: make(chan string), done: make(chan struct{}), killed: make(chan struct{}),
		grants: make(chan struct{}), free: free}
	if _, ok := flags["test.list"]; ok {
		go func() {
			defer close(p.done)
			for _, n := range f.names {
				if !p.send(func() string { return n + "\n" }) {
					return
				}
			}
		}()
		return p, nil
	}
	pattern := regexp.MustCompile(strings.Split(flags["test.bench"], "/")[0])
	count, _ := strconv.Atoi(flags["test.count"])
	n, probe := int64(1000), true
	if x, ok := strings.CutSuffix(flags["test.benchtime"], "x"); ok {
		n, _ = strconv.ParseInt(x, 10, 64)
		probe = false
	}
	for _, name := range f.names {
		if !probe && f.fails[name] && pattern.MatchString(name) {
			p.err = errors.New("exit status 1")
		}
	}
	go f.print(p, dir, pattern, count, n, probe)
	return p, nil
}

// print writes the output of one process, one line at a time, moving the
// clock as each slice "runs". A slice runs only once the reader asks for
// its line, so that a process killed after the slices it was asked for
// runs no other: the slices counted and the clock stay the same however
// the goroutines are scheduled.
func (f *fakeBinaries) print(p *fakeProcess, dir string, pattern *regexp.Regexp, count int, n int64, probe bool) {
	defer close(p.done)
	line := func(s string) func() string { return func() string { return s } }
	if !p.send(line("goos: linux\ngoarch: amd64\npkg: example.com/p\n")) {
		return
	}
	for _, name := range f.names {
		if !pattern.MatchString(name) {
			continue
		}
		for i := range count {
			if p.free > 0 && i >= p.free {
				select {
				case <-p.grants:
				case <-p.killed:
					return
				}
			}
			slice := func() string {
				f.mu.Lock()
				key := dir + "|" + name
				ns := f.nsPerOp(dir, name, f.counts[key])
				f.counts[key]++
				setup := f.setup[name]
				if setup > 0 && (i == 0 || p.free == 0 || !f.loops[name]) && !probe {
					if f.setups == nil {
						f.setups = map[string]int{}
					}
					f.setups[name]++
				} else {
					setup = 0
				}
				f.mu.Unlock()
				f.clock.advance(setup + time.Duration(float64(n)*ns))
				return fmt.Sprintf("%s%s \t %d\t %.1f ns/op\t 0 B/op\t 0 allocs/op\n", name, suffix(), n, ns)
			}
			if !p.send(slice) {
				return
			}
			if !probe && f.fails[name] {
				p.send(line("--- FAIL: " + name + suffix() + "\n    x_test.go:9: boom\nFAIL\n"))
				return
			}
			if probe || f.onSlice == nil {
				continue
			}
			f.mu.Lock()
			f.slices++
			k := f.slices
			f.mu.Unlock()
			if f.onSlice(k) {
				<-p.killed
				return
			}
		}
	}
	p.send(line("PASS\n"))
}

// fakeProcess is a process of fakeBinaries. Its output goroutine makes
// each line when Read asks for one (want), and hands it over on lines.
type fakeProcess struct {
	err    error // what Wait returns
	free   int   // slices run before the first grant; 0: no grants
	grants chan struct{}
	want   chan struct{}
	lines  chan string
	done   chan struct{} // closed when the output ends
	buf    string
	once   sync.Once
	killed chan struct{}
}

// send waits until the reader asks for a line, then makes it and hands it
// over; it returns false, making nothing, once the process is killed.
func (p *fakeProcess) send(next func() string) bool {
	select {
	case <-p.want:
	case <-p.killed:
		return false
	}
	p.lines <- next()
	return true
}

func (p *fakeProcess) Read(b []byte) (int, error) {
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

func (p *fakeProcess) Stdout() io.Reader  { return p }
func (p *fakeProcess) StderrTail() string { return "" }
func (p *fakeProcess) Kill()              { p.once.Do(func() { close(p.killed) }) }
func (p *fakeProcess) Wait() error        { return p.err }
func (p *fakeProcess) Grant() error {
	select {
	case p.grants <- struct{}{}:
		return nil
	case <-p.done:
		return errors.New("broken pipe")
	}
}

// env returns the seams of a run on the fake binaries: packages are
// "built" without the toolchain, and the baseline is checked out in a
// directory named "baseline".
func (f *fakeBinaries) env() Env {
	return Env{
		Starter: f,
		Clock:   f.clock.Now,
		Prepare: func(ctx context.Context, opts rmit.PrepareOptions) (*rmit.Suite, error) {
			pkg := &rmit.Package{ImportPath: "example.com/p", Dir: opts.Dir, Version: opts.Version, Binary: "p.test", Hash: "hash-" + opts.Dir}
			for _, seed := range opts.LayoutSeeds {
				pkg.Layouts = append(pkg.Layouts, rmit.Layout{Seed: seed, Binary: fmt.Sprintf("%s/p-%d.test", opts.Dir, seed)})
			}
			bs, fails, err := rmit.Discover(ctx, pkg, opts.Discover)
			if err != nil {
				return nil, err
			}
			for _, b := range bs {
				b.Parallel = f.parallel[b.Base]
			}
			s := &rmit.Suite{Packages: []*rmit.Package{pkg}, Benchmarks: bs}
			for _, f := range fails {
				s.Failures = append(s.Failures, &rmit.PrepareFailure{Package: pkg.ImportPath, Bench: f.Name, Version: opts.Version, Reason: f.Reason})
			}
			return s, nil
		},
		TurnOverlay: func(context.Context, string, string, string) (string, error) { return "", nil },
		Checkout: func(_ context.Context, dir, rev, _ string) (*Checkout, error) {
			return &Checkout{Dir: "baseline", Rev: "0123456789abcdef", Remove: func() error { return nil }}, nil
		},
	}
}
