package gitrepo_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/gitrepo"
	"github.com/gobench-dyn/gobench-dyn/internal/gittest"
)

func TestChanges(t *testing.T) {
	repo := gittest.New(t, map[string]string{"calc.go": "package calc\n"})
	ctx := context.Background()
	got, err := gitrepo.Changes(ctx, repo)
	require.NoError(t, err)
	assert.Empty(t, got)

	// Results of an earlier run lying around change nothing.
	require.NoError(t, os.WriteFile(filepath.Join(repo, "bench.txt"), []byte("x"), 0o644))
	got, err = gitrepo.Changes(ctx, repo)
	require.NoError(t, err)
	assert.Empty(t, got)

	require.NoError(t, os.WriteFile(filepath.Join(repo, "calc.go"), []byte("package calc // edited\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(repo, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(repo, "sub", "new.go"), []byte("package sub\n"), 0o644))
	got, err = gitrepo.Changes(ctx, filepath.Join(repo, "sub"))
	require.NoError(t, err)
	assert.Equal(t, []string{"M calc.go", "?? sub/new.go"}, got)
}

// TestDiff checks that a change since the revision, staged or not, and a
// new file git does not ignore are listed, and nothing else.
func TestDiff(t *testing.T) {
	repo := gittest.New(t, map[string]string{"a.go": "package a\n", "b.go": "package a\n", ".gitignore": "out/\n"})
	ctx := context.Background()
	got, err := gitrepo.Diff(ctx, repo, "HEAD")
	require.NoError(t, err)
	assert.NotNil(t, got, "nothing differs: empty, not unknown")
	assert.Empty(t, got)

	require.NoError(t, os.WriteFile(filepath.Join(repo, "a.go"), []byte("package a // edited\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(repo, "c.go"), []byte("package a\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(repo, "out"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(repo, "out", "r.txt"), []byte("x"), 0o644))
	got, err = gitrepo.Diff(ctx, repo, "HEAD")
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"a.go", "c.go"}, got)
}

// TestErrors checks that a failure carries git's own message, and that a
// missing git is told apart from a failing one.
func TestErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	_, err := gitrepo.TopLevel(ctx, dir)
	var ge *gitrepo.Error
	require.ErrorAs(t, err, &ge)
	assert.Equal(t, "rev-parse", ge.Subcommand)
	assert.Contains(t, err.Error(), dir+" is not in a git repository: git rev-parse: fatal: not a git repository")

	t.Setenv("PATH", t.TempDir())
	require.Error(t, gitrepo.Installed())
	_, err = gitrepo.TopLevel(ctx, dir)
	require.ErrorIs(t, err, exec.ErrNotFound)
	assert.NotContains(t, err.Error(), "not in a git repository")
}

// TestCommits checks the commit queries on a repository of two commits.
func TestCommits(t *testing.T) {
	repo := gittest.New(t, map[string]string{"f.txt": "one"})
	require.NoError(t, os.WriteFile(filepath.Join(repo, "f.txt"), []byte("two"), 0o644))
	gittest.CommitAll(t, repo, "two")
	ctx := context.Background()
	head, at, _, err := gitrepo.Head(ctx, repo)
	require.NoError(t, err)
	first, err := gitrepo.Commit(ctx, repo, "HEAD~1")
	require.NoError(t, err)
	hash, at2, err := gitrepo.CommitTime(ctx, repo, "HEAD")
	require.NoError(t, err)
	assert.Equal(t, head, hash)
	assert.True(t, at.Equal(at2))

	parents, err := gitrepo.Parents(ctx, repo, head)
	require.NoError(t, err)
	assert.Equal(t, []string{first}, parents)
	n, err := gitrepo.FirstParentCount(ctx, repo, head)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	line, err := gitrepo.FirstParentLine(ctx, repo)
	require.NoError(t, err)
	assert.Equal(t, []gitrepo.LineCommit{{Hash: first, Parents: []string{}}, {Hash: head, Parents: []string{first}}}, line)
	shallow, err := gitrepo.Shallow(ctx, repo)
	require.NoError(t, err)
	assert.False(t, shallow)
}
