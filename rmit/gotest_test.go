package rmit

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// A setup that grows with b.N is paid at each call's own b.N: go test's
// ramp of 1µs ops calls at 1, 100, 10⁴ and 10⁶ ops.
func TestGoTestTimeOfASetupThatGrows(t *testing.T) {
	_, timed := GoTestRamp(1000, DefaultBenchtime)
	fixed := Setup{Fixed: 10 * time.Millisecond}
	assert.Equal(t, GoTestTime(1000, 10*time.Millisecond, DefaultBenchtime), GoTestTimeOf(1000, fixed, DefaultBenchtime))
	grows := Setup{Fixed: 10 * time.Millisecond, PerOp: 500}
	ops := 1.0 + 100 + 1e4 + 1e6
	assert.Equal(t, timed+4*10*time.Millisecond+time.Duration(500*ops), GoTestTimeOf(1000, grows, DefaultBenchtime))
	assert.Equal(t, 10*time.Millisecond+500*time.Microsecond, grows.At(1000))
}

// A b.Loop loop is ramped inside one call: go test times the ops of the
// ramp's last call alone, and pays the setup once, at b.N = 1.
func TestGoTestLoopTime(t *testing.T) {
	grows := Setup{Fixed: 10 * time.Millisecond, PerOp: 500}
	// 1µs ops: the ramp's last call is at 10⁶ ops.
	assert.Equal(t, time.Second+grows.At(1), GoTestLoopTime(1000, grows, DefaultBenchtime))
	assert.Less(t, GoTestLoopTime(1000, grows, DefaultBenchtime), GoTestTimeOf(1000, grows, DefaultBenchtime))
	assert.Zero(t, GoTestLoopTime(0, grows, DefaultBenchtime), "no ns/op, no ramp")
}

// FitSetup draws the line through a probe's setup and a run's: growth
// between them is per op; no growth, or a probe inflated by its process's
// start, leaves the run's own setup, fixed.
func TestFitSetup(t *testing.T) {
	truth := Setup{Fixed: 2 * time.Millisecond, PerOp: 3}
	got := FitSetup(1e3, truth.At(1e3), 1e6, truth.At(1e6))
	assert.Equal(t, truth.Fixed, got.Fixed)
	assert.InDelta(t, truth.PerOp, got.PerOp, 1e-9)

	assert.Equal(t, Setup{Fixed: 5 * time.Millisecond}, FitSetup(1e3, 5*time.Millisecond, 1e6, 5*time.Millisecond))
	assert.Equal(t, Setup{Fixed: time.Millisecond}, FitSetup(1e3, 40*time.Millisecond, 1e6, time.Millisecond), "the probe's first leaf carried its process's start")
	assert.Equal(t, Setup{Fixed: 3 * time.Second}, FitSetup(1, 2*time.Second, 1, 3*time.Second), "one op a call: nothing to fit")
	assert.Equal(t, Setup{}, FitSetup(1e3, 0, 1e6, -time.Millisecond), "a slice faster than its ops has no setup")
}

// probeN is the mean b.N of the probe's ramp, over which probeSetup spread
// its setup.
func TestProbeN(t *testing.T) {
	probe := 10 * time.Millisecond
	assert.InDelta(t, (1.0+100+1e4)/3, probeN(probed{nsPerOp: 1000, n: 11000}, probe), 1e-9)
	assert.Equal(t, 1.0, probeN(probed{nsPerOp: 1000, n: 1}, probe), "a ramp ProbeEnv ended at run1")
	assert.Equal(t, 1.0, probeN(probed{nsPerOp: 1000, n: 12000, loop: true}, probe), "a b.Loop loop's setup runs at run1's b.N")
	assert.Zero(t, probeN(probed{}, probe))
}

// The price of a go test pass takes each benchmark's setup from its
// measured slices where they show it growing with b.N: go test pays it at
// b.N far past a probe's.
func TestGoTestPassTimeRefitsSetupsFromSlices(t *testing.T) {
	pkg := &Package{ImportPath: "example.com/p", Version: record.VersionHead}
	grows := NewBenchmark(pkg, "BenchmarkGrows", 1, false)
	grows.Probed, grows.Setup, grows.SetupN = 1000, 10*time.Microsecond, 100
	unseen := NewBenchmark(pkg, "BenchmarkUnseen", 1, false)
	unseen.Probed, unseen.Setup = 1000, time.Millisecond
	slice := func(b *Benchmark, n int64, setup time.Duration, warmup bool) record.Slice {
		k := b.Key()
		return record.Slice{Package: k.Package, Benchmark: k.Benchmark, Version: k.Version, N: n, Warmup: warmup,
			Values: map[string]float64{"ns/op": 1000}, WallNs: int64(time.Duration(n)*time.Microsecond + setup)}
	}
	// 0.1µs of setup an op: 10µs at the probe's b.N, 10ms at 10⁵.
	run := &record.Run{Slices: []record.Slice{
		slice(grows, 1e5, time.Second, true), // a warmup says nothing
		slice(grows, 1e5, 10*time.Millisecond, false),
		slice(grows, 1e5, 11*time.Millisecond, false),
		slice(grows, 1e5, 9*time.Millisecond, false),
		slice(grows, 1e4, time.Second, false), // a smaller b.N of an earlier process
	}}
	perOp := float64(10*time.Millisecond-10*time.Microsecond) / (1e5 - 100)
	want := GoTestTimeOf(1000, Setup{Fixed: 10*time.Microsecond - time.Duration(perOp*100), PerOp: perOp}, DefaultBenchtime) +
		GoTestTime(1000, time.Millisecond, DefaultBenchtime)
	bs := []*Benchmark{grows, unseen}
	got := GoTestPassTime(bs, run)
	assert.Equal(t, want, got)
	probed := GoTestPassTime(bs, nil)
	assert.Greater(t, got, probed+time.Second/10, "go test's 10⁶ ops pay 0.1 s of setup that the probe's b.N did not show")
}

// A b.Loop loop is priced as go test runs it: one call, whose setup is
// the probe's, since its slices are turns of one call that show none.
func TestGoTestPassTimeOfALoop(t *testing.T) {
	pkg := &Package{ImportPath: "example.com/p", Version: record.VersionHead}
	loop := NewBenchmark(pkg, "BenchmarkLoop", 1, false)
	loop.Probed, loop.Setup, loop.SetupN, loop.Loop = 1000, 50*time.Millisecond, 1, true
	k := loop.Key()
	run := &record.Run{Slices: []record.Slice{{Package: k.Package, Benchmark: k.Benchmark, Version: k.Version, N: 1e5,
		Values: map[string]float64{"ns/op": 1000}, WallNs: int64(100 * time.Millisecond)}}}
	bs := []*Benchmark{loop}
	want := GoTestLoopTime(1000, Setup{Fixed: 50 * time.Millisecond}, DefaultBenchtime)
	assert.Equal(t, want, GoTestPassTime(bs, run))
	loop.Loop = false
	assert.Greater(t, GoTestPassTime(bs, nil), want, "a b.N loop's ramp calls it again and again")
}
