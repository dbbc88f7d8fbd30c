package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/internal/steady"
	"github.com/gobench-dyn/gobench-dyn/optime"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// steadySeries returns a process of n values that fall from 1.5× to 1× over
// the first w, with 1% noise.
func steadySeries(rng *rand.Rand, n, w int, level float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		m := 1.0
		if i < w {
			m = 1.5 - 0.5*float64(i)/float64(w)
		}
		xs[i] = level * m * (1 + 0.01*rng.NormFloat64())
	}
	return xs
}

func steadyOpts(args ...string) *SteadyOptions {
	var out bytes.Buffer
	return &SteadyOptions{
		IO: &IOStreams{Out: &out, ErrOut: &out}, Args: args,
		Penalty: 0, MinSegment: 2, MinTail: steady.DefaultMinTail, Tolerance: steady.DefaultTolerance, Resamples: 1000, Seed: 1,
		IterationTime: 100 * time.Millisecond, RunSliceTime: 100 * time.Millisecond, Bench: ".", Processes: 3, Slices: 200, SliceTime: 10 * time.Millisecond,
	}
}

// TestSteadyPublishedSeries reads a published-format series: a fork that
// warms up over its first 100 values and one that steps up 20% near its
// end, and writes their verdicts as JSON.
func TestSteadyPublishedSeries(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 1))
	warm := steadySeries(rng, 600, 100, 3e-5)
	step := steadySeries(rng, 600, 0, 3e-5)
	for i := 550; i < 600; i++ {
		step[i] *= 1.2
	}
	b, _ := json.Marshal([][]float64{warm, step})
	in := filepath.Join(dir, "bench.json")
	require.NoError(t, os.WriteFile(in, b, 0o644))

	o := steadyOpts(in)
	o.JSON = filepath.Join(dir, "v.json")
	require.NoError(t, steadyRun(o))
	out := o.IO.Out.(*bytes.Buffer).String()
	assert.Contains(t, out, "inconsistent")
	assert.Contains(t, out, "WEE")

	var got []steady.Verdict
	data, err := os.ReadFile(o.JSON)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &got))
	require.Len(t, got, 2)
	assert.Equal(t, steady.Verdict{Name: in, Fork: 1, Class: "not steady", Start: -1}, got[1])
	assert.Equal(t, "steady", got[0].Class)
	assert.InDelta(t, 90, got[0].Start, 40)
}

// TestSteadyRecordsWarmupConfig reads raw records of three processes
// that warm up over 40 slices and writes the learned warmup into a
// configuration file that run --config reads.
func TestSteadyRecordsWarmupConfig(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(2, 2))
	var buf bytes.Buffer
	w := record.NewWriter(&buf)
	require.NoError(t, w.Write(&record.Header{Type: record.TypeHeader, Schema: record.Schema, Tool: "test", Start: time.Unix(0, 0).UTC()}))
	for p := 1; p <= 3; p++ {
		for i, v := range steadySeries(rng, 240, 40, 400) {
			require.NoError(t, w.Write(&record.Slice{Type: record.TypeSlice, Package: "example.com/p", Benchmark: "BenchmarkX-8",
				SuiteRun: p, Iteration: 1, Order: 1, Slice: i + 1, N: 25000, Values: map[string]float64{"ns/op": v}, WallNs: 1e7}))
		}
	}
	raw := filepath.Join(dir, "r.jsonl")
	require.NoError(t, os.WriteFile(raw, buf.Bytes(), 0o644))

	o := steadyOpts(raw)
	o.Out = filepath.Join(dir, "bench.conf")
	require.NoError(t, steadyRun(o))
	assert.Contains(t, o.IO.Out.(*bytes.Buffer).String(), "example.com/p.BenchmarkX-8  steady")
	cf, err := optime.ReadConfigFile(o.Out)
	require.NoError(t, err)
	e, ok := cf.Lookup("example.com/p", "BenchmarkX-8")
	require.True(t, ok)
	// About 38 slices of 10 ms: 4 slices of run's 100 ms.
	assert.InDelta(t, 4, e.Warmup, 2)
	assert.Equal(t, defaultSuiteRuns, e.SuiteRuns)

	// With --config, the entries of an existing file keep their (s, i, d)
	// and take the learned warmup.
	base := &optime.ConfigFile{Schema: optime.ConfigSchema, Sources: []optime.Source{{ID: 1, File: "full.jsonl"}},
		Entries: []optime.Entry{{Package: "example.com/p", Benchmark: "BenchmarkX-8", SuiteRuns: 2, Iterations: 3, Slices: 4, Warmup: 1,
			Metric: optime.RMAD, Threshold: 0.01, Stable: true, Sources: []int{1}}}}
	var cbuf bytes.Buffer
	require.NoError(t, base.Write(&cbuf))
	o.Config = filepath.Join(dir, "old.conf")
	require.NoError(t, os.WriteFile(o.Config, cbuf.Bytes(), 0o644))
	require.NoError(t, steadyRun(o))
	cf, err = optime.ReadConfigFile(o.Out)
	require.NoError(t, err)
	require.Len(t, cf.Entries, 1)
	assert.Equal(t, 2, cf.Entries[0].SuiteRuns)
	assert.Equal(t, e.Warmup, cf.Entries[0].Warmup)
}

// TestSteadyBadInput names the file and line of bad input, or the flag,
// and exits 2.
func TestSteadyBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte("[[1e-5,\n2e-5,\n\"x\"]]\n"), 0o644))
	badRaw := filepath.Join(dir, "bad.jsonl")
	require.NoError(t, os.WriteFile(badRaw, []byte(`{"type":"header","schema":1,"tool":"t","start":"2026-01-01T00:00:00Z"}`+"\n{\"type\":\"slice\"\n"), 0o644))
	for _, tt := range []struct {
		name string
		edit func(*SteadyOptions)
		msg  string
	}{
		{"series line", func(o *SteadyOptions) { o.Args = []string{bad} }, bad + ":3:"},
		{"raw line", func(o *SteadyOptions) { o.Args = []string{badRaw} }, badRaw + ":2"},
		{"mixed", func(o *SteadyOptions) { o.Args = []string{bad, "./nope/..."} }, "./nope/... is not a file"},
		{"penalty", func(o *SteadyOptions) { o.Penalty = -1 }, "--penalty"},
		{"min-tail", func(o *SteadyOptions) { o.MinTail = 1.5 }, "--min-tail"},
		{"min-segment", func(o *SteadyOptions) { o.MinSegment = 0 }, "--min-segment"},
		{"tolerance", func(o *SteadyOptions) { o.Tolerance = 5 }, "--tolerance"},
		{"resamples", func(o *SteadyOptions) { o.Resamples = 1 }, "--resamples"},
		{"slices", func(o *SteadyOptions) { o.Slices = 2 }, "--slices"},
		{"run-slice-time", func(o *SteadyOptions) { o.RunSliceTime = 0 }, "--run-slice-time"},
		{"config", func(o *SteadyOptions) { o.Config = "x.conf" }, "--config: only meaningful with -o"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := steadyOpts(bad)
			tt.edit(o)
			err := steadyRun(o)
			var ex *exitError
			require.True(t, errors.As(err, &ex), "%v", err)
			assert.Equal(t, 2, ex.code, "%v", err)
			assert.Contains(t, ex.msg, tt.msg)
		})
	}
}

// TestSteadyFlags checks what the flags bind.
func TestSteadyFlags(t *testing.T) {
	var got *SteadyOptions
	cmd := NewCmdSteady(&IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, func(o *SteadyOptions) error { got = o; return nil })
	cmd.SetArgs(strings.Fields("--json v.json -o c.conf --penalty 50 --min-tail 0.25 --processes 4 --slices 300 --slice-time 5ms ./x"))
	require.NoError(t, cmd.Execute())
	assert.Equal(t, []string{"./x"}, got.Args)
	assert.Equal(t, 50.0, got.Penalty)
	assert.Equal(t, 0.25, got.MinTail)
	assert.Equal(t, 4, got.Processes)
	assert.Equal(t, 300, got.Slices)
	assert.Equal(t, 5*time.Millisecond, got.SliceTime)
	assert.Equal(t, fmt.Sprint(session.DefaultProbeProcesses), cmd.Flags().Lookup("processes").DefValue)
}

// TestSteadyProbeEndToEnd probes a benchmark with the built command and
// runs it with what it learned: testdata/warmcalls, whose first
// warmcallsSlow slices in every process report ten times the time of the
// rest. Its values are fixed, so the detected start of the steady state
// has no tolerance: it is the first fast slice, slice 12 counted from 0,
// in both processes. (examples/warmup warms up over a count of operations
// that takes a varying number of slices, as many as the machine's speed
// and load make it; a test on it could only accept any verdict.) The
// configuration holds the warmup in slices of --run-slice-time, from the
// wall time the slow slices took, which the probe's records give; run
// --config then warms every process up for exactly that many slices.
func TestSteadyProbeEndToEnd(t *testing.T) {
	const warmcallsSlow = 12
	dir := t.TempDir()
	mod := absDir(t, filepath.Join("testdata", "warmcalls"))
	js, conf, raw := filepath.Join(dir, "v.json"), filepath.Join(dir, "c.conf"), filepath.Join(dir, "p.jsonl")
	stdout, stderr, code := gobenchDyn(t, mod, "steady", "--progress", "off", "--processes", "2", "--slices", "40",
		"--slice-time", "2ms", "--json", js, "-o", conf, "--run-slice-time", "20ms", "--raw", raw, "-b", "BenchmarkLookup", ".")
	require.Equal(t, 0, code, "%s\n%s", stdout, stderr)
	assert.Contains(t, stdout, "example.com/warmcalls.BenchmarkLookup")

	var got []steady.Verdict
	data, err := os.ReadFile(js)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &got))
	require.Len(t, got, 2)
	for i, v := range got {
		assert.Equal(t, i, v.Fork)
		assert.Equal(t, "steady", v.Class, "%+v", v)
		assert.Equal(t, warmcallsSlow, v.Start, "%+v", v)
	}

	// The learned warmup: the longer of the two processes' slow slices,
	// in slices of 20 ms, rounded up.
	probe, _, err := record.ReadFile(raw)
	require.NoError(t, err)
	require.Len(t, probe.Slices, 80)
	walls := map[int]float64{}
	for _, s := range probe.Slices {
		if s.Slice <= warmcallsSlow {
			walls[s.SuiteRun] += float64(s.WallNs) / 1e9
		}
	}
	require.Len(t, walls, 2)
	want := max(1, int(math.Ceil(max(walls[1], walls[2])/0.02)))
	cf, err := optime.ReadConfigFile(conf)
	require.NoError(t, err)
	require.Len(t, cf.Entries, 1)
	e := cf.Entries[0]
	assert.Equal(t, want, e.Warmup, "the slow slices took %v s and %v s", walls[1], walls[2])

	// run --config, under its default dynamic stop, warms every process
	// up for the learned warmup before it measures.
	out, runRaw := filepath.Join(dir, "new.txt"), filepath.Join(dir, "r.jsonl")
	stdout, stderr, code = gobenchDyn(t, mod, "run", "--progress", "off", "--config", conf, "--slice-time", "20ms",
		"--seed", "1", "-o", out, "--raw", runRaw, ".")
	require.Equal(t, 0, code, "%s\n%s", stdout, stderr)
	run, _, err := record.ReadFile(runRaw)
	require.NoError(t, err)
	warm, measured := map[[2]int]int{}, map[[2]int]int{}
	for _, s := range run.Slices {
		it := [2]int{s.SuiteRun, s.Iteration}
		if s.Warmup {
			assert.Zero(t, measured[it], "a warmup slice after a measured one: %+v", s)
			warm[it]++
		} else {
			measured[it]++
		}
	}
	require.NotEmpty(t, warm)
	for it, n := range warm {
		assert.Equal(t, e.Warmup, n, "warmup slices of suite run %d iteration %d", it[0], it[1])
		assert.Positive(t, measured[it], "suite run %d iteration %d measured nothing", it[0], it[1])
	}
	assert.Len(t, measured, len(warm))
}
