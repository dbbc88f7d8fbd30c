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

// TestMeanCIKnownAnswer: the exact distribution of a hierarchical
// bootstrap mean over a small tree of three levels, counted out by
// enumerating every resample (2 children drawn of 2 at each inner node, 2
// values of 2 at each leaf: 4 × 4² × 4⁴ = 16384 equally likely draws), has
// its 5% quantile at 2.125 (its CDF jumps from 0.04089 to 0.05505 there)
// and its 95% quantile at 11.125 (0.94501 to 0.95624). With 100000
// resamples the empirical CDF is within 0.0007 (one standard error) of
// the exact one, so the 90% interval's ends land on those atoms; the
// center is the plain mean, 52/8. The enumeration, in Python with exact
// fractions (Counter, product and F from collections, itertools and
// fractions), then the first atom whose CDF passes each quantile:
//
//	def dist(t):  # the distribution of a resample's sum, and its count
//	    if all(not isinstance(x, list) for x in t):
//	        c = Counter()
//	        for pick in product(t, repeat=len(t)):
//	            c[sum(pick)] += F(1, len(t)**len(t))
//	        return c, len(t)
//	    k, subs = len(t), [dist(s) for s in t]
//	    c = Counter()
//	    for pick in product(range(k), repeat=k):
//	        acc = Counter({0: F(1)})
//	        for i in pick:
//	            nxt = Counter()
//	            for s, p in acc.items():
//	                for s2, p2 in subs[i][0].items():
//	                    nxt[s + s2] += p * p2
//	            acc = nxt
//	        for s, p in acc.items():
//	            c[s] += p * F(1, k**k)
//	    return c, subs[0][1] * k
//	c, n = dist([[[1, 2], [3, 5]], [[8, 9], [10, 14]]])
func TestMeanCIKnownAnswer(t *testing.T) {
	tree := Node(Node(Leaf([]float64{1, 2}), Leaf([]float64{3, 5})), Node(Leaf([]float64{8, 9}), Leaf([]float64{10, 14})))
	iv := MeanCI(tree, 0.90, 100000, rand.New(rand.NewPCG(5, 5)))
	assert.Equal(t, 6.5, iv.Center)
	assert.InDelta(t, 2.125, iv.Lo, 1e-12)
	assert.InDelta(t, 11.125, iv.Hi, 1e-12)
}

// TestRatioCIKnownAnswer: as TestMeanCIKnownAnswer, for the ratio of
// b = {{4, 6}, {5, 9}} (two levels, 4 × 4² = 64 draws) over a = {2, 3, 5}
// (27 draws), each resampled on its own. The exact distribution of
// mean(b*)/mean(a*) has its 5% quantile at 15/13 (its CDF jumps from
// 0.04225 to 0.06134 there) and its 95% quantile at 3 (0.93866 to
// 0.97280); the center is 6/(10/3) = 1.8. The same enumeration:
//
//	ca, na = dist([2, 3, 5]); cb, nb = dist([[4, 6], [5, 9]])
//	for sa, pa in ca.items():
//	    for sb, pb in cb.items():
//	        c[F(sb, nb) / F(sa, na)] += pa * pb
func TestRatioCIKnownAnswer(t *testing.T) {
	a := Leaf([]float64{2, 3, 5})
	b := Node(Leaf([]float64{4, 6}), Leaf([]float64{5, 9}))
	iv := RatioCI(a, b, 0.90, 100000, rand.New(rand.NewPCG(6, 6)))
	assert.InDelta(t, 1.8, iv.Center, 1e-12)
	assert.InDelta(t, 15.0/13, iv.Lo, 1e-12)
	assert.InDelta(t, 3.0, iv.Hi, 1e-12)
}
