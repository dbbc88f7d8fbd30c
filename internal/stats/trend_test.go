package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// TestTrendAgainstItsRanksIsNoDrift checks that a few wild slices that
// move the halves' means against the ranks do not make a drift. The
// processes are the three of one version of a b.RunParallel benchmark,
// measured by process pairs (ns/op in thousands). Their first slices are
// several times slower than the rest, which the ranks read as a fall; the
// second process also holds two spikes in its second half, which move its
// means up by 40%. The run reported "drift +5.9% (Mann-Kendall z = −3.4)".
func TestTrendAgainstItsRanksIsNoDrift(t *testing.T) {
	procs := [][]float64{
		{35028, 7496, 4108, 4257, 4411, 4263, 4482, 4492, 3220, 3154, 3119, 3086, 3069, 3082, 3122, 3138, 3113, 3021, 3152, 3109, 3064, 3152,
			3167, 3190, 2863, 2933, 2756, 3083, 2755, 2682, 2644, 2248, 2028, 2681, 4212, 2683, 2842, 2759, 2595, 2654, 2778, 2834, 2681, 2779,
			2598, 2632, 2641, 2619, 2605, 2602, 2543, 2540, 2542, 2556, 2538, 2556, 2608, 2600, 2566, 2606, 2570, 2580, 2543, 2570},
		{5582, 1850, 2406, 2604, 2360, 2510, 2639, 2452, 2401, 2375, 2741, 2764, 2710, 2762, 2722, 2736, 2802, 2694, 2676, 2676, 2816, 2749,
			2774, 2719, 2736, 2696, 2717, 2790, 2881, 2718, 2690, 2717, 2729, 2787, 2733, 2703, 2610, 2782, 3291, 22389, 38935, 7334, 2149, 2673,
			2755, 2785, 2759, 3503, 2704, 2776, 2747, 2718, 2724, 2823, 2700, 2689, 2741, 2941, 2798, 2673, 2670, 2771, 2773, 2764},
		{9481, 2444, 2803, 2424, 2435, 2406, 2372, 1621, 2688, 2421, 2414, 2352, 2432, 2618, 3085, 2659, 2670, 2777, 2697, 2867, 2665, 2765,
			2742, 2640, 2676, 2679, 2968, 2722, 2724, 2408, 2382, 2420, 2149, 2352, 2399, 2529, 2431, 2512, 1906, 1889, 2364, 2790, 2634, 2709,
			2469, 1761, 2465, 2430, 2345, 2522, 2359, 2414, 2352, 1616, 1713, 2843, 2741, 2711, 2619, 2765, 2851, 2728, 2625, 2687},
	}
	tr := TrendOf(procs)
	require.LessOrEqual(t, tr.Z, -DriftZ)
	require.GreaterOrEqual(t, tr.Change, DriftChange)
	assert.False(t, tr.Drifts(), "%+v", tr)
	assert.True(t, Trend{Z: tr.Z, Change: -tr.Change, Processes: 3}.Drifts())
}
