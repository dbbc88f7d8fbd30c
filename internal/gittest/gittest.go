// Package gittest makes throwaway git repositories for tests, with a fixed
// author and committer so that commits work on a machine where git knows
// no identity.
package gittest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gobench-dyn/gobench-dyn/internal/gitrepo"
	"github.com/stretchr/testify/require"
)

// identity is the author and committer of every commit a test makes.
var identity = gitrepo.Identity{Name: "t", Email: "t@example.com"}

// Git runs git with args in dir; a failure fails t with git's output.
func Git(t testing.TB, dir string, args ...string) {
	t.Helper()
	_, err := gitrepo.RunAs(context.Background(), dir, identity, args...)
	require.NoError(t, err)
}

// CommitAll stages everything in dir and commits it as msg.
func CommitAll(t testing.TB, dir, msg string) {
	t.Helper()
	Git(t, dir, "add", ".")
	Git(t, dir, "commit", "-qm", msg)
}

// New makes a repository in a new temporary directory whose first commit,
// "one", holds files (slash-separated path to content), and returns the
// directory.
func New(t testing.TB, files map[string]string) string {
	t.Helper()
	repo := t.TempDir()
	Git(t, repo, "init", "-q")
	for path, content := range files {
		p := filepath.Join(repo, filepath.FromSlash(path))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	CommitAll(t, repo, "one")
	return repo
}
