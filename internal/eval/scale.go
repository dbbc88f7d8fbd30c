package main

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// writeSynthetic writes a raw file of n benchmarks, each with 3 suite runs
// × 5 iterations × 5 slices (75 samples, the µOpTime Go configuration),
// after one warmup slice per iteration, in shuffled suite-run order.
func writeSynthetic(path string, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	w := record.NewWriter(bw)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	h := &record.Header{Tool: "gobench-dyn eval", GoVersion: "go1.26", GOOS: "linux", GOARCH: "amd64", Seed: 1, Start: start,
		Options: map[string]string{"suite-runs": "3", "iterations": "5", "slices": "5", "warmup": "1", "stop": "none", "slice-time": "1s"}}
	if err := w.Write(h); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	base := make([]float64, n)
	for b := range base {
		base[b] = math.Exp(rng.Float64()*10 + 3) // 20 ns to 440 µs
	}
	t := start
	for sr := 1; sr <= 3; sr++ {
		order := rng.Perm(n * 5)
		seen := make([]int, n)
		for pos, o := range order {
			b := o % n
			seen[b]++
			procs := 1 + 0.02*rng.NormFloat64()
			for sl := 1; sl <= 6; sl++ {
				v := base[b] * procs * (1 + 0.01*rng.NormFloat64())
				if sl == 1 {
					v *= 1.3
				}
				s := &record.Slice{Package: fmt.Sprintf("example.com/synth/p%d", b%20), Benchmark: fmt.Sprintf("BenchmarkSynth%d-2", b),
					SuiteRun: sr, Iteration: seen[b], Order: pos + 1, Slice: sl, Warmup: sl == 1, N: int64(1e9 / base[b]),
					Values: map[string]float64{"ns/op": v, "B/op": 64, "allocs/op": 1}, Start: t, WallNs: 1e9}
				t = t.Add(time.Second)
				if err := w.Write(s); err != nil {
					return err
				}
			}
		}
	}
	if err := w.Write(&record.Event{Event: record.EventEnd, Time: t}); err != nil {
		return err
	}
	return bw.Flush()
}

// evaluateScaleMode runs -scale: the commands on synthetic raw files of
// the sizes files lists, then run on generated packages of the sizes runs
// lists. The synthetic files reach 230 MB, so they are kept only in out;
// without it they go to a temporary directory removed at the end.
func evaluateScaleMode(out, files, runs string) error {
	fileSizes, err := parseSizes("-scale-files", files)
	if err != nil {
		return err
	}
	runSizes, err := parseSizes("-scale-run", runs)
	if err != nil {
		return err
	}
	if out == "" {
		if out, err = os.MkdirTemp("", "gobench-dyn-eval-"); err != nil {
			return err
		}
		defer os.RemoveAll(out)
	}
	bin, err := buildTool(out)
	if err != nil {
		return err
	}
	if len(fileSizes) > 0 {
		if err := evaluateScale(bin, out, fileSizes); err != nil {
			return err
		}
	}
	if len(runSizes) > 0 {
		return evaluateRunScale(bin, out, runSizes)
	}
	return nil
}

// parseSizes reads a comma-separated list of positive counts.
func parseSizes(flagName, s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%s: %q is not a positive count", flagName, f)
		}
		out = append(out, n)
	}
	return out, nil
}

// measure runs bin with args and returns its wall time and peak RSS.
func measure(bin string, args ...string) (time.Duration, int64, error) {
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = nil, nil
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		err = nil // a verdict, not a failure
	}
	return wall, maxRSS(cmd.ProcessState), err
}

// evaluateScale measures the wall time and peak memory of the commands that
// read raw files, on synthetic suites of growing size, and of run itself
// on a generated package of many sub-benchmarks.
func evaluateScale(bin, out string, sizes []int) error {
	fmt.Println("| benchmarks | raw file | optimize (rmad) | replay (precision) | report (HTML + Markdown) | compare (with itself) |")
	fmt.Println("|--:|--:|--:|--:|--:|--:|")
	for _, n := range sizes {
		raw := filepath.Join(out, fmt.Sprintf("synth-%d.jsonl", n))
		if err := writeSynthetic(raw, n); err != nil {
			return err
		}
		st, err := os.Stat(raw)
		if err != nil {
			return err
		}
		cells := []string{fmt.Sprint(n), fmt.Sprintf("%.0f MB", float64(st.Size())/1e6)}
		for _, args := range [][]string{
			{"optimize", "--metric", "rmad", "-o", filepath.Join(out, "synth.conf"), raw},
			{"replay", "--stop", "precision", "--resamples", "1000", raw},
			{"report", "--html", filepath.Join(out, "synth.html"), "--markdown", filepath.Join(out, "synth.md"), raw},
			{"compare", raw, raw},
		} {
			fmt.Fprintf(os.Stderr, "eval: scale %d: %s\n", n, args[0])
			wall, rss, err := measure(bin, args...)
			if err != nil {
				return fmt.Errorf("%s on %d benchmarks: %w", args[0], n, err)
			}
			cells = append(cells, fmt.Sprintf("%.1f s, %.0f MiB", wall.Seconds(), float64(rss)/1024))
		}
		fmt.Println("| " + strings.Join(cells, " | ") + " |")
	}
	return nil
}

// evaluateRunScale measures run on a generated package of n sub-benchmarks
// with 75 slices of 1 ms each in one iteration.
func evaluateRunScale(bin, out string, sizes []int) error {
	fmt.Println()
	fmt.Println("| sub-benchmarks | run: 1 suite run × 1 iteration × 75 slices of 1 ms |")
	fmt.Println("|--:|--:|")
	for _, n := range sizes {
		dir := filepath.Join(out, fmt.Sprintf("runscale-%d", n))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		src := fmt.Sprintf(`package many

import (
	"strconv"
	"testing"
)

var sink int

func BenchmarkMany(b *testing.B) {
	for i := range %d {
		b.Run(strconv.Itoa(i), func(b *testing.B) {
			for range b.N {
				sink += i
			}
		})
	}
}
`, n)
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/many\n\ngo 1.26\n"), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "many_test.go"), []byte(src), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "eval: run scale %d\n", n)
		cmd := exec.Command(bin, "run", "--stop", "none", "--suite-runs", "1", "--iterations", "1", "--warmup", "0", "--slices", "75",
			"--slice-time", "1ms", "--progress", "off", "-o", os.DevNull, "--raw", filepath.Join(dir, "raw.jsonl"), "./...")
		cmd.Dir = dir
		start := time.Now()
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("run on %d: %w\n%s", n, err, b)
		}
		wall := time.Since(start)
		rss := maxRSS(cmd.ProcessState)
		fmt.Printf("| %d | %.1f s, peak RSS %.0f MiB (largest of gobench-dyn and its test binaries) |\n", n, wall.Seconds(), float64(rss)/1024)
	}
	return nil
}
