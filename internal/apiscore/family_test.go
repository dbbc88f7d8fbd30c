package apiscore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// A candidate's paired run gives both versions families like the suite's:
// the same members in the same order at the same b.N, the members that do
// not reach the candidate included, measured together in both when the
// suite's family is; the suite's own benchmarks are left as they were.
func TestPairFamiliesAreAlike(t *testing.T) {
	pkg := &rmit.Package{ImportPath: "m/p", Version: record.VersionBaseline, Hooked: true}
	f := &rmit.Family{Top: "BenchmarkF", Pattern: "^BenchmarkF$", Together: true, Why: "BenchmarkF/b-2 failed alone"}
	for i, name := range []string{"BenchmarkF/a-2", "BenchmarkF/b-2", "BenchmarkF/c-2"} {
		b := rmit.NewBenchmark(pkg, name, 2, true)
		b.N, b.Family = int64(100*(i+1)), f
		f.Members = append(f.Members, b)
	}
	alone := rmit.NewBenchmark(pkg, "BenchmarkG-2", 2, true)
	head := &rmit.Package{ImportPath: "m/p", Version: record.VersionHead, Hooked: true}
	e := &evaluation{}
	reach := []*rmit.Benchmark{f.Members[1], alone}
	var base, slowed []*rmit.Benchmark
	for _, b := range reach {
		bc, h := e.pairOf(b, head)
		base, slowed = append(base, bc), append(slowed, h)
	}
	fams := e.pairFamilies(reach, base, slowed, map[string]*rmit.Package{"m/p": head})
	require.Len(t, fams, 1, "BenchmarkG has no sibling")
	pf := fams[0]
	assert.Same(t, f, pf.suite)
	for _, v := range []*rmit.Family{pf.base, pf.head} {
		assert.True(t, v.Together, "the suite's family is measured together")
		assert.Equal(t, f.Pattern, v.Pattern)
		require.Len(t, v.Members, 3)
		for i, m := range v.Members {
			assert.Equal(t, f.Members[i].Name, m.Name)
			assert.Equal(t, f.Members[i].N, m.N)
			assert.Same(t, v, m.Family)
		}
	}
	assert.Same(t, base[0], pf.base.Members[1], "the benchmark measured is the family's member")
	assert.Same(t, slowed[0], pf.head.Members[1])
	assert.Equal(t, record.VersionHead, pf.head.Members[0].Package.Version)
	assert.Nil(t, alone.Family)
	assert.Same(t, f, f.Members[1].Family, "the suite's benchmark keeps its family")

	f.Together = false
	fams = e.pairFamilies(reach, base, slowed, map[string]*rmit.Package{"m/p": head})
	fams[0].head.Together, fams[0].head.Why = true, "BenchmarkF/b-2 failed alone"
	e.suite = &rmit.Suite{Benchmarks: f.Members}
	e.learnTogether(fams)
	assert.True(t, f.Together, "a family found together in one paired run starts together in the next")
}
