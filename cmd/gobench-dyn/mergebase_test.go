package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/gittest"
)

// branchBehindMain makes a repository whose branch feature forked from
// main when BenchmarkChanged reported 1000 ns/op and changed no benchmark
// since, while main moved on to 300 ns/op. It returns the repository,
// checked out on feature, and the commit of the fork.
func branchBehindMain(t *testing.T) (repo, fork string) {
	t.Helper()
	repo = gitRepo(t, 1000)
	gittest.Git(t, repo, "branch", "-M", "main")
	out, err := exec.Command("git", "-C", repo, "rev-parse", "HEAD").Output()
	require.NoError(t, err)
	fork = strings.TrimSpace(string(out))
	gittest.Git(t, repo, "checkout", "-qb", "feature")
	require.NoError(t, os.WriteFile(filepath.Join(repo, "NOTES"), []byte("a change that leaves every benchmark as it was\n"), 0o644))
	gittest.CommitAll(t, repo, "notes")
	gittest.Git(t, repo, "checkout", "-q", "main")
	require.NoError(t, os.WriteFile(filepath.Join(repo, "calc_test.go"), fmt.Appendf(nil, metricSource, 300), 0o644))
	gittest.CommitAll(t, repo, "faster")
	gittest.Git(t, repo, "checkout", "-q", "feature")
	return repo, fork
}

// A branch behind main, measured against main's tip, would take main's
// later speed-up for its own slowdown (worktree's tests check which
// commit each names); against the merge base it is unchanged, and the
// title names the commit compared with.
func TestBaselineMergeBase(t *testing.T) {
	repo, fork := branchBehindMain(t)

	_, stderr, code := gobenchDyn(t, repo, append([]string{"run", "--baseline", "merge-base:main"}, quickProcesses...)...)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, fmt.Sprintf("baseline merge-base:main (%.12s), the merge base of HEAD and main, checked out", fork))
	assert.Contains(t, stderr, fmt.Sprintf("merge-base:main (%.12s) vs HEAD:", fork))
	assert.NotRegexp(t, `Changed\S*\s.*(regression|improvement)`, stderr)
}

// A clone as actions/checkout makes it with a shallow depth holds both
// tips but not their merge base: the usual message, and exit 2.
func TestBaselineMergeBaseShallow(t *testing.T) {
	repo, _ := branchBehindMain(t)
	clone := filepath.Join(t.TempDir(), "clone")
	gittest.Git(t, repo, "clone", "-q", "--depth", "1", "--no-single-branch", "--branch", "feature", "file://"+repo, clone)
	_, stderr, code := gobenchDyn(t, clone, append([]string{"run", "--baseline", "merge-base:origin/main"}, quickProcesses...)...)
	assert.Equal(t, 2, code, stderr)
	assert.Contains(t, stderr, `gobench-dyn: --baseline: the repository is a shallow clone: the merge base of HEAD and "origin/main" is not among the commits it holds`)
	assert.Contains(t, stderr, `"fetch-depth: 0"`)
	assert.NotContains(t, stderr, "benchmarks in", "nothing was built")
}
