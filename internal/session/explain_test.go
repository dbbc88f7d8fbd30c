package session

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/explain"
	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// explainSuites returns both versions of package m with the benchmarks
// names, and a benchmark only the code under test has.
func explainSuites(names ...string) *prepared {
	p := &prepared{head: &rmit.Suite{}, base: &rmit.Suite{}}
	for _, v := range []string{record.VersionHead, record.VersionBaseline} {
		pkg := &rmit.Package{ImportPath: "example.com/m", Version: v}
		s := p.base
		if v == record.VersionHead {
			s = p.head
			s.Benchmarks = append(s.Benchmarks, rmit.NewBenchmark(pkg, "BenchmarkNew-2", 2, false))
		}
		for _, n := range names {
			b := rmit.NewBenchmark(pkg, n, 2, false)
			b.N = 1000
			s.Benchmarks = append(s.Benchmarks, b)
		}
	}
	return p
}

// Only decided changes in units a profile measures are explained: one
// CPU target per benchmark for time, one alloc target for bytes and
// allocations together.
func TestExplainTargets(t *testing.T) {
	p := explainSuites("BenchmarkA-2", "BenchmarkB-2")
	cmp := func(bench, unit string, v gate.Verdict) gate.Comparison {
		return gate.Comparison{Package: "example.com/m", Benchmark: bench, Unit: unit, Verdict: v}
	}
	c := &gate.Result{Comparisons: []gate.Comparison{
		cmp("BenchmarkA-2", "ns/op", gate.Regression),
		cmp("BenchmarkA-2", "B/op", gate.Improvement),
		cmp("BenchmarkA-2", "allocs/op", gate.Improvement),
		cmp("BenchmarkA-2", "MB/s", gate.Changed),
		cmp("BenchmarkB-2", "ns/op", gate.Inconclusive),
		cmp("BenchmarkB-2", "allocs/op", gate.NoChange),
		cmp("BenchmarkNew-2", "ns/op", gate.Regression),
	}}
	r := &run{opts: &Options{ExplainTime: 3 * time.Second}}
	targets := r.explainTargets(p, c)
	require.Len(t, targets, 2)
	assert.False(t, targets[0].memory)
	assert.Equal(t, "BenchmarkA-2", targets[0].head.Name)
	assert.Equal(t, record.VersionBaseline, targets[0].base.Package.Version)
	require.Len(t, targets[0].comps, 1)
	assert.True(t, targets[1].memory)
	require.Len(t, targets[1].comps, 2)
	assert.Equal(t, "allocs/op", targets[1].comps[1].Unit)
}

// A CPU profile's process runs about an eighth of the time cap, judged
// by the gate's ns/op at its b.N; an alloc profile's runs one slice.
func TestExplainCount(t *testing.T) {
	p := explainSuites("BenchmarkA-2")
	r := &run{opts: &Options{ExplainTime: 3 * time.Second}}
	tg := &explainTarget{head: p.head.Benchmarks[1], base: p.base.Benchmarks[0],
		comps: []gate.Comparison{{Unit: "ns/op", Old: gate.Summary{Mean: 500}, New: gate.Summary{Mean: 1000}}}}
	assert.Equal(t, 375, r.explainCount(tg), "3s / 8 over 1000 ops of 1µs")
	tg.comps[0].New.Mean = 1e9
	assert.Equal(t, 1, r.explainCount(tg), "at least one slice")
	tg.memory = true
	assert.Equal(t, 1, r.explainCount(tg))
}

func TestProfileName(t *testing.T) {
	pkg := &rmit.Package{ImportPath: "github.com/valyala/fastjson"}
	b := rmit.NewBenchmark(pkg, "BenchmarkParse/small json/fastjson-2", 2, false)
	assert.Equal(t, "fastjson.BenchmarkParse_small_json_fastjson-2.cpu", profileName(b, false))
	assert.Equal(t, "fastjson.BenchmarkParse_small_json_fastjson-2.alloc", profileName(b, true))
}

// The text under the verdicts: the change per op of each version, the
// top functions each way with their shares, and the pprof command.
func TestWriteExplanations(t *testing.T) {
	e := &Explained{Package: "example.com/m", Benchmark: "BenchmarkA-2", CompareUnit: "ns/op",
		Explanation: &explain.Explanation{Kind: explain.CPU, Unit: "ns/op", Base: 1000, Head: 2000, Change: 1000,
			Flat: []explain.Line{{Function: "example.com/m.burn", Head: 1100, Change: 1100, Share: 1.1}, {Function: "example.com/m.scan", Base: 300, Head: 200, Change: -100, Share: -0.1}},
			Cum:  []explain.Line{{Function: "example.com/m.Parse", Base: 1000, Head: 2000, Change: 1000, Share: 1}}},
		Processes: 3, Ops: 30000, Seconds: 2.5, Command: "go tool pprof -diff_base a.pprof b.pprof"}
	e.Samples.Base, e.Samples.Head = 120, 250
	res := &Result{Explained: []*Explained{e}, ExplainTime: 2600 * time.Millisecond}
	var buf bytes.Buffer
	require.NoError(t, res.WriteExplanations(&buf))
	assert.Equal(t, `
where the changes went (profiles of both versions at the gate's b.N, 2.6s in all):

example.com/m.BenchmarkA-2 ns/op: 1.000µs → 2.000µs per op in the cpu profiles (3+3 processes, 30000 ops each, 120/250 samples, 2.5s)
  flat Δ/op  share  function
  +1.100µs   110%   example.com/m.burn
  -0.100µs   -10%   example.com/m.scan
  cum Δ/op   share  function
  +1.000µs   100%   example.com/m.Parse
  go tool pprof -diff_base a.pprof b.pprof
`, buf.String())
	buf.Reset()
	require.NoError(t, (&Result{}).WriteExplanations(&buf))
	assert.Empty(t, buf.String(), "nothing explained, nothing written")
}

// The profiled pairs run the links already made, in turn, each version
// the same index, so that a pair's two processes run one seed; a package
// linked once runs its one binary.
func TestProfiledLinkTakesTheLinksInTurn(t *testing.T) {
	pkg := &rmit.Package{Binary: "first", Layouts: []rmit.Layout{{Seed: 1, Binary: "a"}, {Seed: 2}, {Seed: 3, Binary: "c"}}}
	b := rmit.NewBenchmark(pkg, "BenchmarkX", 1, false)
	var got []string
	for i := range 4 {
		got = append(got, profiledLink(b, i))
	}
	assert.Equal(t, []string{"a", "c", "a", "c"}, got, "only the links made")
	once := rmit.NewBenchmark(&rmit.Package{Binary: "only"}, "BenchmarkX", 1, false)
	assert.Equal(t, "only", profiledLink(once, 3))
}
