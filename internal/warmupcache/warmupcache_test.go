package warmupcache

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var bin = Binary{Package: "example.com/p", Code: "3b34e6bb48fa9060e7ee39f9", SliceTime: 100 * time.Millisecond}

// TestWarmupsOfABinary: what a run writes for a binary, a later run reads
// back for that binary only: another content or another slice time has
// none, and a later write keeps the other benchmarks' warmups.
func TestWarmupsOfABinary(t *testing.T) {
	d := Dir(filepath.Join(t.TempDir(), "warmup"))
	got, err := d.Read(bin)
	require.NoError(t, err)
	assert.Nil(t, got, "nothing cached yet")

	require.NoError(t, d.Write(bin, map[string]int{"BenchmarkA-2": 2, "BenchmarkB-2": 1}))
	got, err = d.Read(bin)
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"BenchmarkA-2": 2, "BenchmarkB-2": 1}, got)

	for _, other := range []Binary{{Package: bin.Package, Code: "other", SliceTime: bin.SliceTime}, {Package: bin.Package, Code: bin.Code, SliceTime: 50 * time.Millisecond}, {Package: "example.com/q", Code: bin.Code, SliceTime: bin.SliceTime}} {
		got, err = d.Read(other)
		require.NoError(t, err)
		assert.Nil(t, got, "%+v", other)
	}

	require.NoError(t, d.Write(bin, map[string]int{"BenchmarkA-2": 3}))
	got, err = d.Read(bin)
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"BenchmarkA-2": 3, "BenchmarkB-2": 1}, got)

	assert.Error(t, d.Write(bin, map[string]int{"BenchmarkC-2": 0}), "no warmup is not a learned one")
	require.NoError(t, d.Write(bin, nil), "nothing learned, nothing written")
}

// TestBadFileIsNamed: a file that does not read as the cache's, or holds
// a warmup no run learns, is an error naming it; a run then learns again
// and replaces it.
func TestBadFileIsNamed(t *testing.T) {
	d := Dir(t.TempDir())
	for _, data := range []string{
		"{",
		`{"version": 9, "pkg": "example.com/p", "code": "3b34e6bb48fa9060e7ee39f9", "slice_ns": 100000000, "warmups": {}}`,
		`{"version": 2, "pkg": "example.com/q", "code": "3b34e6bb48fa9060e7ee39f9", "slice_ns": 100000000, "warmups": {}}`,
		`{"version": 2, "pkg": "example.com/p", "code": "3b34e6bb48fa9060e7ee39f9", "slice_ns": 100000000, "warmups": {"BenchmarkA-2": -1}}`,
	} {
		require.NoError(t, os.WriteFile(d.path(bin), []byte(data), 0o644))
		_, err := d.Read(bin)
		require.Error(t, err, data)
		assert.Contains(t, err.Error(), d.path(bin))
	}
	require.NoError(t, d.Write(bin, map[string]int{"BenchmarkA-2": 2}))
	got, err := d.Read(bin)
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"BenchmarkA-2": 2}, got)
}

// FuzzParse: any file reads as the warmups of the binary it was written
// for, each of 1 to MaxWarmup slices, or as an error.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"version": 2, "pkg": "example.com/p", "code": "3b34e6bb48fa9060e7ee39f9", "slice_ns": 100000000, "warmups": {"BenchmarkA-2": 2}}`))
	f.Add([]byte(`{"version": 1}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := parse("f.json", data, bin)
		if err != nil {
			return
		}
		for name, w := range got {
			if w < 1 || w > MaxWarmup {
				t.Fatalf("%s: warmup %d accepted", name, w)
			}
		}
	})
}
