// Package suite is a small benchmark suite with known behaviour, used by
// the runner's tests. Benchmarks misbehave only when asked to through
// SUITE_FAULT, so that one binary serves every test.
package suite

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

var sink int

func work(n int) {
	for i := range n {
		sink += i * i
	}
}

func BenchmarkFast(b *testing.B) {
	for b.Loop() {
		work(100)
	}
}

func BenchmarkSizes(b *testing.B) {
	for _, name := range []string{"size=16", "a+b(c)", "with space", "größe", "dup", "dup"} {
		b.Run(name, func(b *testing.B) {
			for range b.N {
				work(50)
			}
		})
	}
}

func BenchmarkPrints(b *testing.B) {
	fmt.Print("noise from the benchmark ")
	for range b.N {
		work(100)
	}
	fmt.Println("more noise")
}

func BenchmarkFaulty(b *testing.B) {
	switch os.Getenv("SUITE_FAULT") {
	case "panic":
		panic("boom")
	case "fatal":
		b.Fatal("fatal failure")
	case "hang":
		time.Sleep(time.Hour)
	}
	for range b.N {
		work(100)
	}
}

func BenchmarkReadsFile(b *testing.B) {
	data, err := os.ReadFile("testdata/input.txt")
	if err != nil {
		b.Fatal(err)
	}
	for range b.N {
		sink += strings.Count(string(data), "a")
	}
}
