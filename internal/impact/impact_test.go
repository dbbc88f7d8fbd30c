package impact

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// copyTree copies the module in src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	require.NoError(t, err)
}

// An edit replaces old with new in one file of the code under test.
type edit struct{ file, old, new string }

// applyEdits applies edits to the tree in dir.
func applyEdits(t *testing.T, dir string, edits []edit) {
	t.Helper()
	for _, e := range edits {
		path := filepath.Join(dir, e.file)
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		require.Contains(t, string(b), e.old)
		require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(b), e.old, e.new, 1)), 0o644))
	}
}

// TestChangeKinds changes one thing at a time in a copy of
// testdata/kinds and checks that every benchmark that executes it, or can
// call it, is affected, and that BenchmarkUntouched is not where the
// change is local. The baseline's coverage is measured once and cached.
func TestChangeKinds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs coverage binaries")
	}
	base := filepath.Join(t.TempDir(), "base")
	copyTree(t, "testdata/kinds", base)
	cache := t.TempDir()
	cases := []struct {
		name     string
		edits    []edit
		affected []string
		// local: the change reaches only some benchmarks, and
		// BenchmarkUntouched is not among them.
		local bool
	}{
		{"body", []edit{{"kinds.go", "s := 0\n", "s := 1\n"}}, []string{"BenchmarkBody"}, true},
		{"inlined callee", []edit{{"kinds.go", "return x + 1", "return x + 2"}}, []string{"BenchmarkBody"}, true},
		{"generic instantiation", []edit{{"kinds.go", "return x * 2", "return x * 4"}}, []string{"BenchmarkDouble"}, true},
		{"interface method", []edit{{"kinds.go", "return s.S * s.S", "return s.S + s.S"}}, []string{"BenchmarkTotal"}, true},
		{"compiler directive", []edit{{"kinds.go", "func helper(", "//go:noinline\nfunc helper("}}, []string{"BenchmarkBody"}, true},
		{"closure", []edit{{"kinds.go", "return i * 3", "return i * 5"}}, []string{"BenchmarkClosure"}, true},
		{"field", []edit{{"kinds.go", "type Point struct{ X, Y int }", "type Point struct{ X, Y, Z int }"}}, []string{"BenchmarkPoint"}, true},
		{"constant", []edit{{"kinds.go", "const Scale = 3", "const Scale = 4"}}, []string{"BenchmarkScale"}, true},
		{"var initialiser", []edit{{"kinds.go", "[4]int{1, 2, 3, 4}", "[4]int{4, 3, 2, 1}"}}, []string{"BenchmarkTable"}, true},
		{"init", []edit{{"kinds.go", `registry["a"] = 1`, `registry["a"] = 2`}}, []string{"BenchmarkRegistry"}, false},
		{"embedded file", []edit{{"data.txt", "embedded", "embedded, longer"}}, []string{"BenchmarkData"}, false},
		{"assembly", []edit{{"asm/stub.s", "lets", "still lets"}}, []string{"BenchmarkSub"}, true},
		{"go.mod", []edit{{"go.mod", "go 1.26", "go 1.26\n\n// a comment"}}, []string{"BenchmarkUntouched", "BenchmarkSub"}, false},
		{"benchmark's own code", []edit{{"kinds_test.go", "sink = Untouched(3)", "sink = Untouched(4)"}}, []string{"BenchmarkUntouched"}, false},
		{"test helper", []edit{{"kinds_test.go", "return n * 7", "return n * 8"}}, []string{"BenchmarkOwn"}, true},
		{"TestMain", []edit{{"kinds_test.go", "os.Exit(m.Run())", "code := m.Run()\n\tos.Exit(code)"}}, []string{"BenchmarkBody", "BenchmarkUntouched"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			head := filepath.Join(t.TempDir(), "head")
			copyTree(t, "testdata/kinds", head)
			applyEdits(t, head, c.edits)
			rep, err := Analyze(context.Background(), Options{
				HeadDir: head, BaseDir: base, BaseRev: "testdata", Patterns: []string{"./..."},
				CacheDir: cache, TempDir: t.TempDir(),
			})
			require.NoError(t, err)
			got := map[string]Benchmark{}
			for _, b := range rep.Benchmarks {
				got[b.Name] = b
			}
			require.Len(t, got, 13, "every benchmark of the baseline is listed")
			for _, name := range c.affected {
				assert.True(t, got[name].Affected, "%s must be affected", name)
			}
			if c.local {
				assert.False(t, got["BenchmarkUntouched"].Affected, "BenchmarkUntouched reaches none of it: %s", got["BenchmarkUntouched"].Why)
				assert.False(t, got["BenchmarkOnlyTests"].Affected, "BenchmarkOnlyTests reaches none of it: %s", got["BenchmarkOnlyTests"].Why)
			}
			t.Logf("diff %v, coverage %v (cached %v), call graph %v", rep.Diff, rep.Coverage, rep.Cached, rep.CallGraph)
			for _, b := range rep.Benchmarks {
				t.Logf("%s affected=%v %s", b.Name, b.Affected, b.Why)
			}
		})
	}
}

// TestNothingDiffers: with no file that differs, nothing is built; a
// change to a file no build reads and no benchmark opens (documentation)
// leaves every benchmark unaffected, accounted for as a file no process
// reads.
func TestNothingDiffers(t *testing.T) {
	base := filepath.Join(t.TempDir(), "base")
	copyTree(t, "testdata/kinds", base)
	head := filepath.Join(t.TempDir(), "head")
	copyTree(t, "testdata/kinds", head)
	tmp := t.TempDir()
	rep, err := Analyze(context.Background(), Options{HeadDir: head, BaseDir: base, Patterns: []string{"./..."}, TempDir: tmp})
	require.NoError(t, err)
	assert.Len(t, rep.Benchmarks, 13)
	assert.Empty(t, rep.Paths)
	entries, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing was built")

	require.NoError(t, os.WriteFile(filepath.Join(head, "README.md"), []byte("docs\n"), 0o644))
	rep, err = Analyze(context.Background(), Options{HeadDir: head, BaseDir: base, Patterns: []string{"./..."}, TempDir: t.TempDir()})
	require.NoError(t, err)
	assert.Empty(t, rep.Changed)
	for _, b := range rep.Benchmarks {
		assert.False(t, b.Affected, "%s: %s", b.Name, b.Why)
	}
	require.Len(t, rep.Paths, 1)
	assert.Equal(t, Path{Path: "README.md", Kind: PathRead, Why: "no benchmark's process reads it, its directory or a file beside it"}, rep.Paths[0])
}

// TestOnlyCommentsDiffer: a change to comments and layout alone leaves
// every benchmark unaffected, without measuring coverage.
func TestOnlyCommentsDiffer(t *testing.T) {
	base := filepath.Join(t.TempDir(), "base")
	copyTree(t, "testdata/kinds", base)
	head := filepath.Join(t.TempDir(), "head")
	copyTree(t, "testdata/kinds", head)
	path := filepath.Join(head, "kinds.go")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	src := strings.Replace(string(b), "// Body calls an inlinable helper.", "// Body calls an inlinable helper,\n// in a loop.", 1)
	src = strings.Replace(src, "s := 0\n", "s := 0 // the sum\n\n", 1)
	src = strings.Replace(src, "// Package kinds holds", "// Package kinds, a test module, holds", 1)
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	tmp := t.TempDir()
	rep, err := Analyze(context.Background(), Options{HeadDir: head, BaseDir: base, Patterns: []string{"./..."}, TempDir: tmp})
	require.NoError(t, err)
	assert.Empty(t, rep.Changed)
	for _, b := range rep.Benchmarks {
		assert.False(t, b.Affected, b.Name)
	}
	entries, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, entries, "no coverage was measured")
}

// TestMergeKeepsEachModulesReach: merging the list of a module whose
// go.mod differs, where every benchmark is measured, with another
// module's, the other's changed file reaches its own benchmark, not
// "everything"; merging none gives an empty list.
func TestMergeKeepsEachModulesReach(t *testing.T) {
	a := &Report{Everything: "go.mod, go.sum, go.work or vendor/modules.txt differs",
		Benchmarks: []Benchmark{{Package: "example.com/a", Name: "BenchmarkA", Affected: true, Why: "go.mod, go.sum, go.work or vendor/modules.txt differs"}},
		Paths:      []Path{{Path: "a/go.mod", Kind: PathModule}}}
	b := &Report{Benchmarks: []Benchmark{{Package: "example.com/b", Name: "BenchmarkB", Affected: true}, {Package: "example.com/b", Name: "BenchmarkC"}},
		Paths: []Path{{Path: "b/b.go", Kind: PathSource, Reaches: []string{"example.com/b.BenchmarkB"}}}}
	var list strings.Builder
	require.NoError(t, Merge(a, b).WriteList(&list))
	assert.Regexp(t, `(?m)^b/b\.go\s+declarations\s+example\.com/b\.BenchmarkB\s*$`, list.String())
	assert.Regexp(t, `(?m)^a/go\.mod\s+module file\s+everything`, list.String())
	assert.Equal(t, a.Everything, Merge(a, a).Everything, "a reason every module gives")
	assert.Empty(t, Merge().Benchmarks)
}
