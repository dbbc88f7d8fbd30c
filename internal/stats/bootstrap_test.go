package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestQuantileType7(t *testing.T) {
	// R: quantile(c(1, 2, 4, 8, 16), c(0, 0.1, 0.5, 0.9, 1), type = 7)
	xs := []float64{1, 2, 4, 8, 16}
	for p, want := range map[float64]float64{0: 1, 0.1: 1.4, 0.5: 4, 0.9: 12.8, 1: 16} {
		assert.InDelta(t, want, Quantile(xs, p), 1e-12, "p=%v", p)
	}
}

func TestTailsMatchAllReplicates(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 5, 100, 1000, 10000, 10001} {
		sorted := make([]float64, n)
		for i := range sorted {
			sorted[i] = rng.NormFloat64()
		}
		slices.Sort(sorted)
		tails := TrimTails(sorted, 0.99)
		assert.Equal(t, n, tails.N)
		for _, conf := range []float64{0.99, 0.995, 0.999, 0.9999, 0.99999, 1} {
			want := PercentileCI(0, slices.Clone(sorted), conf)
			got := tails.Interval(0, conf)
			assert.Equal(t, want, got, "n=%d conf=%v", n, conf)
		}
		if n >= 1000 {
			assert.Less(t, len(tails.Low)+len(tails.High), n/40, "n=%d: tails keep too much", n)
		}
	}
}

func TestTailsRefuseLowerConfidence(t *testing.T) {
	sorted := make([]float64, 10000)
	for i := range sorted {
		sorted[i] = float64(i)
	}
	tails := TrimTails(sorted, 0.99)
	assert.Panics(t, func() { tails.Interval(0, 0.95) })
}

func TestConstantTreeIsExact(t *testing.T) {
	// 0.1 summed 75 times and divided by 75 is not 0.1 in floating point;
	// a constant sample's interval must be the value itself.
	vals := make([]float64, 15)
	for i := range vals {
		vals[i] = 0.1
	}
	tree := Node(Leaf(vals), Leaf(slices.Clone(vals)), Leaf(slices.Clone(vals)), Leaf(slices.Clone(vals)), Leaf(slices.Clone(vals)))
	iv := MeanCI(tree, 0.99, 1000, rand.New(rand.NewPCG(1, 1)))
	assert.Equal(t, Interval{Center: 0.1, Lo: 0.1, Hi: 0.1, Confidence: 0.99}, iv)

	r := RatioReplicates(tree, Leaf([]float64{0.2, 0.2}), 100, rand.New(rand.NewPCG(1, 1)))
	require.Len(t, r, 100)
	for _, x := range r {
		assert.Equal(t, 2.0, x)
	}
}

func TestRatioReplicatesOneConstantSide(t *testing.T) {
	// With a constant baseline, the ratio's replicates are the other
	// side's resampled means over the constant: their percentile
	// interval is MeanCI's over the same draws, divided by it.
	vary := Node(Leaf([]float64{10, 12, 11}), Leaf([]float64{13, 9, 10}), Leaf([]float64{12, 12, 14}))
	r := RatioReplicates(Leaf([]float64{2, 2, 2}), vary, 2000, rand.New(rand.NewPCG(7, 7)))
	m := MeanCI(vary, 0.99, 2000, rand.New(rand.NewPCG(7, 7)))
	iv := PercentileCI(0, r, 0.99)
	assert.InDelta(t, m.Lo/2, iv.Lo, 1e-12)
	assert.InDelta(t, m.Hi/2, iv.Hi, 1e-12)
}

func TestQuantileInfinite(t *testing.T) {
	inf := math.Inf(1)
	assert.Equal(t, -inf, Quantile([]float64{-inf, 1, 2, 3}, 0.1))
	assert.Equal(t, inf, Quantile([]float64{1, 2, 3, inf}, 0.9))
	assert.Equal(t, 2.5, Quantile([]float64{1, 2, 3, 4}, 0.5))
}

// TestMedian checks the selection against sorting on random inputs with
// ties.
func TestMedian(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n < 40; n++ {
		for range 50 {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = float64(rng.IntN(7))
			}
			s := slices.Clone(xs)
			slices.Sort(s)
			want := s[n/2]
			if n%2 == 0 {
				want = (s[n/2-1] + s[n/2]) / 2
			}
			require.Equal(t, want, Median(xs), "%v", s)
			require.Equal(t, want, MedianInPlace(xs), "%v", s)
		}
	}
	assert.True(t, math.IsNaN(Median(nil)))
}
