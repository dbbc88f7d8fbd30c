package rmit

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestGoTestTime follows package testing's ramp: b.N of 1, then at most
// 100 times the last, aiming 20% past the benchtime; every call pays the
// setup.
func TestGoTestTime(t *testing.T) {
	for _, c := range []struct {
		ns    float64
		calls int
		timed time.Duration
	}{
		// 1, 100, 10⁴, 10⁶ ops of 1µs: the last lasts the second.
		{1000, 4, time.Microsecond + 100*time.Microsecond + 10*time.Millisecond + time.Second},
		// 1, then 100 ops of 10ms.
		{1e7, 2, 10*time.Millisecond + time.Second},
		// 1, then 10⁹/(3·10⁸) = 3 ops (a fifth of 3 is 0 in integers),
		// 0.9 s, short of the second: then 4.
		{3e8, 3, 300*time.Millisecond + 900*time.Millisecond + 1200*time.Millisecond},
		// One op past the benchtime ends the ramp.
		{2e9, 1, 2 * time.Second},
		{0, 0, 0},
	} {
		calls, timed := GoTestRamp(c.ns, DefaultBenchtime)
		assert.Equal(t, c.calls, calls, "%v ns/op", c.ns)
		assert.Equal(t, c.timed, timed, "%v ns/op", c.ns)
		assert.Equal(t, c.timed, GoTestTime(c.ns, 0, DefaultBenchtime), "%v ns/op", c.ns)
		assert.Equal(t, c.timed+time.Duration(c.calls)*time.Second/2, GoTestTime(c.ns, time.Second/2, DefaultBenchtime), "%v ns/op", c.ns)
	}
}

// TestProbeSetup: a probe's wall time beyond what its ramp timed is
// shared by the ramp's calls; none beyond it is no setup.
func TestProbeSetup(t *testing.T) {
	probe := 10 * time.Millisecond
	// 1µs ops: the ramp to 10ms calls 1, 100, then 10⁴ ops; 3 calls.
	calls, timed := GoTestRamp(1000, probe)
	assert.Equal(t, 3, calls)
	assert.Equal(t, 2*time.Second, probeSetup(probed{nsPerOp: 1000, n: 11000, wall: timed + 6*time.Second}, probe))
	assert.Zero(t, probeSetup(probed{nsPerOp: 1000, n: 11000, wall: timed}, probe))
	assert.Zero(t, probeSetup(probed{nsPerOp: 1000, n: 11000, wall: timed / 2}, probe), "a probe faster than its model has no setup to show")
	assert.Zero(t, probeSetup(probed{nsPerOp: 0, n: 0, wall: time.Second}, probe), "no ns/op, no ramp")
	// A ramp that ProbeEnv ended at run1 made that one call.
	assert.Equal(t, 3*time.Second-time.Microsecond, probeSetup(probed{nsPerOp: 1000, n: 1, wall: 3 * time.Second}, probe))
	// A b.Loop loop ramps inside one call, and its result's b.N counts
	// every op of the ramp.
	assert.Equal(t, 6*time.Second, probeSetup(probed{nsPerOp: 1000, n: 12000, wall: 12*time.Millisecond + 6*time.Second, loop: true}, probe))
}
