// Package siblings holds benchmarks that go test -bench . accepts although
// some of their leaves fail when run alone: they depend on their siblings,
// on their parent or on what TestMain sees. Each reports a fixed ns/op
// (fixed), so that a comparison of a version with itself finds no change
// on any machine and under any load.
package siblings

import (
	"fmt"
	"os"
	"testing"
)

var sink uint64

func work(n int) {
	x := uint64(1)
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	sink += x
}

// fixed reports the same time per op in every run.
func fixed(b *testing.B) { b.ReportMetric(1000, "ns/op") }

// benchmarks counts the benchmark functions run; TestMain prints it.
var benchmarks int

func TestMain(m *testing.M) {
	code := m.Run()
	fmt.Fprintf(os.Stderr, "TestMain: %d benchmark calls\n", benchmarks)
	os.Exit(code)
}

// BenchmarkParentReads checks, between its sub-benchmarks, what the first
// one computed: run alone, "again" fails.
func BenchmarkParentReads(b *testing.B) {
	benchmarks++
	counted := 0
	b.Run("count", func(b *testing.B) {
		for range b.N {
			work(100)
			counted++
		}
		fixed(b)
	})
	if counted == 0 {
		b.Fatalf("count did not run: %d", counted)
	}
	b.Run("again", func(b *testing.B) {
		for range b.N {
			work(200)
		}
		fixed(b)
	})
}

// BenchmarkSkipsAlone has a sub-benchmark that skips unless its sibling
// prepared its input.
func BenchmarkSkipsAlone(b *testing.B) {
	benchmarks++
	var input []int
	b.Run("prepare", func(b *testing.B) {
		for range b.N {
			work(100)
		}
		input = []int{1, 2, 3}
		fixed(b)
	})
	b.Run("use", func(b *testing.B) {
		if input == nil {
			b.Skip("prepare did not run")
		}
		for b.Loop() {
			work(len(input) * 50)
		}
		fixed(b)
	})
}

// BenchmarkParentCleanup opens something its sub-benchmarks share and
// closes it in a cleanup of the parent.
func BenchmarkParentCleanup(b *testing.B) {
	benchmarks++
	open := true
	b.Cleanup(func() {
		if !open {
			panic("closed twice")
		}
		open = false
	})
	for _, size := range []int{50, 150} {
		b.Run(fmt.Sprintf("size=%d", size), func(b *testing.B) {
			if !open {
				b.Fatal("used after close")
			}
			for range b.N {
				work(size)
			}
			fixed(b)
		})
	}
}

// BenchmarkSameName runs two sub-benchmarks of one name, which go test
// prints as "case" and "case#01"; the second checks that the first ran.
func BenchmarkSameName(b *testing.B) {
	benchmarks++
	first := false
	b.Run("case", func(b *testing.B) {
		for range b.N {
			work(100)
		}
		first = true
		fixed(b)
	})
	b.Run("case", func(b *testing.B) {
		if !first {
			b.Fatal("the first case did not run")
		}
		for range b.N {
			work(100)
		}
		fixed(b)
	})
}

// BenchmarkAlone depends on nothing.
func BenchmarkAlone(b *testing.B) {
	benchmarks++
	for range b.N {
		work(100)
	}
	fixed(b)
}
