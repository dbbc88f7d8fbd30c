// Package alloc builds short-lived maps and slices, so its timings depend
// on the garbage collector: heap growth in the first slices of a process
// and GC cycles landing in some slices but not others make it noisier than
// package stable, with nonzero B/op and allocs/op.
package alloc

import "strconv"

// Index maps each of n generated keys to the list of its positions.
func Index(n int) map[string][]int {
	m := make(map[string][]int)
	for i := range n {
		k := "key" + strconv.Itoa(i%(n/4+1))
		m[k] = append(m[k], i)
	}
	return m
}
