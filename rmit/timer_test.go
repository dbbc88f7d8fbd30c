package rmit

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestMaxStretched: a stretched slice times at most maxSliceStretch slice
// times, and never more than go test's own -benchtime, so that it runs no
// more ops than go test's last run would; a slice already longer stays.
func TestMaxStretched(t *testing.T) {
	assert.Equal(t, 30*time.Millisecond, maxStretched(time.Millisecond))
	assert.Equal(t, DefaultBenchtime, maxStretched(100*time.Millisecond))
	assert.Equal(t, 2*time.Second, maxStretched(2*time.Second))
}

// TestStretchStep: slices that a stretch would keep within go test's
// 1 s of wall time even if their setup grew with b.N stretch at once;
// longer ones by a step of 3; without a measured wall, by 3 too.
func TestStretchStep(t *testing.T) {
	short := &processTimes{sliceWalls: []float64{11e6, 10e6, 12e6}}
	assert.Equal(t, 90909*time.Microsecond, stretchStep(time.Millisecond, short).Round(time.Microsecond))
	long := &processTimes{sliceWalls: []float64{2.1e9}}
	assert.Equal(t, 300*time.Millisecond, stretchStep(100*time.Millisecond, long))
	assert.Equal(t, 300*time.Millisecond, stretchStep(100*time.Millisecond, &processTimes{}))
}

// TestSetupGrew tells a setup that grew with b.N from one that stayed a
// cost per call, as recalibrate sees them after stretching a slice.
func TestSetupGrew(t *testing.T) {
	was := callCost{n: 1000, outside: 10e6}
	assert.True(t, setupGrew(was, 23000, 230e6), "in proportion to b.N")
	assert.True(t, setupGrew(was, 23000, 48e6), "by the square root of b.N's growth")
	assert.False(t, setupGrew(was, 23000, 11e6), "one cost per call")
	assert.False(t, setupGrew(was, 1500, 15e6), "b.N not even doubled: noise")
	assert.False(t, setupGrew(callCost{n: 1000}, 23000, 230e6), "nothing outside before")
}
