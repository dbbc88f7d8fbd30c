package sizes

import "testing"

var sink float64

// BenchmarkSum sums slices of several sizes, under tricky names.
func BenchmarkSum(b *testing.B) {
	for _, c := range []struct {
		name string
		size int
	}{
		{"size=16", 16},
		{"size=1024", 1024},
		{"with space", 64}, // go test prints "with_space"
		{"a+b(c)", 64},     // regexp metacharacters
		{"größe=64", 64},   // non-ASCII
		{"size=16", 16},    // duplicate: go test prints "size=16#01"
	} {
		xs := make([]float64, c.size)
		for i := range xs {
			xs[i] = float64(i)
		}
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink += Sum(xs)
			}
		})
	}
}
