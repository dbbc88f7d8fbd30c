package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// writeReplayRaw writes a raw file of one benchmark: 4 iterations of 12
// slices, the first slow, the first two flagged warmup.
func writeReplayRaw(t *testing.T, dir string) string {
	t.Helper()
	var buf bytes.Buffer
	w := record.NewWriter(&buf)
	start := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	require.NoError(t, w.Write(&record.Header{GOOS: "linux", GOARCH: "amd64", Start: start}))
	for it := 1; it <= 4; it++ {
		for sl := 1; sl <= 12; sl++ {
			v := 100 + float64(sl%3)*0.1
			if sl == 1 {
				v = 300
			}
			require.NoError(t, w.Write(&record.Slice{Package: "example.com/p", Benchmark: "BenchmarkA-8", SuiteRun: 1 + (it-1)/2,
				Iteration: 1 + (it-1)%2, Slice: sl, Warmup: sl <= 2, N: 100, Values: map[string]float64{"ns/op": v}, Start: start, WallNs: 1e9}))
		}
	}
	require.NoError(t, w.Write(&record.Event{Event: record.EventEnd, Time: start}))
	path := filepath.Join(dir, "run.jsonl")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	return path
}

// runReplay runs replay with the given stop configuration.
func runReplay(t *testing.T, opts *ReplayOptions) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	opts.Out, opts.ErrOut = &out, &errOut
	if opts.Resamples == 0 {
		opts.Resamples = 1000
	}
	return runOptions(t, &out, &errOut, replayRun(opts))
}

func TestReplayCommandRaw(t *testing.T) {
	path := writeReplayRaw(t, t.TempDir())
	cfg := stopper.Default(stopper.CV)
	cfg.WarmupMax = 4 // a dynamic warmup, which the defaults leave off
	out, msg, code := runReplay(t, &ReplayOptions{Files: []string{path}, Stop: cfg, FullWarmup: -1})
	require.Zero(t, code, msg)
	assert.Contains(t, out, "BenchmarkA-8")
	assert.Contains(t, out, "--stop cv --threshold 0.01 --window 3")
	assert.Regexp(t, `suite: 1 benchmarks, \d+ of 48 slices, time saved \d+\.\d% \(recorded slice times`, out)
	assert.Contains(t, out, "A/A not different")
	assert.Regexp(t, `precision \(95%\)[\s\S]*BenchmarkA-8\s.*±\d`, out, "the interval of the mean over the replayed processes")

	out, msg, code = runReplay(t, &ReplayOptions{Files: []string{path}, Stop: cfg, FullWarmup: -1, JSON: "-"})
	require.Zero(t, code, msg)
	var js struct {
		Stop       string `json:"stop"`
		FullSlices int    `json:"full_slices"`
		Benchmarks []struct {
			Bench      string `json:"bench"`
			Iterations []struct {
				Warmup   int `json:"warmup"`
				Measured int `json:"measured"`
			} `json:"iterations"`
		} `json:"benchmarks"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &js), out)
	assert.Equal(t, "cv", js.Stop)
	assert.Equal(t, 48, js.FullSlices)
	require.Len(t, js.Benchmarks, 1)
	// The window of 3 first holds no slow slice after slice 4.
	assert.Equal(t, 4, js.Benchmarks[0].Iterations[0].Warmup)
	assert.Equal(t, 5, js.Benchmarks[0].Iterations[0].Measured)
}

func TestReplayCommandJMH(t *testing.T) {
	var b strings.Builder
	b.WriteString("m_id,n,ns_per_op,it_setup,fork_setup,it_pos,fork_pos,b_name\n")
	id := 0
	for f := 1; f <= 3; f++ {
		for i := 1; i <= 60; i++ {
			fmt.Fprintf(&b, "%d,100.0,%g,60,3,%d,%d,proj#a.B.m#\n", id, 1000+float64(i%4), i, f)
			id++
		}
	}
	path := filepath.Join(t.TempDir(), "laaber_proj.csv")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	out, msg, code := runReplay(t, &ReplayOptions{Files: []string{path}, Stop: stopper.Paper(stopper.CV), FullWarmup: -1})
	require.Zero(t, code, msg)
	assert.Contains(t, out, "a.B.m")
	assert.Contains(t, out, "full result without the first 50 slices", "JMH files default to the study's static baseline")
}

func TestReplayCommandBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	require.NoError(t, os.WriteFile(bad, []byte("m_id,n,ns_per_op,it_setup,fork_setup,it_pos,fork_pos,b_name\n0,1,x,1,1,1,1,p#m#\n"), 0o644))
	_, msg, code := runReplay(t, &ReplayOptions{Files: []string{bad}, Stop: stopper.Paper(stopper.CV)})
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "bad.csv:2:")

	other := filepath.Join(dir, "other.txt")
	require.NoError(t, os.WriteFile(other, []byte("BenchmarkX 1 2 ns/op\n"), 0o644))
	_, msg, code = runReplay(t, &ReplayOptions{Files: []string{other}, Stop: stopper.Paper(stopper.CV)})
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "other.txt:1:")

	_, msg, code = runReplay(t, &ReplayOptions{Files: []string{filepath.Join(dir, "missing")}, Stop: stopper.Paper(stopper.CV)})
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "missing")

	path := writeReplayRaw(t, dir)
	_, msg, code = runReplay(t, &ReplayOptions{Files: []string{path}, Stop: stopper.Paper(stopper.CV), MaxIterations: -1})
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "--max-iterations")
}

func TestReplayCommandFlags(t *testing.T) {
	assert.Equal(t, 2, exitCode("replay"), "no file")
	assert.Equal(t, 2, exitCode("replay", "--stop", "median", "x.jsonl"))
	assert.Equal(t, 2, exitCode("replay", "--stop", "kld", "--window", "2", "x.jsonl"))
}

func TestStopFlags(t *testing.T) {
	parse := func(args ...string) (stopper.Config, error) {
		c := stopper.Default(stopper.None)
		fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
		bindStopFlags(fs, &c)
		require.NoError(t, fs.Parse(args))
		return c, validateStopFlags(fs, &c)
	}
	c, err := parse("--stop", "rciw")
	require.NoError(t, err)
	assert.Equal(t, stopper.RCIW, c.Criterion)
	assert.Equal(t, 0.03, c.Threshold, "the criterion's default threshold")

	c, err = parse("--stop", "kld", "--threshold", "0.95", "--window", "4", "--warmup", "2", "--warmup-max", "9", "--slices", "7", "--min-iterations", "3")
	require.NoError(t, err)
	assert.Equal(t, stopper.Config{Criterion: stopper.KLD, Threshold: 0.95, Window: 4, WarmupMin: 2, WarmupMax: 9, Measure: 7, MinIterations: 3, Resamples: 1000}, c)

	for flag, args := range map[string][]string{
		"--window":         {"--stop", "cv", "--window", "1"},
		"--warmup-max":     {"--stop", "cv", "--warmup", "5", "--warmup-max", "3"},
		"--slices":         {"--slices", "0"},
		"--min-iterations": {"--min-iterations", "0"},
		"--threshold":      {"--stop", "cv", "--threshold", "-1"},
		"--warmup":         {"--warmup", "-1"},
	} {
		_, err := parse(args...)
		var ex *exitError
		require.True(t, errors.As(err, &ex), "%s: %v", flag, err)
		assert.Equal(t, 2, ex.code)
		assert.True(t, strings.HasPrefix(ex.msg, flag+":"), "%s: %s", flag, ex.msg)
	}
}

// TestReplayCommandProcessCost: a process cost counts in the time saved
// of a recording without times, and a bad one is a usage error naming the
// flag.
func TestReplayCommandProcessCost(t *testing.T) {
	var b strings.Builder
	b.WriteString("m_id,n,ns_per_op,it_setup,fork_setup,it_pos,fork_pos,b_name\n")
	for f := 1; f <= 3; f++ {
		for i := 1; i <= 60; i++ {
			fmt.Fprintf(&b, "%d,100.0,%g,60,3,%d,%d,proj#a.B.m#\n", 60*(f-1)+i, 1000+float64(i%4), i, f)
		}
	}
	path := filepath.Join(t.TempDir(), "laaber_proj.csv")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	out, msg, code := runReplay(t, &ReplayOptions{Files: []string{path}, Stop: stopper.Paper(stopper.CV), FullWarmup: -1, ProcessCost: 30})
	require.Zero(t, code, msg)
	assert.Contains(t, out, "(slices, each process 30 slice times more)")

	_, msg, code = runReplay(t, &ReplayOptions{Files: []string{path}, Stop: stopper.Paper(stopper.CV), ProcessCost: -1})
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "--process-cost")
}
