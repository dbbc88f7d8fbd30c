package leaves

import "testing"

var sink int

// BenchmarkParent has one leaf that reaches Changed and one that does not.
func BenchmarkParent(b *testing.B) {
	b.Run("reached", func(b *testing.B) {
		for b.Loop() {
			sink = Changed(3)
		}
	})
	b.Run("unreached", func(b *testing.B) {
		for b.Loop() {
			sink = Other(3)
		}
	})
}

// BenchmarkNested shares one helper between its first-level leaves, as
// suites that run each input with each implementation do.
func BenchmarkNested(b *testing.B) {
	b.Run("small", func(b *testing.B) { nested(b, 1) })
	b.Run("large", func(b *testing.B) { nested(b, 2) })
}

func nested(b *testing.B, n int) {
	b.Run("changed", func(b *testing.B) {
		for b.Loop() {
			sink = Changed(n)
		}
	})
	b.Run("other", func(b *testing.B) {
		for b.Loop() {
			sink = Other(n)
		}
	})
}

// BenchmarkTable runs each leaf through a function read from a table:
// the call graph says either leaf can call Changed.
func BenchmarkTable(b *testing.B) {
	for _, c := range []struct {
		name string
		f    func(int) int
	}{{"changed", Changed}, {"other", Other}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				sink = c.f(3)
			}
		})
	}
}

// BenchmarkDense never executes Changed in one op, but can call it.
func BenchmarkDense(b *testing.B) {
	b.Run("small", func(b *testing.B) {
		for b.Loop() {
			sink = Dense(3)
		}
	})
	b.Run("other", func(b *testing.B) {
		for b.Loop() {
			sink = Other(3)
		}
	})
}

// BenchmarkUntouched reaches no change.
func BenchmarkUntouched(b *testing.B) {
	b.Run("a", func(b *testing.B) {
		for b.Loop() {
			sink = Other(1)
		}
	})
	b.Run("b", func(b *testing.B) {
		for b.Loop() {
			sink = Other(2)
		}
	})
}
