package report

import (
	"bytes"
	"fmt"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// smallRun is one benchmark, 2 suite runs × 2 iterations × (1 warmup + 3
// slices) of 10, 20 and 30 ns/op, each slice one second of wall time,
// stopped stable after suite run 2 of a configured 3.
func smallRun() *record.Run {
	run := &record.Run{
		Header: &record.Header{Type: record.TypeHeader, Schema: 1, Tool: "gobench-dyn test", Options: map[string]string{
			"suite-runs": "3", "iterations": "2", "slices": "3", "warmup": "1", "stop": "cv"}},
		Complete: true,
	}
	for sr := 1; sr <= 2; sr++ {
		for it := 1; it <= 2; it++ {
			for sl, v := range []float64{50, 10, 20, 30} {
				run.Slices = append(run.Slices, record.Slice{Type: record.TypeSlice, Package: "p", Benchmark: "BenchmarkA", SuiteRun: sr, Iteration: it, Order: it, Slice: sl + 1, Warmup: sl == 0, N: 1, Values: map[string]float64{"ns/op": v}, WallNs: 1e9})
			}
		}
	}
	run.Events = append(run.Events,
		record.Event{Type: record.TypeEvent, Event: record.EventStop, Package: "p", Benchmark: "BenchmarkA", SuiteRun: 2, Iteration: 2, Met: true, CriterionNs: 5e6},
		record.Event{Type: record.TypeEvent, Event: record.EventEnd})
	return run
}

// A benchmark stopped with its baseline on a settled verdict is neither
// stable nor at its cap, and its plot marks the stop as a decision.
func TestSettledStatus(t *testing.T) {
	run := smallRun()
	run.Events[0].Met, run.Events[0].Reason = false, record.ReasonSettled
	rep, err := Build([]*record.Run{run}, Options{Seed: 1})
	require.NoError(t, err)
	b := rep.Benchmarks[0]
	assert.Equal(t, StatusSettled, b.Status)
	assert.Equal(t, map[Status]int{StatusSettled: 1}, rep.Suite.Count)
	var kinds []markKind
	for _, m := range b.marks {
		kinds = append(kinds, m.Kind)
	}
	assert.Contains(t, kinds, markStop)
	assert.NotContains(t, kinds, markStopCap)
}

// A pair stopped because no verdict was in reach counts as out of reach,
// and its row says why.
func TestNoVerdictStatus(t *testing.T) {
	run := smallRun()
	run.Events[0].Met, run.Events[0].Reason = false, record.ReasonNoVerdict
	rep, err := Build([]*record.Run{run}, Options{Seed: 1})
	require.NoError(t, err)
	assert.Equal(t, StatusOutOfReach, rep.Benchmarks[0].Status)
	rows := rep.rows()
	require.Len(t, rows, 1)
	assert.Equal(t, "stopped early with its baseline: a verdict was out of reach within the cap", rows[0].StatusNote)
}

func TestBuildKnownAnswers(t *testing.T) {
	rep, err := Build([]*record.Run{smallRun()}, Options{Seed: 1})
	require.NoError(t, err)
	require.Len(t, rep.Benchmarks, 1)
	assert.Equal(t, "p", rep.Title)
	b := rep.Benchmarks[0]
	h := b.Head
	require.NotNil(t, h)
	assert.Nil(t, b.Baseline)
	assert.Equal(t, 12, h.Samples)
	assert.Equal(t, 4, h.Warmup)
	assert.Equal(t, 4, h.Iterations)
	assert.Equal(t, 2, h.SuiteRuns)
	assert.Equal(t, 20.0, h.Mean.Center)
	assert.Equal(t, 20.0, h.Median.Center)
	// Every iteration holds the same values, so resampling iterations
	// changes nothing and the interval comes from the slices alone: it
	// must hold the center and stay inside [10, 30].
	assert.True(t, h.Mean.Lo < 20 && h.Mean.Hi > 20 && h.Mean.Lo >= 10 && h.Mean.Hi <= 30, "%+v", h.Mean)
	assert.Equal(t, 0.99, h.Mean.Confidence)
	assert.InDelta(t, math.Sqrt(800.0/11)/20, h.CV, 1e-12)
	assert.InDelta(t, (h.Mean.Hi-h.Mean.Lo)/20, h.RCIW, 1e-12)

	assert.Equal(t, StatusStable, b.Status)
	assert.Equal(t, 16*time.Second, b.Spent)
	assert.Equal(t, 24*time.Second, b.Full) // 3 × 2 × (1 + 3) slices of 1 s
	assert.Equal(t, Config{SuiteRuns: 3, Iterations: 2, Slices: 3, Warmup: 1}, rep.Suite.Config)
	assert.InDelta(t, 1.0/3, rep.Suite.Saved(), 1e-12)
	assert.Equal(t, 5*time.Millisecond, rep.Suite.Criterion)
	assert.Equal(t, map[Status]int{StatusStable: 1}, rep.Suite.Count)

	require.Len(t, b.points, 16)
	assert.True(t, b.points[0].Warmup)
	assert.False(t, b.points[1].Warmup)
	assert.Equal(t, []mark{{X: 8.5, Kind: markSuiteRun}, {X: 16.5, Kind: markStop}}, b.marks)
	assert.Contains(t, b.SVG, "<svg ")
}

// TestBuildIsDeterministic checks that the parallel summaries do not
// depend on scheduling: the same seed gives the same intervals.
func TestBuildIsDeterministic(t *testing.T) {
	a, err := Build([]*record.Run{demoRun()}, Options{Seed: 3, NoPlots: true})
	require.NoError(t, err)
	b, err := Build([]*record.Run{demoRun()}, Options{Seed: 3, NoPlots: true})
	require.NoError(t, err)
	for i := range a.Benchmarks {
		assert.Equal(t, a.Benchmarks[i].Head.Mean, b.Benchmarks[i].Head.Mean)
		assert.Equal(t, a.Benchmarks[i].Head.Median, b.Benchmarks[i].Head.Median)
	}
}

func TestStatuses(t *testing.T) {
	rep, err := Build([]*record.Run{demoRun()}, Options{NoPlots: true})
	require.NoError(t, err)
	got := map[string]Status{}
	for _, b := range rep.Benchmarks {
		got[b.Name] = b.Status
	}
	assert.Equal(t, map[string]Status{
		"BenchmarkParse/small-2": StatusStable,
		"BenchmarkParse/large-2": StatusStable,
		"BenchmarkEncode-2":      StatusFull,
		"BenchmarkMapIter-2":     StatusCap,
		"BenchmarkHash/sha256-2": StatusFailed,
	}, got)

	// Without a stoppage criterion the same run is a fixed configuration.
	run := smallRun()
	run.Header.Options["stop"] = "none"
	run.Events = nil
	rep, err = Build([]*record.Run{run}, Options{NoPlots: true})
	require.NoError(t, err)
	assert.Equal(t, StatusFixed, rep.Benchmarks[0].Status)
}

func TestComparison(t *testing.T) {
	rep, err := Build([]*record.Run{demoRun()}, Options{Seed: 1})
	require.NoError(t, err)
	require.NotNil(t, rep.Comparison)
	verdicts := map[string]gate.Verdict{}
	for _, b := range rep.Benchmarks {
		require.NotNil(t, b.Comparison, b.Name)
		require.NotNil(t, b.Baseline, b.Name)
		verdicts[b.Name] = b.Comparison.Verdict
	}
	// The synthetic head is 21.6% slower in Parse/small and 7.5% faster
	// in Parse/large; the others are within 2%. Parse/large stopped after
	// 2 suite runs: compared paired by suite run, its interval has one
	// degree of freedom and cannot rule out a change below 3%.
	assert.Equal(t, gate.Regression, verdicts["BenchmarkParse/small-2"])
	assert.Equal(t, gate.Inconclusive, verdicts["BenchmarkParse/large-2"])
	assert.Equal(t, gate.NoChange, verdicts["BenchmarkEncode-2"])
	assert.Equal(t, 1, rep.Comparison.Count(gate.Regression))
}

// TestMergeRelabelsInstances checks that two files with the same instance
// label are not mistaken for one set of iterations.
func TestMergeRelabelsInstances(t *testing.T) {
	rep, err := Build([]*record.Run{smallRun(), smallRun()}, Options{NoPlots: true})
	require.NoError(t, err)
	h := rep.Benchmarks[0].Head
	assert.Equal(t, 24, h.Samples)
	assert.Equal(t, 8, h.Iterations)
	assert.Equal(t, 2, h.Instances)
	assert.Equal(t, 48*time.Second, rep.Benchmarks[0].Full)
}

func TestPartialRunWarns(t *testing.T) {
	run := smallRun()
	run.Complete = false
	rep, err := Build([]*record.Run{run}, Options{NoPlots: true})
	require.NoError(t, err)
	require.Len(t, rep.Warnings, 1)
	assert.Contains(t, rep.Warnings[0], "partial")
}

func TestBadOptions(t *testing.T) {
	_, err := Build([]*record.Run{smallRun()}, Options{Confidence: 1.5})
	assert.ErrorContains(t, err, "confidence")
	_, err = Build(nil, Options{})
	assert.Error(t, err)
}

// externalRef finds a reference to another host in an attribute or in CSS.
var externalRef = regexp.MustCompile(`(?i)(\b(src|href|action|poster|data)\s*=\s*["']?\s*(https?:)?//)|url\(\s*["']?\s*(https?:)?//|@import`)

func TestHTMLSelfContained(t *testing.T) {
	rep, err := Build([]*record.Run{demoRun()}, Options{})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, rep.WriteHTML(&buf))
	page := buf.String()
	assert.Nil(t, externalRef.FindStringIndex(page), "external reference: %q", externalRef.FindString(page))
	assert.NotContains(t, page, "<link")
	assert.NotRegexp(t, `<script[^>]*\bsrc=`, page)
	assert.NotContains(t, page, "<?xml")
	// One timeline per benchmark and the comparison's forest plot.
	assert.Equal(t, len(rep.Benchmarks)+1, strings.Count(page, `<svg class="plot`))
	assert.Contains(t, page, "regression")
	assert.Contains(t, page, "panic: index out of range")

	// The check itself must catch what it is for.
	for _, bad := range []string{`<img src="https://x.org/a.png">`, `<a href=http://x>`, `<script src="//cdn/x.js">`, `background:url(https://x/y)`} {
		assert.NotNil(t, externalRef.FindStringIndex(bad), bad)
	}
}

func TestHTMLEscapesNames(t *testing.T) {
	run := smallRun()
	for i := range run.Slices {
		run.Slices[i].Benchmark = `Benchmark<script>alert(1)</script>`
	}
	run.Events = nil
	rep, err := Build([]*record.Run{run}, Options{})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, rep.WriteHTML(&buf))
	assert.NotContains(t, buf.String(), "<script>alert")
}

func TestMarkdown(t *testing.T) {
	rep, err := Build([]*record.Run{demoRun()}, Options{Seed: 1, NoPlots: true})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, rep.WriteMarkdown(&buf))
	md := buf.String()
	assert.True(t, strings.HasPrefix(md, "## example.com/synth\n"), md)
	assert.Contains(t, md, "**5 benchmarks**: 2 stable, 1 cap hit, 1 full config, 1 failed.")
	assert.Contains(t, md, "3 suite runs × 3 iterations × (2 warmup + 5 slices)")
	assert.Contains(t, md, "**regression**")
	assert.Contains(t, md, "### Needs attention")
	assert.Contains(t, md, "| `BenchmarkHash/sha256-2` | failed | suite run 2, iteration 1: panic: index out of range \\[3\\] with length 3 |", "brackets escaped: a note reads as itself")
	assert.NotContains(t, md, "![")
	assert.NotContains(t, md, "<img")
	assert.NotContains(t, md, "<svg")
	// Every table row has as many cells as its header.
	for _, table := range strings.Split(md, "\n\n") {
		lines := strings.Split(strings.TrimSpace(table), "\n")
		if len(lines) < 2 || !strings.HasPrefix(lines[0], "|") {
			continue
		}
		n := strings.Count(strings.ReplaceAll(lines[0], `\|`, ""), "|")
		for _, l := range lines[1:] {
			assert.Equal(t, n, strings.Count(strings.ReplaceAll(l, `\|`, ""), "|"), l)
		}
	}
}

func TestMarkdownCollapsesLongTables(t *testing.T) {
	run := synthRun(1, 1, 2, 0, 3, manyBenches(mdCollapse+1))
	rep, err := Build([]*record.Run{run}, Options{NoPlots: true})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, rep.WriteMarkdown(&buf))
	assert.Contains(t, buf.String(), "<details><summary>21 benchmarks</summary>")
}

func manyBenches(n int) []synthBench {
	bs := make([]synthBench, n)
	for i := range bs {
		bs[i] = synthBench{name: fmt.Sprintf("BenchmarkX/case%04d-2", i), ns: 100 + float64(i), noise: 0.02}
	}
	return bs
}

func TestFormat(t *testing.T) {
	f := render.NewScale("ns/op", 1517.4)
	assert.Equal(t, "1.517µs", f.Value(1517.4))
	assert.Equal(t, "—", f.Value(math.NaN()))
	assert.Equal(t, "512.0B", render.NewScale("B/op", 512).Value(512))
	assert.Equal(t, "0.39%", percent(0.0039))
	assert.Equal(t, "+21.2%", signedPercent(0.212))
	assert.Equal(t, "99%", confidence(0.99))
	assert.Equal(t, "99.9%", confidence(0.999))
	assert.Equal(t, "1m5s", duration(65*time.Second+200*time.Millisecond))
}

func TestStopPrecisionNote(t *testing.T) {
	assert.Equal(t, "", stopPrecision(nil))
	assert.Equal(t, "", stopPrecision(&Result{Stop: &record.Event{}}))
	h := &Result{Stop: &record.Event{Precision: &record.Precision{RelHalfWidth: 0.041, Confidence: 0.95, Target: 0.03, Processes: 14}}}
	assert.Equal(t, "±4.1% (95%); about 14 processes for ±3%", stopPrecision(h))
	h.Stop.Precision.RelHalfWidth = 0.012
	assert.Equal(t, "±1.2% (95%)", stopPrecision(h))
}
