package gate

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/record"
)

// layoutDuets returns both halves of a slice-paired run of pairs process
// pairs of turns turns each: every pair draws its own layout effect of sd
// layoutSD on the log ratio, and each slice noise of sd noiseSD. seeded
// says whether the records name the layouts (randomised links).
func layoutDuets(rng *rand.Rand, pairs, turns int, layoutSD, noiseSD float64, seeded bool) (old, head *record.Run) {
	old, head = &record.Run{}, &record.Run{}
	for p := 1; p <= pairs; p++ {
		effect := rng.NormFloat64() * layoutSD
		var layout uint64
		if seeded {
			layout = uint64(p)
		}
		for j := 1; j <= turns; j++ {
			host := math.Exp(rng.NormFloat64() * 0.2) // moves both alike
			for _, v := range []struct {
				r   *record.Run
				val float64
			}{{old, 1000 * host}, {head, 1000 * host * math.Exp(effect+rng.NormFloat64()*noiseSD)}} {
				v.r.Slices = append(v.r.Slices, record.Slice{Package: "example.com/p", Benchmark: "BenchmarkX",
					SuiteRun: p, Iteration: 1, Slice: j, Turn: 2 * j, N: 1000, Layout: layout,
					Values: map[string]float64{"sec/op": v.val / 1e9}})
			}
		}
	}
	return old, head
}

// Pairs that each drew their own links spread by their layouts: a spread
// of 5% over slices with 2% noise is found nearly always, and measured
// about right; without a layout effect, or with versions linked once, no
// benchmark is called layout-sensitive but at about the test's level.
func TestLayoutSpreadFound(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 32))
	const reps = 200
	o := DefaultOptions()
	o.Paired = true
	count := func(layoutSD float64, seeded bool) (found int, spreads []float64) {
		for range reps {
			old, head := layoutDuets(rng, 10, 20, layoutSD, 0.02, seeded)
			res, err := Runs(old, head, o)
			require.NoError(t, err)
			c := res.Comparisons[0]
			require.Equal(t, MethodSlicePaired, c.Method)
			if c.LayoutSpread > 0 {
				found++
				spreads = append(spreads, c.LayoutSpread)
			}
		}
		return found, spreads
	}
	found, spreads := count(0.05, true)
	assert.GreaterOrEqual(t, found, 190, "a 5% layout spread is found")
	var mean float64
	for _, s := range spreads {
		mean += s / float64(len(spreads))
	}
	assert.InDelta(t, 0.05, mean, 0.01)
	found, _ = count(0, true)
	assert.LessOrEqual(t, found, 6, "no layout effect, no finding beyond the 1% level")
	found, _ = count(0.05, false)
	assert.Zero(t, found, "links of the linker's own layout say nothing of layouts")
}

func TestLayoutSensitiveListed(t *testing.T) {
	old, head := layoutDuets(rand.New(rand.NewPCG(2, 2)), 10, 20, 0.08, 0.01, true)
	o := DefaultOptions()
	o.Paired = true
	res, err := Runs(old, head, o)
	require.NoError(t, err)
	require.Positive(t, res.Comparisons[0].LayoutSpread)
	var text, md, js strings.Builder
	require.NoError(t, res.WriteText(&text))
	require.NoError(t, res.WriteMarkdown(&md))
	require.NoError(t, res.WriteJSON(&js))
	assert.Regexp(t, `layout-sensitive .*:\n  BenchmarkX \(example.com/p\) sec/op: ±\d+\.\d\d% across code layouts\n`, text.String())
	assert.Contains(t, md.String(), "Layout-sensitive")
	assert.Contains(t, js.String(), `"layout_spread": 0.`)
}
