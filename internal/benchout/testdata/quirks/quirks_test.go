// Package quirks holds benchmarks that misbehave on purpose, so that the
// benchout tests can capture what a real test binary prints when a
// benchmark prints to stdout, logs, fails, skips, panics or reports
// custom metrics.
package quirks

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

var sink int

func work(n int) {
	for i := 0; i < n; i++ {
		sink += i * i
	}
}

// BenchmarkPrint prints a line on every call, so that with -test.count > 1
// the print of the b.N = 1 run lands between the name and the result.
func BenchmarkPrint(b *testing.B) {
	fmt.Println("hello from the benchmark")
	for i := 0; i < b.N; i++ {
		work(100)
	}
}

// BenchmarkPrintNoNewline prints without a newline, so that the text and the
// result fields share a line.
func BenchmarkPrintNoNewline(b *testing.B) {
	fmt.Print("partial 7 ")
	for i := 0; i < b.N; i++ {
		work(100)
	}
}

var longCalls int

// BenchmarkLongLine prints a line longer than the parser keeps on its third
// call, between the name and the result fields of the second repetition.
func BenchmarkLongLine(b *testing.B) {
	longCalls++
	if longCalls == 3 {
		fmt.Print(strings.Repeat("x", 80<<10))
	}
	for i := 0; i < b.N; i++ {
		work(100)
	}
}

// BenchmarkLog logs, which go test prints under "--- BENCH:".
func BenchmarkLog(b *testing.B) {
	b.Logf("N is %d", b.N)
	for i := 0; i < b.N; i++ {
		work(100)
	}
}

var fatalCalls int

// BenchmarkFatal fails on its third call: the first count (b.N = 1, then
// b.N) passes, and the second count fails.
func BenchmarkFatal(b *testing.B) {
	fatalCalls++
	b.Log("before the failure")
	if fatalCalls >= 3 {
		b.Fatalf("failed on call %d\nsecond line of the message", fatalCalls)
	}
	for i := 0; i < b.N; i++ {
		work(100)
	}
}

var panicCalls int

// BenchmarkPanic panics on its third call, in the second count.
func BenchmarkPanic(b *testing.B) {
	panicCalls++
	if panicCalls >= 3 {
		panic(fmt.Sprintf("boom on call %d", panicCalls))
	}
	for i := 0; i < b.N; i++ {
		work(100)
	}
}

// BenchmarkSkip skips itself.
func BenchmarkSkip(b *testing.B) {
	b.Skip("not today")
}

// BenchmarkMetrics reports throughput, custom units and a NaN.
func BenchmarkMetrics(b *testing.B) {
	b.SetBytes(1 << 10)
	for i := 0; i < b.N; i++ {
		work(100)
	}
	b.ReportMetric(42, "widgets/op")
	b.ReportMetric(0.5, "hit-ratio")
	b.ReportMetric(math.NaN(), "nan/op")
}

// BenchmarkNames has sub-benchmarks whose names go test rewrites.
func BenchmarkNames(b *testing.B) {
	for _, name := range []string{"size=16", "with space", "a+b(c)", "héllo", "size=16"} {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				work(10)
			}
		})
	}
}

// BenchmarkLoop uses b.Loop.
func BenchmarkLoop(b *testing.B) {
	for b.Loop() {
		work(100)
	}
}

// BenchmarkFatalFirst fails on its first call, before go test prints its
// name.
func BenchmarkFatalFirst(b *testing.B) {
	b.Fatal("failed at once")
}
