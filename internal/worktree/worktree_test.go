package worktree

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/gittest"
)

func TestAddAndRemove(t *testing.T) {
	repo := gittest.New(t, map[string]string{"pkg/f.txt": "old"})
	require.NoError(t, os.WriteFile(filepath.Join(repo, "pkg", "f.txt"), []byte("new"), 0o644))
	gittest.Git(t, repo, "commit", "-qam", "two")

	ctx := context.Background()
	wt, err := Add(ctx, filepath.Join(repo, "pkg"), "HEAD~1", t.TempDir())
	require.NoError(t, err)
	p, err := wt.Path(filepath.Join(repo, "pkg"))
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(p, "f.txt"))
	require.NoError(t, err)
	assert.Equal(t, "old", string(got))

	require.NoError(t, wt.Remove())
	assert.NoDirExists(t, wt.Dir)
	out, err := exec.Command("git", "-C", repo, "worktree", "list").Output()
	require.NoError(t, err)
	assert.NotContains(t, string(out), wt.Dir)

	_, err = Add(ctx, repo, "--output=/tmp/x", t.TempDir())
	assert.ErrorContains(t, err, "is not a commit")
	_, err = Add(ctx, repo, "no-such-ref", t.TempDir())
	assert.ErrorContains(t, err, "is not a commit")
}

// A revision missing from a shallow clone, as actions/checkout makes one
// by default, is named as such with the way out.
func TestAddShallowClone(t *testing.T) {
	repo := gittest.New(t, map[string]string{"f.txt": "one"})
	require.NoError(t, os.WriteFile(filepath.Join(repo, "f.txt"), []byte("two"), 0o644))
	gittest.CommitAll(t, repo, "two")
	clone := filepath.Join(t.TempDir(), "clone")
	gittest.Git(t, repo, "clone", "-q", "--depth", "1", "file://"+repo, clone)
	_, err := Add(context.Background(), clone, "HEAD~1", t.TempDir())
	require.ErrorIs(t, err, ErrShallow)
	assert.ErrorContains(t, err, `"HEAD~1" is not among the commits it holds`)
	assert.ErrorContains(t, err, "git fetch --unshallow")
	assert.ErrorContains(t, err, "fetch-depth: 0")
	assert.NotContains(t, err.Error(), "--baseline", "the caller names its flag")

	_, err = Add(context.Background(), repo, "HEAD~1", t.TempDir())
	assert.NoError(t, err, "the full clone has it")
}

// TestRemoveStale checks that a worktree left behind, directory and
// git's record alike, is removed.
func TestRemoveStale(t *testing.T) {
	repo := gittest.New(t, map[string]string{"f.txt": "x"})
	wt, err := Add(context.Background(), repo, "HEAD", t.TempDir())
	require.NoError(t, err)

	require.NoError(t, RemoveStale(wt.Dir))
	assert.NoDirExists(t, wt.Dir)
	out, err := exec.Command("git", "-C", repo, "worktree", "list").Output()
	require.NoError(t, err)
	assert.NotContains(t, string(out), wt.Dir)
	assert.NoError(t, RemoveStale(t.TempDir()), "no worktree, nothing to do")
}

// TestNoGitSaysSo checks that without git installed the error says so,
// not that the directory is outside a repository.
func TestNoGitSaysSo(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := Add(context.Background(), t.TempDir(), "HEAD", t.TempDir())
	require.ErrorIs(t, err, ErrNoGit)
	assert.Contains(t, err.Error(), "git is not installed")
	assert.NotContains(t, err.Error(), "not in a git repository")
}
