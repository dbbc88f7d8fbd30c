// Package vend is a vendored dependency.
package vend

// Vend triples n.
func Vend(n int) int {
	return 3 * n
}
