package history

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpenSource checks that an export is read whole and a store is
// opened, and that a missing history is not created.
func TestOpenSource(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none.db")
	_, _, err := OpenSource(missing)
	assert.EqualError(t, err, missing+": no such history store (run --history or history add writes one)")
	assert.NoFileExists(t, missing)

	es := []Entry{{Commit: "c1", CommitTime: time.Unix(0, 0).UTC(), Machine: "m", Package: "p", Benchmark: "BenchmarkA", Unit: "ns/op",
		Mean: 10, Lo: 9, Hi: 11, Confidence: 0.95, Processes: 2}}
	var buf bytes.Buffer
	require.NoError(t, WriteJSONL(&buf, es))
	jsonl := filepath.Join(dir, "h.jsonl")
	require.NoError(t, os.WriteFile(jsonl, buf.Bytes(), 0o644))
	src, store, err := OpenSource(jsonl)
	require.NoError(t, err)
	assert.Nil(t, store, "an export is no store")
	assert.Len(t, src, 1)

	db := filepath.Join(dir, "h.db")
	s, err := Open(db)
	require.NoError(t, err)
	require.NoError(t, s.Close())
	src, store, err = OpenSource(db)
	require.NoError(t, err)
	require.NotNil(t, store)
	assert.Same(t, store, src)
	require.NoError(t, store.Close())
}
