package record_test

import (
	"bytes"
	"fmt"
	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/shard"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// suite returns n benchmarks in two packages.
func suite(n int) []record.Bench {
	var bs []record.Bench
	for i := range n {
		bs = append(bs, record.Bench{Package: fmt.Sprintf("example.com/p%d", i%2), Benchmark: fmt.Sprintf("BenchmarkB%02d-4", i)})
	}
	return bs
}

// fakeRun describes one synthetic run of a suite, as one job would record
// it: a header and an RMIT schedule of slices.
type fakeRun struct {
	benchmarks []record.Bench
	spec       shard.Spec
	instance   string
	host       string
	seed       uint64
	options    map[string]string
	mutate     func(*record.Header)
	noEnd      bool
	// afterRead changes the header as read, for headers no file may hold.
	afterRead func(*record.Header)
}

const (
	suiteRuns  = 2
	iterations = 3
	slicesPer  = 4 // one warmup slice, then three measurements
)

func (f fakeRun) header() *record.Header {
	opts := map[string]string{"slice-time": "1s", "suite-runs": "2", "iterations": "3", "slices": "3", "warmup": "1",
		"seed": fmt.Sprint(f.seed)}
	if !f.spec.IsZero() {
		opts["shard"] = f.spec.String()
	}
	for k, v := range f.options {
		if v == "-" {
			delete(opts, k)
		} else {
			opts[k] = v
		}
	}
	host := f.host
	if host == "" {
		host = "runner-" + f.spec.String()
	}
	h := &record.Header{
		Tool: "gobench-dyn devel", GoVersion: "go1.26.0", GOOS: "linux", GOARCH: "amd64",
		CPU: "Test CPU @ 2.0GHz", NumCPU: 4, Host: host, Seed: f.seed,
		Instance: f.instance, Shard: f.spec.String(),
		Start:   time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(f.seed) * time.Second),
		Options: opts,
	}
	if f.mutate != nil {
		f.mutate(h)
	}
	return h
}

// write writes the run to dir/name and returns the path.
func (f fakeRun) write(t *testing.T, dir, name string) string {
	t.Helper()
	var buf bytes.Buffer
	w := record.NewWriter(&buf)
	h := f.header()
	require.NoError(t, w.Write(h))
	rng := rand.New(rand.NewPCG(f.seed, 7))
	bs := shard.Select(f.benchmarks, f.spec, nil)
	now := h.Start
	for sr := 1; sr <= suiteRuns; sr++ {
		type iter struct {
			b  record.Bench
			it int
		}
		var sched []iter
		for _, b := range bs {
			for it := 1; it <= iterations; it++ {
				sched = append(sched, iter{b, it})
			}
		}
		rng.Shuffle(len(sched), func(i, j int) { sched[i], sched[j] = sched[j], sched[i] })
		for order, x := range sched {
			for sl := 1; sl <= slicesPer; sl++ {
				ns := 1000 * (1 + 0.01*rng.NormFloat64())
				require.NoError(t, w.Write(&record.Slice{
					Package: x.b.Package, Benchmark: x.b.Benchmark, SuiteRun: sr, Iteration: x.it, Order: order + 1,
					Slice: sl, Warmup: sl == 1, N: 1_000_000, Values: map[string]float64{"ns/op": ns},
					Start: now, WallNs: int64(time.Second),
				}))
				now = now.Add(time.Second)
			}
		}
	}
	for _, b := range bs {
		require.NoError(t, w.Write(&record.Event{Event: record.EventStop, Package: b.Package, Benchmark: b.Benchmark, Time: now}))
	}
	if !f.noEnd {
		require.NoError(t, w.Write(&record.Event{Event: record.EventEnd, Time: now}))
	}
	path := filepath.Join(dir, name)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	return path
}

func readInputs(t *testing.T, paths ...string) []*record.MergeInput {
	t.Helper()
	var ins []*record.MergeInput
	for _, p := range paths {
		in, _, err := record.ReadMergeInput(p)
		require.NoError(t, err)
		ins = append(ins, in)
	}
	return ins
}

// mergeRun merges paths and reads the result back as a Run.
func mergeRun(t *testing.T, paths ...string) (*record.Run, []record.Warning) {
	t.Helper()
	m, warns, err := record.Merge(readInputs(t, paths...))
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, m.Write(&buf))
	run, rwarns, err := record.Read(&buf, "merged.jsonl")
	require.NoError(t, err)
	return run, append(warns, rwarns...)
}

// counts returns the number of measurement slices and of iterations of each
// benchmark of run.
func counts(run *record.Run) map[record.Key][2]int {
	out := map[record.Key][2]int{}
	for _, k := range run.Keys() {
		series := run.Series(k, "ns/op")
		out[k] = [2]int{len(record.Measurements(series)), len(series)}
	}
	return out
}

func TestMergeShardsEqualsUnsharded(t *testing.T) {
	dir := t.TempDir()
	bs := suite(13)
	whole, _, err := record.ReadFile(fakeRun{benchmarks: bs, seed: 1}.write(t, dir, "whole.jsonl"))
	require.NoError(t, err)
	for _, n := range []int{1, 2, 4, 20} {
		var paths []string
		for k := 1; k <= n; k++ {
			// Every job has its own host and seed, as matrix jobs do.
			f := fakeRun{benchmarks: bs, spec: shard.Spec{K: k, N: n}, seed: uint64(100 + k)}
			paths = append(paths, f.write(t, dir, fmt.Sprintf("n%d/shard-%d.jsonl", n, k)))
		}
		run, warns := mergeRun(t, paths...)
		assert.Empty(t, warns, "n=%d", n)
		assert.True(t, run.Complete)
		assert.ElementsMatch(t, whole.Keys(), run.Keys(), "n=%d", n)
		assert.Equal(t, counts(whole), counts(run), "n=%d", n)
		assert.Len(t, run.Header.Sources, n)
		assert.Equal(t, "", run.Header.Instance)
		if n > 1 {
			assert.Equal(t, "", run.Header.Shard)
		} else {
			assert.Equal(t, "1/1", run.Header.Shard, "a merge of one file keeps its shard")
		}
		for k, src := range run.Header.Sources {
			assert.Equal(t, fmt.Sprintf("%d/%d", k+1, n), src.Shard)
			assert.Equal(t, paths[k], src.File)
			assert.True(t, src.Complete)
		}
		// Options that place a job are dropped; the others are kept.
		assert.Equal(t, "1s", run.Header.Options["slice-time"])
		_, ok := run.Header.Options["shard"]
		assert.Equal(t, n == 1, ok, "shard option of n=%d", n)
		if n > 1 {
			assert.NotContains(t, run.Header.Options, "seed")
			assert.Zero(t, run.Header.Seed)
			assert.Empty(t, run.Header.Host)
		}
		assert.Equal(t, "go1.26.0", run.Header.GoVersion)
	}
}

func TestMergeInstancesStayOutermost(t *testing.T) {
	dir := t.TempDir()
	bs := suite(3)
	a := fakeRun{benchmarks: bs, instance: "vm-a", host: "a", seed: 1}.write(t, dir, "a.jsonl")
	b := fakeRun{benchmarks: bs, instance: "vm-b", host: "b", seed: 2}.write(t, dir, "b.jsonl")
	run, warns := mergeRun(t, b, a)
	assert.Empty(t, warns)
	assert.Equal(t, []string{"vm-a", "vm-b"}, []string{run.Header.Sources[0].Instance, run.Header.Sources[1].Instance})
	assert.Equal(t, "vm-a", run.Slices[0].Instance, "records are ordered by instance")

	inA, _, err := record.ReadFile(a)
	require.NoError(t, err)
	for _, k := range run.Keys() {
		series := run.Series(k, "ns/op")
		require.Len(t, series, 2*suiteRuns*iterations)
		tree := gate.Tree(series)
		require.Len(t, tree.Children, 2, "%v: one subtree per instance", k)
		for _, inst := range tree.Children {
			require.Len(t, inst.Children, suiteRuns)
			for _, sr := range inst.Children {
				require.Len(t, sr.Children, iterations)
			}
		}
		// The first subtree holds exactly the values measured on vm-a.
		assert.Equal(t, record.Measurements(inA.Series(k, "ns/op")), tree.Children[0].Flatten(nil))
	}
}

func TestMergeUnnamedInstancesGetFileNames(t *testing.T) {
	dir := t.TempDir()
	bs := suite(2)
	a := fakeRun{benchmarks: bs, host: "h1", seed: 1}.write(t, dir, "job1/raw.jsonl")
	b := fakeRun{benchmarks: bs, host: "h2", seed: 2}.write(t, dir, "job2/raw.jsonl")
	run, warns := mergeRun(t, a, b)
	require.Len(t, warns, 1)
	assert.Contains(t, warns[0].Msg, "2 files name no instance")
	assert.Contains(t, warns[0].Msg, `"job1/raw"`)
	insts := map[string]int{}
	for _, s := range run.Slices {
		insts[s.Instance]++
	}
	assert.Equal(t, map[string]int{"job1/raw": len(run.Slices) / 2, "job2/raw": len(run.Slices) / 2}, insts)
	for _, k := range run.Keys() {
		assert.Len(t, gate.Tree(run.Series(k, "ns/op")).Children, 2)
	}
	// The merged file merges again, with a named instance.
	merged := filepath.Join(dir, "merged.jsonl")
	m, _, err := record.Merge(readInputs(t, a, b))
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, m.Write(&buf))
	require.NoError(t, os.WriteFile(merged, buf.Bytes(), 0o644))
	c := fakeRun{benchmarks: bs, instance: "vm-c", host: "h3", seed: 3}.write(t, dir, "c.jsonl")
	again, warns := mergeRun(t, merged, c)
	assert.Empty(t, warns)
	assert.Len(t, again.Header.Sources, 3)
	for _, k := range again.Keys() {
		assert.Len(t, gate.Tree(again.Series(k, "ns/op")).Children, 3)
	}
}

func TestMergeShardedInstances(t *testing.T) {
	// Two instances, each split over three jobs.
	dir := t.TempDir()
	bs := suite(7)
	var paths []string
	for _, inst := range []string{"x", "y"} {
		for k := 1; k <= 3; k++ {
			f := fakeRun{benchmarks: bs, spec: shard.Spec{K: k, N: 3}, instance: inst, host: fmt.Sprintf("%s%d", inst, k), seed: uint64(k)}
			paths = append(paths, f.write(t, dir, fmt.Sprintf("%s-%d.jsonl", inst, k)))
		}
	}
	run, warns := mergeRun(t, paths...)
	assert.Empty(t, warns)
	require.Len(t, run.Keys(), 7)
	for _, k := range run.Keys() {
		assert.Len(t, gate.Tree(run.Series(k, "ns/op")).Children, 2)
	}
}

func TestMergeWarnings(t *testing.T) {
	dir := t.TempDir()
	bs := suite(4)
	a := fakeRun{benchmarks: bs, instance: "a", seed: 1}.write(t, dir, "a.jsonl")
	b := fakeRun{benchmarks: bs, instance: "b", seed: 2, mutate: func(h *record.Header) {
		h.GoVersion = "go1.25.3"
		h.CPU = "Other CPU"
		h.Binaries = map[string]string{"example.com/p0": "bbbb"}
	}}.write(t, dir, "b.jsonl")
	c := fakeRun{benchmarks: bs, instance: "c", seed: 3, mutate: func(h *record.Header) {
		h.Binaries = map[string]string{"example.com/p0": "cccc"}
	}}.write(t, dir, "c.jsonl")
	run, warns := mergeRun(t, a, b, c)
	var msgs []string
	for _, w := range warns {
		msgs = append(msgs, w.String())
	}
	all := strings.Join(msgs, "\n")
	assert.Contains(t, all, `the Go version differs between the merged files: "go1.26.0" in `+a+`, "go1.25.3" in `+b)
	assert.Contains(t, all, "the CPU differs")
	assert.Contains(t, all, c+": the test binary of example.com/p0 differs from the one in "+b)
	assert.Empty(t, run.Header.GoVersion, "no single Go version describes the merge")
	assert.Len(t, msgs, 3)
}

func TestMergeMissingShardWarns(t *testing.T) {
	dir := t.TempDir()
	bs := suite(6)
	a := fakeRun{benchmarks: bs, spec: shard.Spec{K: 1, N: 3}, seed: 1}.write(t, dir, "a.jsonl")
	c := fakeRun{benchmarks: bs, spec: shard.Spec{K: 3, N: 3}, seed: 3}.write(t, dir, "c.jsonl")
	_, warns := mergeRun(t, a, c)
	require.Len(t, warns, 1)
	assert.Contains(t, warns[0].Msg, "the unnamed instance lacks shard 2/3")
}

func TestMergePartialInputs(t *testing.T) {
	dir := t.TempDir()
	bs := suite(4)
	a := fakeRun{benchmarks: bs, spec: shard.Spec{K: 1, N: 2}, seed: 1}.write(t, dir, "a.jsonl")
	b := fakeRun{benchmarks: bs, spec: shard.Spec{K: 2, N: 2}, seed: 2, noEnd: true}.write(t, dir, "b.jsonl")
	// A crash cut b's last record short.
	data, err := os.ReadFile(b)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(b, data[:len(data)-20], 0o644))

	ins := readInputs(t, a)
	in, warns, err := record.ReadMergeInput(b)
	require.NoError(t, err)
	require.Len(t, warns, 1)
	assert.Contains(t, warns[0].Msg, "is incomplete")
	ins = append(ins, in)
	m, mwarns, err := record.Merge(ins)
	require.NoError(t, err)
	assert.Empty(t, mwarns)
	var buf bytes.Buffer
	require.NoError(t, m.Write(&buf))
	run, rwarns, err := record.Read(&buf, "merged.jsonl")
	require.NoError(t, err)
	assert.False(t, run.Complete, "a merge of a partial file is partial")
	require.Len(t, rwarns, 1)
	assert.Contains(t, rwarns[0].Msg, "did not finish")
	assert.Len(t, run.Keys(), 4)
}

// Each refusal, with the reason it gives.
func TestMergeRefusals(t *testing.T) {
	bs := suite(5)
	s := func(k, n int) shard.Spec { return shard.Spec{K: k, N: n} }
	for _, tc := range []struct {
		name string
		runs []fakeRun
		msg  string
	}{
		{"schema", []fakeRun{
			{benchmarks: bs, instance: "a", seed: 1},
			{benchmarks: bs, instance: "b", seed: 2, afterRead: func(h *record.Header) { h.Schema = 2 }},
		}, "f1.jsonl has schema 2 but "},
		{"platform", []fakeRun{
			{benchmarks: bs, instance: "a", seed: 1},
			{benchmarks: bs, instance: "b", seed: 2, mutate: func(h *record.Header) { h.GOARCH = "arm64" }},
		}, "f1.jsonl ran on linux/arm64 but "},
		{"slice time", []fakeRun{
			{benchmarks: bs, spec: s(1, 2), seed: 1},
			{benchmarks: bs, spec: s(2, 2), seed: 2, options: map[string]string{"slice-time": "500ms"}},
		}, "f1.jsonl was run with slice-time=500ms, but "},
		{"option missing", []fakeRun{
			{benchmarks: bs, instance: "a", seed: 1, options: map[string]string{"stop": "cv"}},
			{benchmarks: bs, instance: "b", seed: 2},
		}, "f1.jsonl was run without option stop, but "},
		{"option added", []fakeRun{
			{benchmarks: bs, instance: "a", seed: 1},
			{benchmarks: bs, instance: "b", seed: 2, options: map[string]string{"tags": "purego"}},
		}, "f1.jsonl was run with tags=purego, but "},
		{"same shard twice", []fakeRun{
			{benchmarks: bs, spec: s(1, 2), instance: "a", seed: 1},
			{benchmarks: bs, spec: s(1, 2), instance: "a", seed: 2},
		}, `both hold shard 1/2 of instance "a"`},
		{"same unnamed shard twice", []fakeRun{
			{benchmarks: bs, spec: s(2, 3), seed: 1},
			{benchmarks: bs, spec: s(2, 3), seed: 2},
		}, "both hold shard 2/3 of the unnamed instance; if they are replicas, give each its own --instance"},
		{"shard counts", []fakeRun{
			{benchmarks: bs, spec: s(1, 2), seed: 1},
			{benchmarks: bs, spec: s(2, 3), seed: 2},
		}, "the unnamed instance mixes shards of 2"},
		{"one instance two hosts", []fakeRun{
			{benchmarks: bs, instance: "ci", host: "runner-a", seed: 1},
			{benchmarks: bs, instance: "ci", host: "runner-b", seed: 2},
		}, `instance "ci" comes from two hosts, runner-a`},
		{"benchmark in two files", []fakeRun{
			{benchmarks: bs, instance: "ci", host: "h", seed: 1},
			{benchmarks: bs[:2], instance: "ci", host: "h", seed: 2},
		}, `benchmark example.com/p0 BenchmarkB00-4 of instance "ci" is also in `},
		{"shards of different partitions", []fakeRun{
			{benchmarks: bs, spec: s(1, 2), seed: 1},
			{benchmarks: append(slices.Clone(bs), record.Bench{Package: "example.com/a", Benchmark: "BenchmarkX"},
				record.Bench{Package: "example.com/a", Benchmark: "BenchmarkY"}, record.Bench{Package: "example.com/a", Benchmark: "BenchmarkZ"}),
				spec: s(2, 2), seed: 2},
		}, "a benchmark must come from one shard of each instance"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var paths []string
			for i, f := range tc.runs {
				paths = append(paths, f.write(t, dir, fmt.Sprintf("f%d.jsonl", i)))
			}
			ins := readInputs(t, paths...)
			for i, f := range tc.runs {
				if f.afterRead != nil {
					f.afterRead(ins[i].Header)
				}
			}
			_, _, err := record.Merge(ins)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

func TestMergeOverlapNamesLines(t *testing.T) {
	dir := t.TempDir()
	bs := suite(3)
	a := fakeRun{benchmarks: bs, instance: "ci", host: "h", seed: 1}.write(t, dir, "a.jsonl")
	b := fakeRun{benchmarks: bs, instance: "ci", host: "h", seed: 2}.write(t, dir, "b.jsonl")
	_, _, err := record.Merge(readInputs(t, a, b))
	require.Error(t, err)
	assert.Regexp(t, `^.*b\.jsonl:2: benchmark \S+ \S+ of instance "ci" is also in .*a\.jsonl:\d+`, err.Error())
}

func TestMergeFileTwice(t *testing.T) {
	dir := t.TempDir()
	a := fakeRun{benchmarks: suite(2), seed: 1}.write(t, dir, "a.jsonl")
	_, _, err := record.Merge(readInputs(t, a, a))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is given twice")
	_, _, err = record.Merge(nil)
	require.Error(t, err)
}

func FuzzReadMergeInput(f *testing.F) {
	f.Add([]byte(`{"type":"header","schema":1,"goos":"linux","goarch":"amd64","seed":1,"start":"2025-01-01T00:00:00Z"}` + "\n" +
		`{"type":"slice","pkg":"p","bench":"BenchmarkA","suite_run":1,"iteration":1,"order":1,"slice":1,"n":10,"values":{"ns/op":5},"start":"2025-01-01T00:00:00Z","wall_ns":1}` + "\n" +
		`{"type":"event","event":"end","time":"2025-01-01T00:00:01Z"}` + "\n"))
	f.Add([]byte(`{"type":"header","schema":1,"shard":"1/2","sources":[{"file":"x","instance":"a","shard":"1/2","seed":1,"start":"2025-01-01T00:00:00Z","complete":true}],"seed":1,"start":"2025-01-01T00:00:00Z"}` + "\n" + `{"type":"sli`))
	f.Add([]byte("not json\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, _, err := record.ReadMergeInputFrom(bytes.NewReader(data), "a.jsonl")
		if err != nil {
			return
		}
		b, _, err := record.ReadMergeInputFrom(bytes.NewReader(data), "b.jsonl")
		if err != nil {
			t.Fatalf("second read failed: %v", err)
		}
		for _, ins := range [][]*record.MergeInput{{a}, {a, b}} {
			m, _, err := record.Merge(ins)
			if err != nil {
				continue
			}
			var buf bytes.Buffer
			if err := m.Write(&buf); err != nil {
				t.Fatal(err)
			}
			if _, _, err := record.Read(&buf, "merged.jsonl"); err != nil {
				t.Fatalf("merged file does not read back: %v", err)
			}
		}
	})
}
