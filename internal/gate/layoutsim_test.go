package gate

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The simulated A/A comparisons of the layout tests: runs per cell at a
// level alpha, with per-link offsets of sd layout (as measured on
// fastjson's twitter leaf) beside noise per pair.
const (
	layoutRuns  = 4000
	layoutAlpha = 0.01
	layoutSD    = 0.023
	pairNoise   = 0.05
)

// TestFreshLinksKeepTheLevel simulates A/A comparisons in which every
// link of each version shifts its processes by a fixed offset (the code
// layout, sd 2.3% as measured on fastjson's twitter leaf), beside 5% of
// noise per pair. When each pair runs links of its own (rmit.layoutOf
// takes each link once before any repeats), the pairs are independent
// and the 99% interval misses the true ratio about 1% of the time at 5,
// 8 and 40 pairs. When 40 pairs share 8 links per version, the interval
// shrinks past the spread of those links' own mean, and misses several
// times as often: the comparison then judges the links, not the change.
func TestFreshLinksKeepTheLevel(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 2026))
	misses := func(pairs, links int) float64 {
		missed := 0
		for range layoutRuns {
			head, base := make([]float64, links), make([]float64, links)
			for i := range links {
				head[i], base[i] = layoutSD*rng.NormFloat64(), layoutSD*rng.NormFloat64()
			}
			d := make([]float64, pairs)
			for j := range d {
				h, b := j%links, j%links
				if pairs > links {
					h, b = rng.IntN(links), rng.IntN(links)
				}
				d[j] = head[h] - base[b] + pairNoise*rng.NormFloat64()
			}
			lr := tInterval(d)
			if h := lr.width(layoutAlpha); lr.mean-h > 0 || lr.mean+h < 0 {
				missed++
			}
		}
		return float64(missed) / layoutRuns
	}
	for _, pairs := range []int{5, 8, 40} {
		rate := misses(pairs, pairs)
		t.Logf("%d pairs, a link each: %.2f%% of intervals miss", pairs, 100*rate)
		assert.LessOrEqual(t, rate, 0.02, "%d pairs with fresh links", pairs)
	}
	shared := misses(40, 8)
	t.Logf("40 pairs on 8 links per version: %.2f%% of intervals miss", 100*shared)
	assert.Greater(t, shared, 0.03, "shared links make the interval too narrow")
}

// TestCommonLayoutsKeepTheLevel simulates A/A comparisons in which each
// pair runs both versions on one link seed (rmit.layoutOf): the two
// versions' offsets on a seed are correlated by rho, 1 where the linker
// placed the same functions alike and 0 where a change reshuffled them.
// Whatever rho, the 99% interval misses the true ratio about 1% of the
// time, since each pair still draws its seed at random; the more alike
// the two layouts, the narrower the interval, as the layout's share of a
// pair's spread cancels within it.
func TestCommonLayoutsKeepTheLevel(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 2026))
	simulate := func(pairs int, rho float64) (miss, width float64) {
		missed := 0
		for range layoutRuns {
			d := make([]float64, pairs)
			for j := range d {
				base := layoutSD * rng.NormFloat64()
				head := rho*base + math.Sqrt(1-rho*rho)*layoutSD*rng.NormFloat64()
				d[j] = head - base + pairNoise*rng.NormFloat64()
			}
			lr := tInterval(d)
			h := lr.width(layoutAlpha)
			width += 2 * h / layoutRuns
			if lr.mean-h > 0 || lr.mean+h < 0 {
				missed++
			}
		}
		return float64(missed) / layoutRuns, width
	}
	for _, pairs := range []int{5, 8, 40} {
		_, apart := simulate(pairs, 0)
		for _, rho := range []float64{0, 0.5, 1} {
			miss, width := simulate(pairs, rho)
			t.Logf("%d pairs, rho %.1f: %.2f%% of intervals miss, width %.2f%% (%.2f of seeds apart)", pairs, rho, 100*miss, 100*width, width/apart)
			assert.LessOrEqual(t, miss, 0.02, "%d pairs, rho %.1f", pairs, rho)
			if rho == 1 {
				assert.Less(t, width, 0.95*apart, "%d pairs: one layout per pair narrows the interval", pairs)
			}
		}
	}
}
