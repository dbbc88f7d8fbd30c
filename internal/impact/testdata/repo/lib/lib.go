// Package lib is a workspace module.
package lib

// Lib sums 0..n-1.
func Lib(n int) int {
	s := 0
	for i := range n {
		s += i
	}
	return s
}
