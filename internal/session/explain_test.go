package session

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
