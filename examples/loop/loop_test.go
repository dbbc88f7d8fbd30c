package loop

import "testing"

// BenchmarkFormat formats 100 floats per operation.
func BenchmarkFormat(b *testing.B) {
	xs := make([]float64, 100)
	for i := range xs {
		xs[i] = float64(i) * 1.1
	}
	buf := make([]byte, 0, 4096)
	for b.Loop() {
		buf = Format(buf[:0], xs)
	}
}
