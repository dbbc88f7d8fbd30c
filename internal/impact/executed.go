package impact

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/gobench-dyn/gobench-dyn/internal/coverage"
	"github.com/gobench-dyn/gobench-dyn/internal/inject"
	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// A profiled benchmark is what one coverage run of the baseline saw: the
// functions it executed and, for a top-level benchmark, the leaves it
// printed results for.
type profiled struct {
	Executed []declKey
	Leaves   []string
	// Reads are the files and directories of the repository its
	// process opened or stat'd; Logged says the file log was complete.
	Reads  []fileAccess
	Logged bool
}

// A benchKey names a top-level or leaf benchmark of a package.
type benchKey [2]string

// coverage returns the functions each top-level benchmark of the
// baseline executes, and its leaves, from the cache or from coverage
// runs.
func (a *analysis) coverage(ctx context.Context) (map[benchKey]*profiled, error) {
	a.cacheKey = a.makeCacheKey(ctx)
	if a.cacheKey != "" {
		if got, ok := a.readCache(a.cacheKey); ok {
			a.rep.Cached = true
			return got, nil
		}
	}
	got := map[benchKey]*profiled{}
	for _, b := range a.rep.Benchmarks {
		p, err := a.profile(ctx, b.Package, b.Name, "^"+regexp.QuoteMeta(b.Name)+"$")
		if err != nil {
			return nil, err
		}
		if p != nil {
			got[benchKey{b.Package, b.Name}] = p
		}
	}
	a.saveCache(got)
	return got, nil
}

// saveCache stores got under the run's cache key; a failure costs only
// the next run's time.
func (a *analysis) saveCache(got map[benchKey]*profiled) {
	if a.cacheKey == "" {
		return
	}
	if err := a.writeCache(a.cacheKey, got); err != nil {
		fmt.Fprintf(a.opts.Log, "gobench-dyn: impact: the coverage cache: %v\n", err)
	}
}

// A coverageBuild is the baseline's test binaries built with coverage of
// every local package, and the function bodies their profiles map to.
type coverageBuild struct {
	byPath map[string]*rmit.Package
	fns    []coverage.Func
	keys   []declKey
}

// build builds the coverage binaries once, the first time a profile is
// needed: with the coverage cached, they are never built.
func (a *analysis) build(ctx context.Context) (*coverageBuild, error) {
	if a.covered != nil {
		return a.covered, nil
	}
	cb := &coverageBuild{byPath: map[string]*rmit.Package{}}
	var coverPkgs []string
	seen := map[coverage.Func]bool{}
	for _, p := range a.base.local {
		if p.ForTest == "" && p.Name != "main" && !slices.Contains(coverPkgs, p.PkgPath) {
			coverPkgs = append(coverPkgs, p.PkgPath)
		}
		for i, f := range p.Syntax {
			name := p.CompiledGoFiles[i]
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				s, e := p.Fset.Position(fd.Body.Lbrace), p.Fset.Position(fd.Body.Rbrace)
				fn := coverage.Func{Package: p.PkgPath, File: name, Body: coverage.Span{StartLine: s.Line, StartCol: s.Column, EndLine: e.Line, EndCol: e.Column + 1}}
				if !seen[fn] {
					seen[fn] = true
					cb.fns = append(cb.fns, fn)
					cb.keys = append(cb.keys, declKey{p.PkgPath, inject.FuncName(fd)})
				}
			}
		}
	}
	sort.Strings(coverPkgs)
	pkgs, _, err := rmit.List(ctx, a.opts.Patterns, rmit.ListOptions{Dir: a.opts.BaseDir, BuildFlags: a.opts.BuildFlags})
	if err != nil {
		return nil, err
	}
	for _, d := range []string{a.binDir(), a.profDir()} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	flags := append(slices.Clone(a.opts.BuildFlags), "-cover", "-covermode=set", "-coverpkg="+strings.Join(coverPkgs, ","))
	fmt.Fprintf(a.opts.Log, "gobench-dyn: impact: building the baseline with coverage to see what each benchmark executes\n")
	built, _, failed := rmit.Build(ctx, pkgs, rmit.BuildOptions{Dir: a.opts.BaseDir, BuildFlags: flags, OutDir: a.binDir()})
	if ctx.Err() != nil {
		return nil, rmit.ErrInterrupted
	}
	for _, f := range failed {
		fmt.Fprintf(a.opts.Log, "gobench-dyn: impact: coverage build of %s failed: its benchmarks count as affected\n", f.Package.ImportPath)
	}
	for _, p := range built {
		p.TestArgs = a.opts.TestArgs
		cb.byPath[p.ImportPath] = p
	}
	a.covered = cb
	return cb, nil
}

func (a *analysis) binDir() string  { return filepath.Join(a.opts.TempDir, "impact-bin") }
func (a *analysis) profDir() string { return filepath.Join(a.opts.TempDir, "impact-profiles") }

// profile runs the benchmarks of pkg that pattern selects for one op
// with coverage, and returns what they executed and the leaves that
// printed results under name. A benchmark whose run fails gets nil, and
// counts as affected.
func (a *analysis) profile(ctx context.Context, pkg, name, pattern string) (*profiled, error) {
	cb, err := a.build(ctx)
	if err != nil {
		return nil, err
	}
	p := cb.byPath[pkg]
	if p == nil {
		return nil, nil
	}
	a.profiles++
	prof := filepath.Join(a.profDir(), strconv.Itoa(a.profiles)+".out")
	log := strings.TrimSuffix(prof, ".out") + ".log"
	args := append([]string{"-test.bench=" + pattern, "-test.benchtime=1x", "-test.testlogfile=" + log}, a.opts.TestArgs...)
	profile, out, err := a.opts.Coverage.ProfileOutput(ctx, p, prof, args...)
	if errors.Is(err, rmit.ErrInterrupted) {
		return nil, err
	}
	if err != nil {
		fmt.Fprintf(a.opts.Log, "gobench-dyn: impact: coverage of %s.%s failed: it counts as affected\n", pkg, name)
		return nil, nil
	}
	got := &profiled{Executed: []declKey{}, Leaves: leavesOf(out, name)}
	got.Reads, got.Logged = a.base.readLog(log, p.Dir)
	for i := range coverage.Exercised(cb.fns, profile, nil) {
		got.Executed = append(got.Executed, cb.keys[i])
	}
	slices.SortFunc(got.Executed, func(x, y declKey) int { return cmp.Compare(x.String(), y.String()) })
	got.Executed = slices.Compact(got.Executed)
	return got, nil
}

// leavesOf returns the leaves of benchmark top that printed a result in
// out, in order, named as go test prints them without the GOMAXPROCS
// suffix, which the run did not set: it is the default, as discovery's.
func leavesOf(out []byte, top string) []string {
	var leaves []string
	r := benchfmt.NewReader(bytes.NewReader(out), top)
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		name := rmit.SplitProcs("Benchmark"+res.Name.String(), runtime.GOMAXPROCS(0))
		if (name == top || strings.HasPrefix(name, top+"/")) && !slices.Contains(leaves, name) {
			leaves = append(leaves, name)
		}
	}
	return leaves
}
