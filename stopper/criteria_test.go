package stopper

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
)

func TestCVOf(t *testing.T) {
	// sd = sqrt(2.5) with n−1, mean 3.
	assert.InDelta(t, math.Sqrt(2.5)/3, CVOf([]float64{1, 2, 3, 4, 5}), 1e-15)
	assert.InDelta(t, 0.5270462766947299, CVOf([]float64{5, 4, 3, 2, 1}), 1e-15)
	assert.InDelta(t, math.Sqrt(2.5)/3, CVOf([]float64{-1, -2, -3, -4, -5}), 1e-15, "negative mean: |mean|")
	assert.Equal(t, 0.0, CVOf([]float64{7, 7, 7}), "constant")
	assert.Equal(t, 0.0, CVOf([]float64{0, 0}), "zeros")
	assert.True(t, math.IsInf(CVOf([]float64{-1, 1}), 1), "zero mean, varying")
	assert.True(t, math.IsNaN(CVOf([]float64{1})), "one value")
	assert.True(t, math.IsNaN(CVOf(nil)), "no value")
	assert.True(t, math.IsNaN(CVOf([]float64{1, math.NaN(), 3})), "NaN")
}

func TestRCIWOfKnownAnswers(t *testing.T) {
	rng := func() *rand.PCG { return rand.NewPCG(1, 2) }
	x := []float64{1, 2, 3, 4, 5}
	// The exact value of this seed: it pins the resampling sequence.
	assert.InDelta(t, 1.0003333333333333, rciwOf(stats.Leaf(x), 1000, rng()), 1e-12)
	assert.Equal(t, rciwOf(stats.Leaf(x), 1000, rng()), rciwOf(stats.Leaf(x), 1000, rng()), "same seed, same value")

	// Large normal sample: 2·z(0.995)·σ/(√n·μ) = 2·2.5758·1/(√4000·100).
	r := rand.New(rng())
	big := make([]float64, 4000)
	for i := range big {
		big[i] = 100 + r.NormFloat64()
	}
	want := 2 * 2.5758293035489 / math.Sqrt(4000) / 100
	assert.InEpsilon(t, want, rciwOf(stats.Leaf(big), 2000, rng()), 0.05)

	assert.Equal(t, 0.0, rciwOf(stats.Leaf([]float64{3, 3, 3}), 100, rng()), "constant")
	assert.Equal(t, 0.0, rciwOf(stats.Leaf([]float64{0, 0, 0}), 100, rng()), "zeros")
	assert.True(t, math.IsNaN(rciwOf(stats.Leaf([]float64{3}), 100, rng())), "one value")
	assert.True(t, math.IsNaN(rciwOf(nil, 100, rng())), "no tree")
	assert.True(t, math.IsNaN(rciwOf(stats.Leaf([]float64{1, math.NaN()}), 100, rng())), "NaN")
}

// The 99% interval must cover the true mean 99% of the time. 1000 trials
// give a standard error of 0.3 points.
func TestRCIWCoverageFlat(t *testing.T) {
	const trials, n, mu = 1000, 500, 50.0
	src := rand.NewPCG(7, 7)
	rng := rand.New(src)
	var r resampler
	xs := make([]float64, n)
	covered := 0
	for range trials {
		for i := range xs {
			xs[i] = mu + 5*rng.NormFloat64()
		}
		if ciOf(&r, stats.Leaf(xs), src).Contains(mu) {
			covered++
		}
	}
	cov := float64(covered) / trials
	t.Logf("flat coverage %.4f", cov)
	assert.InDelta(t, 0.99, cov, 0.01)
}

// Nested data: 30 iterations of 20 slices, each iteration with its own
// offset. Resampling iterations then slices covers near 99% (the percentile
// method's small-sample shortfall at 30 iterations is about 0.7 points);
// resampling slices alone ignores the iteration offsets and covers far less.
func TestRCIWCoverageHierarchical(t *testing.T) {
	const trials, iters, slices, mu = 400, 30, 20, 100.0
	src := rand.NewPCG(8, 8)
	rng := rand.New(src)
	var r resampler
	hier, flat := 0, 0
	for range trials {
		root := &stats.Tree{}
		var all []float64
		for range iters {
			off := 2 * rng.NormFloat64()
			leaf := make([]float64, slices)
			for j := range leaf {
				leaf[j] = mu + off + rng.NormFloat64()
			}
			root.Children = append(root.Children, stats.Leaf(leaf))
			all = append(all, leaf...)
		}
		if ciOf(&r, root, src).Contains(mu) {
			hier++
		}
		if ciOf(&r, stats.Leaf(all), src).Contains(mu) {
			flat++
		}
	}
	h, f := float64(hier)/trials, float64(flat)/trials
	t.Logf("hierarchical coverage %.4f, flat %.4f", h, f)
	assert.InDelta(t, 0.985, h, 0.02)
	assert.Less(t, f, 0.6)
}

// ciOf returns the interval behind r.rciw, for coverage tests.
func ciOf(r *resampler, t *stats.Tree, src *rand.PCG) stats.Interval {
	w := r.rciw(t, 1000, src)
	sum, n, _ := sumTree(t)
	mean := sum / float64(n)
	// r.means holds the sorted replicates of the last call.
	iv := stats.PercentileCI(mean, r.means, Confidence)
	if math.Abs(iv.RelWidth()-w) > 1e-12 {
		panic("ciOf out of step with rciw")
	}
	return iv
}

func TestKLDOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	norm := func(n int, mu float64) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = mu + rng.NormFloat64()
		}
		return xs
	}
	a := norm(500, 0)
	assert.Equal(t, 1.0, KLDOf(a, a), "identical samples")
	assert.InDelta(t, 1, KLDOf(a[:499], a), 1e-4, "one more value")
	assert.Less(t, KLDOf(a, norm(500, 5)), 0.05, "clearly shifted")
	assert.Equal(t, 0.0, KLDOf(a, norm(500, 20)), "disjoint")

	// Known answer: two large unit normal samples 0.1 apart. Their kernel
	// estimates are normal with variance 1+h², so J ≈ 0.1²/((1+h²)·ln 2) and
	// the probability ≈ 0.9905 at n = 50000 (h = 0.121).
	big0, big1 := norm(50000, 0), norm(50000, 0.1)
	h := 1.06 * math.Pow(50000, -0.2)
	want := math.Exp2(-0.01 / ((1 + h*h) * math.Ln2))
	assert.InDelta(t, want, KLDOf(big0, big1), 0.004)

	assert.Equal(t, 1.0, KLDOf([]float64{4, 4, 4}, []float64{4, 4, 4, 4}), "one constant")
	assert.Equal(t, 0.0, KLDOf([]float64{4, 4, 4}, []float64{5, 5, 5}), "two constants")
	assert.Equal(t, 1.0, KLDOf([]float64{0, 0}, []float64{0, 0, 0}), "zeros")
	// A constant d1 takes d2's bandwidth. Known answer from scipy: d2's
	// quartiles (R type 4, gonum's LinInterp) are 4 and 4.25, so the grid
	// spans [3.625, 4.625] and h = 1.06 × min(sd, 0.25/1.34) × 6^−0.2 =
	// 0.138201; the integral of (p−q)·log2(p/q) over the grid, p and q the
	// two kernel densities with that h, is 0.931928 and 2^−J = 0.524157.
	// The criterion's sum over 1000 strips comes within 0.001 of it.
	//
	//	d1, d2 = np.array([4.]*4), np.array([4, 4, 4, 4, 4.5, 5])
	//	p = lambda x: stats.norm.pdf(x, d1, h).mean()
	//	q = lambda x: stats.norm.pdf(x, d2, h).mean()
	//	J, _ = integrate.quad(lambda x: (p(x)-q(x))*np.log2(p(x)/q(x)), 3.625, 4.625)
	assert.InDelta(t, 0.524157, KLDOf([]float64{4, 4, 4, 4}, []float64{4, 4, 4, 4, 4.5, 5}), 0.002, "constant d1 takes d2's bandwidth")
	assert.True(t, math.IsNaN(KLDOf([]float64{1}, []float64{1, 2})), "one value")
	assert.True(t, math.IsNaN(KLDOf([]float64{1, math.NaN()}, []float64{1, 2})), "NaN")
}

// The binned density must match the direct kernel sum.
func TestKDEBinningExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{10, 100, 1000} {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = 1000 + 30*rng.ExpFloat64()
		}
		var k kde
		k.s1 = sortedCopy(nil, xs)
		lo, hi, iqr := fences(k.s1)
		h := bandwidth(xs, iqr)
		step := (hi - lo) / (kldStrips - 1)
		got := k.density(nil, k.s1, h, lo, step)
		peak := slices.Max(got)
		for _, i := range []int{0, 1, 100, 500, 900, 999} {
			x := lo + float64(i)*step
			want := 0.0
			for _, v := range xs {
				z := (v - x) / h
				want += math.Exp(-z*z/2) / (h * math.Sqrt(2*math.Pi))
			}
			want /= float64(n)
			require.InDelta(t, want, got[i], 1e-3*peak, "n=%d point %d", n, i)
		}
	}
}

func TestStableFunctions(t *testing.T) {
	assert.True(t, StableVar([]float64{0.10, 0.105, 0.11}, 0.01))
	assert.False(t, StableVar([]float64{0.10, 0.105, 0.111}, 0.01))
	assert.False(t, StableVar([]float64{0.1}, 1), "one value")
	assert.False(t, StableVar(nil, 1), "no value")
	assert.False(t, StableVar([]float64{0.1, math.NaN()}, 1), "NaN")
	assert.False(t, StableVar([]float64{math.Inf(1), math.Inf(1)}, 1), "Inf − Inf")
	assert.True(t, StableVar([]float64{0, 0}, 0), "zeros at t = 0")

	assert.True(t, StableProb([]float64{0.995, 0.99, 0.996}, 0.99))
	assert.False(t, StableProb([]float64{0.999, 0.97}, 0.99), "mean 0.9845")
	assert.False(t, StableProb([]float64{0.99}, 0.99), "strictly above")
	assert.False(t, StableProb(nil, 0.5))
	assert.False(t, StableProb([]float64{1, math.NaN()}, 0.5))
}

func TestWarmupWindow(t *testing.T) {
	xs := []float64{9, 1, 2, 3, 4, 5}
	cv := evaluator{def: CV.spec()}
	assert.Empty(t, cv.warmupWindow(nil, xs[:4], 5), "fewer values than the window")
	got := cv.warmupWindow(nil, xs, 5)
	// The window is the last 5 values; elements over its prefixes of 2..5.
	require.Len(t, got, 4)
	assert.Equal(t, CVOf([]float64{1, 2}), got[0])
	assert.Equal(t, CVOf([]float64{1, 2, 3, 4, 5}), got[3])

	kl := evaluator{def: KLD.spec()}
	got = kl.warmupWindow(nil, xs, 5)
	require.Len(t, got, 3)
	assert.Equal(t, KLDOf([]float64{1, 2}, []float64{1, 2, 3}), got[0])

	rc := evaluator{def: RCIW.spec(), n: 200, rng: rand.NewPCG(1, 1)}
	assert.Len(t, rc.warmupWindow(nil, xs, 3), 2)
}
