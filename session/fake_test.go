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

	mu     sync.Mutex
	counts map[string]int // slices printed, by dir and name
	slices int            // slices printed by iterations
	starts int
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
	f.mu.Lock()
	f.starts++
	f.mu.Unlock()
	flags := map[string]string{}
	for _, a := range args {
		k, v, _ := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		flags[k] = v
	}
	p := &fakeProcess{killed: make(chan struct{})}
	if _, ok := flags["test.list"]; ok {
		p.lines = make(chan string, len(f.names))
		for _, n := range f.names {
			p.lines <- n + "\n"
		}
		close(p.lines)
		return p, nil
	}
	pattern := regexp.MustCompile(strings.Split(flags["test.bench"], "/")[0])
	count, _ := strconv.Atoi(flags["test.count"])
	n, probe := int64(1000), true
	if x, ok := strings.CutSuffix(flags["test.benchtime"], "x"); ok {
		n, _ = strconv.ParseInt(x, 10, 64)
		probe = false
	}
	p.lines = make(chan string)
	for _, name := range f.names {
		if !probe && f.fails[name] && pattern.MatchString(name) {
			p.err = errors.New("exit status 1")
		}
	}
	go f.print(p, dir, pattern, count, n, probe)
	return p, nil
}

// print writes the output of one process, one line at a time, moving the
// clock as each slice "runs".
func (f *fakeBinaries) print(p *fakeProcess, dir string, pattern *regexp.Regexp, count int, n int64, probe bool) {
	defer close(p.lines)
	send := func(s string) bool {
		select {
		case p.lines <- s:
			return true
		case <-p.killed:
			return false
		}
	}
	if !send("goos: linux\ngoarch: amd64\npkg: example.com/p\n") {
		return
	}
	for _, name := range f.names {
		if !pattern.MatchString(name) {
			continue
		}
		for range count {
			f.mu.Lock()
			key := dir + "|" + name
			ns := f.nsPerOp(dir, name, f.counts[key])
			f.counts[key]++
			f.mu.Unlock()
			f.clock.advance(time.Duration(float64(n) * ns))
			if !send(fmt.Sprintf("%s%s \t %d\t %.1f ns/op\t 0 B/op\t 0 allocs/op\n", name, suffix(), n, ns)) {
				return
			}
			if !probe && f.fails[name] {
				send("--- FAIL: " + name + suffix() + "\n    x_test.go:9: boom\nFAIL\n")
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
	send("PASS\n")
}

// fakeProcess is a process of fakeBinaries.
type fakeProcess struct {
	err    error // what Wait returns
	lines  chan string
	buf    string
	once   sync.Once
	killed chan struct{}
}

func (p *fakeProcess) Read(b []byte) (int, error) {
	for p.buf == "" {
		s, ok := <-p.lines
		if !ok {
			return 0, io.EOF
		}
		p.buf = s
	}
	n := copy(b, p.buf)
	p.buf = p.buf[n:]
	return n, nil
}

func (p *fakeProcess) Stdout() io.Reader  { return p }
func (p *fakeProcess) StderrTail() string { return "" }
func (p *fakeProcess) Kill()              { p.once.Do(func() { close(p.killed) }) }
func (p *fakeProcess) Wait() error        { return p.err }

// env returns the seams of a run on the fake binaries: packages are
// "built" without the toolchain, and the baseline is checked out in a
// directory named "baseline".
func (f *fakeBinaries) env() Env {
	return Env{
		Starter: f,
		Clock:   f.clock.Now,
		Prepare: func(ctx context.Context, opts rmit.PrepareOptions) (*rmit.Suite, error) {
			pkg := &rmit.Package{ImportPath: "example.com/p", Dir: opts.Dir, Version: opts.Version, Binary: "p.test", Hash: "hash-" + opts.Dir}
			bs, fails, err := rmit.Discover(ctx, pkg, opts.Discover)
			if err != nil {
				return nil, err
			}
			s := &rmit.Suite{Packages: []*rmit.Package{pkg}, Benchmarks: bs}
			for _, f := range fails {
				s.Failures = append(s.Failures, &rmit.PrepareFailure{Package: pkg.ImportPath, Bench: f.Name, Version: opts.Version, Reason: f.Reason})
			}
			return s, nil
		},
		Checkout: func(_ context.Context, dir, rev, _ string) (*Checkout, error) {
			return &Checkout{Dir: "baseline", Rev: "0123456789abcdef", Remove: func() error { return nil }}, nil
		},
	}
}
