package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func runCompare(t *testing.T, mod func(*CompareOptions), old, new string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	opts := &CompareOptions{
		Old: filepath.Join("testdata", "compare", old), New: filepath.Join("testdata", "compare", new),
		Threshold: 0.03, Rule: "ci", Correction: "none", FailOn: "time", Confidence: 0.99,
		Out: &out, ErrOut: &errOut,
	}
	if mod != nil {
		mod(opts)
	}
	return runOptions(t, &out, &errOut, compareRun(opts))
}

func TestCompareExitCodes(t *testing.T) {
	out, _, code := runCompare(t, nil, "old.txt", "same.txt")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "Parse/small-8")
	assert.Contains(t, out, "no change")
	assert.Contains(t, out, "only in old:\n  BenchmarkGone-8")

	out, msg, code := runCompare(t, nil, "old.txt", "slow.txt")
	assert.Equal(t, 1, code)
	assert.Contains(t, msg, "1 regression(s)")
	assert.Regexp(t, `Parse/small-8 +\S+ ± \S+ +\S+ ± \S+ +\+\d\d\.\d\d% +\[\+\d\d\.\d\d%, \+\d\d\.\d\d%\] +regression`, out)

	// An allocation regression fails only when allocs are selected.
	_, _, code = runCompare(t, nil, "old.txt", "allocs.txt")
	assert.Equal(t, 0, code)
	_, _, code = runCompare(t, func(o *CompareOptions) { o.FailOn = "time,allocs" }, "old.txt", "allocs.txt")
	assert.Equal(t, 1, code)

	_, _, code = runCompare(t, nil, "old.jsonl", "slow.jsonl")
	assert.Equal(t, 1, code)
	_, _, code = runCompare(t, nil, "old.jsonl", "old.jsonl")
	assert.Equal(t, 0, code)
}

func TestCompareBadInput(t *testing.T) {
	_, msg, code := runCompare(t, nil, "old.txt", "bad.txt")
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, filepath.Join("testdata", "compare", "bad.txt")+":6: parsing measurement")

	_, msg, code = runCompare(t, nil, "bad.jsonl", "old.jsonl")
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "bad.jsonl:2: slice with n = -1")

	_, msg, code = runCompare(t, nil, "missing.txt", "old.txt")
	assert.Equal(t, 2, code)
	assert.Contains(t, msg, "missing.txt")

	for _, mod := range []func(*CompareOptions){
		func(o *CompareOptions) { o.Rule = "ttest" },
		func(o *CompareOptions) { o.Correction = "sidak" },
		func(o *CompareOptions) { o.FailOn = "cpu" },
		func(o *CompareOptions) { o.Confidence = 99 },
		func(o *CompareOptions) { o.Threshold = -0.1 },
		func(o *CompareOptions) { o.JSON, o.Markdown = "-", "-" },
	} {
		_, msg, code = runCompare(t, mod, "old.txt", "same.txt")
		assert.Equal(t, 2, code, msg)
	}
	assert.Equal(t, 2, exitCode("compare", "only-one.txt"))
}

func TestCompareFormats(t *testing.T) {
	out, _, code := runCompare(t, func(o *CompareOptions) { o.JSON = "-" }, "old.txt", "slow.txt")
	assert.Equal(t, 1, code)
	var doc struct {
		Rule        string
		Comparisons []struct {
			Bench, Unit, Verdict string
			Change               float64
		}
		OnlyOld []struct{ Bench string } `json:"only_old"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc), out)
	assert.Equal(t, "ci", doc.Rule)
	require.Len(t, doc.Comparisons, 6) // 2 benchmarks × 3 units
	assert.Equal(t, "BenchmarkParse/small-8", doc.Comparisons[0].Bench)
	assert.Equal(t, "ns/op", doc.Comparisons[0].Unit)
	assert.Equal(t, "regression", doc.Comparisons[0].Verdict)
	assert.InDelta(t, 0.2, doc.Comparisons[0].Change, 0.02)
	assert.Equal(t, "BenchmarkGone-8", doc.OnlyOld[0].Bench)

	out, _, _ = runCompare(t, func(o *CompareOptions) { o.Markdown = "-" }, "old.txt", "slow.txt")
	assert.Contains(t, out, "### Benchmarks: 1 regression, 5 no change; 1 only in old")
	assert.Contains(t, out, "| sec/op | old | new | change | CI of change | verdict |")
	assert.Regexp(t, "\\| `Parse/small-8` \\| .* \\| \\*\\*regression\\*\\* \\|", out)
}
