package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func runAbs(t *testing.T, dir string, mod func(*AbsOptions), patterns ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	opts := &AbsOptions{Patterns: patterns, SliceTime: 5 * time.Millisecond, SuiteRuns: 5, SpreadRuns: 3, Rule: "gate",
		Timeout: time.Minute, Seed: 1, seedSet: true, Stdout: &out, Stderr: &errOut, Dir: absDir(t, filepath.Join("..", "..", "internal", "apiscore", "testdata", dir)),
		Pairing: PairingOptions{Pairing: "slice", TurnTime: time.Millisecond, Turns: 20, TurnWarmup: 5 * time.Millisecond}}
	if mod != nil {
		mod(opts)
	}
	return runOptions(t, &out, &errOut, absRun(opts))
}

func TestAbsBadInputExits2(t *testing.T) {
	for name, mod := range map[string]func(*AbsOptions){
		"--func":        func(o *AbsOptions) { o.Func = "(" },
		"--bench":       func(o *AbsOptions) { o.Bench = "a/(" },
		"--top":         func(o *AbsOptions) { o.Top = -1 },
		"--slowdown":    func(o *AbsOptions) { o.Slowdown = -0.5 },
		"--suite-runs":  func(o *AbsOptions) { o.SuiteRuns = 1 },
		"--spread-runs": func(o *AbsOptions) { o.SpreadRuns = 1 },
		"--rule":        func(o *AbsOptions) { o.Rule = "utest" },
		"--pairing":     func(o *AbsOptions) { o.Pairing.Pairing = "together" },
		"--turn-time":   func(o *AbsOptions) { o.Pairing.TurnTime = 0 },
	} {
		_, msg, code := runAbs(t, "known", mod, ".")
		assert.Equal(t, 2, code, name)
		assert.Contains(t, msg, name)
	}
	if testing.Short() {
		return
	}
	_, msg, code := runAbs(t, "nobench", func(o *AbsOptions) { o.Slowdown = 1 }, ".")
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "no benchmarks")
}

// A function no benchmark reaches is reported without running anything,
// in the table and in the JSON file.
func TestAbsNotReachableJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("builds benchmarks")
	}
	js := filepath.Join(t.TempDir(), "abs.json")
	page := filepath.Join(t.TempDir(), "abs.html")
	out, msg, code := runAbs(t, "known", func(o *AbsOptions) {
		o.Func, o.Slowdown, o.JSON, o.HTML = "^Cold$", 2, js, page
	}, ".")
	require.Equal(t, 0, code, msg)
	assert.Regexp(t, `Cold\s+not reachable`, out)
	assert.Contains(t, out, "score: 0 of 1 functions detected = 0%")
	b, err := os.ReadFile(js)
	require.NoError(t, err)
	var got struct {
		Slowdown  float64 `json:"slowdown"`
		Score     float64 `json:"score"`
		Functions []struct {
			Name       string `json:"name"`
			Verdict    string `json:"verdict"`
			Benchmarks []any  `json:"benchmarks"`
		} `json:"functions"`
	}
	require.NoError(t, json.Unmarshal(b, &got))
	assert.Equal(t, 2.0, got.Slowdown)
	assert.Equal(t, 0.0, got.Score)
	require.Len(t, got.Functions, 1)
	assert.Equal(t, "Cold", got.Functions[0].Name)
	assert.Equal(t, "not detected", got.Functions[0].Verdict)
	assert.Empty(t, got.Functions[0].Benchmarks)
	h, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.Contains(t, string(h), `<code>Cold</code>`)
	assert.Contains(t, string(h), `<span class="badge v-not-reachable">not reachable</span>`)
	assert.Contains(t, string(h), "score: 0 of 1 functions detected")
}

// The flags bind to the options, with the gate and its cap by default.
func TestAbsFlagDefaults(t *testing.T) {
	var got *AbsOptions
	cmd := NewCmdAbs(&IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, func(o *AbsOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--html", "x.html", "./p"})
	require.NoError(t, cmd.Execute())
	assert.Equal(t, "gate", got.Rule)
	assert.Equal(t, 10, got.SuiteRuns)
	assert.Equal(t, "x.html", got.HTML)
	assert.Equal(t, ".", got.Bench, "every benchmark, as go test -bench .")
	assert.Equal(t, []string{"./p"}, got.Patterns)
	eo, err := got.evaluateOptions()
	require.NoError(t, err)
	assert.Equal(t, "interval", eo.Stop.Criterion.String())
}
