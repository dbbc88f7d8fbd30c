package vendored

import (
	"testing"

	"example.com/vend"
)

var sink int

func BenchmarkVend(b *testing.B) {
	for b.Loop() {
		sink = vend.Vend(3)
	}
}

func BenchmarkOwn(b *testing.B) {
	for b.Loop() {
		sink = Own(3)
	}
}
