// Package exits has a benchmark that exits the test binary on its first
// call, before go test prints anything of it, between two that work.
package exits

import (
	"os"
	"testing"
)

var sink int

func work(n int) {
	for i := range n {
		sink += i * i
	}
}

func BenchmarkFirst(b *testing.B) {
	for range b.N {
		work(100)
	}
}

func BenchmarkExits(b *testing.B) {
	os.Exit(3)
}

func BenchmarkLast(b *testing.B) {
	for range b.N {
		work(100)
	}
}
