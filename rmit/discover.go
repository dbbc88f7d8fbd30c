package rmit

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/usage"
)

// DiscoverOptions configures benchmark discovery and calibration.
type DiscoverOptions struct {
	// Bench selects benchmarks with go test -bench semantics.
	Bench string
	// CPU lists GOMAXPROCS values as go test -cpu does; empty means the
	// binary's default.
	CPU []int
	// SliceTime is the target duration of one slice; benchmarks are
	// probed for a tenth of it to calibrate b.N.
	SliceTime time.Duration
	// Timeout bounds each discovery process.
	Timeout time.Duration
	// Starter starts the test binaries; nil starts real processes.
	Starter Starter
	// Skip, when set, leaves out the top-level benchmarks of a package
	// it returns true for: those a change cannot reach.
	Skip func(pkg, top string) bool
	// SkipLeaf, when set, leaves out of the suite the leaves it returns
	// true for. They stay in their Family: when it is measured together,
	// they run as go test runs them, unrecorded.
	SkipLeaf func(b *Benchmark) bool
	// Clock tells the time at which each probe's results arrive, from
	// which a benchmark's setup is estimated (Benchmark.Setup); nil is
	// time.Now.
	Clock func() time.Time
}

// A DiscoveryFailure is a benchmark that failed while being discovered,
// or a package whose benchmarks could not be listed. With Skipped, it is a
// benchmark that printed neither a result nor a failure although --bench
// has a single level: it called b.Skip, for which go test prints nothing.
type DiscoveryFailure struct {
	Package *Package
	Name    string // the benchmark, or "" for the whole package
	Reason  string
	Detail  string
	Skipped bool
}

// Discover lists the leaf benchmarks of pkg matching opts.Bench and
// calibrates each: it sets N so that one slice lasts about opts.SliceTime.
//
// Top-level names come from -test.list, which runs nothing. Sub-benchmarks
// only show when run, so each top-level benchmark is then run once, in its
// own process, for a tenth of the slice time: that lists its leaves and
// measures their speed. A process per top-level benchmark keeps a panic in
// one from hiding the others.
func Discover(ctx context.Context, pkg *Package, opts DiscoverOptions) ([]*Benchmark, []*DiscoveryFailure, error) {
	levels := splitPattern(opts.Bench)
	first, err := regexp.Compile(levels[0])
	if err != nil {
		return nil, nil, usage.ValueErrorf("bench", strconv.Quote(opts.Bench), "%w", err)
	}
	tops, err := listBenchmarks(ctx, pkg, opts)
	if err != nil {
		return nil, []*DiscoveryFailure{{Package: pkg, Reason: "cannot list benchmarks", Detail: err.Error()}}, nil
	}
	cpus := opts.CPU
	setCPU := len(cpus) > 0
	if !setCPU {
		cpus = []int{runtime.GOMAXPROCS(0)}
	}
	probe := max(opts.SliceTime/10, time.Millisecond)
	parallel := parallelBenchmarks(pkg.Dir)
	var benches []*Benchmark
	var failures []*DiscoveryFailure
	for _, top := range tops {
		if !first.MatchString(top) || opts.Skip != nil && opts.Skip(pkg.ImportPath, top) {
			continue
		}
		pattern := strings.Join(append([]string{"^" + regexp.QuoteMeta(top) + "$"}, levels[1:]...), "/")
		for _, procs := range cpus {
			args := []string{"-test.run=^$", "-test.bench=" + pattern, "-test.benchtime=" + probe.String(), "-test.count=1", "-test.benchmem"}
			if setCPU {
				args = append(args, fmt.Sprintf("-test.cpu=%d", procs))
			}
			args = append(args, pkg.TestArgs...)
			found, fail := probeRun(ctx, pkg, top, args, probe, opts)
			family := &Family{Top: top, Pattern: pattern}
			if setCPU {
				family.Procs = procs
			}
			for _, f := range found {
				b := NewBenchmark(pkg, f.name, procs, setCPU)
				b.N, b.Probed = NForSlice(f.nsPerOp, opts.SliceTime), f.nsPerOp
				b.Setup = probeSetup(f, probe)
				b.SetupN = probeN(f, probe)
				b.Loop = f.loop
				b.Family, b.Parallel = family, parallel[top]
				family.Members = append(family.Members, b)
				if opts.SkipLeaf == nil || !opts.SkipLeaf(b) {
					benches = append(benches, b)
				}
			}
			if fail == nil && len(found) == 0 && len(levels) == 1 {
				// With a pattern of one level every benchmark it
				// selects prints a result unless it skips itself.
				fail = &DiscoveryFailure{Name: top, Reason: skipReason(ctx, pkg, args, opts), Skipped: true}
			}
			if fail != nil {
				fail.Package = pkg
				if fail.Name == "" {
					// It failed before go test printed its name: a
					// benchmark's first call runs before anything of
					// it is printed. The process ran this one alone.
					fail.Name = WithProcs(top, procs)
				}
				failures = append(failures, fail)
			}
		}
	}
	return benches, failures, nil
}

// CheckPattern reports whether s is a valid -test.bench pattern: every
// slash-separated level a regular expression. It lets a run reject a bad
// --bench before building anything.
func CheckPattern(s string) error {
	for _, level := range splitPattern(s) {
		if _, err := regexp.Compile(level); err != nil {
			return err
		}
	}
	return nil
}

// NForSlice returns the b.N that makes one slice last about slice, given
// the benchmark's ns/op.
func NForSlice(nsPerOp float64, slice time.Duration) int64 {
	if nsPerOp <= 0 || math.IsNaN(nsPerOp) {
		return 1
	}
	n := math.Round(float64(slice) / nsPerOp)
	return int64(max(1, min(n, 1e9)))
}

// DefaultBenchtime is go test's -benchtime when none is given.
const DefaultBenchtime = time.Second

// listBenchmarks returns the top-level benchmark names of pkg.
func listBenchmarks(ctx context.Context, pkg *Package, opts DiscoverOptions) ([]string, error) {
	p, err := startProcess(opts.Starter, pkg.Binary, pkg.Dir, append([]string{"-test.list=^Benchmark"}, pkg.TestArgs...))
	if err != nil {
		return nil, err
	}
	stop := p.watch(ctx, opts.Timeout)
	defer stop()
	var names []string
	sc := bufio.NewScanner(p.stdout)
	for sc.Scan() {
		if name := strings.TrimSpace(sc.Text()); strings.HasPrefix(name, "Benchmark") && !strings.ContainsAny(name, " \t") {
			names = append(names, name)
		}
	}
	if err := p.wait(); err != nil {
		return nil, fmt.Errorf("%w\n%s", err, p.stderr.String())
	}
	if why := p.killedFor(); why != "" {
		return nil, fmt.Errorf("%s while listing benchmarks", why)
	}
	return names, nil
}

type probed struct {
	name    string
	nsPerOp float64
	n       int64 // the b.N of its result
	// wall is the time from the result before it, or from the process
	// start for the first: its calls of the benchmark function, setup
	// and timed ops, and for the first also the process's start.
	wall time.Duration
	loop bool // it ran a b.Loop loop (loopUnit)
}

// probeSetup estimates the time each call of a benchmark function spends
// outside its timer from its probe f: the probe's wall time beyond the
// ops go test's ramp to probeTime timed, over the calls that ramp made
// (one, for a b.Loop loop, which ramps inside it, and whose result's b.N
// counts every op of the ramp). The first leaf of a probe also carries
// its process's start, its package's initialisation and its parent's
// setup, which this counts as its own: an estimate that errs long for
// it, and short for a setup that grows with b.N, which the probe's small
// b.N hardly shows. Erring long plans the leaf as a slow op, whose
// intervals cover about as often in simulation (TestSlowOpCoverage). A
// result at b.N = 1 is run1's alone: an op that lasts the probe, or a
// ramp that ProbeEnv ended there.
func probeSetup(f probed, probeTime time.Duration) time.Duration {
	calls, timed := GoTestRamp(f.nsPerOp, probeTime)
	if f.n == 1 || f.loop {
		calls, timed = 1, time.Duration(float64(f.n)*f.nsPerOp)
	}
	if calls == 0 || f.wall <= timed {
		return 0
	}
	return (f.wall - timed) / time.Duration(calls)
}

// probeN returns the mean b.N of the calls a probe f made, over which
// probeSetup spread what they spent outside the timer: 1 for a result at
// b.N = 1, run1's alone, and for a b.Loop loop, whose setup runs before
// the loop, at go test's b.N = 1 of run1.
func probeN(f probed, probeTime time.Duration) float64 {
	if f.n == 1 || f.loop {
		return 1
	}
	calls, timed := GoTestRamp(f.nsPerOp, probeTime)
	if calls == 0 {
		return 0
	}
	return float64(timed) / f.nsPerOp / float64(calls)
}

// goRampOvershoot is how much longer than its -test.benchtime go test's
// last run of a benchmark typically lasts: it predicts the N that fills
// the benchtime and adds 20%.
const goRampOvershoot = 1.2

// leafOf reports whether name, as go test prints a result, is top or one
// of its sub-benchmarks: what a probe of top can print. Any other name is
// a line the benchmark printed itself.
func leafOf(name, top string) bool {
	if i := strings.LastIndexByte(name, '-'); i > 0 && strings.Trim(name[i+1:], "0123456789") == "" && i+1 < len(name) {
		// The GOMAXPROCS suffix, or part of a sub-benchmark's name:
		// either way the name is top's if what precedes it is.
		if base := name[:i]; base == top || strings.HasPrefix(base, top+"/") {
			return true
		}
	}
	return name == top || strings.HasPrefix(name, top+"/")
}

// probeRun runs one discovery process of top-level benchmark top, which
// runs its benchmarks for probeTime each, and returns the leaves it
// reported, and a failure if the process failed.
func probeRun(ctx context.Context, pkg *Package, top string, args []string, probeTime time.Duration, opts DiscoverOptions) ([]probed, *DiscoveryFailure) {
	var p *process
	var err error
	if _, ok := opts.Starter.(EnvStarter); pkg.Hooked && (ok || opts.Starter == nil) {
		p, err = startProcessEnv(opts.Starter, pkg.Binary, pkg.Dir, args, []string{ProbeEnv + "=" + probeValue(opts.SliceTime)})
	} else {
		p, err = startProcess(opts.Starter, pkg.Binary, pkg.Dir, args)
	}
	if err != nil {
		return nil, &DiscoveryFailure{Reason: "cannot start test binary", Detail: err.Error()}
	}
	stop := p.watch(ctx, opts.Timeout)
	defer stop()
	now := opts.Clock
	if now == nil {
		now = time.Now
	}
	last := now()
	var found []probed
	var fail *DiscoveryFailure
	var failText failureDetail
	pending := ""
	_ = scanOutput(p.stdout, func(name string, _ int64) bool { return leafOf(name, top) }, func(it outputItem) bool {
		switch it.kind {
		case itemStart:
			pending = it.name
		case itemResult:
			pending = ""
			ns := it.values["ns/op"]
			if ns <= 0 && it.n > 0 {
				// It reports no time (b.ReportMetric(0, "ns/op")), but
				// go test ramped its N by the clock all the same, to
				// about 1.2 times the probe's benchtime.
				ns = goRampOvershoot * float64(probeTime) / float64(it.n)
			}
			// go test prints each leaf's result once; a name seen
			// again is a line the benchmark printed itself before the
			// result, which comes last.
			t := now()
			wall := t.Sub(last)
			last = t
			loop := it.values[loopUnit] > 0
			if i := slices.IndexFunc(found, func(p probed) bool { return p.name == it.name }); i >= 0 {
				found[i].nsPerOp, found[i].n, found[i].loop = ns, it.n, loop
				found[i].wall += wall
				break
			}
			found = append(found, probed{it.name, ns, it.n, wall, loop})
		case itemFailure, itemPanic:
			failText.add(it, fail == nil)
			if fail == nil {
				fail = &DiscoveryFailure{Name: it.name, Reason: it.reason}
			}
		}
		return false
	})
	waitErr := p.wait()
	if why := p.killedFor(); why != "" {
		return found, &DiscoveryFailure{Name: pending, Reason: why, Detail: p.stderr.String()}
	}
	if waitErr != nil && fail == nil {
		fail = &DiscoveryFailure{Name: pending, Reason: withCause(exitReason(waitErr), p.stderr.String())}
	}
	if fail != nil {
		if fail.Name == "" {
			fail.Name = pending
		}
		fail.Detail = failText.with(p.stderr.String())
	}
	return found, fail
}

// skipReason runs the benchmark that args select once more, verbose, for
// the reason it gave b.Skip: go test prints it only with -test.v, and only
// a benchmark that skips pays for the second run.
func skipReason(ctx context.Context, pkg *Package, args []string, opts DiscoverOptions) string {
	const unknown = "printed no result (it called b.Skip)"
	p, err := startProcess(opts.Starter, pkg.Binary, pkg.Dir, append(slices.Clone(args), "-test.v"))
	if err != nil {
		return unknown
	}
	stop := p.watch(ctx, opts.Timeout)
	defer stop()
	reason := unknown
	var msg []string
	sc := bufio.NewScanner(p.stdout)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "--- SKIP") && len(msg) > 0 && reason == unknown:
			reason = "skipped: " + strings.Join(msg, "; ")
		case strings.HasPrefix(line, "    "):
			msg = append(msg, strings.TrimSpace(line))
		default:
			msg = nil
		}
	}
	// Drain what the scanner left, so that the binary never blocks on a
	// full pipe.
	_, _ = io.Copy(io.Discard, p.stdout)
	_ = p.wait()
	return reason
}

// splitPattern splits a -test.bench pattern into its per-level parts, at
// slashes outside brackets and parentheses, as go test does.
func splitPattern(s string) []string {
	var parts []string
	cs, cp := 0, 0
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			cs++
		case ']':
			if cs > 0 {
				cs--
			}
		case '(':
			if cs == 0 {
				cp++
			}
		case ')':
			if cs == 0 && cp > 0 {
				cp--
			}
		case '\\':
			i++
		case '/':
			if cs == 0 && cp == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// TopPattern returns the first level of a -test.bench pattern, the one
// that selects top-level benchmarks.
func TopPattern(s string) string { return splitPattern(s)[0] }
