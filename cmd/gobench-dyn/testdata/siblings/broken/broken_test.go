// Package broken holds a benchmark that go test -bench . rejects: its
// parent fails after its sub-benchmarks, whatever ran.
package broken

import "testing"

var sink int

func BenchmarkParentFails(b *testing.B) {
	b.Run("one", func(b *testing.B) {
		for i := range b.N {
			sink += i
		}
	})
	b.Run("two", func(b *testing.B) {
		for i := range b.N {
			sink -= i
		}
	})
	b.Fatal("the parent always fails")
}
