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

var outerOps int

// BenchmarkNested has a leaf whose name is the first levels of another's:
// a pattern for the longer one matches the shorter one in part, which go
// test then runs once, as a parent, without a result of its own.
func BenchmarkNested(b *testing.B) {
	b.Run("outer", func(b *testing.B) {
		for b.Loop() {
			outerOps++
		}
	})
	b.Run("outer/inner", func(b *testing.B) {
		for b.Loop() {
			sink++
		}
		b.ReportMetric(float64(outerOps), "outer-ops")
	})
}
