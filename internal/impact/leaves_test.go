package impact

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLeaves changes Changed in a copy of testdata/leaves and checks the
// decision of every leaf: a leaf whose own code cannot call Changed is
// unaffected although its sibling reaches it; a leaf that can call it is
// affected even when one op never executes it (BenchmarkDense/small);
// leaves run through functions read from a table are decided as a whole.
// A second analysis reads every profile, the leaves' included, from the
// cache, and decides the same.
func TestLeaves(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs coverage binaries")
	}
	base := filepath.Join(t.TempDir(), "base")
	copyTree(t, "testdata/leaves", base)
	head := filepath.Join(t.TempDir(), "head")
	copyTree(t, "testdata/leaves", head)
	path := filepath.Join(head, "leaves.go")
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(src), "n + 1", "n + 2", 1)), 0o644))
	cache := t.TempDir()
	want := map[string]bool{
		"BenchmarkParent/reached":       true,
		"BenchmarkParent/unreached":     false,
		"BenchmarkNested/small/changed": true,
		"BenchmarkNested/small/other":   false,
		"BenchmarkNested/large/changed": true,
		"BenchmarkNested/large/other":   false,
		"BenchmarkTable/changed":        true,
		"BenchmarkTable/other":          true,
		"BenchmarkDense/small":          true,
		"BenchmarkDense/other":          false,
		"BenchmarkUntouched/a":          false,
		"BenchmarkUntouched/b":          false,
	}
	for _, cached := range []bool{false, true} {
		tmp := t.TempDir()
		rep, err := Analyze(context.Background(), Options{
			HeadDir: head, BaseDir: base, BaseRev: "testdata", Patterns: []string{"./..."},
			CacheDir: cache, TempDir: tmp,
		})
		require.NoError(t, err)
		assert.Equal(t, cached, rep.Cached)
		if cached {
			entries, err := os.ReadDir(tmp)
			require.NoError(t, err)
			assert.Empty(t, entries, "every profile came from the cache: nothing was built")
		}
		got := map[string]bool{}
		tops := map[string]bool{}
		for _, b := range rep.Benchmarks {
			tops[b.Name] = b.Affected
			for _, l := range b.Leaves {
				got[l.Name] = l.Affected
				t.Logf("%s affected=%v %s", l.Name, l.Affected, l.Why)
			}
		}
		assert.Equal(t, want, got)
		assert.Equal(t, map[string]bool{
			"BenchmarkParent": true, "BenchmarkNested": true, "BenchmarkTable": true, "BenchmarkDense": true, "BenchmarkUntouched": false,
		}, tops)
		var unaffected []string
		for _, l := range rep.UnaffectedLeaves() {
			unaffected = append(unaffected, l.Name)
		}
		assert.ElementsMatch(t, []string{
			"BenchmarkParent/unreached", "BenchmarkNested/small/other", "BenchmarkNested/large/other", "BenchmarkDense/other",
		}, unaffected, "the leaves of unaffected benchmarks are not listed again")
	}
}

// TestSelects checks which sub-benchmark names can be part of a leaf, as
// go test rewrites and numbers them.
func TestSelects(t *testing.T) {
	levels := []string{"small", "with_space", "dup#01", "a", "b"}
	for name, want := range map[string]bool{
		"small":      true,
		"large":      false,
		"with space": true,
		"dup":        true,
		"du":         false,
		"a/b":        true,
		"a/c":        false,
		"sma":        false,
	} {
		assert.Equal(t, want, selects(name, levels), name)
	}
	assert.True(t, selects("", []string{"#00"}), "an empty name is numbered")
	assert.Equal(t, `tab_and\x00`, rewrite("tab\tand\x00"))
}
