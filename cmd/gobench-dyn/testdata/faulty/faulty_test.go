// Package faulty holds benchmarks that misbehave on purpose, for the
// end-to-end reliability tests of gobench-dyn. Each fault strikes only when
// the benchmark runs with a fixed b.N (-test.benchtime=Nx), as gobench-dyn's
// iterations do, so that discovery and calibration succeed and the fault
// hits the runner. FAULTY_MARK, when set, is passed to the child process of
// BenchmarkHang so that a test can find it.
package faulty

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
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

// measuring reports whether the binary runs with a fixed b.N, as in an
// iteration, rather than a time-based probe, as in discovery.
func measuring() bool {
	f := flag.Lookup("test.benchtime")
	return f != nil && strings.HasSuffix(f.Value.String(), "x")
}

func BenchmarkOK(b *testing.B) {
	for b.Loop() {
		work(100)
	}
}

func BenchmarkAlsoOK(b *testing.B) {
	for range b.N {
		work(200)
	}
}

func BenchmarkPanic(b *testing.B) {
	if measuring() {
		panic("faulty: boom")
	}
	for range b.N {
		work(100)
	}
}

func BenchmarkFatal(b *testing.B) {
	if measuring() {
		b.Fatal("faulty: fatal failure")
	}
	for range b.N {
		work(100)
	}
}

// lateCalls counts calls with a fixed N. Each repetition calls the
// function twice, with N = 1 and then with the fixed N.
var lateCalls int

// BenchmarkLateFail fails only in the second repetition of an iteration:
// the binary still prints PASS and exits 0.
func BenchmarkLateFail(b *testing.B) {
	if measuring() {
		lateCalls++
		if lateCalls == 3 {
			b.Error("faulty: failed in a later repetition")
		}
	}
	for range b.N {
		work(100)
	}
}

// BenchmarkPrints prints to stdout without a newline, so that its text
// lands between the benchmark name and the result fields.
func BenchmarkPrints(b *testing.B) {
	fmt.Print("faulty noise ")
	for range b.N {
		work(100)
	}
}

// BenchmarkHang hangs, with a child process of its own that must not
// outlive it.
func BenchmarkHang(b *testing.B) {
	if measuring() {
		if mark := os.Getenv("FAULTY_MARK"); mark != "" {
			cmd := exec.Command("sleep", mark)
			if err := cmd.Start(); err != nil {
				b.Fatal(err)
			}
		}
		time.Sleep(time.Hour)
	}
	for range b.N {
		work(100)
	}
}

func BenchmarkSkip(b *testing.B) {
	b.Skip("faulty: not on this machine")
}

// BenchmarkSlow takes about 20 ms per slice whatever b.N, so that a run
// lasts long enough to be interrupted.
func BenchmarkSlow(b *testing.B) {
	time.Sleep(20 * time.Millisecond)
	for range b.N {
		work(10)
	}
}
