// Package flags needs a flag of its own TestMain, as a suite whose input
// size is chosen on the command line does, and skips its long benchmark
// under -test.short: it runs only with arguments for the test binary.
package flags

import (
	"flag"
	"fmt"
	"os"
	"testing"
)

var size = flag.Int("size", 0, "input size; required")

func TestMain(m *testing.M) {
	flag.Parse()
	if *size <= 0 {
		fmt.Fprintln(os.Stderr, "flags: -size is required")
		os.Exit(2)
	}
	os.Exit(m.Run())
}

var sink int

func work(n int) {
	for i := range n {
		sink += i * i
	}
}

func BenchmarkSize(b *testing.B) {
	for range b.N {
		work(*size)
	}
}

func BenchmarkLong(b *testing.B) {
	if testing.Short() {
		b.Skip("long: skipped in -short mode")
	}
	for range b.N {
		work(100 * *size)
	}
}
