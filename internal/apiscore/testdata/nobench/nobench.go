// Package nobench has tests but no benchmarks.
package nobench

// F returns 1.
func F() int { return 1 }
