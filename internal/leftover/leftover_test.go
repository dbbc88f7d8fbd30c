package leftover

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// deadPID returns the pid of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, "-test.run=^$")
	require.NoError(t, cmd.Run())
	return cmd.Process.Pid
}

func TestSweepRemovesOnlyWhatDeadProcessesLeft(t *testing.T) {
	dir := t.TempDir()
	dead := deadPID(t)
	mk := func(name string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Join(p, "sub"), 0o700))
		return p
	}
	stale := mk(fmt.Sprintf("x-%d-%d-123", dead, namespace()))
	mine, err := os.MkdirTemp(dir, "x-"+tag())
	require.NoError(t, err)
	live := mk(fmt.Sprintf("x-%d-%d-123", os.Getppid(), namespace()))
	otherNS := mk(fmt.Sprintf("x-%d-%d-123", dead, namespace()+1))
	foreign := mk("x-e2e-123")
	old := mk("x-123456")

	var before []string
	removed := Sweep(dir, "x-", func(p string) { before = append(before, p) })
	assert.Equal(t, []string{stale}, removed)
	assert.Equal(t, []string{stale}, before)
	assert.NoDirExists(t, stale)
	for _, p := range []string{mine, live, otherNS, foreign, old} {
		assert.DirExists(t, p)
	}
}

func TestCreateTempIsSwept(t *testing.T) {
	dir := t.TempDir()
	f, err := CreateTemp(dir, ".out.tmp")
	require.NoError(t, err)
	f.Close()
	assert.Empty(t, Sweep(dir, ".out.tmp", nil), "its process is alive: this one")
	pid, ns, ok := owner(filepath.Base(f.Name()), ".out.tmp")
	require.True(t, ok)
	assert.Equal(t, os.Getpid(), pid)
	assert.Equal(t, namespace(), ns)
}
