package asm

import "testing"

var sink int

func BenchmarkSub(b *testing.B) {
	for b.Loop() {
		sink = Sub(2, 1)
	}
}
