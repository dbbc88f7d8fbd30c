package session

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// The price of a go test pass takes each benchmark's setup from its
// measured slices where they show it growing with b.N: go test pays it at
// b.N far past a probe's.
func TestGoTestTimeSeenRefitsSetups(t *testing.T) {
	pkg := &rmit.Package{ImportPath: "example.com/p", Version: record.VersionHead}
	grows := rmit.NewBenchmark(pkg, "BenchmarkGrows", 1, false)
	grows.Probed, grows.Setup, grows.SetupN = 1000, 10*time.Microsecond, 100
	unseen := rmit.NewBenchmark(pkg, "BenchmarkUnseen", 1, false)
	unseen.Probed, unseen.Setup = 1000, time.Millisecond
	slice := func(b *rmit.Benchmark, n int64, setup time.Duration, warmup bool) record.Slice {
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
	want := rmit.GoTestTimeOf(1000, rmit.Setup{Fixed: 10*time.Microsecond - time.Duration(perOp*100), PerOp: perOp}, rmit.DefaultBenchtime) +
		rmit.GoTestTime(1000, time.Millisecond, rmit.DefaultBenchtime)
	bs := []*rmit.Benchmark{grows, unseen}
	got := goTestTime(bs, seenSetups(bs, run))
	assert.Equal(t, want, got)
	probed := goTestTime(bs, nil)
	assert.Greater(t, got, probed+time.Second/10, "go test's 10⁶ ops pay 0.1 s of setup that the probe's b.N did not show")
}

// A b.Loop loop is priced as go test runs it: one call, whose setup is
// the probe's, since its slices are turns of one call that show none.
func TestGoTestTimeOfALoop(t *testing.T) {
	pkg := &rmit.Package{ImportPath: "example.com/p", Version: record.VersionHead}
	loop := rmit.NewBenchmark(pkg, "BenchmarkLoop", 1, false)
	loop.Probed, loop.Setup, loop.SetupN, loop.Loop = 1000, 50*time.Millisecond, 1, true
	k := loop.Key()
	run := &record.Run{Slices: []record.Slice{{Package: k.Package, Benchmark: k.Benchmark, Version: k.Version, N: 1e5,
		Values: map[string]float64{"ns/op": 1000}, WallNs: int64(100 * time.Millisecond)}}}
	bs := []*rmit.Benchmark{loop}
	want := rmit.GoTestLoopTime(1000, rmit.Setup{Fixed: 50 * time.Millisecond}, rmit.DefaultBenchtime)
	assert.Equal(t, want, goTestTime(bs, seenSetups(bs, run)))
	loop.Loop = false
	assert.Greater(t, goTestTime(bs, nil), want, "a b.N loop's ramp calls it again and again")
}
