package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/gittest"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// The tests of this file run the built command as a team's CI does on its
// first day: in a shallow clone, with a dirty tree, with arguments for the
// test binary, with a baseline that does not build, on benchmarks that
// exit, skip or report no time.

// quickBaseline are the flags of a short run on fixed metrics, each
// version linked once: the tests that use them are not about layout.
var quickBaseline = []string{"--stop", "none", "--slice-time", "5ms", "--suite-runs", "2", "--slices", "2", "--seed", "1", "--progress", "off", "--layout", "fixed"}

// quickProcesses is quickBaseline pairing the versions process by
// process, for the tests of a baseline run that are not about pairing:
// pairing slice by slice builds a package testing of its own per version.
var quickProcesses = append([]string{"--pairing", "process"}, quickBaseline...)

// actions/checkout clones one commit deep unless told otherwise: the
// baseline is not there, and the message says why and what to do.
func TestBaselineInShallowClone(t *testing.T) {
	repo := gitRepo(t, 1000, 1000)
	clone := filepath.Join(t.TempDir(), "clone")
	gittest.Git(t, repo, "clone", "-q", "--depth", "1", "file://"+repo, clone)
	_, stderr, code := gobenchDyn(t, clone, append([]string{"run", "--baseline", "HEAD~1", "--impact", "off"}, quickProcesses...)...)
	assert.Equal(t, 2, code, stderr)
	assert.Contains(t, stderr, `gobench-dyn: --baseline: the repository is a shallow clone: "HEAD~1" is not among the commits it holds`)
	assert.Contains(t, stderr, `"git fetch --unshallow"`)
	assert.Contains(t, stderr, `"fetch-depth: 0"`)
	assert.NotContains(t, stderr, "--baseline: --baseline", "the flag is named once")
	assert.NotContains(t, stderr, "benchmarks in", "nothing was built")

	_, stderr, code = gobenchDyn(t, repo, append([]string{"run", "--baseline", "no-such-ref"}, quickProcesses...)...)
	assert.Equal(t, 2, code, stderr)
	assert.Contains(t, stderr, `gobench-dyn: --baseline: "no-such-ref" is not a commit`)
}

// Uncommitted changes are measured against the baseline: the comparison
// says so in its title, and a warning names them.
func TestBaselineDirtyTree(t *testing.T) {
	repo := gitRepo(t, 1000)
	require.NoError(t, os.WriteFile(filepath.Join(repo, "calc_test.go"), fmt.Appendf(nil, metricSource, 3000), 0o644))
	_, stderr, code := gobenchDyn(t, repo, append([]string{"run", "--baseline", "HEAD", "--impact", "off"}, quickProcesses...)...)
	assert.Equal(t, 1, code, "the edit is a regression:\n%s", stderr)
	assert.Contains(t, stderr, "warning: the working tree has uncommitted changes (M calc_test.go): they are measured against --baseline HEAD")
	assert.Contains(t, stderr, "HEAD vs working tree:")
	assert.NotContains(t, stderr, "HEAD vs HEAD")

	// Committed, the same change is HEAD against its parent.
	gittest.Git(t, repo, "commit", "-qam", "slower")
	_, stderr, code = gobenchDyn(t, repo, append([]string{"run", "--baseline", "HEAD~1", "--impact", "off"}, quickProcesses...)...)
	assert.Equal(t, 1, code, stderr)
	assert.NotContains(t, stderr, "uncommitted")
	assert.Contains(t, stderr, "HEAD~1 vs HEAD:")
}

// dayoneDir is the module of benchmarks that trip up a first run.
func dayoneDir(t *testing.T) string { return absDir(t, "testdata/dayone") }

// dayoneRepo copies the dayone module into a new repository, committed
// twice without change, so that HEAD~1 is a baseline identical to HEAD.
func dayoneRepo(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	require.NoError(t, os.CopyFS(repo, os.DirFS(dayoneDir(t))))
	gittest.Git(t, repo, "init", "-q")
	gittest.CommitAll(t, repo, "one")
	gittest.Git(t, repo, "commit", "-q", "--allow-empty", "-m", "two")
	return repo
}

// Arguments after "--" reach every test binary, as go test -args passes
// them: a TestMain that needs a flag runs, -test.short reaches
// testing.Short, and under --baseline both versions get them.
func TestTestBinaryArgs(t *testing.T) {
	dir := dayoneDir(t)
	out, raw := filepath.Join(t.TempDir(), "out.txt"), filepath.Join(t.TempDir(), "raw.jsonl")
	_, stderr, code := gobenchDyn(t, dir, append(append([]string{"run", "./flags", "-o", out, "--raw", raw}, quickBaseline...), "--", "-size=50", "-test.short")...)
	require.Equal(t, 0, code, stderr)
	counts := readBenchResults(t, out)
	assert.Equal(t, 4, sumPrefix(counts, "Size-"), "2 suite runs × 2 slices: %v", counts)
	assert.Zero(t, sumPrefix(counts, "Long-"), "skipped under -test.short: %v", counts)
	run, _, err := record.ReadFile(raw)
	require.NoError(t, err)
	assert.Equal(t, `"-size=50" "-test.short"`, run.Header.Options["args"])

	// Without them the package's TestMain refuses to run.
	_, stderr, code = gobenchDyn(t, dir, append([]string{"run", "./flags"}, quickBaseline...)...)
	assert.NotEqual(t, 0, code)
	assert.Contains(t, stderr, "-size is required")

	repo := dayoneRepo(t)
	base := filepath.Join(t.TempDir(), "base.txt")
	_, stderr, code = gobenchDyn(t, repo, append(append([]string{"run", "./flags", "--baseline", "HEAD~1", "--impact", "off", "--baseline-out", base, "-o", out}, quickBaseline...), "--", "-size=50", "-test.short")...)
	require.Equal(t, 0, code, stderr)
	// Paired slice by slice, each process's turns are one result line.
	assert.Positive(t, sumPrefix(readBenchResults(t, base), "Size-"), "the baseline ran with the arguments too")
	assert.Equal(t, sumPrefix(readBenchResults(t, out), "Size-"), sumPrefix(readBenchResults(t, base), "Size-"))

	// The flags the harness sets itself are refused before anything is
	// built.
	for _, a := range []string{"-test.count=3", "-test.benchtime=1s", "--test.bench=."} {
		_, stderr, code := inProcess("run", "./flags", "--", a)
		assert.Equal(t, 2, code, stderr)
		assert.Contains(t, stderr, "gobench-dyn: after --: "+a+": the harness sets")
	}
}

// sumPrefix adds up the counts of the names that start with prefix.
func sumPrefix(counts map[string]int, prefix string) int {
	n := 0
	for name, c := range counts {
		if strings.HasPrefix(name, prefix) {
			n += c
		}
	}
	return n
}

// A benchmark that exits the test binary on its first call does so before
// go test prints its name; it is named all the same, in the message and
// in the raw failure event, and the others of its package run.
func TestDiscoveryExitNamesTheBenchmark(t *testing.T) {
	dir := dayoneDir(t)
	out, raw := filepath.Join(t.TempDir(), "out.txt"), filepath.Join(t.TempDir(), "raw.jsonl")
	_, stderr, code := gobenchDyn(t, dir, append([]string{"run", "./exits", "-o", out, "--raw", raw}, quickBaseline...)...)
	assert.Equal(t, 1, code, stderr)
	assert.Regexp(t, `FAILED example\.com/dayone/exits\.BenchmarkExits(-\d+)?: exit status 3`, stderr)
	assert.NotContains(t, stderr, "FAILED example.com/dayone/exits:", "not charged to the package")
	assert.Contains(t, stderr, "gobench-dyn: 1 benchmark failed (with --keep-going, failures do not change the exit status)")
	counts := readBenchResults(t, out)
	assert.Equal(t, 4, sumPrefix(counts, "First"), "%v", counts)
	assert.Equal(t, 4, sumPrefix(counts, "Last"), "%v", counts)
	run, _, err := record.ReadFile(raw)
	require.NoError(t, err)
	var failed []string
	for _, e := range run.Events {
		if e.Event == record.EventFailure {
			failed = append(failed, e.Benchmark)
		}
	}
	require.Len(t, failed, 1)
	assert.Regexp(t, `^BenchmarkExits(-\d+)?$`, failed[0])
}

// A benchmark that skips itself is left out with the reason it gave.
func TestSkipReasonShown(t *testing.T) {
	_, stderr, code := gobenchDyn(t, dayoneDir(t), append(append([]string{"run", "./flags"}, quickBaseline...), "--", "-size=10", "-test.short")...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "example.com/dayone/flags.BenchmarkLong skipped: flags_test.go:40: long: skipped in -short mode; not run")
}

// A package that does not build at the baseline is reported as the
// baseline's failure, and its benchmarks at HEAD are not called new.
func TestBaselineBuildFailureSaysBaseline(t *testing.T) {
	repo := t.TempDir()
	write := func(path, content string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(repo, path)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(repo, path), []byte(content), 0o644))
	}
	gittest.Git(t, repo, "init", "-q")
	write("go.mod", "module example.com/calc\n\ngo 1.26\n")
	write("ok/ok_test.go", fmt.Sprintf(metricSource, 1000))
	write("calc/calc_test.go", "package calc\n\nimport \"testing\"\n\nfunc BenchmarkBroken(b *testing.B) { var n int = \"not a number\"; _ = n }\n")
	gittest.CommitAll(t, repo, "broken")
	write("calc/calc_test.go", fmt.Sprintf(metricSource, 1000))
	gittest.Git(t, repo, "commit", "-qam", "fixed")

	_, stderr, code := gobenchDyn(t, repo, append([]string{"run", "./...", "--baseline", "HEAD~1", "--impact", "off"}, quickProcesses...)...)
	assert.Equal(t, 1, code, "a failure fails the run:\n%s", stderr)
	assert.Contains(t, stderr, "FAILED example.com/calc/calc (baseline): build failed")
	assert.Contains(t, stderr, "example.com/calc/calc: build failed in the baseline HEAD~1; its benchmarks have nothing to compare with")
	assert.NotContains(t, stderr, "is new: not in the baseline")

	// When nothing of the baseline builds, the run says so.
	write("ok/ok_test.go", "package calc\n\nimport \"testing\"\n\nfunc BenchmarkBroken(b *testing.B) { var n int = \"not a number\"; _ = n }\n")
	gittest.Git(t, repo, "commit", "-qam", "broken again")
	gittest.Git(t, repo, "revert", "--no-edit", "HEAD")
	_, stderr, code = gobenchDyn(t, repo, append([]string{"run", "./ok", "--baseline", "HEAD~1", "--impact", "off"}, quickProcesses...)...)
	assert.Equal(t, 1, code, stderr)
	assert.Contains(t, stderr, "FAILED example.com/calc/ok (baseline): build failed")
	assert.Contains(t, stderr, "gobench-dyn: no benchmark of the baseline HEAD~1 could be prepared: nothing to compare with")
}

// A benchmark that reports a unit of its own in place of ns/op is
// calibrated by the clock, as go test calibrates it, not run at b.N = 1,
// and its mean and interval, in its own unit, are in the summary.
func TestCustomUnitCalibratedAndSummarized(t *testing.T) {
	raw := filepath.Join(t.TempDir(), "raw.jsonl")
	_, stderr, code := gobenchDyn(t, dayoneDir(t), "run", "./custom", "--slice-time", "5ms", "--suite-runs", "4", "--slices", "2", "--stop", "none", "--seed", "1", "--progress", "off", "--raw", raw)
	require.Equal(t, 0, code, stderr)
	run, _, err := record.ReadFile(raw)
	require.NoError(t, err)
	require.NotEmpty(t, run.Slices)
	largest := int64(0)
	for _, s := range run.Slices {
		largest = max(largest, s.N)
		assert.NotContains(t, s.Values, "ns/op")
	}
	// Uncalibrated, b.N would be 1 in every process. How far above 1
	// depends on the machine's speed (a 5 ms slice of about 100 ns per
	// op, quiet); on a busy one, a stall in the probe's first op can
	// give a process b.N = 1, and the slices it then runs far shorter
	// than 5 ms raise the next one's.
	assert.Greater(t, largest, int64(1), "b.N calibrated by the clock")
	_, summary, _ := strings.Cut(stderr, "gobench-dyn: done")
	assert.Regexp(t, `BenchmarkWidgets\S*\s+42\.00 widgets/op\s+±0%\s+4\s+done`, summary)
}
