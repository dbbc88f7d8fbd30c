// Package loopsetup has two benchmarks with a large setup, one written
// with b.Loop and one with a b.N loop. Each setup appends a line to the
// file SETUP_LOG names, so that a test counts setups, not time, and
// SETUP_SLEEP makes it last at least that long.
package loopsetup

import (
	"os"
	"testing"
	"time"
)

var sink []byte

// setup stands for a benchmark's costly input: it logs its call,
// sleeps for SETUP_SLEEP if set, and allocates a large slice.
func setup(b *testing.B) []byte {
	if d, err := time.ParseDuration(os.Getenv("SETUP_SLEEP")); err == nil {
		time.Sleep(d)
	}
	if name := os.Getenv("SETUP_LOG"); name != "" {
		f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.WriteString(b.Name() + "\n"); err != nil {
			b.Fatal(err)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
	}
	return make([]byte, 1<<22)
}

func BenchmarkLoop(b *testing.B) {
	in := setup(b)
	for b.Loop() {
		sink = append([]byte(nil), in[:64]...)
	}
}

func BenchmarkN(b *testing.B) {
	in := setup(b)
	b.ResetTimer()
	for range b.N {
		sink = append([]byte(nil), in[:64]...)
	}
}
