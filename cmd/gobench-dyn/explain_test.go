package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/explain"
	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/gittest"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
)

// explainBase is a benchmark that reports a fixed ns/op, so that its
// verdict is the same on any machine; explainHead is the same benchmark
// where each op also burns twenty times the work in burn and allocates
// 4 KiB in grow, and reports eight times the ns/op.
const explainBase = `package calc

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
	b.ReportMetric(1000, "ns/op")
}
`

const explainHead = `package calc

import "testing"

var sink uint64

var kept []byte

func work(n int) {
	x := uint64(1)
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	sink += x
}

//go:noinline
func burn(n int) {
	x := uint64(3)
	for i := 0; i < n; i++ {
		x = x*2862933555777941757 + 3037000493
	}
	sink += x
}

//go:noinline
func grow() []byte { return make([]byte, 4096) }

func BenchmarkChanged(b *testing.B) {
	for range b.N {
		work(500)
		burn(10000)
		kept = grow()
	}
	b.ReportMetric(8000, "ns/op")
}
`

// TestExplainNamesTheInjectedFunctions runs the gate with --explain on a
// repository whose last commit adds a function burning twenty times what
// the benchmark did, and one allocating 4 KiB per op. The verdicts rest
// on fixed values; the profiles are real, and the added functions lead
// their diffs by far more than any noise: burn holds most of the code
// under test's CPU samples, however few a loaded machine lets it take,
// and the alloc profile records every allocation.
func TestExplainNamesTheInjectedFunctions(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	gittest.Git(t, repo, "init", "-q")
	require.NoError(t, os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module example.com/calc\n\ngo 1.26\n"), 0o644))
	for i, src := range []string{explainBase, explainHead} {
		require.NoError(t, os.WriteFile(filepath.Join(repo, "calc_test.go"), []byte(src), 0o644))
		gittest.Git(t, repo, "add", ".")
		gittest.Git(t, repo, "commit", "-q", "-m", []string{"base", "head"}[i])
	}
	out := t.TempDir()
	verdicts := filepath.Join(out, "verdicts.json")
	_, stderr, code := gobenchDyn(t, repo, "run", "--baseline", "HEAD~1", "--impact", "off", "--stop", "none", "--slice-time", "5ms",
		"--suite-runs", "3", "--slices", "2", "--seed", "1", "--progress", "off", "-o", filepath.Join(out, "new.txt"), "--json", verdicts,
		"--explain", "--explain-time", "1s")
	require.Equal(t, 1, code, stderr)
	assert.Contains(t, stderr, "where the changes went")
	assert.Regexp(t, `flat Δ/op\s+share\s+function\n\s+\+\S+\s+\d+%\s+example.com/calc.burn\n`, stderr)
	assert.Contains(t, stderr, "go tool pprof -diff_base "+filepath.Join(out, "explain"))
	assert.Contains(t, stderr, "differential flame graphs (red slower, blue faster): "+filepath.Join(out, "explain", "explain.html"))
	page, err := os.ReadFile(filepath.Join(out, "explain", "explain.html"))
	require.NoError(t, err)
	assert.Regexp(t, `class="n new" style="[^"]*"><div class="f" style="[^"]*" title="example.com/calc.burn`, string(page), "burn is a new path")

	data, err := os.ReadFile(verdicts)
	require.NoError(t, err)
	validVerdicts(t, verdictsSchema(t), data)
	var doc struct {
		Comparisons []struct {
			Unit        string
			Verdict     string
			Explanation *struct {
				Profile     string
				Flat        []struct{ Function string }
				BaseProfile string `json:"base_profile"`
				HeadProfile string `json:"head_profile"`
				Processes   int
			}
		}
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	want := map[string]string{"ns/op": "example.com/calc.burn", "B/op": "example.com/calc.grow", "allocs/op": "example.com/calc.grow"}
	for _, c := range doc.Comparisons {
		if c.Unit == "B/op" && c.Verdict != "regression" {
			// B/op holds the runtime's amortised bytes beside the 4
			// KiB, and the interval of so few processes can straddle
			// the threshold: only a decided change is explained.
			assert.Nil(t, c.Explanation, "an undecided change is not explained")
			delete(want, c.Unit)
			continue
		}
		require.Equal(t, "regression", c.Verdict, c.Unit)
		require.NotNil(t, c.Explanation, c.Unit)
		require.NotEmpty(t, c.Explanation.Flat, c.Unit)
		assert.Equal(t, want[c.Unit], c.Explanation.Flat[0].Function, c.Unit)
		assert.GreaterOrEqual(t, c.Explanation.Processes, 1)
		for _, path := range []string{c.Explanation.BaseProfile, c.Explanation.HeadProfile} {
			f, err := os.Open(path)
			require.NoError(t, err)
			_, err = profile.Parse(f)
			f.Close()
			assert.NoError(t, err, path)
		}
		delete(want, c.Unit)
	}
	assert.Empty(t, want, "every unit explained")
}

// The flags of --explain are refused where they cannot act, before
// anything is built.
func TestExplainFlagsRefused(t *testing.T) {
	for args, want := range map[string]string{
		"--explain":                                       "--explain: only meaningful with --baseline",
		"--baseline HEAD~1 --explain-time 2s":             "--explain-time: only meaningful with --explain",
		"--baseline HEAD~1 --explain --explain-time 0s":   "--explain-time: must be positive",
		"--baseline HEAD~1 --explain-dir profiles":        "--explain-dir: only meaningful with --explain",
		"--baseline HEAD~1 --explain --explain-dir=":      "--explain-dir: empty directory name",
		"--baseline HEAD~1 --explain --explain-time fast": "explain-time",
	} {
		_, stderr, code := gobenchDyn(t, t.TempDir(), append([]string{"run"}, strings.Fields(args)...)...)
		assert.Equal(t, 2, code, args)
		assert.Contains(t, stderr, want, args)
	}
}

// The profiles go beside the first file output, or to a directory of
// their own in the current one.
func TestExplainDirDefault(t *testing.T) {
	for _, tc := range []struct {
		opts RunOptions
		want string
	}{
		{RunOptions{Out: "out/new.txt", Raw: "raw/run.jsonl"}, filepath.Join("out", "explain")},
		{RunOptions{Out: "-", JSON: "ci/verdicts.json"}, filepath.Join("ci", "explain")},
		{RunOptions{JSON: "-"}, "gobench-dyn-explain"},
		{RunOptions{Raw: "run.jsonl", ExplainDir: "mine"}, "mine"},
	} {
		o := tc.opts
		o.Explain, o.Baseline, o.ExplainTime = true, "HEAD~1", time.Second
		fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
		bindExplainFlags(fs, &RunOptions{})
		require.NoError(t, o.checkExplainFlags(fs))
		assert.Equal(t, tc.want, o.ExplainDir)
	}
}

// A verdict with an explanation stays as the golden file has it, and fits
// the schema; go test -update rewrites it after a deliberate change.
func TestVerdictsExplainedGolden(t *testing.T) {
	c := gate.Comparison{Package: "example.com/m", Benchmark: "BenchmarkParse-8", Unit: "ns/op", Better: -1,
		Old:   gate.Summary{N: 40, Iterations: 8, Mean: 1000, Median: 1000, CI: stats.Interval{Center: 1000, Lo: 990, Hi: 1010, Confidence: 0.99}},
		New:   gate.Summary{N: 40, Iterations: 8, Mean: 2000, Median: 2000, CI: stats.Interval{Center: 2000, Lo: 1980, Hi: 2020, Confidence: 0.99}},
		Ratio: stats.Interval{Center: 2, Lo: 1.9, Hi: 2.1, Confidence: 0.99}, Change: 1, P: 1e-9, Confidence: 0.99,
		Verdict: gate.Regression, Method: gate.MethodPaired, Units: 8}
	res := &gate.Result{Rule: gate.RuleCI, Threshold: 0.03, Confidence: 0.99, Correction: gate.CorrectionNone, Paired: true, OldName: "HEAD~1", NewName: "HEAD",
		Comparisons: []gate.Comparison{c}}
	e := &session.Explained{Package: c.Package, Benchmark: c.Benchmark, CompareUnit: c.Unit,
		Explanation: &explain.Explanation{Kind: explain.CPU, Unit: "ns/op", Base: 1000, Head: 2010, Change: 1010, Moved: 1010,
			Flat: []explain.Line{{Function: "example.com/m.burn", Head: 1000, Change: 1000, Share: 1000.0 / 1010},
				{Function: "example.com/m.scan", Base: 600, Head: 610, Change: 10, Share: 10.0 / 1010}},
			Cum: []explain.Line{{Function: "example.com/m.Parse", Base: 1000, Head: 2010, Change: 1010, Share: 1}}},
		Processes: 4, Ops: 400000, Seconds: 2.5,
		BaseProfile: "explain/m.BenchmarkParse-8.cpu.base.pprof", HeadProfile: "explain/m.BenchmarkParse-8.cpu.head.pprof",
		Command: "go tool pprof -diff_base explain/m.BenchmarkParse-8.cpu.base.pprof explain/m.BenchmarkParse-8.cpu.head.pprof"}
	e.Samples.Base, e.Samples.Head = 100, 201
	var buf bytes.Buffer
	require.NoError(t, res.WriteJSON(&buf, gate.JSONOptions{Explanation: func(pkg, bench, unit string) any {
		if pkg == e.Package && bench == e.Benchmark && unit == e.CompareUnit {
			return e
		}
		return nil
	}}))
	validVerdicts(t, verdictsSchema(t), buf.Bytes())
	golden := filepath.Join("testdata", "compare", "verdicts-explained.golden.json")
	if *updateGolden {
		require.NoError(t, os.WriteFile(golden, buf.Bytes(), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), buf.String())
}
