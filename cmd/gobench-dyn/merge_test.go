package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeMergeRaw writes a small raw file of benchmarks to dir/name: two
// iterations of three slices each, one of them warmup.
func writeMergeRaw(t *testing.T, dir, name string, h record.Header, benchmarks ...string) string {
	t.Helper()
	var buf bytes.Buffer
	w := record.NewWriter(&buf)
	if h.GOOS == "" {
		h.GOOS, h.GOARCH = "linux", "amd64"
	}
	if h.Options == nil {
		h.Options = map[string]string{"slice-time": "1s"}
	}
	start := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	h.Start = start
	require.NoError(t, w.Write(&h))
	for _, b := range benchmarks {
		for it := 1; it <= 2; it++ {
			for sl := 1; sl <= 3; sl++ {
				require.NoError(t, w.Write(&record.Slice{Package: "example.com/p", Benchmark: b, SuiteRun: 1, Iteration: it,
					Slice: sl, Warmup: sl == 1, N: 100, Values: map[string]float64{"ns/op": float64(100 + it + sl)}, Start: start, WallNs: 1e9}))
			}
		}
	}
	require.NoError(t, w.Write(&record.Event{Event: record.EventEnd, Time: start}))
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	return path
}

// runMerge runs merge, which writes nothing on stdout.
func runMerge(t *testing.T, out string, inputs ...string) (stderr string, code int) {
	t.Helper()
	var stdout, errOut bytes.Buffer
	_, stderr, code = runOptions(t, &stdout, &errOut, mergeRun(&MergeOptions{Out: out, Inputs: inputs, ErrOut: &errOut}))
	require.Empty(t, stdout.String())
	return stderr, code
}

func TestMergeCommand(t *testing.T) {
	dir := t.TempDir()
	a := writeMergeRaw(t, dir, "a.jsonl", record.Header{Shard: "1/2", Host: "h1", Seed: 1}, "BenchmarkA", "BenchmarkB")
	b := writeMergeRaw(t, dir, "b.jsonl", record.Header{Shard: "2/2", Host: "h2", Seed: 2}, "BenchmarkC")
	out := filepath.Join(dir, "merged.jsonl")
	stderr, code := runMerge(t, out, a, b)
	require.Equal(t, 0, code, stderr)
	assert.Empty(t, stderr)
	run, warns, err := record.ReadFile(out)
	require.NoError(t, err)
	assert.Empty(t, warns)
	assert.True(t, run.Complete)
	assert.Len(t, run.Keys(), 3)
	assert.Len(t, run.Slices, 18)
	assert.Len(t, run.Header.Sources, 2)
	// No temporary file is left behind.
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 3)
}

func TestMergeCommandTornInput(t *testing.T) {
	dir := t.TempDir()
	a := writeMergeRaw(t, dir, "a.jsonl", record.Header{Instance: "x"}, "BenchmarkA")
	data, err := os.ReadFile(a)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(a, data[:len(data)-10], 0o644))
	out := filepath.Join(dir, "merged.jsonl")
	stderr, code := runMerge(t, out, a)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "gobench-dyn: warning: "+a+":8: last line is incomplete")
	run, _, err := record.ReadFile(out)
	require.NoError(t, err)
	assert.False(t, run.Complete)
	assert.Equal(t, "x", run.Slices[0].Instance)
}

func TestMergeCommandUnnamedInstancesWarn(t *testing.T) {
	dir := t.TempDir()
	a := writeMergeRaw(t, dir, "vm1.jsonl", record.Header{Host: "h1"}, "BenchmarkA")
	b := writeMergeRaw(t, dir, "vm2.jsonl", record.Header{Host: "h2"}, "BenchmarkA")
	out := filepath.Join(dir, "merged.jsonl")
	stderr, code := runMerge(t, out, a, b)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, `2 files name no instance; merged them as distinct instances: `+a+` as "vm1", `+b+` as "vm2"`)
}

func TestMergeCommandErrors(t *testing.T) {
	dir := t.TempDir()
	good := writeMergeRaw(t, dir, "good.jsonl", record.Header{Shard: "1/2"}, "BenchmarkA")
	same := writeMergeRaw(t, dir, "same.jsonl", record.Header{Shard: "1/2"}, "BenchmarkB")
	slow := writeMergeRaw(t, dir, "slow.jsonl", record.Header{Shard: "2/2", Options: map[string]string{"slice-time": "2s"}}, "BenchmarkB")
	bad := filepath.Join(dir, "bad.jsonl")
	require.NoError(t, os.WriteFile(bad, []byte(`{"type":"header","schema":1,"seed":1,"start":"2025-06-01T00:00:00Z"}`+"\n"+`{"type":"slice","pkg":"p"}`+"\n"), 0o644))
	out := filepath.Join(dir, "out.jsonl")
	for _, tc := range []struct {
		name   string
		out    string
		inputs []string
		msg    string
	}{
		{"no output", "", []string{good}, "merge needs -o OUT"},
		{"no inputs", out, nil, "at least one raw file"},
		{"missing file", out, []string{filepath.Join(dir, "nope.jsonl")}, "nope.jsonl: no such file or directory"},
		{"bad line", out, []string{good, bad}, bad + ":2: slice without benchmark name"},
		{"same shard", out, []string{good, same}, "merge refused: " + good + " shard 1/2 and " + same + " shard 1/2 both hold shard 1/2 of the unnamed instance"},
		{"slice time", out, []string{good, slow}, "merge refused: " + slow + " was run with slice-time=2s, but " + good + " with slice-time=1s"},
		{"output directory", filepath.Join(dir, "no", "such", "dir.jsonl"), []string{good}, "--out: create " + filepath.Join(dir, "no", "such", "dir.jsonl") + ": no such file or directory"},
	} {
		stderr, code := runMerge(t, tc.out, tc.inputs...)
		assert.Equal(t, 2, code, tc.name)
		assert.Contains(t, stderr, tc.msg, tc.name)
	}
	_, err := os.Stat(out)
	assert.True(t, os.IsNotExist(err), "a refused merge writes nothing")
}

func TestMergeCommandExitStatus(t *testing.T) {
	dir := t.TempDir()
	a := writeMergeRaw(t, dir, "a.jsonl", record.Header{Instance: "x", Host: "h1"}, "BenchmarkA")
	b := writeMergeRaw(t, dir, "b.jsonl", record.Header{Instance: "x", Host: "h2"}, "BenchmarkA")
	assert.Equal(t, 2, exitCode("merge", "-o", filepath.Join(dir, "m.jsonl"), a, b))
	assert.Equal(t, 2, exitCode("merge", a))
	assert.Equal(t, 0, exitCode("merge", "-o", filepath.Join(dir, "m.jsonl"), a))
}
