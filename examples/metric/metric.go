// Package metric reports a custom unit with b.ReportMetric: comparisons per
// search, next to ns/op. The custom value is exactly the same in every
// slice (zero variance), which criteria must handle without dividing by
// zero, and the writer must carry to benchstat unchanged.
package metric

// Search returns the index of x in the sorted xs, or -1, and the number of
// comparisons it took.
func Search(xs []int, x int) (index, comparisons int) {
	lo, hi := 0, len(xs)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		comparisons++
		switch {
		case xs[mid] < x:
			lo = mid + 1
		case xs[mid] > x:
			hi = mid
		default:
			return mid, comparisons
		}
	}
	return -1, comparisons
}
