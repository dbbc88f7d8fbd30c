package rmit

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCappedWarmup checks that a learned warmup comes before the policy's
// own, and that the policy still ends the iteration.
func TestCappedWarmup(t *testing.T) {
	p := &Capped{Policy: Static{Warmup: 1, Slices: 2}, Warmup: map[string]int{"b": 3}}
	var warmup, measured []float64
	for {
		s := p.NextSlice("b", warmup, measured)
		if s.Done {
			break
		}
		if s.Warmup {
			warmup = append(warmup, 1)
		} else {
			measured = append(measured, 1)
		}
	}
	assert.Len(t, warmup, 3)
	assert.Len(t, measured, 2)
	assert.GreaterOrEqual(t, p.MaxSlices("b"), 5, "the process is asked for every slice the iteration takes")

	// Other benchmarks keep the policy's warmup.
	assert.False(t, p.NextSlice("other", []float64{1}, nil).Warmup)
	assert.Equal(t, 3, p.MaxSlices("other"))
}
