// Package impact decides, before anything is measured, which benchmarks
// a change between two trees of a module can reach: those whose process
// executes, or can call, code that differs. The rest have nothing to
// measure but the code layout, and run --baseline reports them
// unaffected.
//
// What differs is decided from the sources, declaration by declaration,
// token by token: a function whose body differs; a function, type,
// variable or constant whose declaration uses a type, variable or
// constant that differs; and, for everything that links the package,
// what acts outside declarations (init, blank variables, initialisers
// that call, directives, cgo), assembly and embedded files. go.mod,
// go.sum and an overlay count for everything. What each benchmark
// executes comes from a coverage profile of the baseline's build, setup
// and initialisation included; a benchmark is affected when any function
// it executes, its own function or its package's TestMain can call a
// function that differs in the static call graph (class hierarchy
// analysis over SSA), so that a path the profiled run did not take still
// counts. A benchmark so affected that has sub-benchmarks is decided again
// per leaf, from the code a process of that leaf alone can run (Leaf).
// When in doubt, a benchmark is affected.
package impact

import (
	"cmp"
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/gobench-dyn/gobench-dyn/internal/coverage"
	"github.com/gobench-dyn/gobench-dyn/internal/inject"
	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// Options say what to compare.
type Options struct {
	// HeadDir and BaseDir are the same directory in the two trees: the
	// code under test and the baseline's worktree.
	HeadDir, BaseDir string
	// HeadRoot and BaseRoot are the repository's top-level directory in
	// the two trees: every package whose sources lie below it is
	// compared, whichever module holds it, and every path below it
	// that differs is accounted for. "" is the main module's directory.
	HeadRoot, BaseRoot string
	// Changed are the paths that differ between the trees, relative to
	// the roots (git diff --name-only, and untracked files); nil
	// compares every file below the roots.
	Changed []string
	// BaseRev is the baseline's commit, which keys the coverage cache;
	// "" caches nothing.
	BaseRev string
	// Patterns are the packages, as go test resolves them in HeadDir.
	Patterns []string
	// Bench selects benchmarks as go test -bench does; only its first
	// level counts here.
	Bench string
	// BuildFlags are the flags both versions build with (-tags, -race).
	// Overlay, when set, replaces files of the code under test only: it
	// counts for everything.
	BuildFlags []string
	Overlay    string
	// TestArgs follow the harness's flags in every coverage run.
	TestArgs []string
	// CacheDir holds the coverage of base commits; "" is
	// gobench-dyn/impact under the user cache directory.
	CacheDir string
	// TempDir holds the coverage binaries and profiles.
	TempDir string
	// Coverage runs the coverage binaries.
	Coverage coverage.Runner
	// Log receives progress notes; nil discards them.
	Log io.Writer
}

// A Benchmark is a top-level benchmark of the baseline and what the
// change does to it.
type Benchmark struct {
	Package, Name string
	Affected      bool
	// Why names what it reaches that differs, or why it counts as
	// affected without analysis.
	Why string
	// Leaves are its sub-benchmarks, when it has more than one, each
	// decided on its own when the benchmark is affected through what it
	// executes: it is affected when one of them is.
	Leaves []Leaf
	// reach says that it is affected through what it executes, which
	// can differ between its leaves, rather than through its package.
	reach bool
	// ran are the functions its process executed, with its own and
	// TestMain (roots), when its coverage decided it.
	ran []declKey
}

// A Report is the change's impact on every benchmark of the baseline.
type Report struct {
	Benchmarks []Benchmark
	// New are the top-level benchmarks only the code under test has:
	// measured, with nothing to compare with.
	New []Benchmark
	// Everything says why every benchmark counts as affected, or is "".
	Everything string
	// Unanalysed are the modules of a list across modules whose analysis
	// failed: a run measures every benchmark of them.
	Unanalysed []Unanalysed
	// Changed lists the declarations that differ, and Packages the
	// packages where something outside declarations differs.
	Changed  []string
	Packages []string
	// Paths accounts for every path the change touches: its kind and
	// the benchmarks it reaches.
	Paths []Path
	// The time each step took, deciding per leaf included, and whether
	// the coverage came from the cache.
	Diff, Coverage, CallGraph, Leaves time.Duration
	Cached                            bool
}

// An Unanalysed module is one whose impact could not be analysed, and why.
type Unanalysed struct {
	Module string
	Why    string
}

// Unaffected returns the benchmarks the change cannot reach.
func (r *Report) Unaffected() []Benchmark {
	var out []Benchmark
	for _, b := range r.Benchmarks {
		if !b.Affected {
			out = append(out, b)
		}
	}
	return out
}

// Analyze decides which benchmarks of the baseline the change from
// BaseDir to HeadDir can reach. An error means nothing could be decided:
// the caller measures everything.
func Analyze(ctx context.Context, opts Options) (*Report, error) {
	a := &analysis{opts: opts, rep: &Report{}}
	if opts.Log == nil {
		a.opts.Log = io.Discard
	}
	first, err := regexp.Compile(rmit.TopPattern(cmp.Or(opts.Bench, ".")))
	if err != nil {
		return nil, err
	}
	a.first = first
	start := time.Now()
	if err := a.compareFiles(ctx); err != nil {
		return nil, err
	}
	if a.nothing {
		a.rep.Diff = time.Since(start)
		return a.rep, nil
	}
	if err := a.loadBase(ctx); err != nil {
		return nil, err
	}
	a.changedDecls()
	a.rep.Diff = time.Since(start)
	code := len(a.changed) > 0 || len(a.wide) > 0 || len(a.depsDiffer) > 0
	defer a.sourceReaches()
	if !code && len(a.reads) == 0 && a.rep.Everything == "" {
		// Files differ only in what the compiler does not read
		// (comments, layout): nothing to follow.
		return a.rep, nil
	}
	if a.rep.Everything != "" {
		for i := range a.rep.Benchmarks {
			a.rep.Benchmarks[i].Affected, a.rep.Benchmarks[i].Why = true, a.rep.Everything
		}
		return a.rep, nil
	}
	start = time.Now()
	executed, err := a.coverage(ctx)
	if err != nil {
		return nil, err
	}
	a.rep.Coverage = time.Since(start)
	start = time.Now()
	if code {
		a.decide(executed)
	}
	a.decideReads(a.reads, executed)
	a.rep.CallGraph = time.Since(start)
	start = time.Now()
	if err := a.decideLeaves(ctx, executed); err != nil {
		return nil, err
	}
	a.rep.Leaves = time.Since(start)
	return a.rep, nil
}

// An analysis holds what Analyze learns as it goes.
type analysis struct {
	opts       Options
	rep        *Report
	first      *regexp.Regexp
	head, base *tree
	// nothing is set when no file that goes into a build differs.
	nothing bool
	// touched are the import paths of local packages with a file that
	// differs; wide, those where something outside declarations
	// differs; changed, the declarations that differ, or use one that
	// does; differs, those whose own tokens differ, file-level ones
	// included.
	touched map[string]bool
	wide    map[string]bool
	changed map[declKey]bool
	differs map[declKey]bool
	// tested are the import paths of the packages whose test binaries
	// run, and linked those of the local packages they link.
	tested, linked map[string]bool
	// reads are the indexes in rep.Paths of the changed files that
	// reach a benchmark only by being read at run time.
	reads []int
	// depsDiffer names the packages whose test binaries link other
	// packages in the two versions; baseDeps, what each links in the
	// baseline.
	depsDiffer map[string]bool
	baseDeps   map[string][]string
	// reaches are the functions that can call one that differs; prog,
	// the call graph they come from.
	reaches map[declKey]string
	prog    *program
	// covered are the coverage binaries, once built; profiles counts the
	// profiles taken; cacheKey keys them in the cache.
	covered  *coverageBuild
	profiles int
	cacheKey string
}

func (a *analysis) config(ctx context.Context, dir string, mode packages.LoadMode) *packages.Config {
	flags := a.opts.BuildFlags
	if dir == a.opts.HeadDir && a.opts.Overlay != "" {
		flags = append(slices.Clone(flags), "-overlay="+a.opts.Overlay)
	}
	return &packages.Config{Context: ctx, Dir: dir, Mode: mode, Tests: true, BuildFlags: flags}
}

const lightMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
	packages.NeedDeps | packages.NeedEmbedFiles | packages.NeedModule | packages.NeedForTest

// compareFiles compares the files that go into a build of either tree.
// When none differs, every benchmark is unaffected, and the analysis is
// over without building anything.
func (a *analysis) compareFiles(ctx context.Context) error {
	var err error
	if a.head, err = load(a.config(ctx, a.opts.HeadDir, lightMode), a.opts.Patterns, a.opts.HeadRoot); err != nil {
		return fmt.Errorf("the code under test: %w", err)
	}
	if a.base, err = load(a.config(ctx, a.opts.BaseDir, lightMode), a.opts.Patterns, a.opts.BaseRoot); err != nil {
		return fmt.Errorf("the baseline: %w", err)
	}
	a.head.work = goWork(ctx, a.opts.HeadDir, nil)
	a.base.work = goWork(ctx, a.opts.BaseDir, nil)
	if a.rep.Benchmarks, err = listBenchmarks(a.base, a.first); err != nil {
		return err
	}
	head, err := listBenchmarks(a.head, a.first)
	if err != nil {
		return err
	}
	for _, b := range head {
		if !slices.ContainsFunc(a.rep.Benchmarks, func(x Benchmark) bool { return x.Package == b.Package && x.Name == b.Name }) {
			a.rep.New = append(a.rep.New, Benchmark{Package: b.Package, Name: b.Name, Affected: true, Why: "not in the baseline"})
		}
	}
	if a.opts.Overlay != "" {
		a.rep.Everything = "--overlay replaces files of the code under test"
	}
	changed, err := a.changedPaths()
	if err != nil {
		return fmt.Errorf("finding the paths that differ: %w", err)
	}
	a.reads = a.classify(changed)
	if a.rep.Everything == "" && a.head.moduleFiles() != a.base.moduleFiles() {
		a.rep.Everything = "go.mod, go.sum, go.work or vendor/modules.txt differs"
	}
	hf, err := a.head.files()
	if err != nil {
		return err
	}
	bf, err := a.base.files()
	if err != nil {
		return err
	}
	a.touched = map[string]bool{}
	for k, h := range hf {
		if b, ok := bf[k]; !ok || b != h {
			a.touched[k[0]] = true
		}
	}
	for k := range bf {
		if _, ok := hf[k]; !ok {
			a.touched[k[0]] = true
		}
	}
	a.depsDiffer = map[string]bool{}
	hd, bd := a.head.testDeps(), a.base.testDeps()
	a.tested, a.linked = map[string]bool{}, map[string]bool{}
	for _, t := range []*tree{a.head, a.base} {
		for _, p := range t.local {
			a.linked[strings.TrimSuffix(p.PkgPath, "_test")] = true
		}
	}
	for p := range hd {
		a.tested[p] = true
	}
	for p := range bd {
		a.tested[p] = true
	}
	for p, deps := range bd {
		if !slices.Equal(deps, hd[p]) {
			a.depsDiffer[p] = true
		}
	}
	a.nothing = len(a.touched) == 0 && len(a.depsDiffer) == 0 && len(a.reads) == 0 && a.rep.Everything == ""
	return nil
}

// listBenchmarks returns the top-level benchmarks of t's packages that
// first selects, as go test would list them.
func listBenchmarks(t *tree, first *regexp.Regexp) ([]Benchmark, error) {
	var out []Benchmark
	seen := map[[2]string]bool{}
	for _, p := range t.pkgs {
		if p.ForTest == "" {
			continue
		}
		for _, name := range p.GoFiles {
			if !strings.HasSuffix(name, "_test.go") {
				continue
			}
			src, err := os.ReadFile(name)
			if err != nil {
				return nil, err
			}
			f, err := parseFile(token.NewFileSet(), name, src)
			if err != nil {
				return nil, err
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv != nil || !isBenchmark(fd) || !first.MatchString(fd.Name.Name) {
					continue
				}
				k := [2]string{p.ForTest, fd.Name.Name}
				if !seen[k] {
					seen[k] = true
					out = append(out, Benchmark{Package: p.ForTest, Name: fd.Name.Name})
				}
			}
		}
	}
	slices.SortFunc(out, func(x, y Benchmark) int {
		return cmp.Or(cmp.Compare(x.Package, y.Package), cmp.Compare(x.Name, y.Name))
	})
	return out, nil
}

// isBenchmark reports whether fd is a benchmark as go test finds them:
// BenchmarkXxx, Xxx not starting with a lower-case letter, taking one
// *testing.B.
func isBenchmark(fd *ast.FuncDecl) bool {
	name := fd.Name.Name
	if !strings.HasPrefix(name, "Benchmark") {
		return false
	}
	if rest := name[len("Benchmark"):]; rest != "" && rest[0] >= 'a' && rest[0] <= 'z' {
		return false
	}
	ps := fd.Type.Params.List
	if len(ps) != 1 || len(ps[0].Names) > 1 || fd.Type.Results != nil {
		return false
	}
	star, ok := ps[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "B"
}

// loadBase loads the baseline's local packages again, with their tests,
// types and syntax, for the references between declarations and the call
// graph. Dependencies come from export data: their code is the same in
// both versions, and what they call back in local code they were handed
// as a function or interface value, which the call graph follows
// (reachesChanged).
func (a *analysis) loadBase(ctx context.Context) error {
	a.baseDeps = a.base.testDeps()
	var paths []string
	for _, p := range a.base.local {
		// A package of test files alone has only its test variants.
		switch {
		case p.ForTest != "":
			paths = append(paths, p.ForTest)
		case !strings.HasSuffix(p.ID, ".test"):
			paths = append(paths, p.PkgPath)
		}
	}
	slices.Sort(paths)
	mode := packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
		packages.NeedTypes | packages.NeedTypesSizes | packages.NeedSyntax | packages.NeedTypesInfo |
		packages.NeedModule | packages.NeedEmbedFiles | packages.NeedForTest
	t, err := load(a.config(ctx, a.opts.BaseDir, mode), slices.Compact(paths), a.base.root)
	if err != nil {
		return fmt.Errorf("the baseline: %w", err)
	}
	t.work = a.base.work
	a.base = t
	return nil
}

// changedDecls finds the declarations that differ, and the packages
// where something outside declarations does.
func (a *analysis) changedDecls() {
	a.changed, a.wide = map[declKey]bool{}, map[string]bool{}
	hh, err := a.head.declHashes(a.linked, a.tested)
	if err != nil {
		a.rep.Everything = "reading the code under test: " + err.Error()
		return
	}
	bh, err := a.base.declHashes(a.linked, a.tested)
	if err != nil {
		a.rep.Everything = "reading the baseline: " + err.Error()
		return
	}
	for k, h := range hh {
		if b, ok := bh[k]; !ok || b != h {
			a.changed[k] = true
		}
	}
	for k := range bh {
		if _, ok := hh[k]; !ok {
			a.changed[k] = true
		}
	}
	a.differs = maps.Clone(a.changed)
	for k := range a.changed {
		if strings.HasPrefix(k.Name, fileLevel) {
			a.wide[k.Pkg] = true
			delete(a.changed, k)
		}
	}
	// Assembly, C and embedded files act on the package as a whole.
	hf, _ := a.head.otherFiles()
	bf, _ := a.base.otherFiles()
	for k, h := range hf {
		if bf[k] != h && a.linked[k[0]] {
			a.wide[k[0]] = true
		}
	}
	for k, b := range bf {
		if hf[k] != b && a.linked[k[0]] {
			a.wide[k[0]] = true
		}
	}
	a.propagate()
	for k := range a.changed {
		a.rep.Changed = append(a.rep.Changed, k.String())
	}
	sort.Strings(a.rep.Changed)
	for p := range a.wide {
		a.rep.Packages = append(a.rep.Packages, p)
	}
	sort.Strings(a.rep.Packages)
}

// otherFiles hashes the files of the local packages that are not Go
// sources: assembly, C, embedded files.
func (t *tree) otherFiles() (map[[2]string][32]byte, error) {
	all, err := t.files()
	if err != nil {
		return nil, err
	}
	for k := range all {
		if strings.HasSuffix(k[1], ".go") && !t.isEmbedded(k) {
			delete(all, k)
		}
	}
	return all, nil
}

// isEmbedded reports whether the file k is embedded by its package.
func (t *tree) isEmbedded(k [2]string) bool {
	for _, p := range t.local {
		if p.PkgPath != k[0] {
			continue
		}
		for _, f := range p.EmbedFiles {
			if rel, _ := t.rel(f); rel == k[1] {
				return true
			}
		}
	}
	return false
}

// propagate marks the declarations of the baseline that use a type,
// variable or constant that differs, until none is left: a function's
// code changes with the layout of a type it touches, the value of a
// constant, or the initial value of a variable, even though its own
// source does not.
func (a *analysis) propagate() {
	uses := map[declKey]map[declKey]bool{}
	for _, p := range a.base.local {
		if p.TypesInfo == nil {
			continue
		}
		for i, f := range p.Syntax {
			if i >= len(p.CompiledGoFiles) || !slices.Contains(p.GoFiles, p.CompiledGoFiles[i]) {
				continue
			}
			for _, d := range f.Decls {
				for _, k := range declKeys(p.PkgPath, d) {
					if uses[k] == nil {
						uses[k] = map[declKey]bool{}
					}
					collectUses(p.TypesInfo, d, uses[k])
				}
			}
		}
	}
	for {
		grew := false
		for k, us := range uses {
			if a.changed[k] {
				continue
			}
			for u := range us {
				if a.changed[u] {
					a.changed[k], grew = true, true
					break
				}
			}
		}
		if !grew {
			return
		}
	}
}

// declKeys names what d declares.
func declKeys(pkg string, d ast.Decl) []declKey {
	switch d := d.(type) {
	case *ast.FuncDecl:
		return []declKey{{pkg, inject.FuncName(d)}}
	case *ast.GenDecl:
		var ks []declKey
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				ks = append(ks, declKey{pkg, "type " + s.Name.Name})
			case *ast.ValueSpec:
				for _, n := range s.Names {
					ks = append(ks, declKey{pkg, strings.ToLower(d.Tok.String()) + " " + n.Name})
				}
			}
		}
		return ks
	}
	return nil
}

// collectUses adds to out the package-level types, variables and
// constants node refers to, and the named types of every value in it.
func collectUses(info *types.Info, node ast.Node, out map[declKey]bool) {
	seen := map[types.Type]bool{}
	ast.Inspect(node, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if obj := info.Uses[n]; obj != nil {
				addObject(obj, out)
			}
			if obj := info.Defs[n]; obj != nil {
				addType(obj.Type(), out, seen)
			}
		case ast.Expr:
			if tv, ok := info.Types[n]; ok {
				addType(tv.Type, out, seen)
			}
		}
		return true
	})
}

func addObject(obj types.Object, out map[declKey]bool) {
	if obj.Pkg() == nil || obj.Parent() != obj.Pkg().Scope() {
		addType(obj.Type(), out, map[types.Type]bool{})
		return
	}
	switch obj.(type) {
	case *types.TypeName:
		out[declKey{obj.Pkg().Path(), "type " + obj.Name()}] = true
	case *types.Var:
		out[declKey{obj.Pkg().Path(), "var " + obj.Name()}] = true
	case *types.Const:
		out[declKey{obj.Pkg().Path(), "const " + obj.Name()}] = true
	}
}

// addType adds the named types whose layout t depends on: t's own name,
// and those of its elements, fields and parameters.
func addType(t types.Type, out map[declKey]bool, seen map[types.Type]bool) {
	if t == nil || seen[t] {
		return
	}
	seen[t] = true
	switch t := t.(type) {
	case *types.Named:
		if obj := t.Origin().Obj(); obj.Pkg() != nil {
			out[declKey{obj.Pkg().Path(), "type " + obj.Name()}] = true
		}
		for i := range t.TypeArgs().Len() {
			addType(t.TypeArgs().At(i), out, seen)
		}
	case *types.Alias:
		addType(types.Unalias(t), out, seen)
	case *types.Pointer:
		addType(t.Elem(), out, seen)
	case *types.Slice:
		addType(t.Elem(), out, seen)
	case *types.Array:
		addType(t.Elem(), out, seen)
	case *types.Chan:
		addType(t.Elem(), out, seen)
	case *types.Map:
		addType(t.Key(), out, seen)
		addType(t.Elem(), out, seen)
	case *types.Struct:
		for i := range t.NumFields() {
			addType(t.Field(i).Type(), out, seen)
		}
	case *types.Tuple:
		for i := range t.Len() {
			addType(t.At(i).Type(), out, seen)
		}
	case *types.Signature:
		addType(t.Params(), out, seen)
		addType(t.Results(), out, seen)
	}
}

// decide marks each benchmark affected or not: affected when its test
// binary links a package where something outside declarations differs or
// links other packages than before, when its coverage is unknown, or when
// a function it executes, its own function or TestMain can call a
// function that differs.
func (a *analysis) decide(executed map[benchKey]*profiled) {
	a.reaches = a.reachesChanged()
	for i := range a.rep.Benchmarks {
		b := &a.rep.Benchmarks[i]
		b.Affected, b.Why = true, ""
		switch p := executed[benchKey{b.Package, b.Name}]; {
		case a.depsDiffer[b.Package]:
			b.Why = "its test binary links other packages"
		case p == nil:
			b.Why = "its coverage is unknown"
		default:
			for _, dep := range a.baseDeps[b.Package] {
				if a.wide[dep] {
					b.Why = "it links " + dep + ", which differs outside declarations"
					break
				}
			}
			if b.Why == "" {
				b.ran = roots(b.Package, append(slices.Clone(p.Executed), declKey{b.Package, b.Name}, declKey{b.Package + "_test", b.Name}))
				b.Why = a.executesChanged(b.Package, b.ran)
				b.reach = b.Why != ""
			}
			b.Affected = b.Why != ""
		}
	}
}

// roots returns ran, the functions a process of package pkg's test
// binary executed, with the package's TestMain, which runs in every
// process: where the call graph starts for the process.
func roots(pkg string, ran []declKey) []declKey {
	return append(slices.Clone(ran), declKey{pkg, "TestMain"}, declKey{pkg + "_test", "TestMain"})
}

// executesChanged says which of ran, or the TestMain of package pkg,
// differs or can call a function that differs, or returns "".
func (a *analysis) executesChanged(pkg string, ran []declKey) string {
	for _, r := range roots(pkg, ran) {
		if a.changed[r] {
			return "it executes " + r.String() + ", which differs"
		}
		if via, ok := a.reaches[r]; ok {
			return "it executes " + r.String() + ", which can call " + via + ", which differs"
		}
	}
	return ""
}
