package history

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// stepEntries returns the entries of one benchmark over n commits on
// machine, its level stepping by step at commit at, with fixed noise.
func stepEntries(bench, machine string, n, at int, base, step float64, seed uint64) []Entry {
	rng := rand.New(rand.NewPCG(seed, 1))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var out []Entry
	for i := range n {
		m := base
		if i >= at {
			m *= 1 + step
		}
		m *= 1 + 0.003*rng.NormFloat64()
		out = append(out, Entry{Commit: fmt.Sprintf("c%03d", i), CommitTime: t0.Add(time.Duration(i) * time.Hour), Branch: "main", Machine: machine,
			Package: "example.com/p", Benchmark: bench, Unit: "ns/op", Mean: m, Lo: m * 0.99, Hi: m * 1.01, Confidence: 0.95, Processes: 10,
			AllocsPerOp: 2, BytesPerOp: 64})
	}
	return out
}

// TestMachinesNeverMix: a benchmark whose runs moved halfway to a
// machine 30% slower is two steady series, not a change point.
func TestMachinesNeverMix(t *testing.T) {
	var es Entries
	fast := stepEntries("BenchmarkX", "fast", 60, 60, 100, 0, 1)
	slow := stepEntries("BenchmarkX", "slow", 60, 60, 130, 0, 2)
	es = append(es, fast[:30]...)
	es = append(es, slow[30:]...)
	a, err := Analyze(context.Background(), es, Query{}, DefaultOptions())
	require.NoError(t, err)
	assert.Equal(t, 6, a.Series, "ns/op, allocs/op and B/op on each machine")
	assert.Empty(t, a.ChangePoints())

	// Pooled as one series, the machines would look like change points
	// everywhere: the test can fail.
	for i := range es {
		es[i].Machine = "one"
	}
	a, err = Analyze(context.Background(), es, Query{}, DefaultOptions())
	require.NoError(t, err)
	assert.NotEmpty(t, a.ChangePoints())
}

func TestAnalyzeQueryAndSince(t *testing.T) {
	es := Entries(append(stepEntries("BenchmarkA", "m", 60, 20, 100, 0.1, 1), stepEntries("BenchmarkB", "m", 60, 40, 100, -0.1, 2)...))
	ctx := context.Background()
	a, err := Analyze(ctx, es, Query{}, DefaultOptions())
	require.NoError(t, err)
	cps := a.ChangePoints()
	require.Len(t, cps, 2)
	assert.Equal(t, "c020", cps[0].Commit)
	assert.Equal(t, "c019", cps[0].Prev)
	assert.Equal(t, "regression", cps[0].Kind())
	assert.Equal(t, "improvement", cps[1].Kind())
	assert.InDelta(t, 0.1, cps[0].Change, 0.01)
	assert.Less(t, cps[0].Lo, cps[0].Change)
	assert.Greater(t, cps[0].Hi, cps[0].Change)

	a, err = Analyze(ctx, es, Query{Bench: regexp.MustCompile(`B$`)}, DefaultOptions())
	require.NoError(t, err)
	require.Len(t, a.ChangePoints(), 1)
	assert.Equal(t, "BenchmarkB", a.ChangePoints()[0].Key.Benchmark)

	_, err = Analyze(ctx, es, Query{Since: "c03"}, DefaultOptions())
	assert.ErrorContains(t, err, `"c03" names 10 commits`)
	var nc *NoCommitError
	assert.False(t, errors.As(err, &nc), "an ambiguous prefix names commits")
	a, err = Analyze(ctx, es, Query{Since: "c030"}, DefaultOptions())
	require.NoError(t, err)
	require.Len(t, a.ChangePoints(), 1)
	assert.Equal(t, "c040", a.ChangePoints()[0].Commit)
	_, err = Analyze(ctx, es, Query{Since: "nope"}, DefaultOptions())
	assert.EqualError(t, err, `no commit "nope" in the history`)
	require.ErrorAs(t, err, &nc)
	assert.Equal(t, "nope", nc.Rev)
}

func TestMergeSameCommit(t *testing.T) {
	es := stepEntries("BenchmarkA", "m", 2, 2, 100, 0, 1)
	es[1].Commit, es[1].CommitTime = es[0].Commit, es[0].CommitTime
	es[0].Mean, es[0].Lo, es[0].Hi = 100, 99, 101
	es[1].Mean, es[1].Lo, es[1].Hi = 110, 108, 112
	ss := Build(es[0].Key(), es)
	require.Len(t, ss[0].Points, 1)
	p := ss[0].Points[0]
	assert.Equal(t, 2, p.Runs)
	assert.Equal(t, 20, p.Processes)
	// Inverse-variance weights 4:1 (the second interval twice as wide).
	assert.InDelta(t, (4*100+110)/5.0, p.Mean, 1e-9)
}

// fakeMeasurer answers as the gate would, from a table of changes per
// benchmark, and records what it was asked.
type fakeMeasurer struct {
	change map[string]float64 // benchmark → measured change; missing: not measured
	calls  []string
}

func (f *fakeMeasurer) Measure(_ context.Context, before, after string, keys []record.Bench, threshold float64) (*gate.Result, error) {
	f.calls = append(f.calls, fmt.Sprintf("%s..%s %d %.3f", before, after, len(keys), threshold))
	res := &gate.Result{}
	for _, k := range keys {
		ch, ok := f.change[k.Benchmark]
		if !ok {
			continue
		}
		v := gate.NoChange
		switch {
		case ch > threshold:
			v = gate.Regression
		case ch < -threshold:
			v = gate.Improvement
		}
		res.Comparisons = append(res.Comparisons, gate.Comparison{Package: k.Package, Benchmark: k.Benchmark, Unit: "ns/op", Verdict: v,
			Ratio: stats.Interval{Center: 1 + ch, Lo: 1 + ch - 0.01, Hi: 1 + ch + 0.01, Confidence: 0.99}})
	}
	return res, nil
}

func TestConfirm(t *testing.T) {
	es := Entries(append(append(stepEntries("BenchmarkA", "m", 60, 20, 100, 0.1, 1), stepEntries("BenchmarkB", "m", 60, 20, 100, 0.1, 2)...),
		stepEntries("BenchmarkC", "m", 60, 40, 100, 0.1, 3)...))
	ctx := context.Background()
	a, err := Analyze(ctx, es, Query{}, DefaultOptions())
	require.NoError(t, err)
	require.Len(t, a.ChangePoints(), 3)
	m := &fakeMeasurer{change: map[string]float64{"BenchmarkA": 0.1, "BenchmarkB": 0.001}}
	now := func() time.Time { return time.Unix(1, 0) }
	made, err := Confirm(ctx, a, m, now)
	require.NoError(t, err)
	require.Len(t, made, 3)
	// One run per pair of commits, the benchmarks that changed there
	// together, at half the smallest change.
	assert.Equal(t, []string{"c019..c020 2 0.030", "c039..c040 1 0.030"}, m.calls)
	status := map[string]string{}
	for _, c := range a.ChangePoints() {
		status[c.Key.Benchmark] = c.Confirmation.Status
	}
	assert.Equal(t, map[string]string{"BenchmarkA": StatusConfirmed, "BenchmarkB": StatusRefuted, "BenchmarkC": StatusInconclusive}, status)

	// Known confirmations are attached and not measured again.
	b, err := Analyze(ctx, es, Query{}, DefaultOptions())
	require.NoError(t, err)
	b.Attach(made)
	m.calls = nil
	more, err := Confirm(ctx, b, m, now)
	require.NoError(t, err)
	assert.Empty(t, more)
	assert.Empty(t, m.calls)

	var md, js bytes.Buffer
	require.NoError(t, b.WriteMarkdown(&md))
	assert.Contains(t, md.String(), "confirmed (regression +10.0%")
	assert.Contains(t, md.String(), "refuted (no change")
	require.NoError(t, b.WriteJSON(&js))
	var got struct {
		ChangePoints []struct {
			Bench        string `json:"bench"`
			Confirmation struct {
				Status string   `json:"status"`
				Change *float64 `json:"change"`
			} `json:"confirmation"`
		} `json:"change_points"`
	}
	require.NoError(t, json.Unmarshal(js.Bytes(), &got))
	require.Len(t, got.ChangePoints, 3)
	assert.Equal(t, StatusConfirmed, got.ChangePoints[0].Confirmation.Status)
	assert.Nil(t, got.ChangePoints[2].Confirmation.Change, "NaN is null")
}

func TestWriteText(t *testing.T) {
	es := Entries(stepEntries("BenchmarkA", "m", 60, 20, 1000, 0.1, 1))
	a, err := Analyze(context.Background(), es, Query{}, DefaultOptions())
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, a.WriteText(&buf))
	out := buf.String()
	assert.Contains(t, out, "1 change points in 3 series (180 points)")
	assert.Contains(t, out, "example.com/p.BenchmarkA  ns/op  c020")
	assert.Contains(t, out, "regression  +10.")
	assert.Contains(t, out, "20+40")
}
