// Package rep is a module that bench replaces by this directory.
package rep

// Rep doubles n.
func Rep(n int) int {
	return 2 * n
}
