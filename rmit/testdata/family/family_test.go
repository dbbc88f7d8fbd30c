// Package family holds a family of sub-benchmarks that go test -bench .
// accepts although its later leaves fail alone: the parent checks what
// the first computed, and the last skips unless it ran.
package family

import "testing"

var sink, calls int

func BenchmarkFamily(b *testing.B) {
	ran := 0
	b.Run("first", func(b *testing.B) {
		for i := range b.N {
			sink += i
		}
		ran++
	})
	if ran == 0 {
		b.Fatal("first did not run")
	}
	b.Run("with space", func(b *testing.B) {
		// How often package testing called it, setup and all.
		calls++
		for i := range b.N {
			sink -= i
		}
		b.ReportMetric(float64(calls), "calls")
	})
	b.Run("first", func(b *testing.B) {
		for i := range b.N {
			sink += i
		}
	})
	b.Run("loop", func(b *testing.B) {
		if ran == 0 {
			b.Skip("first did not run")
		}
		for b.Loop() {
			sink++
		}
	})
}

func BenchmarkAlone(b *testing.B) {
	for i := range b.N {
		sink += i
	}
}
