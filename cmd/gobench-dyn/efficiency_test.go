package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkHarnessVsGoTest measures the wall time of gobench-dyn run
// against go test -bench -count for the same number of measurement samples
// of every example benchmark, side by side in one process, and reports
// their ratio. go test ramps b.N up from 1 on every count; gobench-dyn
// calibrates once and runs fixed-N slices.
//
//	go test -run '^$' -bench HarnessVsGoTest -benchtime 3x ./cmd/gobench-dyn
//
// Both sides get 6 samples of about 100 ms per benchmark: gobench-dyn as 2
// suite runs × 1 iteration × 3 slices, after 1 warmup slice per iteration
// (the default), and go test as -count 6 -benchtime 100ms.
func BenchmarkHarnessVsGoTest(b *testing.B) {
	bin, err := builtBinary()
	if err != nil {
		b.Fatal(err)
	}
	root, _ := filepath.Abs("../..")
	ours := []string{"run", "./examples/...", "--stop", "none", "--suite-runs", "2", "--iterations", "1", "--slices", "3",
		"--warmup", "1", "--slice-time", "100ms", "--seed", "1", "--progress", "off", "-o", os.DevNull}
	theirs := []string{"test", "-run", "^$", "-bench", ".", "-benchmem", "-count", "6", "-benchtime", "100ms", "./examples/..."}
	run := func(name string, args ...string) time.Duration {
		cmd := exec.Command(name, args...)
		cmd.Dir = root
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		return time.Since(start)
	}
	// Warm the build caches of both, so that neither pays for compiling.
	run(bin, append(ours[:len(ours)-2:len(ours)-2], "-o", os.DevNull, "--slices", "1", "--suite-runs", "1")...)
	run("go", "test", "-run", "^$", "-bench", "NONE", "./examples/...")
	b.ResetTimer()
	var tOurs, tTheirs time.Duration
	for range b.N {
		tOurs += run(bin, ours...)
		tTheirs += run("go", theirs...)
	}
	b.ReportMetric(tOurs.Seconds()/float64(b.N), "gobench-dyn-s/op")
	b.ReportMetric(tTheirs.Seconds()/float64(b.N), "go-test-s/op")
	b.ReportMetric(float64(tOurs)/float64(tTheirs), "wall-ratio")
}
