package apiscore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"math"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/cover"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

func TestCandidatesOfKnownModule(t *testing.T) {
	dir, err := filepath.Abs("testdata/known")
	require.NoError(t, err)
	cs, err := Candidates(context.Background(), dir, []string{"./..."}, nil)
	require.NoError(t, err)
	var names []string
	for _, c := range cs {
		names = append(names, c.Package+"."+c.Name)
		if c.Name == "Hot" {
			assert.Equal(t, filepath.Join(dir, "known.go"), c.File)
			assert.Equal(t, 7, c.Body.StartLine)
			assert.Equal(t, 13, c.Body.EndLine)
		}
	}
	assert.ElementsMatch(t, []string{"example.com/known.Hot", "example.com/known.Cold", "example.com/known.Counter.Add",
		"example.com/known.Init", "example.com/known.Setup", "example.com/known/asm.Add", "example.com/known/asm.Sub"}, names)
	for _, c := range cs {
		assert.Equal(t, c.Name != "Add" || c.Package != "example.com/known/asm", c.HasBody, c.String())
	}
}

func TestExercisedMapsBlocksToBodies(t *testing.T) {
	cs := []*Candidate{
		{Package: "m/p", Name: "F", File: "/src/p/a.go", HasBody: true},
		{Package: "m/p", Name: "G", File: "/src/p/a.go", HasBody: true},
		{Package: "m/p", Name: "H", File: "/src/p/b.go", HasBody: true},
	}
	cs[0].Body.StartLine, cs[0].Body.StartCol, cs[0].Body.EndLine, cs[0].Body.EndCol = 3, 20, 8, 2
	cs[1].Body.StartLine, cs[1].Body.StartCol, cs[1].Body.EndLine, cs[1].Body.EndCol = 10, 10, 12, 2
	cs[2].Body.StartLine, cs[2].Body.StartCol, cs[2].Body.EndLine, cs[2].Body.EndCol = 3, 20, 8, 2
	block := func(sl, sc, el, ec, stmts, count int) cover.ProfileBlock {
		return cover.ProfileBlock{StartLine: sl, StartCol: sc, EndLine: el, EndCol: ec, NumStmt: stmts, Count: count}
	}
	prof := []*cover.Profile{{FileName: "m/p/a.go", Mode: "count", Blocks: []cover.ProfileBlock{
		block(3, 20, 5, 3, 2, 10), // F, 10 times
		block(5, 3, 7, 4, 3, 1),   // F, once
		block(10, 10, 12, 2, 1, 4),
		block(20, 1, 22, 2, 5, 9), // a var initialiser outside every body
	}}, {FileName: "m/p/b.go", Blocks: []cover.ProfileBlock{block(3, 20, 8, 2, 1, 0)}}}
	base := []*cover.Profile{{FileName: "m/p/a.go", Blocks: []cover.ProfileBlock{block(10, 10, 12, 2, 1, 4)}}}
	got := Exercised(cs, prof, base)
	assert.Equal(t, map[int]Exercise{0: {Statements: 5, Hits: 23}}, got, "G ran only at initialisation, H never")
}

func TestJudge(t *testing.T) {
	c := func(unit string, v gate.Verdict, change float64) gate.Comparison {
		return gate.Comparison{Benchmark: "BenchmarkX", Unit: unit, Verdict: v, Change: change,
			Ratio: stats.Interval{Lo: 1 + change - 0.1, Hi: 1 + change + 0.1}}
	}
	v, rs := Judge([]gate.Comparison{c("ns/op", gate.NoChange, 0), c("ns/op", gate.Regression, 4), c("B/op", gate.Regression, 9)}, true)
	assert.Equal(t, Detected, v)
	require.Len(t, rs, 2, "only time counts")
	assert.InDelta(t, 3.9, rs[1].Low, 1e-12)
	v, _ = Judge([]gate.Comparison{c("ns/op", gate.NoChange, 0), c("ns/op", gate.NoChange, 0.01)}, true)
	assert.Equal(t, NotDetected, v, "every benchmark shows no change")
	v, _ = Judge([]gate.Comparison{c("ns/op", gate.NoChange, 0), c("ns/op", gate.Improvement, -0.5)}, true)
	assert.Equal(t, Inconclusive, v, "an improvement of a slowed function says nothing of whether the slowdown shows")
	v, _ = Judge([]gate.Comparison{c("ns/op", gate.NoChange, 0)}, false)
	assert.Equal(t, Inconclusive, v, "a covering benchmark that did not finish leaves it open")
	v, _ = Judge([]gate.Comparison{c("ns/op", gate.Inconclusive, 0.1)}, true)
	assert.Equal(t, Inconclusive, v)
	v, _ = Judge(nil, true)
	assert.Equal(t, Inconclusive, v)
}

func TestReportOutputs(t *testing.T) {
	r := &Report{Slowdown: 0.4, SlowdownSource: "measured", Threshold: 0.2, Functions: []Function{
		{Name: "Parse", Verdict: Detected, Reachable: true, Benchmarks: []BenchResult{{Name: "BenchmarkParse-8", Verdict: gate.Regression, Change: 0.35, Low: 0.3, High: 0.41}}},
		{Name: "T.M", Verdict: NotDetected, Reachable: true},
		{Name: "Short", Verdict: Inconclusive, Reachable: true, Benchmarks: []BenchResult{{Name: "BenchmarkShort-8", Verdict: gate.Inconclusive,
			Change: 7.7, Low: math.NaN(), High: math.NaN(), Note: "too few paired suite runs to bound: 2; need ≥ 3"}}},
		{Name: "Unused", Verdict: NotDetected, Note: "no benchmark runs it"},
	}, Spreads: []Spread{{Benchmark: "BenchmarkParse-8", MaxSpread: 0.05, Runs: 5}}}
	r.finish()
	assert.InDelta(t, 1.0/4, r.Score, 1e-12)
	var text bytes.Buffer
	require.NoError(t, r.WriteText(&text))
	assert.Contains(t, text.String(), "BenchmarkParse-8  5%")
	assert.Contains(t, text.String(), "BenchmarkParse-8 +35.0% [+30.0%, +41.0%] regression")
	assert.Regexp(t, `Unused\s+not reachable\s+no benchmark runs it`, text.String())
	assert.Contains(t, text.String(), "BenchmarkShort-8 +770.0% (too few paired suite runs to bound: 2; need ≥ 3) inconclusive",
		"an interval there is none of says why")
	assert.Contains(t, text.String(), "score: 1 of 4 functions detected = 25%")

	var js bytes.Buffer
	require.NoError(t, r.WriteJSON(&js))
	var got struct {
		Slowdown  float64
		Score     float64
		Functions []struct {
			Name, Verdict string
			Benchmarks    []any
		}
	}
	require.NoError(t, json.Unmarshal(js.Bytes(), &got))
	assert.Equal(t, 0.4, got.Slowdown)
	assert.Equal(t, "T.M", got.Functions[1].Name)
	assert.Equal(t, "not detected", got.Functions[3].Verdict)
	assert.NotNil(t, got.Functions[1].Benchmarks, "an empty list, not null")

	var page bytes.Buffer
	require.NoError(t, r.WriteHTML(&page))
	assert.Contains(t, page.String(), `<code>BenchmarkParse-8</code></td><td>&#43;35.0%</td><td class="muted">[&#43;30.0%, &#43;41.0%]</td>`)
	assert.Contains(t, page.String(), `<span class="badge v-not-reachable">not reachable</span>`)
	assert.Contains(t, page.String(), `<td>5%</td><td>5</td>`, "every benchmark's maxSpread")
	assert.Contains(t, page.String(), "score: 1 of 4 functions detected")
}

func knownOptions(t *testing.T, dir string, patterns ...string) Options {
	abs, err := filepath.Abs(filepath.Join("testdata", dir))
	require.NoError(t, err)
	return Options{
		Dir: abs, Patterns: patterns, SliceTime: 5 * time.Millisecond, Timeout: time.Minute,
		SpreadRuns: 3, SuiteRuns: DefaultSuiteRuns, Stop: stopper.Default(stopper.Interval), Seed: 1, MinSlowdown: 0.01,
	}
}

// TestEvaluateKnownAnswer runs the real pipeline on a module where Hot is
// run by a benchmark's timed loop, Cold and Setup only before that loop,
// and Init only at package initialisation. A slowdown of v = 9 (Hot's own
// time ×10) is far beyond any noise: paired slice by slice, Hot must be
// detected; paired process after process, whose process means on a
// loaded machine can spread more than the margin between the slowdown
// and the threshold v/2 allows, it must at least show a change of more
// than +100%. The others cannot show in any benchmark's time and are not
// reachable. Hot's loop is a chain of multiplies, whose time is their
// latency: a loop of independent adds, as it was, ran from 0.6 to 2.5 µs
// per call with the link's code layout on one machine, so each version's
// single link put the measured slowdown anywhere from a fourth to four
// times the injected one.
func TestEvaluateKnownAnswer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	t.Run("process", func(t *testing.T) { testEvaluateKnownAnswer(t, nil) })
	t.Run("slice", func(t *testing.T) { testEvaluateKnownAnswer(t, &rmit.TurnPlan{Warmup: 2, Turns: 20}) })
}

func testEvaluateKnownAnswer(t *testing.T, turns *rmit.TurnPlan) {
	opts := knownOptions(t, "known", ".")
	opts.Turns, opts.TurnTime = turns, time.Millisecond
	opts.Func = regexp.MustCompile(`^(Hot|Cold|Init|Setup)$`)
	opts.Slowdown = 9
	// The gate needs the whole interval above +450%, at most log 2 above
	// it on the log scale whatever v: on a loaded machine that can take
	// more than the first look, so the cap leaves room for later looks.
	opts.SuiteRuns = 20
	rep, err := Evaluate(context.Background(), opts)
	require.NoError(t, err)
	byName := map[string]Function{}
	for _, f := range rep.Functions {
		byName[f.Name] = f
	}
	require.Len(t, rep.Functions, 4)
	assert.Equal(t, "Hot", rep.Functions[0].Name, "ranked first: the only one exercised")
	if turns != nil {
		assert.Equal(t, Detected, byName["Hot"].Verdict, "%+v", byName["Hot"])
	} else {
		require.Len(t, byName["Hot"].Benchmarks, 1)
		assert.Contains(t, []Verdict{Detected, Inconclusive}, byName["Hot"].Verdict)
		assert.Greater(t, byName["Hot"].Benchmarks[0].Low, 1.0, "%+v", byName["Hot"])
	}
	assert.True(t, byName["Hot"].Reachable)
	for _, n := range []string{"Cold", "Init", "Setup"} {
		assert.Equal(t, NotDetected, byName[n].Verdict, n)
		assert.False(t, byName[n].Reachable, n)
	}
	if byName["Hot"].Verdict == Detected {
		assert.InDelta(t, 1.0/4, rep.Score, 1e-12)
	}
	assert.Equal(t, 4.5, rep.Threshold)
	assert.Equal(t, RuleGate, rep.Rule)
	require.Len(t, byName["Hot"].Benchmarks, 1)
	n := byName["Hot"].Benchmarks[0].Iterations
	assert.Contains(t, gate.NewPlan(gate.DefaultFirstLook, 20).Looks, n, "a pair stops at a look of the gate's plan")
	require.Len(t, rep.Spreads, 1, "the unchanged runs give BenchmarkHot's maxSpread")
	assert.Equal(t, n, rep.Spreads[0].Runs)
}

func TestEvaluateRejectsBadInput(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages")
	}
	ctx := context.Background()
	var in *usage.Error

	opts := knownOptions(t, "nobench", ".")
	opts.Slowdown = 1
	_, err := Evaluate(ctx, opts)
	require.True(t, errors.As(err, &in), "%v", err)
	assert.Contains(t, err.Error(), "no benchmarks")

	opts = knownOptions(t, "known", ".")
	opts.Func = regexp.MustCompile("^Nothing$")
	_, err = Evaluate(ctx, opts)
	require.True(t, errors.As(err, &in), "%v", err)
	assert.Equal(t, "func", in.Flag)
	assert.Contains(t, err.Error(), `"^Nothing$": matches no exported function`)

	opts = knownOptions(t, "known", "./asm")
	opts.Func = regexp.MustCompile("^Add$")
	_, err = Evaluate(ctx, opts)
	require.True(t, errors.As(err, &in), "%v", err)
	assert.True(t, strings.Contains(err.Error(), "Add has no Go body"), "%v", err)
}

func TestRejectModuleCache(t *testing.T) {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	require.NoError(t, err)
	cache := strings.TrimSpace(string(out))
	err = rejectModuleCache(context.Background(), "", []*Candidate{{Package: "example.com/m", File: filepath.Join(cache, "example.com", "m@v1.0.0", "m.go")}})
	var in *usage.Error
	require.True(t, errors.As(err, &in), "%v", err)
	assert.Contains(t, err.Error(), "example.com/m is in the module cache")
	require.NoError(t, rejectModuleCache(context.Background(), "", []*Candidate{{Package: "m", File: "/src/m/m.go"}}))
}
