package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of this file run the built command as a team's CI does on its
// first day: in a shallow clone, with a dirty tree, with arguments for the
// test binary, with a baseline that does not build, on benchmarks that
// exit, skip or report no time.

// quickBaseline are the flags of a short baseline run on fixed metrics.
var quickBaseline = []string{"--stop", "none", "--slice-time", "5ms", "--suite-runs", "2", "--slices", "2", "--seed", "1", "--progress", "off"}

// gitCmd runs git with args in dir as a committer.
func gitCmd(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
}

// actions/checkout clones one commit deep unless told otherwise: the
// baseline is not there, and the message says why and what to do.
func TestBaselineInShallowClone(t *testing.T) {
	repo := gitRepo(t, 1000, 1000)
	clone := filepath.Join(t.TempDir(), "clone")
	gitCmd(t, repo, "clone", "-q", "--depth", "1", "file://"+repo, clone)
	_, stderr, code := gobenchDyn(t, clone, append([]string{"run", "--baseline", "HEAD~1"}, quickBaseline...)...)
	assert.Equal(t, 2, code, stderr)
	assert.Contains(t, stderr, `gobench-dyn: --baseline: the repository is a shallow clone: "HEAD~1" is not among the commits it holds`)
	assert.Contains(t, stderr, `"git fetch --unshallow"`)
	assert.Contains(t, stderr, `"fetch-depth: 0"`)
	assert.NotContains(t, stderr, "--baseline: --baseline", "the flag is named once")
	assert.NotContains(t, stderr, "benchmarks in", "nothing was built")

	_, stderr, code = gobenchDyn(t, repo, append([]string{"run", "--baseline", "no-such-ref"}, quickBaseline...)...)
	assert.Equal(t, 2, code, stderr)
	assert.Contains(t, stderr, `gobench-dyn: --baseline: "no-such-ref" is not a commit`)
}

// Uncommitted changes are measured against the baseline: the comparison
// says so in its title, and a warning names them.
func TestBaselineDirtyTree(t *testing.T) {
	repo := gitRepo(t, 1000)
	require.NoError(t, os.WriteFile(filepath.Join(repo, "calc_test.go"), fmt.Appendf(nil, metricSource, 3000), 0o644))
	_, stderr, code := gobenchDyn(t, repo, append([]string{"run", "--baseline", "HEAD"}, quickBaseline...)...)
	assert.Equal(t, 1, code, "the edit is a regression:\n%s", stderr)
	assert.Contains(t, stderr, "warning: the working tree has uncommitted changes (M calc_test.go): they are measured against --baseline HEAD")
	assert.Contains(t, stderr, "HEAD vs working tree:")
	assert.NotContains(t, stderr, "HEAD vs HEAD")

	// Committed, the same change is HEAD against its parent.
	gitCmd(t, repo, "commit", "-qam", "slower")
	_, stderr, code = gobenchDyn(t, repo, append([]string{"run", "--baseline", "HEAD~1"}, quickBaseline...)...)
	assert.Equal(t, 1, code, stderr)
	assert.NotContains(t, stderr, "uncommitted")
	assert.Contains(t, stderr, "HEAD~1 vs HEAD:")
}
