package history

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// knownX is a small series whose statistics were computed by hand and by
// Apache Otava 0.8.0 with scipy.
var knownX = []float64{1, 2, 1.5, 5, 6, 5.5, 5.2}

func ones(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = 1
	}
	return w
}

// TestEnergyKnownAnswer: Q̂([1 2 1.5], [5 6 5.5 5.2]) = 2/7·47.1 −
// 2·4/(7·2)·2 − 2·3/(7·3)·3.3 = 11.371428…, the best split, as Otava's
// PairDistanceCalculator gives it.
func TestEnergyKnownAnswer(t *testing.T) {
	e := newEnergy(knownX, ones(len(knownX)))
	assert.InDelta(t, 11.371428571428571, e.q(0, 3, 7), 1e-12)
	tau, q, ok := e.candidate(0, 7, 1)
	require.True(t, ok)
	assert.Equal(t, 3, tau)
	assert.InDelta(t, 11.371428571428571, q, 1e-12)
}

// TestEnergyEqualWeights: weights that are all c scale the statistic by
// c and leave the best split where it was.
func TestEnergyEqualWeights(t *testing.T) {
	w := make([]float64, len(knownX))
	for i := range w {
		w[i] = 37
	}
	assert.InEpsilon(t, 37*newEnergy(knownX, ones(len(knownX))).q(0, 3, 7), newEnergy(knownX, w).q(0, 3, 7), 1e-12)
	tau, _, _ := newEnergy(knownX, w).candidate(0, 7, 1)
	assert.Equal(t, 3, tau)
}

// TestStudentKnownAnswer: Otava's test of the split at 3, by scipy's
// ttest_ind_from_stats with numpy's population standard deviations:
// t = −13.190379759182202, p = 4.473404420858849e-05.
func TestStudentKnownAnswer(t *testing.T) {
	st := newStudent(knownX, 0.95).test(0, 3, 7)
	assert.InEpsilon(t, 4.473404420858849e-05, st.p, 1e-9)
	assert.InDelta(t, 1.5, st.before, 1e-12)
	assert.InDelta(t, 5.425, st.after, 1e-12)
}

// TestWeightedEqualWeightsKnownAnswer: with equal weights and a spread
// above the model's, the weighted test is Student's pooled t-test on
// sample variances: scipy's ttest_ind([10 20 15], [50 60 55 52]) gives
// p = 0.00010244540043579622.
func TestWeightedEqualWeightsKnownAnswer(t *testing.T) {
	x := []float64{10, 20, 15, 50, 60, 55, 52}
	st := newWeighted(x, ones(len(x)), 0.95).test(0, 3, 7)
	assert.InEpsilon(t, 0.00010244540043579622, st.p, 1e-9)
}

// TestVariancesKnownAnswer: points alternating by 0.01 on the log scale
// with no interval of their own: the median absolute difference 0.01
// gives τ = 0.01/0.6745/√2.
func TestVariancesKnownAnswer(t *testing.T) {
	x := []float64{0, 0.01, 0, 0.01, 0}
	ps := make([]Point, len(x))
	for i := range ps {
		ps[i] = Point{Mean: math.Exp(x[i]), SE: math.NaN()}
	}
	v := variances(ps, x)
	want := math.Pow(0.01/0.6744897501960817, 2) / 2
	for _, vi := range v {
		assert.InEpsilon(t, want, vi, 1e-12)
	}
}

// TestWeightedIgnoresWideIntervals: three commits far off the level with
// intervals a hundred times as wide as the rest are noise to the
// weighted method, and two change points to Otava's, which cannot tell.
func TestWeightedIgnoresWideIntervals(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	s := &Series{Key: Key{Benchmark: "BenchmarkX", Unit: "ns/op"}}
	for i := range 80 {
		m, se := 100*(1+0.002*rng.NormFloat64()), 0.2
		if i >= 40 && i < 43 {
			m, se = 112, 20
		}
		s.Points = append(s.Points, Point{Commit: string(rune('a' + i%26)), Time: time.Unix(int64(i), 0), Mean: m, SE: se, Lo: m - 2*se, Hi: m + 2*se, Confidence: 0.95, Processes: 10})
	}
	assert.Empty(t, Detect(s, DefaultOptions()))
	assert.NotEmpty(t, Detect(s, Options{Method: MethodOtava}))
}

// TestDetectNoChangeFixedSeed: a thousand commits of quiet noise raise
// at most one change point.
func TestDetectNoChangeFixedSeed(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	tr := synth("null", 1000, nil, nil, noise{Run: 0.005, Process: 0.02, Processes: 10}, rng)
	assert.LessOrEqual(t, len(Detect(tr.Series, DefaultOptions())), 1)
}

// TestDetectConstantCounts: allocations per op that step from 10 to 11
// are a change however few the points, and a constant count none.
func TestDetectConstantCounts(t *testing.T) {
	s := &Series{Key: Key{Benchmark: "B", Unit: UnitAllocs}}
	for i := range 10 {
		v := 10.0
		if i >= 6 {
			v = 11
		}
		s.Points = append(s.Points, Point{Commit: string(rune('a' + i)), Mean: v, SE: math.NaN(), Lo: math.NaN(), Hi: math.NaN()})
	}
	cps := Detect(s, DefaultOptions())
	require.Len(t, cps, 1)
	assert.Equal(t, 6, cps[0].Index)
	assert.InDelta(t, 0.1, cps[0].Change, 1e-9)
	assert.True(t, cps[0].Regression())
	for i := range s.Points {
		s.Points[i].Mean = 10
	}
	assert.Empty(t, Detect(s, DefaultOptions()))
	// Bytes per op that move by a tenth of a byte, as a rare allocation
	// makes them, are no change.
	s.Key.Unit = UnitBytes
	for i := range s.Points {
		s.Points[i].Mean = 896
		if i >= 6 {
			s.Points[i].Mean = 896.1
		}
	}
	assert.Empty(t, Detect(s, DefaultOptions()))
	assert.Empty(t, Detect(s, Options{Method: MethodOtava}))
}

func TestFirstPass(t *testing.T) {
	assert.InDelta(t, 0.01, firstPass(0.001), 1e-15)
	assert.InDelta(t, 0.2, firstPass(0.1), 1e-15)
	assert.InDelta(t, 0.7, firstPass(0.7), 1e-15)
}
