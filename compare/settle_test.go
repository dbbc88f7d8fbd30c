package compare

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSettledKnownAnswers(t *testing.T) {
	base := []float64{100, 101, 99}
	// Welch on these: ratio 1.3, standard error 1.3·√(1/30000 + 1/50700)
	// = 0.00947 with 3.75 degrees of freedom; at 99% over 5 looks (each
	// at 99.8%) the t quantile is 7.67, so the interval is [1.227, 1.373].
	assert.True(t, Settled(base, []float64{130, 131, 129}, 0.03, 0.99, 5), "a clear 30% regression")
	assert.True(t, Settled(base, []float64{130, 131, 129}, 0.227, 0.99, 5), "the interval starts at +22.73%")
	assert.False(t, Settled(base, []float64{130, 131, 129}, 0.228, 0.99, 5))
	assert.True(t, Settled(base, []float64{70, 71, 69}, 0.03, 0.99, 5), "a clear 30% improvement")
	assert.False(t, Settled(base[:2], []float64{130, 131}, 0.03, 0.99, 5), "two iterations a side are too few")
	assert.False(t, Settled(base, []float64{103, 104, 102}, 0.03, 0.99, 5), "3% is at the threshold, not certainly beyond it")
	assert.False(t, Settled(base, []float64{100, 102, 98}, 0, 0.99, 5), "no change is never settled")
	assert.False(t, Settled(base, []float64{130, 131, 129}, 0.25, 0.99, 5), "the interval reaches below +25%")
	// The interval must clear the threshold, not only exclude 1: with a
	// 20% threshold, a 22% change measured this precisely is not settled
	// while one of 40% is.
	assert.False(t, Settled(base, []float64{122, 123, 121}, 0.20, 0.99, 5))
	assert.True(t, Settled(base, []float64{140, 141, 139}, 0.20, 0.99, 5))
}

// simulateMeans draws n iteration means around mu with process-to-process
// lognormal noise sd.
func simulateMeans(rng *rand.Rand, mu float64, n int, sd float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = mu * math.Exp(rng.NormFloat64()*sd)
	}
	return out
}

// Looking after every iteration must not make an unchanged benchmark look
// settled: over 3, 4 and 5 iterations a side, with no threshold at all
// (the hardest case), the chance that any look settles an A/A pair stays
// within the 1% the Bonferroni correction over 5 looks promises. A real
// change of 25% under 2% process noise mostly settles within 4 of the 5
// iterations of the default cap.
func TestSettledSequentialRates(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 21))
	const trials = 20000
	falseSettled := 0
	settledAt := map[int]int{}
	for range trials {
		a, b := simulateMeans(rng, 1000, 5, 0.02), simulateMeans(rng, 1000, 5, 0.02)
		for n := SettleMinIterations; n <= 5; n++ {
			if Settled(a[:n], b[:n], 0, 0.99, 5) {
				falseSettled++
				break
			}
		}
		a, b = simulateMeans(rng, 1000, 5, 0.02), simulateMeans(rng, 1250, 5, 0.02)
		for n := SettleMinIterations; n <= 5; n++ {
			if Settled(a[:n], b[:n], 0.03, 0.99, 5) {
				settledAt[n]++
				break
			}
		}
	}
	share := func(k int) float64 { return float64(k) / trials }
	t.Logf("A/A settled in %.2f%% of pairs; +25%% settled at 3 iterations in %.1f%%, at 4 in %.1f%%, at 5 in %.1f%%",
		100*share(falseSettled), 100*share(settledAt[3]), 100*share(settledAt[4]), 100*share(settledAt[5]))
	assert.LessOrEqual(t, share(falseSettled), 0.01)
	assert.Greater(t, share(settledAt[3]), 0.5)
	assert.Greater(t, share(settledAt[3]+settledAt[4]), 0.9)
}
