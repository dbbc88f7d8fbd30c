// Package onlytests has test files alone, as a module's separate
// benchmark package often does.
package onlytests_test

import (
	"testing"

	"example.com/kinds"
)

var sink int

func BenchmarkOnlyTests(b *testing.B) {
	for b.Loop() {
		sink = kinds.Untouched(3)
	}
}
