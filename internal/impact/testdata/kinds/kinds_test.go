package kinds

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) { os.Exit(m.Run()) }

var sink int

func BenchmarkBody(b *testing.B) {
	for b.Loop() {
		sink = Body(3)
	}
}

func BenchmarkDouble(b *testing.B) {
	for b.Loop() {
		sink = Double(3)
	}
}

func BenchmarkClosure(b *testing.B) {
	for b.Loop() {
		sink = Closure(3)
	}
}

func BenchmarkPoint(b *testing.B) {
	for b.Loop() {
		p := NewPoint()
		sink = p.X
	}
}

func BenchmarkScale(b *testing.B) {
	for b.Loop() {
		sink = UseScale(3)
	}
}

func BenchmarkTable(b *testing.B) {
	for b.Loop() {
		sink = UseTable(3)
	}
}

func BenchmarkRegistry(b *testing.B) {
	for b.Loop() {
		sink = UseRegistry()
	}
}

func BenchmarkData(b *testing.B) {
	for b.Loop() {
		sink = UseData()
	}
}

func BenchmarkUntouched(b *testing.B) {
	for b.Loop() {
		sink = Untouched(3)
	}
}

func BenchmarkOwn(b *testing.B) {
	for b.Loop() {
		sink = setup(3)
	}
}

// setup is a test helper only BenchmarkOwn calls.
func setup(n int) int { return n * 7 }
