package siblings

import "testing"

var sink uint64

// BenchmarkParentReads checks, between its sub-benchmarks, what the first
// one computed: run alone, "again" and "idle" fail.
func BenchmarkParentReads(b *testing.B) {
	counted := 0
	b.Run("count", func(b *testing.B) {
		for range b.N {
			sink = Hot(sink, 400)
			counted++
		}
	})
	if counted == 0 {
		b.Fatalf("count did not run: %d", counted)
	}
	b.Run("again", func(b *testing.B) {
		for range b.N {
			sink = Hot(sink, 400)
		}
	})
	// idle fails alone too, and reaches no candidate.
	b.Run("idle", func(b *testing.B) {
		for range b.N {
			sink++
		}
	})
}

// BenchmarkSkipsAlone has a sub-benchmark that skips unless its sibling
// prepared its input.
func BenchmarkSkipsAlone(b *testing.B) {
	var input []int
	b.Run("prepare", func(b *testing.B) {
		for range b.N {
			sink = Hot(sink, 400)
		}
		input = []int{1, 2, 3, 4}
	})
	b.Run("use", func(b *testing.B) {
		if input == nil {
			b.Skip("prepare did not run")
		}
		for b.Loop() {
			sink = Hot(sink, len(input)*100)
		}
	})
}
