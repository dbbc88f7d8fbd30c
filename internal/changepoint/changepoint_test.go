package changepoint

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// optimal returns the least penalized cost of xs by exhaustive optimal
// partitioning, the O(n²) recursion PELT prunes (Jackson et al. 2005).
func optimal(xs []float64, pen float64, minSeg int) float64 {
	c := newCost(xs)
	n := len(xs)
	f := make([]float64, n+1)
	f[0] = -pen
	for t := 1; t <= n; t++ {
		f[t] = math.Inf(1)
		for s := 0; s+minSeg <= t; s++ {
			if s != 0 && s < minSeg {
				continue
			}
			f[t] = min(f[t], f[s]+c.seg(s, t)+pen)
		}
	}
	return f[n]
}

func penalized(xs []float64, ends []int, pen float64) float64 {
	return newCost(xs).total(ends) + pen*float64(len(ends)-1)
}

// TestPELTIsOptimal checks PELT's pruning against exhaustive search:
// on random short series with changes, the segmentation it returns has
// the least penalized cost of all.
func TestPELTIsOptimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := range 40 {
		n := 20 + rng.IntN(60)
		xs := make([]float64, n)
		level, sd := 10.0, 1.0
		for i := range xs {
			if rng.IntN(15) == 0 {
				level, sd = 10+5*rng.Float64(), 0.2+rng.Float64()
			}
			xs[i] = level + sd*rng.NormFloat64()
		}
		for _, minSeg := range []int{2, 5} {
			for _, pen := range []float64{3, 10, 40} {
				ends := PELT(xs, pen, minSeg)
				want := optimal(xs, pen, minSeg)
				assert.InDelta(t, want, penalized(xs, ends, pen), 1e-6*math.Abs(want), "trial %d minSeg %d pen %v", trial, minSeg, pen)
				start := 0
				for _, e := range ends {
					assert.GreaterOrEqual(t, e-start, minSeg, "trial %d: segment [%d,%d)", trial, start, e)
					start = e
				}
				assert.Equal(t, n, ends[len(ends)-1])
			}
		}
	}
}

// threeLevels returns 300 values: 100 at mean 10 sd 1, 100 at mean 12
// sd 1, and 100 at mean 12 sd 3, from a fixed seed.
func threeLevels() []float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, 300)
	for i := range xs {
		switch {
		case i < 100:
			xs[i] = 10 + rng.NormFloat64()
		case i < 200:
			xs[i] = 12 + rng.NormFloat64()
		default:
			xs[i] = 12 + 3*rng.NormFloat64()
		}
	}
	return xs
}

// TestPELTFindsKnownChanges finds a change in mean and one in variance
// where they were put, at Barrett et al.'s penalty 15·log n.
func TestPELTFindsKnownChanges(t *testing.T) {
	xs := threeLevels()
	ends := PELT(xs, 15*math.Log(300), DefaultMinSegment)
	require.Len(t, ends, 3)
	assert.InDelta(t, 100, ends[0], 3)
	assert.InDelta(t, 200, ends[1], 10)
	assert.Equal(t, 300, ends[2])
	// The same seed gives the same answer, exactly.
	assert.Equal(t, []int{102, 204, 300}, ends)
}

func TestPELTEdges(t *testing.T) {
	assert.Nil(t, PELT(nil, 10, 2))
	assert.Equal(t, []int{3}, PELT([]float64{1, 2, 3}, 10, 2))
	// Ties: a run of equal values costs its rounding variance, not −∞.
	xs := []float64{5, 5, 5, 5, 5, 5, 7, 7, 7, 7, 7, 7}
	assert.Equal(t, []int{6, 12}, PELT(xs, 5, 2))
	flat := []float64{3, 3, 3, 3, 3, 3}
	assert.Equal(t, []int{6}, PELT(flat, 1, 2))
}

// TestCROPSPath checks the path's invariants on a series with a known
// structure: change counts fall strictly with the penalty, each
// segmentation is what PELT finds inside its penalty interval, and the
// ends of the range give the most and the fewest changes.
func TestCROPSPath(t *testing.T) {
	xs := threeLevels()
	logn := math.Log(float64(len(xs)))
	path := CROPS(xs, 4*logn, 1e5*logn, DefaultMinSegment, true)
	require.GreaterOrEqual(t, len(path), 3)
	assert.Equal(t, 0, path[len(path)-1].Changes())
	for k := range path {
		if k > 0 {
			assert.Less(t, path[k].Changes(), path[k-1].Changes())
			assert.Greater(t, path[k].Penalty, path[k-1].Penalty)
		}
		hi := 1e5 * logn
		if k+1 < len(path) {
			hi = path[k+1].Penalty
		}
		mid := (path[k].Penalty + hi) / 2
		assert.Equal(t, path[k].Ends, PELT(xs, mid, DefaultMinSegment), "segmentation %d at penalty %v", k, mid)
	}
}

// TestElbow checks the Kneedle choice on paths worked by hand.
func TestElbow(t *testing.T) {
	seg := func(pen float64, changes int) Segmentation {
		ends := make([]int, changes+1)
		for i := range ends {
			ends[i] = i + 1
		}
		return Segmentation{Penalty: pen, Ends: ends}
	}
	// From the greatest penalty down: x = 100, 50, 20, 10, 5 (normalized
	// 1, .463, .158, .053, 0) and changes 0, 1, 2, 6, 20 (flipped and
	// normalized 1, .95, .9, .7, 0). The difference curve 0, .487, .742,
	// .647, 0 peaks at penalty 20, and falls below its threshold
	// .742 − 1/4 right after: the elbow is 20.
	path := []Segmentation{seg(5, 20), seg(10, 6), seg(20, 2), seg(50, 1), seg(100, 0)}
	pen, ok := Elbow(path)
	assert.True(t, ok)
	assert.Equal(t, 20.0, pen)

	// A straight line has no elbow: its difference curve is flat at zero
	// and kneed stops at its first point.
	line := []Segmentation{seg(1, 3), seg(2, 2), seg(3, 1), seg(4, 0)}
	_, ok = Elbow(line)
	assert.False(t, ok)

	// One segmentation is its own elbow; none has none.
	pen, ok = Elbow([]Segmentation{seg(7, 0)})
	assert.True(t, ok)
	assert.Equal(t, 7.0, pen)
	_, ok = Elbow(nil)
	assert.False(t, ok)
}

// TestDetect checks that Detect's elbow segmentation of a warmup series
// finds the end of the warmup and the later step, and that a fixed
// penalty is used as given.
func TestDetect(t *testing.T) {
	xs := warmupSeries(3000, 3)
	r := Detect(xs, Options{})
	require.NotEmpty(t, r.Path)
	assert.True(t, r.Elbow)
	assert.Equal(t, 3000, r.Ends[len(r.Ends)-1])
	near := func(want int) bool {
		for _, e := range r.Ends {
			if math.Abs(float64(e-want)) <= 60 {
				return true
			}
		}
		return false
	}
	assert.True(t, near(1800), "the step at 1800: %v", r.Ends)
	assert.True(t, near(300) || near(200) || near(100), "the end of warmup: %v", r.Ends)

	f := Detect(threeLevels(), Options{Penalty: 15 * math.Log(300)})
	assert.Equal(t, []int{102, 204, 300}, f.Ends)
	assert.Nil(t, f.Path)
	assert.False(t, f.Elbow)
}
