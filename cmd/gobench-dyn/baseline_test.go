package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/record"
)

// benchSource is a package with one benchmark whose cost is slowWork and
// one whose cost never changes.
const benchSource = `package calc

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
		work(%d)
	}
}

func BenchmarkSame(b *testing.B) {
	for range b.N {
		work(2000)
	}
}
`

// gitRepo makes a repository holding a module with package calc, whose
// BenchmarkChanged costs work(n) for each n in turn, one commit each.
func gitRepo(t *testing.T, ns ...int) string {
	t.Helper()
	dir := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	git("init", "-q")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/calc\n\ngo 1.26\n"), 0o644))
	for i, n := range ns {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "calc_test.go"), []byte(fmt.Sprintf(benchSource, n)), 0o644))
		git("add", ".")
		git("commit", "-q", "--allow-empty", "-m", fmt.Sprintf("version %d", i+1))
	}
	return dir
}

// TestBaselineFlagsRegression runs the real command on a repository whose
// last commit makes one benchmark 20% slower. It measures: on a shared
// machine, with other test packages running beside it, a run can be too
// noisy to resolve 20%, and then says "no change" rather than guess. So the
// slowdown must be flagged in one of four runs with different seeds, and
// the unchanged benchmark must never be.
func TestBaselineFlagsRegression(t *testing.T) {
	args := func(seed int) []string {
		return []string{"run", "--baseline", "HEAD~1", "--stop", "none", "--slice-time", "5ms", "--suite-runs", "16", "--slices", "5",
			"--seed", fmt.Sprint(seed), "--progress", "off"}
	}
	t.Run("slower", func(t *testing.T) {
		repo := gitRepo(t, 2000, 2400)
		flagged := false
		for seed := 1; seed <= 4 && !flagged; seed++ {
			out := filepath.Join(t.TempDir(), "new.txt")
			base := filepath.Join(t.TempDir(), "old.txt")
			_, stderr, code := gobenchDyn(t, repo, append(args(seed), "-o", out, "--baseline-out", base)...)
			require.Contains(t, []int{0, 1}, code, stderr)
			assert.NotRegexp(t, `Same\S*\s.*(regression|improvement)`, stderr)
			assert.Equal(t, readBenchResults(t, out), readBenchResults(t, base), "both versions have the same benchmarks and sample counts")
			worktrees, err := exec.Command("git", "-C", repo, "worktree", "list").Output()
			require.NoError(t, err)
			assert.Equal(t, 1, len(splitLines(string(worktrees))), "the temporary worktree is removed:\n%s", worktrees)
			if code == 1 {
				assert.Regexp(t, `Changed\S*\s.*regression`, stderr)
				assert.Contains(t, stderr, "regression against --baseline HEAD~1")
				flagged = true
			} else {
				t.Logf("seed %d: too noisy to resolve the slowdown:\n%s", seed, stderr)
			}
		}
		assert.True(t, flagged, "a 20%% slowdown was not flagged in 4 runs")
	})
	t.Run("unchanged", func(t *testing.T) {
		repo := gitRepo(t, 2000, 2000)
		_, stderr, code := gobenchDyn(t, repo, args(1)...)
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
// repository whose last commit makes one benchmark 20 times slower (far
// beyond the process noise of a loaded machine, which reached ±65% with
// 5 ms slices): that
// pair runs back to back in every suite run, stops at a look before the cap
// of 20 suite runs once the slowdown is decided, both versions with the
// reason recorded, and the run fails on the regression. The unchanged
// benchmark may stop as "no change" but is never a regression. With
// --sequential=false (or the deprecated --early-verdict=false) nothing
// stops early. Process noise on a loaded machine can delay the verdict, so
// one of three seeds must decide it early.
func TestBaselineSequential(t *testing.T) {
	repo := gitRepo(t, 2000, 40000)
	run := func(seed int, extra ...string) (*record.Run, string, int) {
		raw := filepath.Join(t.TempDir(), "run.jsonl")
		args := append([]string{"run", "--baseline", "HEAD~1", "--slice-time", "5ms", "--seed", fmt.Sprint(seed),
			"--progress", "off", "--raw", raw}, extra...)
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
	early := false
	for seed := 1; seed <= 3 && !early; seed++ {
		r, stderr, code := run(seed)
		assert.Equal(t, 1, code, stderr)
		assert.Contains(t, stderr, "regression against --baseline HEAD~1")
		assert.NotRegexp(t, `Same\S*\s.*regression`, stderr)
		assert.Equal(t, "true", r.Header.Options["sequential"])
		assert.Equal(t, "5,8,12,18,20", r.Header.Options["looks"])
		assert.Contains(t, stderr, "paired by suite run, sequential")
		// Each suite run holds the two versions of a benchmark back to
		// back.
		order := map[[3]string]int{}
		for _, sl := range r.Slices {
			order[[3]string{sl.Benchmark, sl.Version, fmt.Sprint(sl.SuiteRun, "/", sl.Iteration)}] = sl.Order
		}
		for k, o := range order {
			if k[1] == record.VersionHead {
				other, ok := order[[3]string{k[0], record.VersionBaseline, k[2]}]
				require.True(t, ok, "%v has a baseline partner", k)
				assert.Equal(t, 1, abs(o-other), "%v: head at %d, baseline at %d", k, o, other)
			}
		}
		s := settled(r)
		sr, ok := s["BenchmarkChanged@"+record.VersionHead]
		if !ok {
			t.Logf("seed %d: the slowdown was not decided before the cap:\n%s", seed, stderr)
			continue
		}
		assert.Contains(t, s, "BenchmarkChanged@"+record.VersionBaseline, "both versions stop: %v", s)
		assert.Less(t, sr, 20, "decided before the cap")
		assert.Contains(t, stderr, "--sequential:")
		early = true
	}
	assert.True(t, early, "a 20× slowdown was not decided early in 3 runs")

	for _, off := range []string{"--sequential=false", "--early-verdict=false"} {
		r, stderr, _ := run(1, off, "--suite-runs", "3")
		assert.Empty(t, settled(r), stderr)
		assert.Equal(t, "false", r.Header.Options["sequential"])
	}
}

func abs(x int) int { return max(x, -x) }
