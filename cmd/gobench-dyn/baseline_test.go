package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/gittest"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// metricSource is a package whose benchmarks report a fixed ns/op, the
// value a version gives BenchmarkChanged and 1000 for BenchmarkSame, in
// place of the time they take: every slice measures exactly that, on any
// machine and under any load.
const metricSource = `package calc

import "testing"

var sink uint64

func work(n int) {
	x := uint64(1)
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	sink += x
}

func BenchmarkChanged(b *testing.B) {
	for range b.N {
		work(500)
	}
	b.ReportMetric(%d, "ns/op")
}

func BenchmarkSame(b *testing.B) {
	for range b.N {
		work(500)
	}
	b.ReportMetric(1000, "ns/op")
}
`

// gitRepo makes a repository holding a module with package calc, whose
// BenchmarkChanged reports n ns/op for each n in turn, one commit each.
func gitRepo(t *testing.T, ns ...int) string {
	t.Helper()
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/calc\n\ngo 1.26\n"), 0o644))
	for i, n := range ns {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "calc_test.go"), []byte(fmt.Sprintf(metricSource, n)), 0o644))
		gittest.Git(t, dir, "add", ".")
		gittest.Git(t, dir, "commit", "-q", "--allow-empty", "-m", fmt.Sprintf("version %d", i+1))
	}
	return dir
}

// TestBaselineFlagsRegression runs the real command on a repository whose
// last commit makes one benchmark eight times slower, and on one whose
// last commit changes nothing. The benchmarks report fixed ns/op: under
// load a slice of a few milliseconds can be held up many times its
// length, and a handful of iterations of real timings then resolves
// neither an eightfold slowdown nor its absence.
func TestBaselineFlagsRegression(t *testing.T) {
	t.Parallel()
	args := []string{"run", "--baseline", "HEAD~1", "--impact", "off", "--stop", "none", "--slice-time", "5ms", "--suite-runs", "3", "--slices", "2",
		"--seed", "1", "--progress", "off"}
	t.Run("slower", func(t *testing.T) {
		repo := gitRepo(t, 1000, 8000)
		out := filepath.Join(t.TempDir(), "new.txt")
		base := filepath.Join(t.TempDir(), "old.txt")
		_, stderr, code := gobenchDyn(t, repo, append(args, "-o", out, "--baseline-out", base)...)
		assert.Equal(t, 1, code, stderr)
		assert.Regexp(t, `Changed\S*\s.*regression`, stderr)
		assert.NotRegexp(t, `Same\S*\s.*(regression|improvement)`, stderr)
		assert.Contains(t, stderr, "regression against --baseline HEAD~1")
		assert.Equal(t, readBenchResults(t, out), readBenchResults(t, base), "both versions have the same benchmarks and sample counts")
		worktrees, err := exec.Command("git", "-C", repo, "worktree", "list").Output()
		require.NoError(t, err)
		assert.Equal(t, 1, len(splitLines(string(worktrees))), "the temporary worktree is removed:\n%s", worktrees)
	})
	t.Run("unchanged", func(t *testing.T) {
		repo := gitRepo(t, 1000, 1000)
		_, stderr, code := gobenchDyn(t, repo, args...)
		assert.Equal(t, 0, code, stderr)
		assert.NotContains(t, stderr, "regression against")
	})
}

func splitLines(s string) []string {
	var out []string
	for l := range strings.Lines(s) {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// TestBaselineSequential runs the default dynamic configuration on a
// repository whose last commit makes one benchmark report five times the
// ns/op. By default each pair runs as one duet per suite run, the two
// versions' processes taking turns slice by slice; with --pairing process
// the two versions' processes run back to back. Either way, at the first
// look (5 process pairs or paired suite runs, before the cap of 40) the
// changed pair is decided a regression and the unchanged one no change,
// both versions of each stop with the reason recorded, and the run fails
// on the regression. With --sequential=false, or the deprecated
// --early-verdict=false, nothing stops early. The benchmarks report fixed
// values, so the verdicts and the suite run they come at are the same on
// every machine.
func TestBaselineSequential(t *testing.T) {
	t.Parallel()
	repo := gitRepo(t, 1000, 5000)
	t.Run("slice", func(t *testing.T) { testBaselineSequential(t, repo, "slice") })
	t.Run("process", func(t *testing.T) { testBaselineSequential(t, repo, "process") })
}

func testBaselineSequential(t *testing.T, repo, pairing string) {
	run := func(extra ...string) (*record.Run, string, int) {
		raw := filepath.Join(t.TempDir(), "run.jsonl")
		args := append([]string{"run", "--baseline", "HEAD~1", "--impact", "off", "--slice-time", "5ms", "--turn-time", "1ms", "--turns", "4", "--seed", "1",
			"--progress", "off", "--raw", raw, "--pairing", pairing}, extra...)
		_, stderr, code := gobenchDyn(t, repo, args...)
		r, _, err := record.ReadFile(raw)
		require.NoError(t, err, stderr)
		return r, stderr, code
	}
	settled := func(r *record.Run) map[string]int {
		out := map[string]int{}
		for _, e := range r.Events {
			if e.Event == record.EventStop && e.Reason == record.ReasonSettled {
				out[e.Benchmark+"@"+e.Version] = e.SuiteRun
			}
		}
		return out
	}
	r, stderr, code := run()
	assert.Equal(t, 1, code, stderr)
	assert.Contains(t, stderr, "regression against --baseline HEAD~1")
	assert.Regexp(t, `Changed\S*\s.*regression`, stderr)
	assert.Regexp(t, `Same\S*\s.*no change`, stderr)
	assert.Equal(t, "true", r.Header.Options["sequential"])
	assert.Equal(t, "5,8,12,18,27,40", r.Header.Options["looks"])
	assert.Equal(t, pairing, r.Header.Options["pairing"])
	// Each version has as many layout seeds as a run may link, each
	// process on one of them, and no two processes of a benchmark on the
	// same one.
	assert.Len(t, r.Header.Layouts["head"], session.MaxLayouts)
	assert.Len(t, r.Header.Layouts["baseline"], session.MaxLayouts)
	links := map[[2]string]map[uint64]string{}
	for _, sl := range r.Slices {
		versionKey := map[string]string{record.VersionHead: "head", record.VersionBaseline: "baseline"}[sl.Version]
		require.Contains(t, r.Header.Layouts[versionKey], sl.Layout)
		k := [2]string{sl.Benchmark, sl.Version}
		if links[k] == nil {
			links[k] = map[uint64]string{}
		}
		process := fmt.Sprint(sl.SuiteRun, "/", sl.Iteration)
		if p, ok := links[k][sl.Layout]; ok {
			assert.Equal(t, p, process, "%v: link %d ran one process", k, sl.Layout)
		}
		links[k][sl.Layout] = process
	}
	// Each suite run holds the two versions of a benchmark together: one
	// duet, whose measured slices take turns, or two processes back to
	// back.
	order := map[[3]string]int{}
	turns := map[[3]string][]int{}
	for _, sl := range r.Slices {
		k := [3]string{sl.Benchmark, sl.Version, fmt.Sprint(sl.SuiteRun, "/", sl.Iteration)}
		order[k] = sl.Order
		if !sl.Warmup {
			turns[k] = append(turns[k], sl.Turn)
		}
	}
	require.NotEmpty(t, order)
	for k, o := range order {
		if k[1] != record.VersionHead {
			continue
		}
		bk := [3]string{k[0], record.VersionBaseline, k[2]}
		other, ok := order[bk]
		require.True(t, ok, "%v has a baseline partner", k)
		if pairing == "process" {
			assert.Equal(t, 1, max(o-other, other-o), "%v: head at %d, baseline at %d", k, o, other)
			assert.Equal(t, 0, slices.Max(turns[k]), "%v: no turns", k)
			continue
		}
		assert.Equal(t, o, other, "%v: one duet", k)
		h, b := turns[k], turns[bk]
		require.GreaterOrEqual(t, len(h), 4, "%v: the measured turns asked for, or those planned after the first duet", k)
		require.Len(t, b, len(h))
		for j := range h {
			// Turn pairs alternate who goes first: a b b a a b b a.
			assert.Equal(t, 1, max(h[j]-b[j], b[j]-h[j]), "%v: slice %d at turns %d and %d", k, j, h[j], b[j])
			if j > 0 {
				assert.NotEqual(t, h[j] < b[j], h[j-1] < b[j-1], "%v: who goes first alternates", k)
			}
		}
	}
	s := settled(r)
	assert.Len(t, s, 4, "both versions of both pairs stop: %v\n%s", s, stderr)
	for k, sr := range s {
		// Found at the first look. Two benchmarks keep the run's
		// bound on false alarms without a confirmation
		// (gate.ConfirmAlpha), so none is measured again.
		assert.Equal(t, 5, sr, "%s decided at the first look, before the cap of 40", k)
	}
	assert.Contains(t, stderr, "--sequential: 4 benchmarks stopped with their baseline")

	for _, off := range []string{"--sequential=false", "--early-verdict=false"} {
		r, stderr, code = run(off, "--suite-runs", "3")
		assert.Equal(t, 1, code, stderr)
		assert.Empty(t, settled(r), stderr)
		assert.Equal(t, "false", r.Header.Options["sequential"])
	}
}
