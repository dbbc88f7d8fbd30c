package bench

import (
	"testing"

	"example.com/lib"
	"example.com/rep"
)

var sink int

func BenchmarkOwn(b *testing.B) {
	for b.Loop() {
		sink = Own(3)
	}
}

func BenchmarkLib(b *testing.B) {
	for b.Loop() {
		sink = lib.Lib(3)
	}
}

func BenchmarkRep(b *testing.B) {
	for b.Loop() {
		sink = rep.Rep(3)
	}
}

func BenchmarkRead(b *testing.B) {
	for b.Loop() {
		sink = Count("testdata/input.txt")
	}
}

func BenchmarkShared(b *testing.B) {
	for b.Loop() {
		sink = Count("../shared/table.txt")
	}
}

func BenchmarkEmbedded(b *testing.B) {
	for b.Loop() {
		sink = Embedded()
	}
}
