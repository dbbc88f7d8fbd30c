package faulty

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"
)

// This file holds benchmarks that misbehave in what they print, report
// or leave running, for the tests of docs/RELIABILITY.md's fault table.

// BenchmarkNaN reports metrics that have no JSON number: NaN, +Inf, -Inf.
func BenchmarkNaN(b *testing.B) {
	for range b.N {
		work(100)
	}
	b.ReportMetric(math.NaN(), "nan/op")
	b.ReportMetric(math.Inf(1), "inf/op")
	b.ReportMetric(math.Inf(-1), "neginf/op")
}

// procs is the GOMAXPROCS suffix go test gives a benchmark's name.
func procs() string {
	if p := runtime.GOMAXPROCS(0); p > 1 {
		return fmt.Sprintf("-%d", p)
	}
	return ""
}

// BenchmarkFakeLine prints lines shaped like benchmark results, of its own
// name and of one that does not exist, at 999 ns/op and a b.N no slice has,
// in every call, as a benchmark logging its own figures might.
func BenchmarkFakeLine(b *testing.B) {
	// A b.N that no slice of 2 ms of this loop reaches, even when a
	// loaded machine recalibrates it down to 1.
	fmt.Printf("BenchmarkFakeLine%s\t987654321\t       999.0 ns/op\n", procs())
	fmt.Printf("BenchmarkPhantom%s 1 999 ns/op\n", procs())
	for range b.N {
		work(100)
	}
}

// holdOnce starts the child of BenchmarkHoldsOutput once per process.
var holdOnce sync.Once

// BenchmarkHoldsOutput starts, when measuring, a child in a session of its
// own (out of reach of a kill of the benchmark's process group) that
// keeps the binary's stdout open for an hour, then measures as usual and
// exits. FAULTY_MARK is the child's sleep, so that a test can find it.
func BenchmarkHoldsOutput(b *testing.B) {
	if measuring() {
		holdOnce.Do(func() {
			mark := os.Getenv("FAULTY_MARK")
			if mark == "" {
				mark = "3600"
			}
			cmd := exec.Command("sleep", mark)
			cmd.Stdout = os.Stdout
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
			if err := cmd.Start(); err != nil {
				b.Fatal(err)
			}
		})
	}
	for range b.N {
		work(100)
	}
}

// BenchmarkOOM runs out of memory when measuring: under a limit of its
// address space, so that it fails at once, whatever memory the machine has.
func BenchmarkOOM(b *testing.B) {
	if measuring() {
		lim := syscall.Rlimit{Cur: 8 << 30, Max: 8 << 30}
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lim); err != nil {
			b.Fatal(err)
		}
		sink += len(make([]byte, 1<<36))
	}
	for range b.N {
		work(100)
	}
}

// BenchmarkHangReady hangs like BenchmarkHang, with a child of its own,
// and first creates the file FAULTY_READY names, so that a test knows the
// hang has begun.
func BenchmarkHangReady(b *testing.B) {
	if measuring() {
		if mark := os.Getenv("FAULTY_MARK"); mark != "" {
			if err := exec.Command("sleep", mark).Start(); err != nil {
				b.Fatal(err)
			}
		}
		if ready := os.Getenv("FAULTY_READY"); ready != "" {
			if err := os.WriteFile(ready, nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		time.Sleep(time.Hour)
	}
	for range b.N {
		work(100)
	}
}
