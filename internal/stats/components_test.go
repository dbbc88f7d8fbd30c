package stats

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Three processes of two slices, worked by hand as libkalibera's Data
// with reps [3, 2]: process means 11, 15, 10 and grand mean 12; within
// squares 2+2+2 over 3 degrees of freedom, S₁² = 2 (Si2(1)); S₂² =
// (1+9+4)/2 = 7 (Si2(2)); T₂² = 7 − 2/2 = 6 (Ti2(2)).
var handData = [][]float64{{10, 12}, {14, 16}, {9, 11}}

func TestFitKnownAnswer(t *testing.T) {
	e := FitComponents(handData)
	assert.Equal(t, 3, e.Processes)
	assert.InDelta(t, 2, e.Slices, 1e-12)
	assert.InDelta(t, 12, e.Mean, 1e-12)
	assert.InDelta(t, 2, e.S1, 1e-12)
	assert.InDelta(t, 7, e.S2, 1e-12)
	assert.InDelta(t, 6, e.T2, 1e-12)
	assert.False(t, e.Floored)
}

// handData's process mean has variance T₂² + S₁²/m = 6 + 1, of which 6
// lie between processes.
func TestBetweenShareKnownAnswer(t *testing.T) {
	assert.InDelta(t, 6.0/7, FitComponents(handData).BetweenShare(), 1e-12)
	assert.True(t, math.IsNaN(FitComponents([][]float64{{1}, {2}, {3}}).BetweenShare()), "no within variance: unknown")
	assert.True(t, math.IsNaN(FitComponents([][]float64{{1, 2}}).BetweenShare()), "one process: unknown")
}

func TestIntervalKnownAnswer(t *testing.T) {
	iv := FitComponents(handData).Interval(0.95)
	// t(0.975, 2) = 4.302652729911275 (any t table); half-width
	// 4.302652729911275·√(7/3) = 6.572411…, as libkalibera's confidence95.
	h := 4.302652729911275 * math.Sqrt(7.0/3)
	assert.InDelta(t, 12, iv.Center, 1e-12)
	assert.InDelta(t, 12-h, iv.Lo, 1e-9)
	assert.InDelta(t, 12+h, iv.Hi, 1e-9)
	assert.InDelta(t, h/12, iv.RelHalfWidth(), 1e-10)
	assert.InDelta(t, 0.547701, iv.RelHalfWidth(), 1e-6)
}

func TestUnequalSlicesUseHarmonicMean(t *testing.T) {
	// Means 2 and 4; within squares 2 + 8 = 10 over 1 + 2 degrees of
	// freedom; m = 2/(1/2 + 1/3) = 2.4; T₂² = 2 − (10/3)/2.4.
	e := FitComponents([][]float64{{1, 3}, {2, 4, 6}, nil})
	assert.Equal(t, 2, e.Processes, "an empty process is left out")
	assert.InDelta(t, 2.4, e.Slices, 1e-12)
	assert.InDelta(t, 10.0/3, e.S1, 1e-12)
	assert.InDelta(t, 2, e.S2, 1e-12)
	assert.InDelta(t, 2-(10.0/3)/2.4, e.T2, 1e-12)
}

func TestFloor(t *testing.T) {
	e := FitComponents([][]float64{{10, 10}, {10, 10}})
	assert.True(t, e.Floored)
	assert.InDelta(t, 1e-6, e.T2, 1e-18, "(1e-4 · mean)²")
	// Between-process spread below what the within noise explains.
	e = FitComponents([][]float64{{9, 11}, {11, 9}})
	assert.True(t, e.Floored, "S₂² = 0 < S₁²/m = 1")
}

func TestTooFewData(t *testing.T) {
	e := FitComponents(nil)
	assert.Equal(t, 0, e.Processes)
	assert.True(t, math.IsNaN(e.Interval(0.95).Lo))
	e = FitComponents([][]float64{{1, 2, 3}})
	assert.InDelta(t, 1, e.S1, 1e-12)
	assert.True(t, math.IsNaN(e.S2), "one process has no between variance")
	assert.True(t, math.IsNaN(e.Interval(0.95).RelHalfWidth()))
	assert.Equal(t, 0, e.ProcessesFor(0.02, 0.95, 3, 100))
	assert.Equal(t, 2, e.OptimalSlices(time.Second, time.Second, 2, 10), "no estimate: the lower clamp")
	e = FitComponents([][]float64{{1}, {2}})
	assert.True(t, math.IsNaN(e.S1), "single slices have no within variance")
}

func TestOptimalSlicesKnownAnswer(t *testing.T) {
	e := FitComponents(handData) // S₁² = 2, T₂² = 6
	ms := time.Millisecond
	// √(c₂·S₁²/(c₁·T₂²)), libkalibera's optimalreps(1, [c₂, c₁]):
	assert.Equal(t, 2, e.OptimalSlices(100*ms, 1200*ms, 1, 50), "√(12·2/6) = 2")
	assert.Equal(t, 3, e.OptimalSlices(100*ms, 2400*ms, 1, 50), "√8 = 2.83 rounds up")
	assert.Equal(t, 1, e.OptimalSlices(100*ms, 150*ms, 1, 50), "√0.5 = 0.71 rounds up to 1")
	assert.Equal(t, 2, e.OptimalSlices(100*ms, 150*ms, 2, 50), "clamped up")
	assert.Equal(t, 10, e.OptimalSlices(1*ms, 10*time.Second, 2, 10), "clamped down")
	floored := FitComponents([][]float64{{10, 11, 9}, {10, 9, 11}})
	assert.Equal(t, 20, floored.OptimalSlices(100*ms, 100*ms, 2, 20), "no between variance: as many slices as allowed")
}

func TestProcessesForKnownAnswer(t *testing.T) {
	e := FitComponents(handData)
	// Var(mean)/mean² = (6 + 2/2)/(144·n). ±5% at 95% needs
	// t(n−1)²/n ≤ 0.05²·144/7 = 0.0514286: n = 77 gives t(76) = 1.99167,
	// 1.99167²/77 = 0.05152 (too wide); n = 78 gives t(77) = 1.99125,
	// 1.99125²/78 = 0.05083.
	assert.Equal(t, 78, e.ProcessesFor(0.05, 0.95, 2, 1000))
	assert.LessOrEqual(t, e.PredictRelHalfWidth(0.95, 78, 2), 0.05)
	assert.Greater(t, e.PredictRelHalfWidth(0.95, 77, 2), 0.05)
	assert.Equal(t, 51, e.ProcessesFor(0.05, 0.95, 2, 50), "beyond the limit")
	// More slices per process shrink only the within share: m → ∞
	// leaves 6/144 per process, ±5% then needs 67.
	assert.Equal(t, 67, e.ProcessesFor(0.05, 0.95, 1e12, 1000))
	// The prediction at the data's own n and m is the interval itself.
	require.InDelta(t, e.Interval(0.95).RelHalfWidth(), e.PredictRelHalfWidth(0.95, 3, 2), 1e-12)
}

func TestPlanKnownAnswer(t *testing.T) {
	ms := time.Millisecond
	// Mean 100, S₁² = 36, T₂² = 0.01: ±3% at 95% needs
	// t(n−1)²·(0.01 + 36/m)/n ≤ 9. By hand with a t table: m = 2 needs 11
	// processes (cost 11·350 ms = 3850), m = 3 needs 8 (8·450 = 3600),
	// m = 4 needs 7 (3850), m = 5 needs 6 (3900), m = 20 needs 4 (8600).
	e := Components{Processes: 3, Slices: 5, Mean: 100, S1: 36, S2: 7.21, T2: 0.01}
	m, n, ok := e.Plan(0.03, 0.95, 4, 2, 20, 100, 100*ms, 150*ms)
	require.True(t, ok)
	assert.Equal(t, 3, m)
	assert.Equal(t, 8, n)
	// The Kalibera–Jones m* would be ⌈√(1.5·36/0.01)⌉ = 74, clamped to 20:
	// more precision per second, but at 4 processes more than the target.
	assert.Equal(t, 20, e.OptimalSlices(100*ms, 150*ms, 2, 20))

	// A stable benchmark: the minimum of processes binds, and the fewest
	// slices reach the target there.
	e = Components{Processes: 3, Slices: 5, Mean: 100, S1: 4, S2: 1.8, T2: 1}
	m, n, ok = e.Plan(0.03, 0.95, 4, 2, 20, 100, 100*ms, 150*ms)
	require.True(t, ok)
	assert.Equal(t, 2, m)
	assert.Equal(t, 4, n)

	// Out of reach within the limit.
	e = Components{Processes: 3, Slices: 5, Mean: 100, S1: 4, S2: 400, T2: 400}
	_, _, ok = e.Plan(0.03, 0.95, 4, 2, 20, 10, 100*ms, 150*ms)
	assert.False(t, ok)
	_, _, ok = e.Plan(0.03, 0.95, 4, 2, 20, 10, 0, 150*ms)
	assert.False(t, ok, "no costs")
}
