package gate

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// layoutDuets returns both halves of a slice-paired run of pairs process
// pairs of turns turns each. Each version has links links whose layouts
// shift its time by lognormal effects of sd layoutSD; each pair draws one
// link of each version, and an effect of its own of sd pairSD (the moment
// it ran, its heap), and each slice noise of sd noiseSD. seeded says
// whether the records name the links (randomised layouts).
func layoutDuets(rng *rand.Rand, pairs, turns, links int, layoutSD, pairSD, noiseSD float64, seeded bool) (old, head *record.Run) {
	old, head = &record.Run{}, &record.Run{}
	effects := func() []float64 {
		e := make([]float64, links)
		for i := range e {
			e[i] = rng.NormFloat64() * layoutSD
		}
		return e
	}
	oldFx, headFx := effects(), effects()
	for p := 1; p <= pairs; p++ {
		lo, lh := rng.IntN(links), rng.IntN(links)
		pair := rng.NormFloat64() * pairSD
		for j := 1; j <= turns; j++ {
			host := math.Exp(rng.NormFloat64() * 0.2) // moves both alike
			for _, v := range []struct {
				r      *record.Run
				val    float64
				layout int
			}{{old, 1000 * host * math.Exp(oldFx[lo]), lo}, {head, 1000 * host * math.Exp(headFx[lh]+pair+rng.NormFloat64()*noiseSD), links + lh}} {
				var seed uint64
				if seeded {
					seed = uint64(v.layout) + 1
				}
				v.r.Slices = append(v.r.Slices, record.Slice{Package: "example.com/p", Benchmark: "BenchmarkX",
					SuiteRun: p, Iteration: 1, Slice: j, Turn: 2 * j, N: 1000, Layout: seed,
					Values: map[string]float64{"sec/op": v.val / 1e9}})
			}
		}
	}
	return old, head
}

// Pairs that share a link share its layout's effect: layouts that move a
// benchmark by 8% each version, with 2% noise in each pair, are found in
// most runs of 40 pairs over 4 links a version, and measured about right.
// What moves pairs as a whole but not by their links (10% a pair, twice
// the layouts' effect above) is not taken for layout, nor is anything
// when the versions were linked once.
func TestLayoutSpreadFound(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 32))
	const reps = 100
	o := DefaultOptions()
	o.Paired = true
	count := func(layoutSD, pairSD float64, seeded bool) (found int, spreads []float64) {
		for range reps {
			old, head := layoutDuets(rng, 40, 20, 4, layoutSD, pairSD, 0.02, seeded)
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
	found, spreads := count(0.08, 0.02, true)
	assert.GreaterOrEqual(t, found, 75, "layouts of 8% are found in most runs")
	var mean float64
	for _, s := range spreads {
		mean += s / float64(len(spreads))
	}
	assert.InDelta(t, math.Expm1(math.Sqrt(2)*0.08), mean, 0.03, "the sd both versions' links add")
	found, _ = count(0, 0.1, true)
	assert.LessOrEqual(t, found, 3, "pairs that move without their links are not layout, but at about the 1% level")
	found, _ = count(0.08, 0.02, false)
	assert.Zero(t, found, "links of the linker's own layout say nothing of layouts")
}

func TestLayoutSensitiveListed(t *testing.T) {
	old, head := layoutDuets(rand.New(rand.NewPCG(2, 2)), 40, 20, 4, 0.1, 0.01, 0.01, true)
	o := DefaultOptions()
	o.Paired = true
	res, err := Runs(old, head, o)
	require.NoError(t, err)
	require.Positive(t, res.Comparisons[0].LayoutSpread)
	var text, md, js strings.Builder
	require.NoError(t, res.WriteText(&text))
	require.NoError(t, res.WriteMarkdown(&md))
	require.NoError(t, res.WriteJSON(&js, JSONOptions{}))
	assert.Regexp(t, `layout-sensitive .*:\n  BenchmarkX \(example.com/p\) sec/op: ±\d+\.\d\d% across code layouts\n`, text.String())
	assert.Contains(t, md.String(), "Layout-sensitive")
	assert.Contains(t, js.String(), `"layout_spread": 0.`)
}
