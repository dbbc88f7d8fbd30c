package ci

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/history"
)

// historyRepo is a scratch clone with an origin to push the history
// branch to, as actions/checkout leaves one.
type historyRepo struct {
	t                  *testing.T
	dir, origin, store string
	summary, ghLog     string
	env                []string
}

func newHistoryRepo(t *testing.T) *historyRepo {
	root := t.TempDir()
	r := &historyRepo{t: t, dir: filepath.Join(root, "work"), origin: filepath.Join(root, "origin.git"),
		store: filepath.Join(root, "history.db"), summary: filepath.Join(root, "summary.md"), ghLog: filepath.Join(root, "gh.log")}
	r.git(root, "init", "--quiet", "--bare", r.origin)
	r.git(root, "init", "--quiet", "-b", "main", r.dir)
	require.NoError(t, os.WriteFile(filepath.Join(r.dir, "go.mod"), []byte("module example.com/p\n"), 0o644))
	r.git(r.dir, "add", "go.mod")
	r.git(r.dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "--quiet", "-m", "first")
	r.git(r.dir, "remote", "add", "origin", r.origin)
	r.git(r.dir, "push", "--quiet", "origin", "main")
	// gh stands in for the GitHub CLI: it logs its arguments and lists
	// the issue titles of $GH_EXISTING.
	gh := filepath.Join(root, "gh")
	require.NoError(t, os.WriteFile(gh, []byte("#!/usr/bin/env bash\necho \"$*\" >> \""+r.ghLog+"\"\nif [[ $1 == issue && $2 == list ]]; then printf '%s' \"${GH_EXISTING:-}\"; fi\n"), 0o755))
	r.env = []string{"GOBENCH_DYN=" + gobenchDyn(t), "STORE=" + r.store, "GITHUB_STEP_SUMMARY=" + r.summary, "GH=" + gh,
		"GITHUB_SHA=0123456789abcdef", "RUNNER_TEMP=" + root}
	return r
}

func (r *historyRepo) git(dir string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	out, err := cmd.CombinedOutput()
	require.NoError(r.t, err, "git %v: %s", args, out)
	return string(out)
}

// script runs history.sh with a subcommand and the extra environment,
// returning its exit status and output.
func (r *historyRepo) script(sub string, env ...string) (int, string) {
	r.t.Helper()
	script, err := filepath.Abs("history.sh")
	require.NoError(r.t, err)
	cmd := exec.Command("bash", script, sub)
	cmd.Dir = r.dir
	cmd.Env = append(append(append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null"), r.env...), env...)
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(r.t, err)
	}
	return code, string(out)
}

// fakeRuns adds 40 runs of fake data to the store, as 40 pushes of run
// --history would: BenchmarkParse 10% slower from the 26th on.
func (r *historyRepo) fakeRuns() {
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var es []history.Entry
	for i := range 40 {
		for j, b := range []string{"BenchmarkParse-2", "BenchmarkEncode-2"} {
			m := 500 * (1 + 0.004*math.Sin(float64(5*i+j)))
			if j == 0 && i >= 25 {
				m *= 1.1
			}
			es = append(es, history.Entry{Commit: fmt.Sprintf("%03x%037x", i+1, 0), CommitTime: t0.Add(time.Duration(i) * time.Hour), Branch: "main",
				Machine: "linux/amd64 runner", Package: "example.com/p", Benchmark: b, Unit: "ns/op", Mean: m, Lo: m * 0.99, Hi: m * 1.01,
				Confidence: 0.95, Processes: 10, AllocsPerOp: 1, BytesPerOp: 32})
		}
	}
	var buf bytes.Buffer
	require.NoError(r.t, history.WriteJSONL(&buf, es))
	f := filepath.Join(r.t.TempDir(), "runs.jsonl")
	require.NoError(r.t, os.WriteFile(f, buf.Bytes(), 0o644))
	out, err := exec.Command(gobenchDyn(r.t), "history", "import", "--store", r.store, f).CombinedOutput()
	require.NoError(r.t, err, "%s", out)
}

// TestHistoryWorkflowScript runs the steps of history.yml with the real
// gobench-dyn on fake data: the history survives on its branch between
// runs, the job summary lists the change point, and a regression fails
// the job, opens one issue, or neither, as configured. (Confirmation,
// which measures real commits, is off here; the command's tests and
// docs/HISTORY.md cover it.)
func TestHistoryWorkflowScript(t *testing.T) {
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("jq is not installed (GitHub's runners have it)")
	}
	r := newHistoryRepo(t)
	code, out := r.script("restore")
	require.Equal(t, 0, code, out)
	assert.Contains(t, out, "No branch benchmark-history yet")

	r.fakeRuns()
	code, out = r.script("save")
	require.Equal(t, 0, code, out)
	assert.Contains(t, out, "History saved to benchmark-history (80 entries)")
	saved := r.git(r.dir, "--git-dir", r.origin, "show", "benchmark-history:history.jsonl")
	assert.Equal(t, 80, strings.Count(saved, "\n"))

	// The next run starts from a fresh machine: only the branch is left.
	require.NoError(t, os.Remove(r.store))
	code, out = r.script("restore")
	require.Equal(t, 0, code, out)
	assert.Contains(t, out, "80 entries imported")

	code, out = r.script("analyze", "CONFIRM=false")
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "1 regressions in the history")
	summary, err := os.ReadFile(r.summary)
	require.NoError(t, err)
	assert.Contains(t, string(summary), "### Benchmark history: 1 change points, 1 regressions")
	assert.Contains(t, string(summary), "`example.com/p.BenchmarkParse-2`")

	code, out = r.script("analyze", "CONFIRM=false", "ON_REGRESSION=issue")
	require.Equal(t, 0, code, out)
	title := fmt.Sprintf("Benchmark regression: example.com/p.BenchmarkParse-2 ns/op at %03x%09x", 26, 0)
	log, err := os.ReadFile(r.ghLog)
	require.NoError(t, err)
	assert.Contains(t, string(log), "issue create --title "+title)
	code, out = r.script("analyze", "CONFIRM=false", "ON_REGRESSION=issue", "GH_EXISTING="+title)
	require.Equal(t, 0, code, out)
	assert.Contains(t, out, "Already filed: "+title)
	log, _ = os.ReadFile(r.ghLog)
	assert.Equal(t, 1, strings.Count(string(log), "issue create"), "one issue per regression")

	code, out = r.script("analyze", "CONFIRM=false", "ON_REGRESSION=none")
	assert.Equal(t, 0, code, out)
	code, out = r.script("analyze", "ON_REGRESSION=sometimes")
	assert.Equal(t, 2, code, out)

	// Saving again appends a commit to the branch.
	code, out = r.script("save")
	require.Equal(t, 0, code, out)
	assert.Contains(t, r.git(r.dir, "--git-dir", r.origin, "log", "--oneline", "benchmark-history"), "benchmark history at 0123456789abcdef")
	assert.Equal(t, 2, strings.Count(r.git(r.dir, "--git-dir", r.origin, "log", "--oneline", "benchmark-history"), "\n"))
}
