package atomicfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCommitReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	f, err := Create(path)
	require.NoError(t, err)
	_, err = f.WriteString("new")
	require.NoError(t, err)
	got, _ := os.ReadFile(path)
	assert.Equal(t, "old", string(got), "the target is untouched until Commit")
	require.NoError(t, f.Commit())
	got, _ = os.ReadFile(path)
	assert.Equal(t, "new", string(got))
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1, "no temporary file is left")
}

func TestAbandonKeepsOld(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	f, err := Create(path)
	require.NoError(t, err)
	_, _ = f.WriteString("half")
	f.Abandon()
	f.Abandon()
	got, _ := os.ReadFile(path)
	assert.Equal(t, "old", string(got))
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1)
	assert.Error(t, f.Commit())
}

func TestCreateFailsEarly(t *testing.T) {
	_, err := Create(filepath.Join(t.TempDir(), "missing", "out.txt"))
	assert.Error(t, err)
}

// TestCreateErrorNamesThePath checks that a failure to create names the
// path the caller gave, not the temporary file beside it.
func TestCreateErrorNamesThePath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "dir", "out.txt")
	_, err := Create(path)
	require.Error(t, err)
	assert.Equal(t, "create "+path+": no such file or directory", err.Error())
	assert.NotContains(t, err.Error(), ".tmp")
}

// TestAbandonDuringCommit abandons from another goroutine while the file
// commits, as an abort on a second interrupt does: whichever comes first,
// no temporary file is left.
func TestAbandonDuringCommit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	for range 200 {
		f, err := Create(path)
		require.NoError(t, err)
		_, err = f.WriteString("results\n")
		require.NoError(t, err)
		done := make(chan struct{})
		go func() { f.Abandon(); close(done) }()
		_ = f.Commit()
		<-done
		left, err := filepath.Glob(filepath.Join(dir, ".out.txt.tmp*"))
		require.NoError(t, err)
		require.Empty(t, left)
	}
}

// TestDeviceIsWrittenInPlace: a target that is no regular file, such as
// /dev/null, is written in place; renaming over it would replace the
// device with a file for everyone on the machine.
func TestDeviceIsWrittenInPlace(t *testing.T) {
	before, err := os.Stat(os.DevNull)
	if err != nil || before.Mode()&os.ModeDevice == 0 {
		t.Skipf("%s is not a device here", os.DevNull)
	}
	for _, commit := range []bool{true, false} {
		f, err := Create(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString("results\n"); err != nil {
			t.Fatal(err)
		}
		if commit {
			if err := f.Commit(); err != nil {
				t.Fatal(err)
			}
		} else {
			f.Abandon()
		}
		after, err := os.Stat(os.DevNull)
		if err != nil || after.Mode() != before.Mode() {
			t.Fatalf("%s is now %v (was %v): %v", os.DevNull, after.Mode(), before.Mode(), err)
		}
	}
}

// TestWriteErrorNamesThePath checks that a write that fails names the path
// the caller gave, not the temporary file beside it.
func TestWriteErrorNamesThePath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	f, err := Create(path)
	require.NoError(t, err)
	f.File.Close() // the next write fails
	_, err = f.WriteString("x")
	require.Error(t, err)
	assert.Contains(t, err.Error(), path)
	assert.NotContains(t, err.Error(), ".tmp")
	f.Abandon()
}
