package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/history"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// historyFile writes a JSON Lines history of two benchmarks over 40
// commits: BenchmarkParse 10% slower from commit 25 on, BenchmarkEncode
// steady.
func historyFile(t *testing.T) string {
	t.Helper()
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var es []history.Entry
	for i := range 40 {
		for j, b := range []string{"BenchmarkParse-8", "BenchmarkEncode-8"} {
			m := 1000.0 * (1 + 0.003*math.Sin(float64(7*i+j)))
			if b == "BenchmarkParse-8" && i >= 25 {
				m *= 1.1
			}
			es = append(es, history.Entry{Commit: fmt.Sprintf("%040d", i), CommitTime: t0.Add(time.Duration(i) * time.Hour), Branch: "main",
				Machine: "ci", Package: "example.com/p", Benchmark: b, Unit: "ns/op", Mean: m, Lo: m - 5, Hi: m + 5, Confidence: 0.95,
				Processes: 10, AllocsPerOp: 2, BytesPerOp: 64})
		}
	}
	var buf bytes.Buffer
	require.NoError(t, history.WriteJSONL(&buf, es))
	path := filepath.Join(t.TempDir(), "history.jsonl")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	return path
}

func TestHistoryImportAnalyzeExport(t *testing.T) {
	dir := t.TempDir()
	jsonl := historyFile(t)
	store := filepath.Join(dir, "h.db")
	_, errOut, code := inProcess("history", "import", "--store", store, jsonl)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "80 entries imported")

	out, errOut, code := inProcess("history", store)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "1 change points in 6 series (240 points)")
	assert.Contains(t, out, "example.com/p.BenchmarkParse-8")
	assert.Contains(t, out, "regression")

	// The export reads as a history too, and gives the same answer.
	out2, errOut, code := inProcess("history", jsonl)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, out, out2)

	js, _, code := inProcess("history", "--json", "-", store)
	require.Equal(t, 0, code)
	var a struct {
		ChangePoints []struct {
			Bench  string  `json:"bench"`
			Commit string  `json:"commit"`
			Kind   string  `json:"kind"`
			Change float64 `json:"change"`
		} `json:"change_points"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &a))
	require.Len(t, a.ChangePoints, 1)
	assert.Equal(t, fmt.Sprintf("%040d", 25), a.ChangePoints[0].Commit)
	assert.InDelta(t, 0.1, a.ChangePoints[0].Change, 0.01)

	md, page := filepath.Join(dir, "h.md"), filepath.Join(dir, "h.html")
	_, errOut, code = inProcess("history", "--markdown", md, "--html", page, "--fail", store)
	assert.Equal(t, 1, code, "--fail exits 1 on a regression")
	assert.Contains(t, errOut, "1 regressions in the history")
	b, err := os.ReadFile(md)
	require.NoError(t, err)
	assert.Contains(t, string(b), "### Benchmark history: 1 change points, 1 regressions")
	b, err = os.ReadFile(page)
	require.NoError(t, err)
	assert.Equal(t, 6, strings.Count(string(b), `<svg class="plot"`))

	_, _, code = inProcess("history", "--since", fmt.Sprintf("%040d", 30), "--fail", store)
	assert.Equal(t, 0, code, "no change point after --since")

	exported := filepath.Join(dir, "out.jsonl")
	_, errOut, code = inProcess("history", "export", "--store", store, "-o", exported)
	require.Equal(t, 0, code, errOut)
	_, errOut, code = inProcess("history", "import", "--store", store, exported)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "0 entries imported", "an export of the same store adds nothing")
}

func TestHistoryAddRaw(t *testing.T) {
	store := filepath.Join(t.TempDir(), "h.db")
	for i, raw := range []string{"testdata/compare/old.jsonl", "testdata/compare/slow.jsonl"} {
		_, errOut, code := inProcess("history", "add", "--store", store, "--commit", fmt.Sprintf("c%d", i), "--commit-time", fmt.Sprintf("2026-11-0%dT00:00:00Z", i+1), "--machine", "ci", raw)
		require.Equal(t, 0, code, errOut)
		assert.Contains(t, errOut, "entries added")
	}
	s, err := history.Open(store)
	require.NoError(t, err)
	defer s.Close()
	var buf bytes.Buffer
	require.NoError(t, s.Export(context.Background(), &buf))
	es, err := history.ReadJSONL(&buf, "export")
	require.NoError(t, err)
	require.NotEmpty(t, es)
	for _, e := range es {
		assert.Equal(t, "ci", e.Machine)
		assert.Equal(t, "example.com/p", e.Package)
		assert.Contains(t, []string{"c0", "c1"}, e.Commit)
		assert.Greater(t, e.Processes, 1)
		assert.Less(t, e.Lo, e.Mean)
	}
}

// historyMeasurer stands in for the paired runs of --confirm.
type historyMeasurer struct{ calls int }

func (m *historyMeasurer) Measure(_ context.Context, before, after string, keys []record.Bench, threshold float64) (*gate.Result, error) {
	m.calls++
	res := &gate.Result{}
	for _, k := range keys {
		res.Comparisons = append(res.Comparisons, gate.Comparison{Package: k.Package, Benchmark: k.Benchmark, Unit: "ns/op", Verdict: gate.Regression,
			Ratio: stats.Interval{Center: 1.1, Lo: 1.08, Hi: 1.12, Confidence: 0.99}})
	}
	return res, nil
}

func TestHistoryConfirmKeepsOutcomes(t *testing.T) {
	store := filepath.Join(t.TempDir(), "h.db")
	_, errOut, code := inProcess("history", "import", "--store", store, historyFile(t))
	require.Equal(t, 0, code, errOut)
	m := &historyMeasurer{}
	run := func() (int, string) {
		var out, errb bytes.Buffer
		cmd := NewCmdHistory(&IOStreams{Out: &out, ErrOut: &errb}, func(o *HistoryOptions) error {
			o.Measurer = m
			o.Now = func() time.Time { return time.Unix(1, 0) }
			return historyRun(o)
		})
		cmd.SetArgs([]string{"--confirm", "--fail", store})
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		code, _ := exitOf(t, cmd.Execute())
		return code, out.String()
	}
	code, out := run()
	assert.Equal(t, 1, code, "a confirmed regression fails")
	assert.Contains(t, out, "confirmed (regression +10.0% [+8.0%, +12.0%])")
	assert.Equal(t, 1, m.calls)
	code, out = run()
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "confirmed (regression", "the store kept the outcome")
	assert.Equal(t, 1, m.calls, "a change point is confirmed once")
}

func TestHistoryBadInput(t *testing.T) {
	dir := t.TempDir()
	jsonl := historyFile(t)
	store := filepath.Join(dir, "h.db")
	require.Equal(t, 0, exitCode("history", "import", "--store", store, jsonl))
	bad := filepath.Join(dir, "bad.jsonl")
	b, err := os.ReadFile(jsonl)
	require.NoError(t, err)
	lines := strings.SplitN(string(b), "\n", 3)
	require.NoError(t, os.WriteFile(bad, []byte(lines[0]+"\n"+`{"commit":"x","mean":"fast"}`+"\n"), 0o644))
	notDB := filepath.Join(dir, "text.db")
	require.NoError(t, os.WriteFile(notDB, []byte(strings.Repeat("not a database\n", 20)), 0o644))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"history", filepath.Join(dir, "missing.db")}, "missing.db: no such history store"},
		{[]string{"history", notDB}, "not a history store"},
		{[]string{"history", store, store}, "one store file"},
		{[]string{"history", "--pvalue", "2", store}, "--pvalue 2"},
		{[]string{"history", "--min-change", "-1", store}, "--min-change"},
		{[]string{"history", "--method", "magic", store}, "--method"},
		{[]string{"history", "--bench", "(", store}, "--bench"},
		{[]string{"history", "--window", "1", store}, "--window"},
		{[]string{"history", "--since", "feed", store}, `--since: no commit "feed"`},
		{[]string{"history", "--html", "-", "--json", "-", store}, "--json - and --html -: only one report"},
		{[]string{"history", "--confirm", jsonl}, "--confirm"},
		{[]string{"history", bad}, "bad.jsonl:2:"},
		{[]string{"history", "import", "--store", filepath.Join(dir, "i.db"), bad}, "bad.jsonl:2:"},
		{[]string{"history", "import", "--store", filepath.Join(dir, "i.db"), filepath.Join(dir, "none.jsonl")}, "none.jsonl"},
		{[]string{"history", "import", "--store", notDB, jsonl}, "--store"},
		{[]string{"history", "export", "--store", filepath.Join(dir, "missing.db")}, "--store"},
		{[]string{"history", "add", "--store", filepath.Join(dir, "a.db"), "--commit", "c", "--commit-time", "yesterday", "testdata/compare/old.jsonl"}, "--commit-time"},
		{[]string{"history", "add", "--store", filepath.Join(dir, "a.db"), "--commit", "c", "--commit-time", "2026-11-01T00:00:00Z", "testdata/compare/bad.jsonl"}, "bad.jsonl:"},
		{[]string{"history", "add", "--store", filepath.Join(dir, "a.db"), "--dir", dir, "testdata/compare/old.jsonl"}, "--dir"},
		{[]string{"history", "add"}, "at least one raw file"},
	} {
		_, errOut, code := inProcess(tc.args...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, errOut)
		assert.Contains(t, errOut, tc.want, "%v", tc.args)
		assert.Equal(t, 1, strings.Count(strings.TrimSpace(errOut), "\n")+1, "%v: one line: %s", tc.args, errOut)
	}
}
