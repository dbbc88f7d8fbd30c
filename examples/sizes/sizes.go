// Package sizes has sub-benchmarks over input sizes, whose time grows with
// the size, and sub-benchmark names that go test rewrites or that need
// quoting in a -test.bench pattern: a space (printed as "_"), regexp
// metacharacters, non-ASCII letters, and a duplicate name (printed with
// "#01"). Selecting each leaf on its own must find exactly that leaf.
package sizes

// Sum returns the sum of xs.
func Sum(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}
