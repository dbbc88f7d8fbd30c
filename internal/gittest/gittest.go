// Package gittest makes throwaway git repositories for tests, with a fixed
// author and committer so that commits work on a machine where git knows
// no identity.
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// Git runs git with args in dir; a failure fails t with git's output.
func Git(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
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
