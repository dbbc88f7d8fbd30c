package impact

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"go/ast"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/coverage"
	"github.com/gobench-dyn/gobench-dyn/internal/inject"
	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// coverage returns the functions each benchmark of the baseline
// executes, from the cache or from coverage runs.
func (a *analysis) coverage(ctx context.Context) (map[[2]string][]declKey, error) {
	key := a.cacheKey(ctx)
	if key != "" {
		if got, ok := a.readCache(key); ok {
			a.rep.Cached = true
			return got, nil
		}
	}
	got, err := a.runCoverage(ctx)
	if err != nil {
		return nil, err
	}
	if key != "" {
		if err := a.writeCache(key, got); err != nil {
			fmt.Fprintf(a.opts.Log, "gobench-dyn: impact: the coverage cache: %v\n", err)
		}
	}
	return got, nil
}

// runCoverage builds the baseline's test binaries with coverage of every
// local package and runs each top-level benchmark for one op. A
// benchmark whose run fails gets no entry, and counts as affected.
func (a *analysis) runCoverage(ctx context.Context) (map[[2]string][]declKey, error) {
	var coverPkgs []string
	var fns []coverage.Func
	var keys []declKey
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
					fns = append(fns, fn)
					keys = append(keys, declKey{p.PkgPath, inject.FuncName(fd)})
				}
			}
		}
	}
	sort.Strings(coverPkgs)
	pkgs, _, err := rmit.List(ctx, a.opts.Patterns, rmit.ListOptions{Dir: a.opts.BaseDir, BuildFlags: a.opts.BuildFlags})
	if err != nil {
		return nil, err
	}
	binDir := filepath.Join(a.opts.TempDir, "impact-bin")
	profDir := filepath.Join(a.opts.TempDir, "impact-profiles")
	for _, d := range []string{binDir, profDir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	flags := append(slices.Clone(a.opts.BuildFlags), "-cover", "-covermode=set", "-coverpkg="+strings.Join(coverPkgs, ","))
	fmt.Fprintf(a.opts.Log, "gobench-dyn: impact: building the baseline with coverage to see what each benchmark executes\n")
	built, _, failed := rmit.Build(ctx, pkgs, rmit.BuildOptions{Dir: a.opts.BaseDir, BuildFlags: flags, OutDir: binDir})
	if ctx.Err() != nil {
		return nil, rmit.ErrInterrupted
	}
	for _, f := range failed {
		fmt.Fprintf(a.opts.Log, "gobench-dyn: impact: coverage build of %s failed: its benchmarks count as affected\n", f.Package.ImportPath)
	}
	byPath := map[string]*rmit.Package{}
	for _, p := range built {
		p.TestArgs = a.opts.TestArgs
		byPath[p.ImportPath] = p
	}
	out := map[[2]string][]declKey{}
	for n, b := range a.rep.Benchmarks {
		p := byPath[b.Package]
		if p == nil {
			continue
		}
		prof := filepath.Join(profDir, strconv.Itoa(n)+".out")
		args := append([]string{"-test.bench=^" + regexp.QuoteMeta(b.Name) + "$", "-test.benchtime=1x"}, a.opts.TestArgs...)
		profile, err := a.opts.Coverage.Profile(ctx, p, prof, args...)
		if errors.Is(err, rmit.ErrInterrupted) {
			return nil, err
		}
		if err != nil {
			fmt.Fprintf(a.opts.Log, "gobench-dyn: impact: coverage of %s.%s failed: it counts as affected\n", b.Package, b.Name)
			continue
		}
		ran := []declKey{}
		for i := range coverage.Exercised(fns, profile, nil) {
			ran = append(ran, keys[i])
		}
		slices.SortFunc(ran, func(x, y declKey) int { return cmp.Compare(x.String(), y.String()) })
		out[[2]string{b.Package, b.Name}] = slices.Compact(ran)
	}
	return out, nil
}
