package worktree

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/gittest"
)

// behindMain makes a repository whose branch "feature" forked from main at
// the commit "fork" and is now behind it: main has moved on by the commit
// "main moved". It returns the repository, checked out on feature, and the
// hash of the fork point.
func behindMain(t *testing.T) (repo, fork string) {
	t.Helper()
	repo = gittest.New(t, map[string]string{"f.txt": "one"})
	gittest.Git(t, repo, "branch", "-M", "main")
	write := func(content string) {
		require.NoError(t, os.WriteFile(filepath.Join(repo, "f.txt"), []byte(content), 0o644))
	}
	write("fork")
	gittest.CommitAll(t, repo, "fork")
	fork = revParse(t, repo, "HEAD")
	gittest.Git(t, repo, "checkout", "-qb", "feature")
	write("feature")
	gittest.CommitAll(t, repo, "feature")
	gittest.Git(t, repo, "checkout", "-q", "main")
	write("main moved")
	gittest.CommitAll(t, repo, "main moved")
	gittest.Git(t, repo, "checkout", "-q", "feature")
	return repo, fork
}

func revParse(t *testing.T, dir, rev string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "rev-parse", rev).Output()
	require.NoError(t, err)
	return strings.TrimSpace(string(out))
}

// A branch behind main compares against the commit it forked from, not
// against main's tip, which holds a change the branch does not.
func TestAddMergeBase(t *testing.T) {
	repo, fork := behindMain(t)
	ctx := context.Background()

	wt, err := Add(ctx, repo, "merge-base:main", t.TempDir())
	require.NoError(t, err)
	defer wt.Remove()
	assert.Equal(t, fork, wt.Rev)
	got, err := os.ReadFile(filepath.Join(wt.Dir, "f.txt"))
	require.NoError(t, err)
	assert.Equal(t, "fork", string(got))

	tip, err := Resolve(ctx, repo, "main")
	require.NoError(t, err)
	assert.Equal(t, revParse(t, repo, "main"), tip)
	assert.NotEqual(t, fork, tip, "the tip of main is not where the branch forked")

	_, err = Resolve(ctx, repo, "merge-base:")
	assert.ErrorContains(t, err, `names no revision`)
	_, err = Resolve(ctx, repo, "merge-base:no-such-ref")
	assert.ErrorContains(t, err, `"no-such-ref" is not a commit`)
	_, err = Resolve(ctx, repo, "merge-base:--output=/tmp/x")
	assert.ErrorContains(t, err, "is not a commit")

	// A history with no commit in common with HEAD has no merge base.
	gittest.Git(t, repo, "checkout", "-q", "--orphan", "unrelated")
	gittest.CommitAll(t, repo, "unrelated")
	_, err = Resolve(ctx, repo, "merge-base:main")
	assert.ErrorContains(t, err, `HEAD and "main" have no commit in common`)
}

// A shallow clone that holds both tips but not the commit they share gets
// the message of every revision it lacks.
func TestMergeBaseShallowClone(t *testing.T) {
	repo, _ := behindMain(t)
	clone := filepath.Join(t.TempDir(), "clone")
	gittest.Git(t, repo, "clone", "-q", "--depth", "1", "--no-single-branch", "--branch", "feature", "file://"+repo, clone)
	_, err := Resolve(context.Background(), clone, "merge-base:origin/main")
	require.ErrorIs(t, err, ErrShallow)
	assert.ErrorContains(t, err, `the merge base of HEAD and "origin/main" is not among the commits it holds`)
	assert.ErrorContains(t, err, "fetch-depth: 0")

	_, err = Resolve(context.Background(), clone, "merge-base:origin/gone")
	require.ErrorIs(t, err, ErrShallow, "a target the clone lacks")
	assert.ErrorContains(t, err, `"origin/gone" is not among the commits it holds`)
}
