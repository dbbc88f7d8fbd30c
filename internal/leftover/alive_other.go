//go:build !unix && !windows

package leftover

// alive reports every process alive: this system cannot tell, and nothing
// is removed that might still be in use.
func alive(int) bool { return true }
