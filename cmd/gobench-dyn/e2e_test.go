package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// absDir is the absolute path of rel, a directory relative to this
// package's.
func absDir(t *testing.T, rel string) string {
	t.Helper()
	dir, err := filepath.Abs(rel)
	require.NoError(t, err)
	return dir
}

// moduleRoot is the directory holding go.mod and examples/.
func moduleRoot(t *testing.T) string { return absDir(t, "../..") }

// The longest end-to-end tests (whole gates on their own repositories,
// the examples) call t.Parallel: each works in its own directories and
// changes no environment, and a run of gobench-dyn takes turns between
// two processes, so it keeps about one CPU busy and two of them overlap
// well. Their verdicts rest on fixed metrics or effects far beyond noise,
// which running beside each other does not change.

// readBenchResults parses benchstat-format results and counts samples per
// benchmark name.
func readBenchResults(t *testing.T, path string) map[string]int {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	counts := map[string]int{}
	r := benchfmt.NewReader(f, path)
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			counts[string(rec.Name.Full())]++
		case *benchfmt.SyntaxError:
			t.Errorf("benchstat would not read %s: %v", path, rec)
		}
	}
	require.NoError(t, r.Err())
	return counts
}

func TestRunExamples(t *testing.T) {
	t.Parallel()
	root := moduleRoot(t)
	dir := t.TempDir()
	out, raw := filepath.Join(dir, "out.txt"), filepath.Join(dir, "raw.jsonl")
	args := []string{"run", "./examples/...", "--stop", "none", "--slice-time", "5ms", "--suite-runs", "2", "--slices", "3", "--seed", "7", "-o", out, "--raw", raw}
	stdout, stderr, code := gobenchDyn(t, root, args...)
	require.Equal(t, 0, code, "stderr:\n%s", stderr)
	assert.Empty(t, stdout, "results go to -o")
	assert.Contains(t, stderr, "seed 7")
	assert.Contains(t, stderr, "time inside the timer")

	counts := readBenchResults(t, out)
	require.NotEmpty(t, counts)
	for name, n := range counts {
		assert.Equal(t, 6, n, "%s: 2 suite runs × 1 iteration × 3 slices", name)
	}
	assertSourceOrder(t, out)

	run, warns, err := record.ReadFile(raw)
	require.NoError(t, err)
	assert.Empty(t, warns)
	assert.True(t, run.Complete)
	assert.Equal(t, uint64(7), run.Header.Seed)
	assert.Len(t, run.Keys(), len(counts))

	// The same seed gives the same order.
	raw2 := filepath.Join(dir, "raw2.jsonl")
	args[len(args)-1] = raw2
	args[len(args)-3] = filepath.Join(dir, "out2.txt")
	_, stderr, code = gobenchDyn(t, root, args...)
	require.Equal(t, 0, code, stderr)
	run2, _, err := record.ReadFile(raw2)
	require.NoError(t, err)
	assert.Equal(t, scheduleOrder(run), scheduleOrder(run2))
}

// assertSourceOrder checks that the results in path, measured in a
// shuffled schedule, are written grouped by package, packages in go list
// order, and each package's benchmarks grouped in the order of the source,
// as go test -bench writes them.
func assertSourceOrder(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var pkgs, sizes, names []string
	for l := range strings.Lines(string(data)) {
		if p, ok := strings.CutPrefix(l, "pkg: "); ok {
			pkgs = append(pkgs, strings.TrimSpace(p))
		}
		if !strings.HasPrefix(l, "Benchmark") {
			continue
		}
		name := strings.Fields(l)[0]
		if len(names) == 0 || names[len(names)-1] != name {
			names = append(names, name)
		}
		if sub, ok := strings.CutPrefix(name, "BenchmarkSum/"); ok && !slices.Contains(sizes, sub) {
			sizes = append(sizes, sub)
		}
	}
	assert.True(t, slices.IsSorted(pkgs), "packages in go list order: %v", pkgs)
	assert.Len(t, slices.Compact(slices.Clone(pkgs)), len(pkgs), "each package once: %v", pkgs)
	assert.Len(t, slices.Compact(slices.Sorted(slices.Values(names))), len(names), "each benchmark's lines together: %v", names)
	for i, s := range sizes {
		sizes[i] = procSuffix.ReplaceAllString(s, "")
	}
	assert.Equal(t, []string{"size=16", "size=1024", "with_space", "a+b(c)", "größe=64", "size=16#01"}, sizes, "sub-benchmarks in source order")
}

// procSuffix is the -GOMAXPROCS suffix go test puts on benchmark names.
var procSuffix = regexp.MustCompile(`-\d+$`)

// scheduleOrder lists the benchmark of each iteration in the order run.
func scheduleOrder(run *record.Run) []string {
	var out []string
	for _, s := range run.Slices {
		if s.Slice == 1 {
			out = append(out, s.Benchmark)
		}
	}
	return out
}

func TestRunBadFlagsExit2(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"run", "--suite-runs", "0"}, "--suite-runs"},
		{[]string{"run", "--slice-time", "-1s"}, "--slice-time"},
		{[]string{"run", "--stop", "bogus"}, "--stop"},
		{[]string{"run", "--cpu", "1,x"}, "--cpu"},
		{[]string{"run", "--bench", ""}, "--bench"},
		{[]string{"run", "-o", "/nonexistent/dir/out.txt", "./examples/stable"}, "--out: create /nonexistent/dir/out.txt: no such file or directory"},
		{[]string{"run", "--raw", "/nonexistent/dir/raw.jsonl", "./examples/stable"}, "--raw"},
		{[]string{"run", "./no/such/package"}, "no/such/package"},
		{[]string{"run", "--no-such-flag"}, "--no-such-flag"},
		{[]string{"run", "--early-verdict"}, "--early-verdict: only acts with --baseline"},
		{[]string{"run", "--early-verdict", "--baseline", "HEAD", "--impact", "off", "--stop", "none"}, "--early-verdict: only acts with --baseline and a --stop criterion"},
	} {
		_, stderr, code := inProcess(tc.args...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, stderr)
		assert.Contains(t, stderr, tc.msg, "%v", tc.args)
		assert.NotContains(t, stderr, "goroutine", "no stack trace")
		assert.True(t, strings.HasPrefix(stderr, "gobench-dyn: "), "%q", stderr)
	}
}
