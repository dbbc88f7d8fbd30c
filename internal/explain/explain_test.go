package explain

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stack is one sample of a synthetic profile: its functions innermost
// first, and its value.
type stack struct {
	funcs []string
	value int64
}

// cpuProfile builds a CPU profile as the runtime writes one, with one
// location per function and a 10 ms period.
func cpuProfile(t *testing.T, stacks ...stack) *profile.Profile {
	t.Helper()
	return build(t, []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		func(v int64) []int64 { return []int64{v / 10e6, v} }, stacks)
}

// allocProfile builds an alloc profile whose every allocation is of size
// bytes.
func allocProfile(t *testing.T, size int64, stacks ...stack) *profile.Profile {
	t.Helper()
	return build(t, []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"},
		{Type: "inuse_objects", Unit: "count"}, {Type: "inuse_space", Unit: "bytes"}},
		func(v int64) []int64 { return []int64{v, v * size, 0, 0} }, stacks)
}

func build(t *testing.T, types []*profile.ValueType, values func(int64) []int64, stacks []stack) *profile.Profile {
	p := &profile.Profile{SampleType: types, PeriodType: types[len(types)-1], Period: 1}
	m := &profile.Mapping{ID: 1, File: "bench.test", HasFunctions: true}
	p.Mapping = []*profile.Mapping{m}
	funcs, locs := map[string]*profile.Function{}, map[string]*profile.Location{}
	for _, s := range stacks {
		var ls []*profile.Location
		for _, name := range s.funcs {
			loc := locs[name]
			if loc == nil {
				fn := &profile.Function{ID: uint64(len(funcs) + 1), Name: name, SystemName: name}
				funcs[name] = fn
				p.Function = append(p.Function, fn)
				loc = &profile.Location{ID: uint64(len(locs) + 1), Mapping: m, Address: uint64(0x1000 * (len(locs) + 1)), Line: []profile.Line{{Function: fn}}}
				locs[name] = loc
				p.Location = append(p.Location, loc)
			}
			ls = append(ls, loc)
		}
		p.Sample = append(p.Sample, &profile.Sample{Location: ls, Value: values(s.value)})
	}
	require.NoError(t, p.CheckValid())
	return p
}

// harness is the bottom of every benchmark's stack.
var harness = []string{"example.com/m.BenchmarkParse", "testing.(*B).runN", "testing.(*B).launch", "runtime.goexit"}

func under(funcs ...string) []string { return append(funcs, harness...) }

// A function the code under test adds, burning ten times what the rest
// takes, is the top line flat and cumulative, with all of the change.
func TestDiffFindsAnAddedFunction(t *testing.T) {
	base := cpuProfile(t,
		stack{under("example.com/m.scan", "example.com/m.Parse"), 600e6},
		stack{under("example.com/m.Parse"), 400e6})
	head := cpuProfile(t,
		stack{under("example.com/m.scan", "example.com/m.Parse"), 600e6},
		stack{under("example.com/m.Parse"), 400e6},
		stack{under("example.com/m.burn", "example.com/m.scan", "example.com/m.Parse"), 10000e6})
	e, err := Diff(base, head, 1000, 1000, CPU, Options{})
	require.NoError(t, err)
	assert.Equal(t, "ns/op", e.Unit)
	assert.InDelta(t, 1e6, e.Base, 1e-6)
	assert.InDelta(t, 11e6, e.Head, 1e-6)
	assert.InDelta(t, 10e6, e.Change, 1e-6)
	require.NotEmpty(t, e.Flat)
	assert.Equal(t, Line{Function: "example.com/m.burn", Base: 0, Head: 10e6, Change: 10e6, Share: 1}, e.Flat[0])
	assert.Len(t, e.Flat, 1, "nothing else changed")
	// burn, scan and Parse each hold the whole change; the harness and
	// the benchmark function, which hold it too, are left out.
	var cum []string
	for _, l := range e.Cum {
		cum = append(cum, l.Function)
		assert.InDelta(t, 1, l.Share, 1e-9)
	}
	assert.Equal(t, []string{"example.com/m.Parse", "example.com/m.burn", "example.com/m.scan"}, cum)
	assert.Equal(t, int64(100), e.Samples.Base)
	assert.Equal(t, int64(1100), e.Samples.Head)
}

// Profiles of different numbers of operations compare per operation: the
// same cost per op is no change, however long each version ran.
func TestDiffNormalisesPerOperation(t *testing.T) {
	base := cpuProfile(t, stack{under("example.com/m.scan"), 2000e6})
	head := cpuProfile(t, stack{under("example.com/m.scan"), 1000e6}, stack{under("example.com/m.hash"), 500e6})
	e, err := Diff(base, head, 2000, 1000, CPU, Options{})
	require.NoError(t, err)
	assert.InDelta(t, 1e6, e.Base, 1e-6)
	assert.InDelta(t, 1.5e6, e.Head, 1e-6)
	require.Len(t, e.Flat, 1)
	assert.Equal(t, "example.com/m.hash", e.Flat[0].Function)
	assert.InDelta(t, 0.5e6, e.Flat[0].Change, 1e-6)
}

// A faster function and a slower one: each line's share is of the net
// change, the slower one's above 1 and the faster one's negative; when
// the moves cancel out, no share is given.
func TestDiffShares(t *testing.T) {
	base := cpuProfile(t, stack{under("example.com/m.a"), 300e6}, stack{under("example.com/m.b"), 300e6})
	head := cpuProfile(t, stack{under("example.com/m.a"), 600e6}, stack{under("example.com/m.b"), 200e6})
	e, err := Diff(base, head, 100, 100, CPU, Options{Top: 1})
	require.NoError(t, err)
	assert.InDelta(t, 2e6, e.Change, 1e-6)
	assert.InDelta(t, 4e6, e.Moved, 1e-6)
	require.Len(t, e.Flat, 1, "Top keeps one")
	assert.Equal(t, "example.com/m.a", e.Flat[0].Function)
	assert.InDelta(t, 1.5, e.Flat[0].Share, 1e-9)
	e, err = Diff(base, head, 100, 100, CPU, Options{})
	require.NoError(t, err)
	require.Len(t, e.Flat, 2)
	assert.Equal(t, "example.com/m.b", e.Flat[1].Function)
	assert.InDelta(t, -0.5, e.Flat[1].Share, 1e-9)
	require.NotEmpty(t, e.Cum)
	assert.InDelta(t, 1.5, e.Cum[0].Share, 1e-9)

	head = cpuProfile(t, stack{under("example.com/m.a"), 600e6}, stack{under("example.com/m.b"), 10e6})
	e, err = Diff(base, head, 100, 100, CPU, Options{})
	require.NoError(t, err)
	assert.InDelta(t, 0.1e6, e.Change, 1e-6)
	require.Len(t, e.Flat, 2)
	assert.True(t, math.IsNaN(e.Flat[0].Share), "a net change of 0.1 ms against 5.9 ms moved")
	data, err := json.Marshal(e.Flat[0])
	require.NoError(t, err)
	assert.Contains(t, string(data), `"share":null`)
}

// An extra allocation: the alloc profile's bytes and objects each rank
// the function that makes it first, with exact per-op counts.
func TestDiffOfAllocations(t *testing.T) {
	base := allocProfile(t, 64, stack{under("example.com/m.newNode"), 1000})
	head := allocProfile(t, 64, stack{under("example.com/m.newNode"), 1000}, stack{under("example.com/m.copyKey", "example.com/m.Parse"), 3000})
	for kind, want := range map[Kind]float64{AllocSpace: 3 * 64, AllocObjects: 3} {
		e, err := Diff(base, head, 1000, 1000, kind, Options{})
		require.NoError(t, err)
		assert.Equal(t, kind.Unit(), e.Unit)
		require.NotEmpty(t, e.Flat)
		assert.Equal(t, "example.com/m.copyKey", e.Flat[0].Function)
		assert.InDelta(t, want, e.Flat[0].Change, 1e-9)
		assert.Equal(t, int64(1000), e.Samples.Base)
		assert.Equal(t, int64(4000), e.Samples.Head)
	}
}

// A function inlined into another counts flat for the inlined one and
// cumulatively for both, as pprof counts it.
func TestDiffInlinedFrames(t *testing.T) {
	base := cpuProfile(t, stack{under("example.com/m.Parse"), 100e6})
	head := cpuProfile(t, stack{under("example.com/m.Parse"), 100e6})
	parse := head.Function[0]
	inl := &profile.Function{ID: 99, Name: "example.com/m.skipSpace"}
	head.Function = append(head.Function, inl)
	loc := &profile.Location{ID: 99, Mapping: head.Mapping[0], Address: 0x9000,
		Line: []profile.Line{{Function: inl}, {Function: parse}}}
	head.Location = append(head.Location, loc)
	head.Sample = append(head.Sample, &profile.Sample{Location: append([]*profile.Location{loc}, head.Sample[0].Location[1:]...), Value: []int64{10, 100e6}})
	require.NoError(t, head.CheckValid())
	e, err := Diff(base, head, 1, 1, CPU, Options{})
	require.NoError(t, err)
	require.Len(t, e.Flat, 1)
	assert.Equal(t, "example.com/m.skipSpace", e.Flat[0].Function)
	var cum []string
	for _, l := range e.Cum {
		cum = append(cum, l.Function)
	}
	assert.Equal(t, []string{"example.com/m.Parse", "example.com/m.skipSpace"}, cum)
}

// The diff profile is what go tool pprof -diff_base builds: head's
// samples and base's negated, labelled as base, so pprof reads it back as
// a diff.
func TestDiffProfileAsPprofReadsIt(t *testing.T) {
	base := cpuProfile(t, stack{under("example.com/m.scan"), 100e6})
	head := cpuProfile(t, stack{under("example.com/m.scan"), 300e6})
	diff, err := DiffProfile(base, head, 1, 1)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, diff.Write(&buf))
	back, err := profile.Parse(&buf)
	require.NoError(t, err)
	var total int64
	bases := 0
	for _, s := range back.Sample {
		total += s.Value[1]
		if s.DiffBaseSample() {
			bases++
			assert.Equal(t, int64(-100e6), s.Value[1])
		}
	}
	assert.Equal(t, int64(200e6), total)
	assert.Equal(t, 1, bases)
	// The inputs are left as they were.
	assert.Equal(t, int64(100e6), base.Sample[0].Value[1])
}

// A profile of the wrong kind, or no operations, is an error.
func TestDiffRejects(t *testing.T) {
	cpu := cpuProfile(t, stack{under("example.com/m.scan"), 100e6})
	alloc := allocProfile(t, 8, stack{under("example.com/m.scan"), 1})
	_, err := Diff(cpu, cpu, 1, 1, AllocSpace, Options{})
	assert.ErrorContains(t, err, "not an alloc profile")
	_, err = Diff(alloc, alloc, 1, 1, CPU, Options{})
	assert.ErrorContains(t, err, "not a CPU profile")
	_, err = Diff(cpu, cpu, 0, 1, CPU, Options{})
	assert.ErrorContains(t, err, "operations must be positive")
	_, err = Diff(cpu, alloc, 1, 1, CPU, Options{})
	assert.Error(t, err)
}

func TestForUnitAndHarness(t *testing.T) {
	for unit, want := range map[string]Kind{"ns/op": CPU, "sec/op": CPU, "B/op": AllocSpace, "allocs/op": AllocObjects} {
		k, ok := ForUnit(unit)
		assert.True(t, ok, unit)
		assert.Equal(t, want, k, unit)
	}
	_, ok := ForUnit("MB/s")
	assert.False(t, ok, "a custom unit has no profile")
	for fn, want := range map[string]bool{
		"testing.(*B).runN":                       true,
		"runtime.goexit":                          true,
		"example.com/m.BenchmarkParse":            true,
		"example.com/m.BenchmarkParse.func1":      true,
		"example.com/m.BenchmarkParse.func1.2":    true,
		"example.com/m_test.BenchmarkGet":         true,
		"example.com/m.Parse":                     false,
		"example.com/m.(*Parser).BenchmarkHelper": false,
		"runtime.mallocgc":                        false,
		"example.com/testing.Parse":               false,
	} {
		assert.Equal(t, want, Harness(fn), fn)
	}
}

// Allocations made outside a benchmark's run (package init, sampled
// before -test.memprofilerate applies, so different in every process) are
// left out of an alloc diff; CPU time outside it (the garbage collector's
// workers) is not.
func TestDiffAllocationsOfTheBenchmarkOnly(t *testing.T) {
	initStack := []string{"example.com/m.loadFixtures", "example.com/m.init", "runtime.doInit1", "runtime.main"}
	base := allocProfile(t, 64, stack{under("example.com/m.newNode"), 1000}, stack{initStack, 9000})
	head := allocProfile(t, 64, stack{under("example.com/m.newNode"), 1000}, stack{initStack, 1000}, stack{under("example.com/m.copyKey"), 1000})
	e, err := Diff(base, head, 1000, 1000, AllocSpace, Options{})
	require.NoError(t, err)
	require.Len(t, e.Flat, 1)
	assert.Equal(t, "example.com/m.copyKey", e.Flat[0].Function)
	assert.InDelta(t, 1, e.Flat[0].Share, 1e-9)
	assert.Equal(t, int64(1000), e.Samples.Base)

	gc := []string{"runtime.scanobject", "runtime.gcBgMarkWorker", "runtime.goexit"}
	cb := cpuProfile(t, stack{under("example.com/m.newNode"), 100e6}, stack{gc, 10e6})
	ch := cpuProfile(t, stack{under("example.com/m.newNode"), 100e6}, stack{gc, 50e6})
	e, err = Diff(cb, ch, 1, 1, CPU, Options{})
	require.NoError(t, err)
	require.NotEmpty(t, e.Flat)
	assert.Equal(t, "runtime.scanobject", e.Flat[0].Function)
}

// The scheduler's own time (on the system stack after runtime.mcall, or
// an idle thread's after runtime.mstart) is left out of a CPU diff; a
// lock the benchmark's goroutine takes is not.
func TestDiffLeavesTheSchedulerOut(t *testing.T) {
	sched := []string{"runtime.lock2", "runtime.findRunnable", "runtime.schedule", "runtime.gosched_m", "runtime.mcall"}
	idle := []string{"runtime.futex", "runtime.stopm", "runtime.schedule", "runtime.mstart1", "runtime.mstart"}
	base := cpuProfile(t, stack{under("example.com/m.Add"), 100e6}, stack{sched, 10e6}, stack{idle, 10e6})
	head := cpuProfile(t, stack{under("example.com/m.Add"), 120e6}, stack{sched, 90e6}, stack{idle, 40e6},
		stack{under("runtime.lock2", "example.com/m.(*Pool).Get"), 5e6})
	e, err := Diff(base, head, 1, 1, CPU, Options{})
	require.NoError(t, err)
	assert.InDelta(t, 25e6, e.Change, 1e-6)
	var flat []string
	for _, l := range e.Flat {
		flat = append(flat, l.Function)
	}
	assert.Equal(t, []string{"example.com/m.Add", "runtime.lock2"}, flat)
	root, err := Tree(base, head, 1, 1, CPU)
	require.NoError(t, err)
	assert.InDelta(t, 125e6, root.Head, 1e-6)
}

// The tree holds both versions' paths, the one that vanished with Head
// 0, each value per operation.
func TestTree(t *testing.T) {
	base := cpuProfile(t, stack{under("example.com/m.scan", "example.com/m.Parse"), 600e6}, stack{under("example.com/m.old", "example.com/m.Parse"), 200e6})
	head := cpuProfile(t, stack{under("example.com/m.scan", "example.com/m.Parse"), 600e6}, stack{under("example.com/m.burn", "example.com/m.Parse"), 2000e6})
	root, err := Tree(base, head, 100, 100, CPU)
	require.NoError(t, err)
	assert.InDelta(t, 8e6, root.Base, 1e-6)
	assert.InDelta(t, 26e6, root.Head, 1e-6)
	n := root
	for _, fn := range []string{"runtime.goexit", "testing.(*B).launch", "testing.(*B).runN", "example.com/m.BenchmarkParse", "example.com/m.Parse"} {
		require.Len(t, n.Children, 1, fn)
		n = n.Children[0]
		assert.Equal(t, fn, n.Function)
	}
	require.Len(t, n.Children, 3)
	got := map[string][2]float64{}
	for _, c := range n.Children {
		got[c.Function] = [2]float64{c.Base, c.Head}
	}
	assert.Equal(t, map[string][2]float64{
		"example.com/m.burn": {0, 20e6}, "example.com/m.old": {2e6, 0}, "example.com/m.scan": {6e6, 6e6},
	}, got)
	assert.Equal(t, "example.com/m.burn", n.Children[0].Function, "ordered by name")
}

// The page draws the new path red, the vanished one blue and dashed, the
// unchanged one grey, each with its values in its title.
func TestWriteHTML(t *testing.T) {
	base := cpuProfile(t, stack{under("example.com/m.scan", "example.com/m.Parse"), 600e6}, stack{under("example.com/m.old", "example.com/m.Parse"), 200e6})
	head := cpuProfile(t, stack{under("example.com/m.scan", "example.com/m.Parse"), 600e6}, stack{under("example.com/m.burn", "example.com/m.Parse"), 2000e6})
	root, err := Tree(base, head, 100, 100, CPU)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, WriteHTML(&buf, "where <it> went", []Graph{{Title: "BenchmarkParse ns/op", Unit: "ns/op", Root: root}}))
	page := buf.String()
	assert.Contains(t, page, "<title>where &lt;it&gt; went</title>")
	assert.Regexp(t, `class="n new" style="width:[\d.]+%"><div class="f" style="background:rgba\(214,39,40,1.00\)" title="example.com/m.burn\nbaseline 0.000ms, code under test 20.000ms per op">example.com/m.burn<`, page)
	assert.Regexp(t, `class="n gone" style="width:[\d.]+%"><div class="f" style="background:rgba\(31,119,180,1.00\)" title="example.com/m.old`, page)
	assert.Regexp(t, `class="n " style="width:[\d.]+%"><div class="f" style="background:#ddd" title="example.com/m.scan`, page)
	assert.Contains(t, page, "<p>8.000ms → 26.000ms per op</p>")
	assert.NotContains(t, page, "<script", "nothing to load or run")
}
