package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTrend(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	procs := func(k, n int, slope float64) [][]float64 {
		out := make([][]float64, k)
		for p := range out {
			out[p] = make([]float64, n)
			for i := range out[p] {
				out[p][i] = 100*(1+slope*float64(i)) + rng.NormFloat64()*0.5
			}
		}
		return out
	}
	// Ten processes of five slices that each get 1% slower per slice.
	tr := TrendOf(procs(10, 5, 0.01))
	assert.True(t, tr.Drifts(), "%+v", tr)
	assert.InDelta(t, 0.03, tr.Change, 0.01)
	// A process twice as fast in its second half: −50%, where a change
	// relative to its mean would read −67% (and beyond −100% for a
	// larger speed-up).
	assert.InDelta(t, -0.5, TrendOf([][]float64{{4, 4, 2, 2}}).Change, 1e-12)
	// No trend: the Z of 200 such benchmarks is standard normal, so
	// about 0.1% of them pass |Z| ≥ 3.29, and none drifts by 1%.
	flagged := 0
	var zs []float64
	for range 200 {
		tr := TrendOf(procs(10, 5, 0))
		zs = append(zs, tr.Z)
		if tr.Drifts() {
			flagged++
		}
	}
	assert.Zero(t, flagged)
	m, sd := 0.0, 0.0
	for _, z := range zs {
		m += z / float64(len(zs))
	}
	for _, z := range zs {
		sd += (z - m) * (z - m) / float64(len(zs)-1)
	}
	assert.InDelta(t, 0, m, 0.2)
	assert.InDelta(t, 1, math.Sqrt(sd), 0.2)
	// Too short to tell.
	assert.Equal(t, Trend{}, TrendOf([][]float64{{1, 2}}))
	// Exact S on a known case: 1 2 3 → S = 3, Var = 3·2·11/18, Z = (3−1)/√(11/3).
	tr = TrendOf([][]float64{{1, 2, 3}})
	assert.InDelta(t, 2/math.Sqrt(11.0/3), tr.Z, 1e-12)
}
