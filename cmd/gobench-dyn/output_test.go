package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quickExamples runs two example packages briefly, with a fixed schedule.
var quickExamples = []string{"run", "./examples/sizes", "./examples/stable", "--stop", "none", "--slice-time", "5ms", "--suite-runs", "2",
	"--slices", "2", "--seed", "7", "--progress", "off"}

// layout reduces benchmark-format text to its shape: each result line to
// its benchmark's name, each precision line to its name, the labels as
// they are. Two runs of one schedule have the same shape.
func layout(text string) []string {
	var out []string
	for l := range strings.Lines(text) {
		l = strings.TrimRight(l, "\n")
		switch {
		case strings.HasPrefix(l, "Benchmark"):
			out = append(out, strings.Fields(l)[0])
		case strings.HasPrefix(l, "# "):
			name, _, _ := strings.Cut(l, ":")
			out = append(out, name)
		case l != "":
			out = append(out, l)
		}
	}
	return out
}

// Stdout carries what -o carries: the results grouped by package in
// source order, as go test prints them, once, not each slice in the
// shuffled order it was measured in.
func TestStdoutLikeOutFile(t *testing.T) {
	root := moduleRoot(t)
	stdout, stderr, code := gobenchDyn(t, root, quickExamples...)
	require.Equal(t, 0, code, stderr)
	out := filepath.Join(t.TempDir(), "out.txt")
	_, stderr, code = gobenchDyn(t, root, append(quickExamples, "-o", out)...)
	require.Equal(t, 0, code, stderr)
	file, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, layout(string(file)), layout(stdout))
	assert.Equal(t, 2, strings.Count(stdout, "pkg: "), "each package's header once:\n%s", stdout)
	stdoutFile := filepath.Join(t.TempDir(), "stdout.txt")
	require.NoError(t, os.WriteFile(stdoutFile, []byte(stdout), 0o600))
	assertSourceOrder(t, stdoutFile)
}

// At a terminal the progress bar and the results share the screen: no
// result line starts after the bar on its line.
func TestProgressBarNeverSharesAResultLine(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs benchmarks")
	}
	bin, err := builtBinary()
	require.NoError(t, err)
	args := append([]string{}, quickExamples...)
	args[len(args)-1] = "on" // --progress on: the live bar, as at a terminal
	cmd := exec.Command(bin, args...)
	cmd.Dir = moduleRoot(t)
	var both bytes.Buffer
	cmd.Stdout, cmd.Stderr = &both, &both
	require.NoError(t, cmd.Run(), both.String())
	results := 0
	for l := range strings.Lines(both.String()) {
		if strings.Contains(l, "ns/op") {
			results++
			assert.Regexp(t, `^Benchmark\S+\t\s*\d+\t`, l, "a result line of its own")
		}
	}
	assert.Equal(t, 2*2*8, results, "2 suite runs × 2 slices × 8 benchmarks")
}

// The run ends with an aligned table: benchmark, mean in benchstat's
// units, ±, processes and status; the counts say "1 benchmark", not "1
// benchmarks". Without a budget, which the machine's speed would decide,
// the status is the criterion's.
func TestRunEndsWithResultsTable(t *testing.T) {
	root := moduleRoot(t)
	_, stderr, code := gobenchDyn(t, root, "run", "./examples/stable", "-b", "SHA256", "--slice-time", "5ms", "--suite-runs", "4", "--seed", "1",
		"--budget", "0", "--progress", "off", "-o", filepath.Join(t.TempDir(), "out.txt"))
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "gobench-dyn: 1 benchmark in 1 package, seed 1")
	assert.Contains(t, stderr, "gobench-dyn: done: 1 benchmark, ")
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	require.GreaterOrEqual(t, len(lines), 3)
	tail := lines[len(lines)-3:]
	assert.Regexp(t, `^  benchmark +mean +±95% +processes +status$`, tail[0])
	assert.Equal(t, "  github.com/gobench-dyn/gobench-dyn/examples/stable", tail[1])
	assert.Regexp(t, regexp.MustCompile(`^    BenchmarkSHA256\S* +\d+(\.\d+)?[nµm]? sec/op +(±\S+|—) +\d+  (stable|out of reach|unstable at the cap)`), tail[2])
	runes := func(s string) []rune { return []rune(s) }
	col := len(runes(tail[0][:strings.Index(tail[0], "status")]))
	require.Greater(t, len(runes(tail[2])), col)
	assert.Equal(t, "  ", string(runes(tail[2])[col-2:col]), "the status column aligned:\n%s", strings.Join(tail, "\n"))
	assert.NotEqual(t, ' ', runes(tail[2])[col], "the status column aligned:\n%s", strings.Join(tail, "\n"))
}

// A baseline's copies of the benchmarks are not counted as packages of
// their own.
func TestBaselineCountsPackagesOnce(t *testing.T) {
	repo := gitRepo(t, 1000, 1000)
	_, stderr, code := gobenchDyn(t, repo, append([]string{"run", "--baseline", "HEAD~1", "--impact", "off"}, quickProcesses...)...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "gobench-dyn: 2 benchmarks in 1 package, 2 of them also at the baseline HEAD~1, seed 1")
}
