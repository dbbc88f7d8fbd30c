package session

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// writeFiles writes files (path: content) below dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
}

// TestModulesAndWhatTheirBuildsCompile: the modules of a repository are
// found as go work use -r finds them, and a module's build compiles its
// own code, the modules it replaces by a local path, transitively, and
// those of the go.work above it; a change to Go code elsewhere cannot
// reach it, and a change to any other file may.
func TestModulesAndWhatTheirBuildsCompile(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"go.mod":                "module example.com/root\n\ngo 1.26\n",
		"sdk/go.mod":            "module example.com/root/sdk\n\ngo 1.26\n\nrequire example.com/root v0.0.0\n\nreplace example.com/root => ../\n",
		"sdk/log/go.mod":        "module example.com/root/sdk/log\n\ngo 1.26\n\nreplace example.com/root/sdk => ../\n",
		"other/go.mod":          "module example.com/other\n\ngo 1.26\n",
		"other/testdata/go.mod": "module example.com/ignored\n",
		"_old/go.mod":           "module example.com/ignored\n",
		"ws/go.work":            "go 1.26\n\nuse (\n\t./a\n\t./b\n)\n",
		"ws/a/go.mod":           "module example.com/a\n\ngo 1.26\n",
		"ws/b/go.mod":           "module example.com/b\n\ngo 1.26\n",
	})
	mods, err := rmit.FindModules(root)
	require.NoError(t, err)
	var rel []string
	for _, m := range mods {
		r, err := filepath.Rel(root, m)
		require.NoError(t, err)
		rel = append(rel, filepath.ToSlash(r))
	}
	assert.Equal(t, []string{".", "other", "sdk", "sdk/log", "ws/a", "ws/b"}, rel)

	dirs, err := buildDirs(root, filepath.Join(root, "sdk/log"))
	require.NoError(t, err)
	assert.Equal(t, []string{".", "sdk", "sdk/log"}, dirs)
	dirs, err = buildDirs(root, filepath.Join(root, "ws/a"))
	require.NoError(t, err)
	assert.Equal(t, []string{"ws", "ws/a", "ws/b"}, dirs)
	dirs, err = buildDirs(root, filepath.Join(root, "other"))
	require.NoError(t, err)
	assert.Equal(t, []string{"other"}, dirs)

	assert.True(t, outsideBuild([]string{"sdk/trace/span.go", "ws/b/b.go", "go.sum"}, []string{"other"}, rel))
	assert.False(t, outsideBuild([]string{"other/x.go"}, []string{"other"}, rel), "its own code")
	assert.False(t, outsideBuild([]string{"other/testdata/x.go"}, []string{"other"}, rel), "its own tree")
	assert.False(t, outsideBuild([]string{"sdk/README.md"}, []string{"other"}, rel), "a file any process may read")
	assert.True(t, outsideBuild([]string{"sdk/log/x.go"}, []string{".", "sdk"}, rel), "a nested module is not its parent's")
	assert.False(t, outsideBuild([]string{"attribute/hash.go"}, []string{".", "sdk"}, rel), "a replaced module's code")
	assert.False(t, outsideBuild([]string{"ws/go.work"}, []string{"ws", "ws/a", "ws/b"}, rel), "the workspace file")
}

// TestPatternsIn: across modules, a relative pattern names packages of a
// module only where its directory is in that module; a module where none
// of the patterns can is left out as one without benchmarks, not failed
// as one that does not load.
func TestPatternsIn(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sdk", "trace"), 0o755))
	for _, c := range []struct {
		patterns []string
		want     bool
	}{
		{nil, true},
		{[]string{"./..."}, true},
		{[]string{"./sdk/..."}, true},
		{[]string{"./sdk/trace"}, true},
		{[]string{"./metric/..."}, false},
		{[]string{"./metric/...", "./sdk/..."}, true},
		{[]string{"example.com/m/..."}, true},
	} {
		assert.Equal(t, c.want, patternsIn(dir, c.patterns), "%q", c.patterns)
	}
}
