package overlay

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteMergesTheUsersOverlay(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user.json")
	require.NoError(t, os.WriteFile(user, []byte(`{"Replace": {"/src/a.go": "a-new.go", "/src/gone.go": ""}}`), 0o600))
	out := filepath.Join(dir, "out")
	require.NoError(t, os.Mkdir(out, 0o700))
	path, err := Write(out, map[string][]byte{"/goroot/src/testing/benchmark.go": []byte("package testing\n")}, user)
	require.NoError(t, err)
	o, err := Read(path)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "a-new.go"), o.Replace["/src/a.go"], "a relative target is the user file's neighbour")
	assert.Equal(t, "", o.Replace["/src/gone.go"])
	ours := o.Replace["/goroot/src/testing/benchmark.go"]
	data, err := os.ReadFile(ours)
	require.NoError(t, err)
	assert.Equal(t, "package testing\n", string(data))
}

func TestWriteRefusesAClash(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user.json")
	require.NoError(t, os.WriteFile(user, []byte(`{"Replace": {"/goroot/src/testing/benchmark.go": "/elsewhere.go"}}`), 0o600))
	_, err := Write(dir, map[string][]byte{"/goroot/src/testing/benchmark.go": nil}, user)
	require.ErrorContains(t, err, "which gobench-dyn must replace itself")
}

func TestWriteNeedsAbsolutePaths(t *testing.T) {
	_, err := Write(t.TempDir(), map[string][]byte{"rel.go": nil}, "")
	require.ErrorContains(t, err, "not absolute")
}

func TestReadNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(path, []byte("{"), 0o600))
	_, err := Read(path)
	require.ErrorContains(t, err, path)
}
