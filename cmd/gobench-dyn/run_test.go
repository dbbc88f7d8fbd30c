package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/internal/shard"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// parseRun runs the flags of run through NewCmdRun in process and returns
// the options they bind, without running anything.
func parseRun(t *testing.T, args ...string) (*RunOptions, error) {
	t.Helper()
	var got *RunOptions
	var out bytes.Buffer
	cmd := NewCmdRun(&IOStreams{Out: &out, ErrOut: &out}, func(o *RunOptions) error { got = o; return nil })
	cmd.SetArgs(args)
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	return got, cmd.Execute()
}

func TestRunFlagsSetTheSession(t *testing.T) {
	o, err := parseRun(t, "--stop", "cv", "--cpu", "1, 4", "--resume", "r.jsonl", "--fail-on", "time,allocs",
		"--min-change", "0.1", "--shard", "2/3", "--instance", "vm", "--slice-time", "20ms", "./a/...", "./b")
	require.NoError(t, err)
	s := o.session
	assert.Equal(t, []string{"./a/...", "./b"}, s.Patterns)
	assert.Equal(t, stopper.CV, s.Stop.Criterion)
	assert.Equal(t, 0.01, s.Stop.Threshold, "the criterion's default threshold")
	assert.Equal(t, []int{1, 4}, s.CPU)
	assert.Equal(t, "r.jsonl", s.Raw, "--resume appends to its file")
	assert.Equal(t, gate.FailOn{"time", "allocs"}, s.FailOn)
	assert.Equal(t, 0.1, s.Compare.Threshold)
	assert.Equal(t, shard.Spec{K: 2, N: 3}, s.Shard)
	assert.Equal(t, "vm", s.Instance)
	assert.Equal(t, 20*time.Millisecond, s.SliceTime)
	assert.False(t, s.SeedSet)
	assert.Contains(t, s.Tool, "gobench-dyn ")

	o, err = parseRun(t, "--seed", "0")
	require.NoError(t, err)
	assert.True(t, o.session.SeedSet, "--seed 0 is a seed")

	o, err = parseRun(t, "--baseline", "main")
	require.NoError(t, err)
	assert.Equal(t, session.DefaultLayouts, o.session.Layouts, "a baseline run randomises the layout")
	o, err = parseRun(t, "--baseline", "main", "--layout", "fixed")
	require.NoError(t, err)
	assert.Zero(t, o.session.Layouts)
}

func TestRunFlagsRejectedBeforeRunning(t *testing.T) {
	for args, msg := range map[string][]string{
		"--bench":          {"--bench", "a/(b"},
		"--rule":           {"--rule", "vote"},
		"--min-change":     {"--min-change", "-1"},
		"--shard-times":    {"--shard-times", "t.jsonl"},
		"--baseline-out":   {"--baseline-out", "b.txt"},
		"--out and --raw":  {"-o", "x", "--raw", "x"},
		"--min-iterations": {"--stop", "cv", "--suite-runs", "1", "--min-iterations", "2"},
		"--layout":         {"--baseline", "main", "--layout", "moved"},
		"--warmup-cache":   {"--warmup-cache", ""},
	} {
		o, err := parseRun(t, msg...)
		require.Error(t, err, args)
		assert.Nil(t, o, "%s: nothing runs", args)
		var ex *exitError
		require.ErrorAs(t, err, &ex, args)
		assert.Equal(t, 2, ex.code, args)
		assert.Contains(t, ex.msg, args)
	}
}

// TestWarmupCacheFlag: --warmup-cache names a directory, off none, and
// auto the one $GOBENCHDYN_WARMUP_CACHE names, or none when it is off, or
// else the user cache directory's.
func TestWarmupCacheFlag(t *testing.T) {
	dir := t.TempDir()
	o, err := parseRun(t, "--warmup-cache", dir)
	require.NoError(t, err)
	assert.Equal(t, dir, o.session.WarmupCache)
	o, err = parseRun(t, "--warmup-cache", "off")
	require.NoError(t, err)
	assert.Empty(t, o.session.WarmupCache)

	t.Setenv("GOBENCHDYN_WARMUP_CACHE", dir)
	o, err = parseRun(t)
	require.NoError(t, err)
	assert.Equal(t, dir, o.session.WarmupCache)
	t.Setenv("GOBENCHDYN_WARMUP_CACHE", "off")
	o, err = parseRun(t)
	require.NoError(t, err)
	assert.Empty(t, o.session.WarmupCache)
	t.Setenv("GOBENCHDYN_WARMUP_CACHE", "")
	o, err = parseRun(t)
	require.NoError(t, err)
	if user, err := os.UserCacheDir(); err == nil {
		assert.Equal(t, filepath.Join(user, "gobench-dyn", "warmup"), o.session.WarmupCache)
	}
}

// TestBudgetExtendsTheCap: a sequential baseline run bounded by --budget
// plans looks past the default cap for pairs whose change is shown; an
// explicit --suite-runs, or no budget, keeps one cap.
func TestBudgetExtendsTheCap(t *testing.T) {
	for _, c := range []struct {
		args             []string
		suiteRuns, after int
	}{
		{[]string{"--baseline", "main"}, gate.DefaultLastLook, 0},
		{[]string{"--baseline", "main", "--budget", "6m"}, gate.ExtendedLastLook, gate.DefaultLastLook},
		{[]string{"--baseline", "main", "--budget", "6m", "--suite-runs", "30"}, 30, 0},
		{[]string{"--baseline", "main", "--budget", "6m", "--sequential=false"}, session.DefaultIntervalSuiteRuns, 0},
	} {
		o, err := parseRun(t, c.args...)
		require.NoError(t, err, c.args)
		assert.Equal(t, c.suiteRuns, o.session.SuiteRuns, c.args)
		assert.Equal(t, c.after, o.session.ExtendPast, c.args)
	}
}
