package rmit

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
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
