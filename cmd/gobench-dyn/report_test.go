package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeRaw writes a small raw file: one benchmark, two iterations of three
// slices.
func writeRaw(t *testing.T, dir string) string {
	path := filepath.Join(dir, "run.jsonl")
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	w := record.NewWriter(f)
	require.NoError(t, w.Write(&record.Header{Tool: "gobench-dyn test", Start: time.Unix(0, 0).UTC()}))
	for it := 1; it <= 2; it++ {
		for sl, v := range []float64{100, 101, 99} {
			require.NoError(t, w.Write(&record.Slice{Package: "p", Benchmark: "BenchmarkA", SuiteRun: 1, Iteration: it, Order: it, Slice: sl + 1, N: 10, Values: map[string]float64{"ns/op": v}, WallNs: 1e6}))
		}
	}
	require.NoError(t, w.Write(&record.Event{Event: record.EventEnd}))
	return path
}

func TestReportWritesBoth(t *testing.T) {
	dir := t.TempDir()
	raw := writeRaw(t, dir)
	var out, errOut bytes.Buffer
	opts := &ReportOptions{Raw: []string{raw}, HTML: filepath.Join(dir, "r.html"), Markdown: "-", Unit: "ns/op", Confidence: 0.99, Out: &out, ErrOut: &errOut}
	require.NoError(t, reportRun(opts))
	html, err := os.ReadFile(opts.HTML)
	require.NoError(t, err)
	assert.Contains(t, string(html), "<svg")
	assert.Contains(t, out.String(), "## p\n")
	assert.Contains(t, out.String(), "`BenchmarkA`")
	assert.Empty(t, errOut.String())
	// No temporary file is left beside the output.
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2)
}

func TestReportErrors(t *testing.T) {
	dir := t.TempDir()
	raw := writeRaw(t, dir)
	bad := filepath.Join(dir, "bad.jsonl")
	require.NoError(t, os.WriteFile(bad, []byte(`{"type":"header","schema":1}`+"\n"+`{"type":"slice","pkg":"p"}`+"\n"), 0o644))
	for _, tc := range []struct {
		name string
		opts ReportOptions
		msg  string
	}{
		{"no output", ReportOptions{Raw: []string{raw}}, "--html FILE, --markdown FILE"},
		{"two reports to stdout", ReportOptions{Raw: []string{raw}, HTML: "-", Markdown: "-"}, "--html - and --markdown -: only one report"},
		{"bad confidence", ReportOptions{Raw: []string{raw}, Markdown: "-", Confidence: 2, Unit: "ns/op"}, "--confidence"},
		{"syntax error", ReportOptions{Raw: []string{bad}, Markdown: "-", Confidence: 0.99, Unit: "ns/op"}, bad + ":2:"},
		{"missing file", ReportOptions{Raw: []string{filepath.Join(dir, "nope.jsonl")}, Markdown: "-", Confidence: 0.99, Unit: "ns/op"}, "nope.jsonl"},
		{"unknown unit", ReportOptions{Raw: []string{raw}, Markdown: "-", Confidence: 0.99, Unit: "MB/s"}, "--unit MB/s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			tc.opts.Out, tc.opts.ErrOut = &out, &out
			err := reportRun(&tc.opts)
			var ex *exitError
			require.ErrorAs(t, err, &ex)
			assert.Equal(t, 2, ex.code)
			assert.Contains(t, ex.msg, tc.msg)
		})
	}
}

func TestReportCommandHelp(t *testing.T) {
	cmd := NewCmdReport(systemIO(), nil)
	assert.Contains(t, cmd.Example, "gobench-dyn report --html report.html")
	assert.Equal(t, 2, exitCode("report"))
}
