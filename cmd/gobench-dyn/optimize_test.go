package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/optime"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// writeOptimizeCSV writes a µOpTime CSV of two benchmarks on one instance,
// 3 suite runs × 5 iterations × 5 slices: Steady never varies; Drifting
// alternates between two values 5% apart, so nothing short of the full
// configuration is stable.
func writeOptimizeCSV(t *testing.T, dir string) string {
	var b strings.Builder
	b.WriteString("m_id,n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name\n")
	id := 0
	for _, name := range []string{"BenchmarkSteady", "BenchmarkDrifting"} {
		for sr := 1; sr <= 3; sr++ {
			for it := 1; it <= 5; it++ {
				for bed := 1; bed <= 5; bed++ {
					id++
					v := 100.0
					if name == "BenchmarkDrifting" {
						v = 100 + 5*float64((sr+it+bed)%2)
					}
					fmt.Fprintf(&b, "%d,1000,%g,5,5,3,1,%d,%d,%d,1,%s\n", id, v, bed, it, sr, name)
				}
			}
		}
	}
	path := filepath.Join(dir, "proj-v1.0.0.csv")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

func TestOptimizeCommandCSV(t *testing.T) {
	dir := t.TempDir()
	in := writeOptimizeCSV(t, dir)
	conf := filepath.Join(dir, "bench.conf")
	var out bytes.Buffer
	opts := &OptimizeOptions{
		Files: []string{in}, Metric: "cv", Threshold: 0.01, Instances: "first", Resamples: 1000, Seed: 1, Out: conf,
		Stdout: &out, Stderr: &out,
		Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
	}
	require.NoError(t, optimizeRun(opts))
	text := out.String()
	assert.Contains(t, text, "metric cv, threshold 0.01, instances first")
	assert.Contains(t, text, "pkg: proj-v1.0.0")
	assert.Regexp(t, `BenchmarkSteady\s+1\s+3\s+1\s+0\s+3/75\s+0\s+\+0.00%`, text)
	assert.Regexp(t, `BenchmarkDrifting \(unstable\)\s+3\s+5\s+5\s+0\s+75/75`, text)
	assert.Contains(t, text, "suite: 78 of 150 slices per instance, 48.00% saved; change within 1%: 100.0%, within 3%: 100.0% of 2 benchmarks")
	assert.Contains(t, text, "1 benchmark has no stable configuration")

	cf, err := optime.ReadConfigFile(conf)
	require.NoError(t, err)
	assert.Equal(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), cf.Created)
	assert.Equal(t, []optime.Source{{ID: 1, File: in}}, cf.Sources)
	e, ok := cf.Lookup("proj-v1.0.0", "BenchmarkSteady")
	require.True(t, ok)
	assert.Equal(t, optime.Entry{Package: "proj-v1.0.0", Benchmark: "BenchmarkSteady", SuiteRuns: 1, Iterations: 3, Slices: 1,
		Metric: optime.CV, Threshold: 0.01, Value: 0, Stable: true, Sources: []int{1}}, e)
	e, ok = cf.Lookup("proj-v1.0.0", "BenchmarkDrifting")
	require.True(t, ok)
	assert.False(t, e.Stable)
	assert.Equal(t, optime.Config{SuiteRuns: 3, Iterations: 5, Slices: 5}, e.Config())

	// No temporary file is left beside the configuration file.
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2)
}

// A raw record file: the warmup slices of the run go into the entries, and
// the source line carries the run's seed and start.
func TestOptimizeCommandRaw(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "full.jsonl")
	f, err := os.Create(path)
	require.NoError(t, err)
	w := record.NewWriter(f)
	start := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	require.NoError(t, w.Write(&record.Header{Tool: "gobench-dyn test", Seed: 77, Start: start}))
	for sr := 1; sr <= 2; sr++ {
		for it := 1; it <= 3; it++ {
			for sl := 1; sl <= 4; sl++ {
				require.NoError(t, w.Write(&record.Slice{Package: "example.com/p", Benchmark: "BenchmarkX-8", SuiteRun: sr, Iteration: it,
					Slice: sl, Warmup: sl <= 2, N: 10, Values: map[string]float64{"ns/op": 50}}))
			}
		}
	}
	require.NoError(t, w.Write(&record.Event{Event: record.EventEnd}))
	require.NoError(t, f.Close())

	conf := filepath.Join(dir, "x.conf")
	var out bytes.Buffer
	require.NoError(t, optimizeRun(&OptimizeOptions{Files: []string{path}, Metric: "rmad", Threshold: 0.01, Instances: "all",
		Resamples: 1000, Out: conf, Stdout: &out, Stderr: &out}))
	cf, err := optime.ReadConfigFile(conf)
	require.NoError(t, err)
	assert.Equal(t, []optime.Source{{ID: 1, File: path, Seed: 77, Start: start}}, cf.Sources)
	e, ok := cf.Lookup("example.com/p", "BenchmarkX-2")
	require.True(t, ok)
	assert.Equal(t, 2, e.Warmup)
	assert.Equal(t, optime.Config{SuiteRuns: 1, Iterations: 3, Slices: 1}, e.Config())
}

func TestOptimizeCommandBadInput(t *testing.T) {
	dir := t.TempDir()
	good := writeOptimizeCSV(t, dir)
	bad := filepath.Join(dir, "bad.csv")
	require.NoError(t, os.WriteFile(bad, []byte("m_id,n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name\n1,10,1,5,5,3,3,1,1,1,1,B\n2,10,1,5,5,3,3,9,1,1,1,B\n"), 0o644))
	base := OptimizeOptions{Files: []string{good}, Metric: "rmad", Threshold: 0.01, Instances: "first", Resamples: 1000}
	for _, tt := range []struct {
		name string
		edit func(*OptimizeOptions)
		msg  string
	}{
		{"metric", func(o *OptimizeOptions) { o.Metric = "kld" }, "--metric"},
		{"threshold", func(o *OptimizeOptions) { o.Threshold = -1 }, "--threshold"},
		{"instances", func(o *OptimizeOptions) { o.Instances = "some" }, "--instances"},
		{"strategy", func(o *OptimizeOptions) { o.Strategy = "greedy" }, "--strategy: unknown strategy \"greedy\""},
		{"resamples", func(o *OptimizeOptions) { o.Resamples = 5 }, "--resamples"},
		{"bad line", func(o *OptimizeOptions) { o.Files = []string{good, bad} }, bad + ":3: bed_pos 9 exceeds"},
		{"missing", func(o *OptimizeOptions) { o.Files = []string{filepath.Join(dir, "nope.jsonl")} }, "nope.jsonl"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := base
			var out bytes.Buffer
			o.Stdout, o.Stderr = &out, &out
			tt.edit(&o)
			err := optimizeRun(&o)
			var ex *exitError
			require.True(t, errors.As(err, &ex), "%v", err)
			assert.Equal(t, 2, ex.code)
			assert.Contains(t, ex.msg, tt.msg)
		})
	}
}

// The published baselines take their configuration whatever the metric:
// the minimum baseline gives the drifting benchmark (1, 3, 1) too, and says
// it is not stable there instead of claiming it kept the full one.
func TestOptimizeCommandStrategies(t *testing.T) {
	dir := t.TempDir()
	in := writeOptimizeCSV(t, dir)
	run := func(strategy string) string {
		var out bytes.Buffer
		require.NoError(t, optimizeRun(&OptimizeOptions{Files: []string{in}, Metric: "cv", Threshold: 0.01, Instances: "first",
			Strategy: strategy, Resamples: 1000, Seed: 3, Stdout: &out, Stderr: &out}))
		return out.String()
	}
	text := run("minimum")
	assert.Contains(t, text, "metric cv, threshold 0.01, instances first, strategy minimum")
	assert.Regexp(t, `BenchmarkSteady\s+1\s+3\s+1\s+0\s+3/75`, text)
	assert.Regexp(t, `BenchmarkDrifting \(unstable\)\s+1\s+3\s+1\s+0\s+3/75`, text)
	assert.Contains(t, text, "suite: 6 of 150 slices per instance, 96.00% saved")
	assert.Contains(t, text, "1 of 2 benchmarks are not stable in their minimum configuration")

	text = run("random")
	assert.Contains(t, text, "strategy random")
	assert.NotRegexp(t, `BenchmarkSteady\s+3\s+5\s+5\s`, text, "a random configuration is smaller than the full one")
	assert.Equal(t, text, run("random"), "the seed fixes the random configurations")

	assert.NotContains(t, run("search"), "strategy")
}

func TestOptimizeCommandCLI(t *testing.T) {
	cmd := NewCmdOptimize(systemIO(), nil)
	assert.Contains(t, cmd.Example, "gobench-dyn optimize")
	assert.Equal(t, 2, exitCode("optimize"))
	assert.Equal(t, 2, exitCode("optimize", "--threshold", "x", "a.csv"))
}
