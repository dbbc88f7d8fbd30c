package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/gittest"
)

// TestHistoryAddFollowsCommits adds a run at each of twelve commits made
// in one second, as a rebase makes them, the seventh 25% slower: history
// add records each commit's place, and history finds the step at the
// seventh commit and nowhere else, reading the store given either way.
func TestHistoryAddFollowsCommits(t *testing.T) {
	repo := t.TempDir()
	gittest.Git(t, repo, "init", "-q", "-b", "main")
	t.Setenv("GIT_AUTHOR_DATE", "2026-11-27T10:00:00Z")
	t.Setenv("GIT_COMMITTER_DATE", "2026-11-27T10:00:00Z")
	store := filepath.Join(t.TempDir(), "h.db")
	var commits []string
	for i := range 12 {
		require.NoError(t, os.WriteFile(filepath.Join(repo, "f.txt"), []byte(strconv.Itoa(i)), 0o644))
		gittest.CommitAll(t, repo, "commit "+strconv.Itoa(i+1))
		raw := "testdata/compare/old.jsonl"
		if i >= 6 {
			raw = "testdata/compare/slow.jsonl"
		}
		_, errOut, code := inProcess("history", "add", "--store", store, "--dir", repo, "--machine", "ci", raw)
		require.Equal(t, 0, code, errOut)
		assert.NotContains(t, errOut, "warning")
		head, err := os.ReadFile(filepath.Join(repo, ".git", "refs", "heads", "main"))
		require.NoError(t, err)
		commits = append(commits, strings.TrimSpace(string(head)))
	}

	js, errOut, code := inProcess("history", "--json", "-", "--store", store)
	require.Equal(t, 0, code, errOut)
	assert.NotContains(t, errOut, "warning")
	var a struct {
		Order        map[string]int `json:"order"`
		ChangePoints []struct {
			Bench  string  `json:"bench"`
			Unit   string  `json:"unit"`
			Commit string  `json:"commit"`
			Change float64 `json:"change"`
		} `json:"change_points"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &a))
	assert.Empty(t, a.Order, "the graph placed every commit")
	require.Len(t, a.ChangePoints, 1, js)
	assert.Equal(t, "BenchmarkParse/small-8", a.ChangePoints[0].Bench)
	assert.Equal(t, commits[6], a.ChangePoints[0].Commit)
	assert.InDelta(t, 0.25, a.ChangePoints[0].Change, 0.05)

	byArg, _, code := inProcess("history", "--json", "-", store)
	require.Equal(t, 0, code)
	assert.Equal(t, js, byArg)

	exported, errOut, code := inProcess("history", "export", store)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, exported, `"position":7`)
	exported2, _, code := inProcess("history", "export", "--store", store)
	require.Equal(t, 0, code)
	assert.Equal(t, exported, exported2)
}

// TestHistoryStoreArgument: the store is --store FILE or the argument of
// history and history export, not two different ones.
func TestHistoryStoreArgument(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "h.db")
	require.Equal(t, 0, exitCode("history", "import", "--store", store, historyFile(t)))
	other := filepath.Join(dir, "other.db")
	for _, args := range [][]string{
		{"history", "--store", other, store},
		{"history", "export", "--store", other, store},
	} {
		_, errOut, code := inProcess(args...)
		assert.Equal(t, 2, code, "%v", args)
		assert.Contains(t, errOut, "name two stores", "%v", args)
	}
	_, errOut, code := inProcess("history", "export", store, store)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "history export takes one store file")
	for _, args := range [][]string{
		{"history", "--store", store, store},
		{"history", "export", "-s", store, store},
	} {
		_, errOut, code := inProcess(args...)
		assert.Equal(t, 0, code, "%v: the same store named twice: %s", args, errOut)
	}
}

// TestHistoryOldEntriesWarnOnce: entries recorded without their place in
// the commit graph are ordered by commit time, and a warning says so
// once.
func TestHistoryOldEntriesWarnOnce(t *testing.T) {
	out, errOut, code := inProcess("history", historyFile(t))
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, 1, strings.Count(errOut, "warning:"), errOut)
	assert.Contains(t, errOut, "40 commits were recorded without their place in the commit graph")
	assert.Contains(t, out, "order: 40 commits recorded without their place in the commit graph placed by commit time")
	assert.Contains(t, out, "1 change points", "ordered by time, the old history still finds its change")
}

// TestRunHistoryRecordsPlace runs the built command with --history at
// the second commit of a repository whose store already holds the first
// commit, recorded by a version that kept no place in the graph: the
// run records its commit's parents and position and places the first.
func TestRunHistoryRecordsPlace(t *testing.T) {
	repo := gitRepo(t, 1000, 1000)
	first := strings.TrimSpace(gitOutput(t, repo, "rev-parse", "HEAD~1"))
	second := strings.TrimSpace(gitOutput(t, repo, "rev-parse", "HEAD"))
	dir := t.TempDir()
	old := filepath.Join(dir, "old.jsonl")
	require.NoError(t, os.WriteFile(old, []byte(`{"commit":"`+first+`","commit_time":"2026-11-27T10:00:00Z","branch":"main","machine":"ci","bench":"BenchmarkChanged","unit":"ns/op","mean":1000,"processes":1}`+"\n"), 0o644))
	store := filepath.Join(dir, "h.db")
	require.Equal(t, 0, exitCode("history", "import", "--store", store, old))

	_, stderr, code := gobenchDyn(t, repo, append([]string{"run", "--history", store}, quickBaseline...)...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "1 commits recorded without their place in the commit graph placed")
	exported, errOut, code := inProcess("history", "export", store)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, exported, `"commit":"`+first+`","commit_time":"2026-11-27T10:00:00Z","branch":"main","position":1,`)
	assert.Contains(t, exported, `"parents":["`+first+`"],"position":2,`)
	assert.Contains(t, exported, `"commit":"`+second+`"`)
}

// gitOutput runs git with args in dir and returns its output.
func gitOutput(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	require.NoError(t, err)
	return string(out)
}
