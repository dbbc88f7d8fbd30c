package impact

import (
	"context"
	"encoding/json"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/inject"
)

// analyzeEdits copies the repository fixture src twice, applies edits to
// the code under test, and analyzes the packages of dir (relative to the
// repository's top level) against the untouched copy.
func analyzeEdits(t *testing.T, src, dir, cache string, edits []edit) *Report {
	t.Helper()
	base, head := filepath.Join(t.TempDir(), "base"), filepath.Join(t.TempDir(), "head")
	copyTree(t, src, base)
	copyTree(t, src, head)
	applyEdits(t, head, edits)
	rep, err := Analyze(context.Background(), Options{
		HeadDir: filepath.Join(head, dir), BaseDir: filepath.Join(base, dir), HeadRoot: head, BaseRoot: base,
		BaseRev: "testdata", Patterns: []string{"./..."}, CacheDir: cache, TempDir: t.TempDir(),
	})
	require.NoError(t, err)
	return rep
}

// affectedNames returns the names of the affected benchmarks of rep.
func affectedNames(rep *Report) []string {
	var out []string
	for _, b := range rep.Benchmarks {
		if b.Affected {
			out = append(out, b.Name)
		}
	}
	return out
}

// TestRepositoryShapes changes one thing at a time in a repository of
// several modules, testdata/repo: a workspace module, a module replaced
// by a local path, files read at run time inside and outside the
// package, an embedded file, module files and documentation. Each change
// reaches exactly the benchmarks that execute or read it, and every path
// is accounted for.
func TestRepositoryShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs coverage binaries")
	}
	cache := t.TempDir()
	all := []string{"BenchmarkEmbedded", "BenchmarkLib", "BenchmarkOwn", "BenchmarkRead", "BenchmarkRep", "BenchmarkShared"}
	cases := []struct {
		name     string
		edit     edit
		kind     PathKind
		affected []string
	}{
		{"own module", edit{"bench/bench.go", "return n + 1", "return n + 2"}, PathSource, []string{"BenchmarkOwn"}},
		{"workspace module", edit{"lib/lib.go", "s += i", "s += 2 * i"}, PathSource, []string{"BenchmarkLib"}},
		{"replaced module", edit{"rep/rep.go", "return 2 * n", "return 4 * n"}, PathSource, []string{"BenchmarkRep"}},
		{"file read in the package", edit{"bench/testdata/input.txt", "input", strings.Repeat("input ", 20)}, PathRead, []string{"BenchmarkRead"}},
		{"file read outside the package", edit{"shared/table.txt", "1 2", "1 2 5 6"}, PathRead, []string{"BenchmarkShared"}},
		{"embedded file", edit{"bench/data.txt", "embedded", "embedded, longer"}, PathPackageFile, all},
		{"go.work", edit{"go.work", "go 1.26", "go 1.26\n\n// a comment"}, PathModule, all},
		{"replaced module's go.mod", edit{"rep/go.mod", "go 1.26", "go 1.26\n\n// a comment"}, PathModule, all},
		{"documentation", edit{"README.md", "for the impact tests", "for the tests of impact"}, PathRead, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := analyzeEdits(t, "testdata/repo", "bench", cache, []edit{c.edit})
			require.Len(t, rep.Benchmarks, len(all), "every benchmark of the baseline is listed")
			assert.Equal(t, c.affected, affectedNames(rep))
			require.Len(t, rep.Paths, 1, "the one changed path is accounted for")
			assert.Equal(t, c.edit.file, rep.Paths[0].Path)
			assert.Equal(t, c.kind, rep.Paths[0].Kind)
			if c.kind == PathSource || c.kind == PathRead {
				for _, name := range c.affected {
					assert.Contains(t, rep.Paths[0].Reaches, "example.com/bench."+name)
				}
			}
			for _, b := range rep.Benchmarks {
				t.Logf("%s affected=%v %s", b.Name, b.Affected, b.Why)
			}
		})
	}
}

// A benchmark that executes what two files change is listed under both:
// each path lists every benchmark it reaches, not only those whose reason
// happens to name it.
func TestEveryPathListsWhatItReaches(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs coverage binaries")
	}
	rep := analyzeEdits(t, "testdata/repo", "bench", t.TempDir(), []edit{
		{"bench/bench.go", "return n + 1", "return n + 2"},
		{"bench/bench_test.go", "sink = Own(3)", "sink = Own(4)"},
	})
	assert.Equal(t, []string{"BenchmarkOwn"}, affectedNames(rep))
	require.Len(t, rep.Paths, 2)
	for _, x := range rep.Paths {
		assert.Equal(t, []string{"example.com/bench.BenchmarkOwn"}, x.Reaches, x.Path)
	}
}

// TestVendoredDependency: a change to a vendored copy of a dependency
// reaches the benchmark that calls it, and no other.
func TestVendoredDependency(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs coverage binaries")
	}
	cache := t.TempDir()
	rep := analyzeEdits(t, "testdata/vendored", ".", cache, []edit{{"vendor/example.com/vend/vend.go", "return 3 * n", "return 6 * n"}})
	assert.Equal(t, []string{"BenchmarkVend"}, affectedNames(rep))
	require.Len(t, rep.Paths, 1)
	assert.Equal(t, PathSource, rep.Paths[0].Kind)

	rep = analyzeEdits(t, "testdata/vendored", ".", cache, []edit{{"vendor/modules.txt", "## explicit", "## explicit; go 1.26"}})
	assert.Equal(t, []string{"BenchmarkOwn", "BenchmarkVend"}, affectedNames(rep))
	require.Len(t, rep.Paths, 1)
	assert.Equal(t, PathModule, rep.Paths[0].Kind)
}

// TestEverySlowedFunctionIsReached slows each function of the modules of
// testdata/repo in turn (a loop at the start of its body), and checks that
// every benchmark whose baseline coverage executes it comes out affected,
// and every other one unaffected: in this repository no benchmark can
// call a function it does not execute.
func TestEverySlowedFunctionIsReached(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs coverage binaries")
	}
	var funcs [][2]string // file, function
	for _, file := range []string{"bench/bench.go", "lib/lib.go", "rep/rep.go"} {
		src, err := os.ReadFile(filepath.Join("testdata/repo", file))
		require.NoError(t, err)
		f, err := parseFile(token.NewFileSet(), file, src)
		require.NoError(t, err)
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				funcs = append(funcs, [2]string{file, inject.FuncName(fd)})
			}
		}
	}
	require.Len(t, funcs, 5)
	cache := t.TempDir()
	for _, fn := range funcs {
		t.Run(fn[1], func(t *testing.T) {
			base, head := filepath.Join(t.TempDir(), "base"), filepath.Join(t.TempDir(), "head")
			copyTree(t, "testdata/repo", base)
			copyTree(t, "testdata/repo", head)
			path := filepath.Join(head, fn[0])
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(path, slowDown(t, src, fn[1]), 0o644))
			rep, err := Analyze(context.Background(), Options{
				HeadDir: filepath.Join(head, "bench"), BaseDir: filepath.Join(base, "bench"), HeadRoot: head, BaseRoot: base,
				BaseRev: "testdata", Patterns: []string{"./..."}, CacheDir: cache, TempDir: t.TempDir(),
			})
			require.NoError(t, err)
			executed := cachedCoverage(t, cache)
			pkgPath := map[string]string{"bench/bench.go": "example.com/bench", "lib/lib.go": "example.com/lib", "rep/rep.go": "example.com/rep"}[fn[0]]
			var executes []string
			for _, b := range rep.Benchmarks {
				if slices.Contains(executed[b.Name], declKey{pkgPath, fn[1]}) {
					executes = append(executes, b.Name)
				}
			}
			require.NotEmpty(t, executes, "some benchmark executes %s", fn[1])
			assert.Equal(t, executes, affectedNames(rep))
		})
	}
}

// slowDown returns src with a busy loop at the start of the body of the
// function called name.
func slowDown(t *testing.T, src []byte, name string) []byte {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parseFile(fset, "x.go", src)
	require.NoError(t, err)
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && inject.FuncName(fd) == name {
			at := fset.Position(fd.Body.Lbrace).Offset + 1
			return slices.Concat(src[:at], []byte("\n\tfor i := range 100000 {\n\t\tslowSink += i\n\t}\n"), src[at:], []byte("\nvar slowSink int\n"))
		}
	}
	t.Fatalf("no function %s", name)
	return nil
}

// cachedCoverage returns, per benchmark, the functions the baseline's
// coverage in the cache dir saw it execute.
func cachedCoverage(t *testing.T, dir string) map[string][]declKey {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	require.NoError(t, err)
	require.Len(t, files, 1)
	data, err := os.ReadFile(files[0])
	require.NoError(t, err)
	var entries []cacheEntry
	require.NoError(t, json.Unmarshal(data, &entries))
	out := map[string][]declKey{}
	for _, e := range entries {
		for _, x := range e.Executed {
			out[e.Benchmark] = append(out[e.Benchmark], declKey{x[0], x[1]})
		}
	}
	return out
}
