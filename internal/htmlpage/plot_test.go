package htmlpage

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTicks(t *testing.T) {
	labels := func(ts Ticks, lo, hi float64) []string {
		var out []string
		for _, tk := range ts.Ticks(lo, hi) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	assert.Equal(t, []string{"50", "100"}, labels(Ticks{Integer: true}, 0.5, 125.5))
	assert.Equal(t, []string{"47.5", "48.0", "48.5", "49.0"}, labels(Ticks{}, 47.3, 49.2))
	assert.Equal(t, []string{"880", "900", "920"}, labels(Ticks{}, 862, 929))
}
