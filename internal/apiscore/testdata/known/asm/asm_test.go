package asm

import "testing"

func BenchmarkSub(b *testing.B) {
	for b.Loop() {
		_ = Sub(2, 1)
	}
}
