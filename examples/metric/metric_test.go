package metric

import "testing"

// BenchmarkSearch looks up 1000 keys, in turn, in 1000 sorted numbers and
// reports comparisons per search, a constant for a fixed b.N multiple of
// 1000 and nearly constant otherwise.
func BenchmarkSearch(b *testing.B) {
	xs := make([]int, 1000)
	for i := range xs {
		xs[i] = 2 * i
	}
	total := 0
	for i := 0; i < b.N; i++ {
		_, c := Search(xs, 2*(i%1000))
		total += c
	}
	b.ReportMetric(float64(total)/float64(b.N), "cmps/op")
}
