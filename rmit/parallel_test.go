package rmit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The benchmarks that run b.RunParallel, directly or through helpers of
// their test files, are found; the others are not.
func TestParallelBenchmarks(t *testing.T) {
	dir := t.TempDir()
	src := `package p

import "testing"

func BenchmarkDirect(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
		}
	})
}

func BenchmarkHelper(b *testing.B) { b.Run("x", func(b *testing.B) { viaHelper(b) }) }

func viaHelper(b *testing.B) { deeper(b) }

func deeper(b *testing.B) { b.RunParallel(func(pb *testing.PB) {}) }

func BenchmarkSerial(b *testing.B) {
	for b.Loop() {
	}
}
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p_test.go"), []byte(src), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "broken_test.go"), []byte("package p\nfunc {"), 0o644))
	assert.Equal(t, map[string]bool{"BenchmarkDirect": true, "BenchmarkHelper": true}, parallelBenchmarks(dir))
	assert.Empty(t, parallelBenchmarks(t.TempDir()))
}
