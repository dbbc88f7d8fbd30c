package apiscore

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMaxSpread(t *testing.T) {
	// Run means 10, 12 and 11; overall mean 11: (12-10)/11.
	assert.InDelta(t, 2.0/11, MaxSpread([][]float64{{9, 11}, {12, 12}, {10, 12}}), 1e-12)
	assert.Equal(t, 0.0, MaxSpread([][]float64{{5, 5}, {5}}))
	// The overall mean weighs runs by their measurements: (4-1)/((1+1+1+4)/4).
	assert.InDelta(t, 3/(7.0/4), MaxSpread([][]float64{{1, 1, 1}, {4}}), 1e-12)
	assert.True(t, math.IsNaN(MaxSpread([][]float64{{1, 2}, nil})))
}

func TestSlowdown(t *testing.T) {
	// 20 spreads 0.01…0.20: ⌊0.95·20⌋ = 19, the 19th smallest is 0.19.
	var s []float64
	for i := 20; i >= 1; i-- {
		s = append(s, float64(i)/100)
	}
	assert.InDelta(t, 0.38, Slowdown(s), 1e-12)
	// 5 spreads: ⌊4.75⌋ = 4, the 4th smallest, 0.05.
	assert.InDelta(t, 0.1, Slowdown([]float64{0.05, 0.01, 0.5, 0.04, 0.02}), 1e-12)
	assert.InDelta(t, 0.2, Slowdown([]float64{0.1, math.NaN()}), 1e-12)
	assert.True(t, math.IsNaN(Slowdown(nil)))
}
