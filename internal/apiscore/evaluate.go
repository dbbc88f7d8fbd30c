package apiscore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"io"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/cover"

	"github.com/gobench-dyn/gobench-dyn/internal/coverage"
	"github.com/gobench-dyn/gobench-dyn/internal/inject"
	"github.com/gobench-dyn/gobench-dyn/internal/overlay"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// Options configures Evaluate.
type Options struct {
	Dir        string   // where packages are resolved; "" is the current directory
	Patterns   []string // package patterns, as for go test
	BuildFlags []string // -tags and the like, passed to every build
	// Bench selects the benchmarks, as go test -bench; "" is all.
	Bench string
	// Func keeps only candidates whose name ("F", "T.M") it matches; nil
	// keeps all.
	Func *regexp.Regexp
	// Top keeps the N candidates the benchmarks exercise most; 0 keeps all.
	Top int
	// Slowdown is v; 0 measures the suite's maxSpread first and takes
	// twice its 95th percentile.
	Slowdown float64
	// MinSlowdown floors a measured v: a suite that showed no spread at
	// all in a few runs would otherwise be asked to find nothing.
	MinSlowdown float64
	// Budget bounds the whole evaluation; 0 means none.
	Budget time.Duration
	// SliceTime is the target duration of one slice.
	SliceTime time.Duration
	// Timeout kills a benchmark process that runs longer.
	Timeout time.Duration
	// SpreadRuns is the number of suite runs of the unchanged code that
	// maxSpread is measured over.
	SpreadRuns int
	// SuiteRuns caps the suite runs of each candidate's paired run.
	SuiteRuns int
	// Stop is the stopping policy of the paired runs.
	Stop stopper.Config
	// Rule is how each pair is judged; "" is RuleGate. Its threshold is
	// v/2.
	Rule Rule
	// Turns, when set, runs each pair of the unchanged and the slowed
	// code as duets of this shape (rmit.Runner.Turns), taking turns slice
	// by slice, with turns of TurnTime; nil runs them process after
	// process.
	Turns    *rmit.TurnPlan
	TurnTime time.Duration
	Seed     uint64
	// Log receives progress notes.
	Log io.Writer
	// TempDir holds the binaries, overlays and profiles; "" makes (and
	// removes) one.
	TempDir string
	// Starter starts every test binary, the coverage runs' included, so
	// that an abort kills them all; nil means real processes
	// (rmit.ExecStarter).
	Starter rmit.Starter
}

// inputErr is bad input: a pattern, package or function the evaluation
// cannot work on. Nothing was run.
func inputErr(format string, args ...any) error { return usage.Errorf("", format, args...) }

// An evaluation holds what Evaluate learns as it goes.
type evaluation struct {
	opts   Options
	start  time.Time
	tmp    string
	cands  []*Candidate
	suite  *rmit.Suite
	covers map[int][]*rmit.Benchmark // candidate index → benchmarks that run it
	hits   map[int]int64
	// spreadRuns collects the unchanged code's measurements by
	// benchmark and run, for maxSpread.
	spreadRuns map[[2]string]map[string][]float64
	// turnHook holds the overlay files of the turn hook, which duets
	// take turns through and families of sub-benchmarks run together
	// with: every build, unchanged, slowed or for coverage, takes them.
	// It is nil when the Go release has no testing package the hook can
	// patch and pairs run process after process.
	turnHook map[string][]byte
	// told holds the families said to be measured with their siblings.
	told map[*rmit.Family]bool
}

// Evaluate computes the API benchmarking score of the benchmarks of the
// packages opts.Patterns names over their exported functions. Bad input
// is a *usage.Error. When ctx is cancelled it returns what it has, with
// the functions not yet run inconclusive, and rmit.ErrInterrupted.
func Evaluate(ctx context.Context, opts Options) (*Report, error) {
	if opts.Rule == "" {
		opts.Rule = RuleGate
	}
	if _, err := ParseRule(string(opts.Rule)); err != nil {
		return nil, usage.Wrap(err)
	}
	e := &evaluation{opts: opts, start: time.Now(), covers: map[int][]*rmit.Benchmark{}, hits: map[int]int64{},
		spreadRuns: map[[2]string]map[string][]float64{}}
	e.tmp = opts.TempDir
	if e.tmp == "" {
		tmp, err := os.MkdirTemp("", "gobench-dyn-abs-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		e.tmp = tmp
	}
	if err := e.loadCandidates(ctx); err != nil {
		return nil, err
	}
	if err := e.prepareSuite(ctx); err != nil {
		return nil, err
	}
	if err := e.coverage(ctx); err != nil {
		return nil, err
	}
	order := e.rank()
	rep := &Report{Rule: opts.Rule}
	if err := e.chooseSlowdown(ctx, rep); err != nil {
		return nil, err
	}
	runErr := e.runCandidates(ctx, order, rep)
	if opts.Slowdown != 0 {
		rep.Spreads = e.spreads()
	}
	rep.finish()
	rep.Seconds = time.Since(e.start).Seconds()
	return rep, runErr
}

// loadCandidates finds the candidates, keeps those --func selects, and
// checks that they can be slowed down.
func (e *evaluation) loadCandidates(ctx context.Context) error {
	opts := e.opts
	cands, err := Candidates(ctx, opts.Dir, patternsOr(opts.Patterns), opts.BuildFlags)
	if err != nil {
		return usage.Wrap(err)
	}
	if opts.Func != nil {
		cands = slices.DeleteFunc(cands, func(c *Candidate) bool { return !opts.Func.MatchString(c.Name) })
		if len(cands) == 0 {
			return usage.ValueErrorf("func", strconv.Quote(opts.Func.String()), "matches no exported function of %s", strings.Join(patternsOr(opts.Patterns), " "))
		}
	}
	if len(cands) == 0 {
		return inputErr("%s declare no exported function", strings.Join(patternsOr(opts.Patterns), " "))
	}
	if err := rejectModuleCache(ctx, opts.Dir, cands); err != nil {
		return err
	}
	if err := e.rejectUnrewritable(cands); err != nil {
		return err
	}
	e.cands = cands
	return nil
}

// prepareSuite builds and calibrates the unchanged code's benchmarks,
// each capped at opts.SuiteRuns processes of one iteration.
func (e *evaluation) prepareSuite(ctx context.Context) error {
	opts := e.opts
	e.logf("gobench-dyn: abs: %d candidate functions; building and calibrating the unchanged code", len(e.cands))
	flags := opts.BuildFlags
	// Duets take turns through the hook; the same hook runs a family of
	// sub-benchmarks together, each at its own b.N, when one fails alone
	// (rmit.Family). Without duets, a Go release it cannot patch leaves
	// such a family failing, as it did before.
	hook, err := rmit.TurnHookFor(ctx, opts.Dir)
	if err != nil && opts.Turns != nil {
		return err
	}
	if err == nil {
		e.turnHook = hook
		ov, err := overlay.Write(e.dir("hook"), hook, "")
		if err != nil {
			return err
		}
		flags = append(slices.Clone(flags), "-overlay="+ov)
	}
	if e.suite, err = rmit.Prepare(ctx, rmit.PrepareOptions{
		Dir: opts.Dir, Patterns: opts.Patterns, BuildFlags: flags, BinDir: e.dir("base"),
		Version: record.VersionBaseline, Log: opts.Log,
		Discover: rmit.DiscoverOptions{Bench: cmp.Or(opts.Bench, "."), SliceTime: opts.SliceTime, Timeout: opts.Timeout},
	}); err != nil {
		if ctx.Err() != nil {
			return rmit.ErrInterrupted
		}
		return usage.Wrap(err)
	}
	for _, f := range e.suite.Failures {
		e.logf("gobench-dyn: abs: FAILED %s", f)
	}
	if len(e.suite.Benchmarks) == 0 {
		return inputErr("no benchmarks in %s", strings.Join(patternsOr(opts.Patterns), " "))
	}
	for _, b := range e.suite.Benchmarks {
		b.Config = rmit.Config{SuiteRuns: opts.SuiteRuns, Iterations: 1}
	}
	for _, p := range e.suite.Packages {
		p.Hooked = e.turnHook != nil
	}
	return nil
}

// chooseSlowdown sets v and the threshold v/2 of rep: opts.Slowdown, or
// twice the 95th percentile of the maxSpreads measured now, floored at
// opts.MinSlowdown.
func (e *evaluation) chooseSlowdown(ctx context.Context, rep *Report) error {
	opts := e.opts
	rep.Slowdown, rep.SlowdownSource = opts.Slowdown, "flag"
	if opts.Slowdown == 0 {
		if err := e.measureSpread(ctx); err != nil {
			return err
		}
		rep.Spreads = e.spreads()
		var ms []float64
		for _, s := range rep.Spreads {
			ms = append(ms, s.MaxSpread)
		}
		rep.Slowdown, rep.SlowdownSource = Slowdown(ms), "measured"
		if math.IsNaN(rep.Slowdown) || rep.Slowdown < opts.MinSlowdown {
			e.logf("gobench-dyn: abs: measured slowdown %s is below the floor %s: using the floor", pct(rep.Slowdown), pct(opts.MinSlowdown))
			rep.Slowdown, rep.SlowdownSource = opts.MinSlowdown, "floor"
		}
	}
	// v/2: v is twice the 95th percentile maxSpread, so a change beyond
	// v/2 is one that 95% of the benchmarks' run-to-run drift does not
	// reach, and it is what a function taking half its benchmark's time
	// shows when slowed by v (the paper's second condition).
	rep.Threshold = rep.Slowdown / 2
	e.logf("gobench-dyn: abs: slowdown v = %s (%s)", pct(rep.Slowdown), rep.SlowdownSource)
	return nil
}

// runCandidates judges the candidates in order, appending each to rep,
// and shares what is left of the budget equally among the reachable ones
// still to run. After an interruption the rest are inconclusive; the
// interruption is returned.
func (e *evaluation) runCandidates(ctx context.Context, order []int, rep *Report) error {
	reachable := 0
	for _, i := range order {
		if len(e.covers[i]) > 0 {
			reachable++
		}
	}
	var runErr error
	for _, i := range order {
		c := e.cands[i]
		f := Function{Package: c.Package, Name: c.Name, Reachable: len(e.covers[i]) > 0, Hits: e.hits[i]}
		switch {
		case !f.Reachable:
			f.Verdict, f.Note = NotDetected, "no benchmark runs it in its timed loop"
		case runErr != nil:
			f.Verdict, f.Note = Inconclusive, "not run: interrupted"
		default:
			share := time.Duration(0)
			if e.opts.Budget > 0 {
				share = (e.opts.Budget - time.Since(e.start)) / time.Duration(reachable)
			}
			reachable--
			if e.opts.Budget > 0 && share <= 0 {
				f.Verdict, f.Note = Inconclusive, "not run: --budget spent"
				break
			}
			e.logf("gobench-dyn: abs: %s: %d benchmarks reach it; running them against the unchanged code", c.Name, len(e.covers[i]))
			runErr = e.candidate(ctx, i, rep, share, &f)
			if errors.Is(runErr, rmit.ErrInterrupted) && f.Verdict == "" {
				f.Verdict, f.Note = Inconclusive, "interrupted"
			}
		}
		e.logf("gobench-dyn: abs: %s: %s", c.Name, f.Verdict)
		rep.Functions = append(rep.Functions, f)
	}
	return runErr
}

func patternsOr(p []string) []string {
	if len(p) == 0 {
		return []string{"./..."}
	}
	return p
}

func (e *evaluation) logf(format string, args ...any) {
	if e.opts.Log != nil {
		fmt.Fprintf(e.opts.Log, format+"\n", args...)
	}
}

// dir returns a new directory under the evaluation's temporary one.
func (e *evaluation) dir(name string) string {
	d := filepath.Join(e.tmp, name)
	_ = os.MkdirAll(d, 0o700)
	return d
}

// rejectModuleCache refuses candidates whose files lie in the module
// cache: go build refuses overlays of files there, so their slowed
// versions could not be built.
func rejectModuleCache(ctx context.Context, dir string, cands []*Candidate) error {
	cmd := exec.CommandContext(ctx, "go", "env", "GOMODCACHE")
	cmd.Dir = dir
	out, err := cmd.Output()
	cache := strings.TrimSpace(string(out))
	if err != nil || cache == "" {
		return nil // the builds will say what is wrong
	}
	for _, c := range cands {
		if rel, err := filepath.Rel(cache, c.File); err == nil && !strings.HasPrefix(rel, "..") {
			return inputErr("%s is in the module cache (%s), where go build does not overlay files: run gobench-dyn abs in a clone of the module", c.Package, cache)
		}
	}
	return nil
}

// rejectUnrewritable checks that every candidate can be rewritten. With
// --func, one that cannot is bad input; otherwise it is left out with a
// note, since packages often declare assembly functions.
func (e *evaluation) rejectUnrewritable(cands []*Candidate) error {
	var bad []string
	for _, c := range cands {
		if c.HasBody {
			src, err := os.ReadFile(c.File)
			if err == nil {
				_, _, err = inject.Rewrite(c.File, src, c.Name)
			}
			if err == nil {
				continue
			}
			bad = append(bad, err.Error())
		} else {
			bad = append(bad, fmt.Sprintf("%s: %s %v", c.Package, c.Name, inject.ErrNoBody))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	if e.opts.Func != nil {
		return usage.ValueErrorf("func", strconv.Quote(e.opts.Func.String()), "selects functions that cannot be slowed down:\n  %s", strings.Join(bad, "\n  "))
	}
	for _, b := range bad {
		e.logf("gobench-dyn: abs: left out: %s", b)
	}
	return nil
}

// coverage finds which candidates each benchmark runs in its timed loop,
// and how often per op, from count coverage profiles of test binaries
// built with -coverpkg of every candidate package. go test runs a
// benchmark function once with b.N = 1 and then once with b.N = n, so
// -benchtime=2x runs its setup twice and 3 ops, and 3x its setup twice and
// 4 ops: the difference of their profiles is one op, without the setup.
// A function a benchmark runs only in its setup (or at package
// initialisation) cannot show in its time, and is not reached by it.
func (e *evaluation) coverage(ctx context.Context) error {
	var coverPkgs []string
	for _, c := range e.cands {
		if !slices.Contains(coverPkgs, c.Package) {
			coverPkgs = append(coverPkgs, c.Package)
		}
	}
	byPath := map[string]*rmit.Package{}
	var pkgs []*rmit.Package
	for _, p := range e.suite.Packages {
		cp := &rmit.Package{ImportPath: p.ImportPath, Dir: p.Dir}
		byPath[p.ImportPath] = cp
		pkgs = append(pkgs, cp)
	}
	flags := append(slices.Clone(e.opts.BuildFlags), "-cover", "-covermode=count", "-coverpkg="+strings.Join(coverPkgs, ","))
	if e.turnHook != nil {
		ov, err := overlay.Write(e.dir("cover-hook"), e.turnHook, "")
		if err != nil {
			return err
		}
		flags = append(flags, "-overlay="+ov)
	}
	_, _, failed := rmit.Build(ctx, pkgs, rmit.BuildOptions{Dir: e.opts.Dir, BuildFlags: flags, OutDir: e.dir("cover")})
	if ctx.Err() != nil {
		return rmit.ErrInterrupted
	}
	for _, f := range failed {
		e.logf("gobench-dyn: abs: coverage build failed: %v", f)
	}
	profDir := e.dir("profiles")
	for n, b := range e.suite.Benchmarks {
		p := byPath[b.Package.ImportPath]
		if p.Binary == "" {
			continue
		}
		var profs [2][]*cover.Profile
		var err error
		for k, times := range []string{"2x", "3x"} {
			args := []string{"-test.bench=" + rmit.LeafPattern(b.Base), "-test.benchtime=" + times}
			if b.Procs > 0 {
				args = append(args, "-test.cpu="+strconv.Itoa(b.Procs))
			}
			out := filepath.Join(profDir, strconv.Itoa(n)+"-"+times+".out")
			if profs[k], err = e.profile(ctx, p, out, args...); err != nil {
				break
			}
		}
		var exercised map[int]Exercise
		if err == nil {
			exercised = Exercised(e.cands, profs[1], profs[0])
		}
		if !errors.Is(err, rmit.ErrInterrupted) && (err != nil || len(exercised) == 0) {
			exercised, err = e.withSiblings(ctx, p, b, n, exercised, err)
		}
		if errors.Is(err, rmit.ErrInterrupted) {
			return err
		}
		if err != nil {
			e.logf("gobench-dyn: abs: coverage of %s: %v", b, err)
			continue
		}
		for i, x := range exercised {
			e.covers[i] = append(e.covers[i], b)
			e.hits[i] += x.Hits
		}
	}
	e.tellTogether()
	return nil
}

// profile runs p's coverage binary with args and returns the coverage
// profile it wrote to out.
func (e *evaluation) profile(ctx context.Context, p *rmit.Package, out string, args ...string) ([]*cover.Profile, error) {
	return coverage.Runner{Starter: e.opts.Starter, Timeout: e.opts.Timeout}.Profile(ctx, p, out, args...)
}

// rank orders the candidates by how much the benchmarks exercise them,
// most first, declaration order breaking ties, and keeps opts.Top.
func (e *evaluation) rank() []int {
	order := make([]int, len(e.cands))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case e.hits[a] > e.hits[b]:
			return -1
		case e.hits[a] < e.hits[b]:
			return 1
		}
		return 0
	})
	if e.opts.Top > 0 && len(order) > e.opts.Top {
		order = order[:e.opts.Top]
	}
	return order
}

// measureSpread runs the unchanged suite SpreadRuns times, with a fixed
// configuration, within a quarter of the budget.
func (e *evaluation) measureSpread(ctx context.Context) error {
	bs := e.suite.Benchmarks
	cfgs := make([]rmit.Config, len(bs))
	for i, b := range bs {
		cfgs[i], b.Config = b.Config, rmit.Config{SuiteRuns: e.opts.SpreadRuns, Iterations: 1}
	}
	defer func() {
		for i, b := range bs {
			b.Config = cfgs[i]
		}
	}()
	e.logf("gobench-dyn: abs: measuring maxSpread over %d runs of %d benchmarks", e.opts.SpreadRuns, len(bs))
	obs := newCollector()
	r := &rmit.Runner{
		Benchmarks: bs, Policy: rmit.Static{Warmup: 1, Slices: 3}, Seed: e.opts.Seed,
		SliceTime: e.opts.SliceTime, Timeout: e.opts.Timeout, Budget: e.opts.Budget / 4,
		FixedN: true, Observer: obs,
	}
	_, err := r.Run(ctx)
	e.tellTogether()
	e.addSpreadRuns("spread", obs.base)
	return err
}

// addSpreadRuns files the unchanged code's measurements of run by
// benchmark and suite run; tag keeps runs of different schedules apart.
func (e *evaluation) addSpreadRuns(tag string, run *record.Run) {
	for _, s := range run.Slices {
		v, ok := s.Values["ns/op"]
		if !ok || s.Warmup {
			continue
		}
		k := [2]string{s.Package, s.Benchmark}
		if e.spreadRuns[k] == nil {
			e.spreadRuns[k] = map[string][]float64{}
		}
		id := tag + "#" + strconv.Itoa(s.SuiteRun)
		e.spreadRuns[k][id] = append(e.spreadRuns[k][id], v)
	}
}

// spreads returns every benchmark's maxSpread, in the suite's order.
func (e *evaluation) spreads() []Spread {
	var out []Spread
	for _, b := range e.suite.Benchmarks {
		runs := e.spreadRuns[[2]string{b.Package.ImportPath, b.Name}]
		if len(runs) == 0 {
			continue
		}
		var rs [][]float64
		for _, id := range slices.Sorted(maps.Keys(runs)) {
			rs = append(rs, runs[id])
		}
		out = append(out, Spread{Package: b.Package.ImportPath, Benchmark: b.Name, MaxSpread: MaxSpread(rs), Runs: len(rs)})
	}
	return out
}

// candidate builds the slowed version of candidate i and runs the
// benchmarks that reach it against the unchanged ones, filling f.
func (e *evaluation) candidate(ctx context.Context, i int, rep *Report, budget time.Duration, f *Function) error {
	c := e.cands[i]
	files, err := inject.Files(c.File, c.Name, rep.Slowdown)
	if err != nil {
		f.Verdict, f.Note = Inconclusive, err.Error()
		return nil
	}
	dir := e.dir("c" + strconv.Itoa(i))
	maps.Copy(files, e.turnHook)
	ov, err := overlay.Write(dir, files, "")
	if err != nil {
		return err
	}
	var pkgs []*rmit.Package
	byPath := map[string]*rmit.Package{}
	for _, b := range e.covers[i] {
		if byPath[b.Package.ImportPath] == nil {
			p := &rmit.Package{ImportPath: b.Package.ImportPath, Dir: b.Package.Dir, Version: record.VersionHead, Hooked: b.Package.Hooked}
			byPath[p.ImportPath] = p
			pkgs = append(pkgs, p)
		}
	}
	flags := append(slices.Clone(e.opts.BuildFlags), "-overlay="+ov)
	_, _, failed := rmit.Build(ctx, pkgs, rmit.BuildOptions{Dir: e.opts.Dir, BuildFlags: flags, OutDir: dir})
	if ctx.Err() != nil {
		return rmit.ErrInterrupted
	}
	if len(failed) > 0 {
		f.Verdict, f.Note = Inconclusive, "the slowed version did not build: "+render.FirstLine(failed[0].Output)
		return nil
	}
	var base, head []*rmit.Benchmark
	for _, b := range e.covers[i] {
		bc, h := e.pairOf(b, byPath[b.Package.ImportPath])
		base, head = append(base, bc), append(head, h)
	}
	fams := e.pairFamilies(e.covers[i], base, head, byPath)
	po := pairRunOptions(e.opts.Rule, e.opts.Stop, rep.Threshold, e.opts.SuiteRuns)
	po.Seed, po.SliceTime, po.Timeout, po.Budget = e.opts.Seed+uint64(i)+1, e.opts.SliceTime, e.opts.Timeout, budget
	if e.opts.Turns != nil && e.opts.Rule == RuleGate {
		po.Pair.Turns, po.Pair.TurnTime = e.opts.Turns, e.opts.TurnTime
	}
	po.Starter = e.opts.Starter
	res, baseRun, failures, err := pairRun(ctx, base, head, po)
	e.learnTogether(fams)
	if baseRun != nil && rep.SlowdownSource == "flag" {
		e.addSpreadRuns(c.Name, baseRun)
	}
	if res != nil {
		f.Verdict, f.Benchmarks = Judge(res.Comparisons, failures == 0 && len(res.OnlyOld)+len(res.OnlyNew) == 0 && err == nil)
	}
	if failures > 0 {
		f.Note = fmt.Sprintf("%d benchmark iterations failed", failures)
	}
	return err
}
