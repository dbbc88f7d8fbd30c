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
