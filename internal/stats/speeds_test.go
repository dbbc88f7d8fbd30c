package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/stat"
)

// Three processes at about 450 and one at 1,370, each with its slices
// within 5%, ran at two speeds; the same four processes' slices spread as
// widely as their means did not.
func TestTwoSpeeds(t *testing.T) {
	procs := [][]float64{{440, 452, 447}, {463, 470, 455}, {449, 445, 451}, {1372, 1330, 1391}}
	s := SpeedsOf(procs)
	assert.True(t, s.Two())
	assert.Equal(t, []float64{stat.Mean(procs[0], nil), stat.Mean(procs[2], nil), stat.Mean(procs[1], nil)}, s.Fast)
	assert.Equal(t, []float64{stat.Mean(procs[3], nil)}, s.Slow)
	assert.InDelta(t, stat.Mean(procs[3], nil)/stat.Mean(procs[1], nil), s.Gap, 1e-12)

	wide := [][]float64{{440, 1000, 447}, {463, 1400, 455}, {449, 445, 900}, {1372, 600, 1391}}
	assert.False(t, SpeedsOf(wide).Two(), "slices as far apart as the processes")
	assert.False(t, SpeedsOf(procs[:2]).Two(), "two processes are too few")
	assert.False(t, SpeedsOf([][]float64{{100}, {150}, {220}, {330}}).Two(), "evenly spread: no gap stands out")
	assert.False(t, SpeedsOf([][]float64{{100}, {101}, {130}}).Two(), "a gap of 30%")
	assert.False(t, SpeedsOf([][]float64{{100}, {101}, {180}}).Two(), "three processes, one apart by less than twice")
	assert.True(t, SpeedsOf([][]float64{{100}, {101}, {210}}).Two(), "three processes, one apart by twice")
	assert.True(t, SpeedsOf([][]float64{{100}, {101}, {100}, {180}}).Two(), "four processes, one apart by 1.8")
}

// How often processes of one spread read as two speeds by chance: means
// log-normal with a spread of 10% and 20%, 3 slices each within 2%, 20,000
// benchmarks each (fixed seed).
func TestTwoSpeedsByChance(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rate := func(spread float64, processes int) float64 {
		const n = 20000
		two := 0
		for range n {
			procs := make([][]float64, processes)
			for i := range procs {
				m := math.Exp(spread * rng.NormFloat64())
				for range 3 {
					procs[i] = append(procs[i], m*math.Exp(0.02*rng.NormFloat64()))
				}
			}
			if SpeedsOf(procs).Two() {
				two++
			}
		}
		return float64(two) / n
	}
	assert.Less(t, rate(0.10, 3), 0.002)
	assert.Less(t, rate(0.10, 4), 0.002)
	assert.Less(t, rate(0.20, 3), 0.01)
	assert.Less(t, rate(0.20, 4), 0.06)
}
