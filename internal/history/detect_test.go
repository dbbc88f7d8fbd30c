package history

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDetectStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tr := synth("step", 200, []int{60, 140}, []float64{0.05, -0.10}, noise{Run: 0.01, Process: 0.03, Processes: 5}, rng)
	for _, m := range []Method{MethodWeighted, MethodOtava} {
		cps := Detect(tr.Series, Options{Method: m})
		var at []int
		for _, c := range cps {
			at = append(at, c.Index)
			t.Logf("%s: %d %+.2f%% [%+.2f%%, %+.2f%%] p=%.2g", m, c.Index, 100*c.Change, 100*c.Lo, 100*c.Hi, c.P)
		}
		require.Len(t, at, 2, m)
		assert.InDelta(t, 60, at[0], 2)
		assert.InDelta(t, 140, at[1], 2)
	}
}
