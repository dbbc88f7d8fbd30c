// Package broken does not compile: its benchmark is never run, and the
// compiler's message is reported.
package broken

import "testing"

func BenchmarkBroken(b *testing.B) {
	var n int = "not a number"
	_ = n
}
