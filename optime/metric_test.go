package optime

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseMetric(t *testing.T) {
	for _, m := range Metrics() {
		got, err := ParseMetric(m.String())
		require.NoError(t, err)
		assert.Equal(t, m, got)
	}
	_, err := ParseMetric("kld")
	assert.ErrorContains(t, err, `unknown metric "kld"`)
	assert.True(t, RMAD.Median())
	assert.True(t, RCIWMedian.Median())
	assert.False(t, CV.Median())
	assert.False(t, RMAD.Resampled())
	assert.True(t, RCIWMeanT.Resampled())
}

func TestInstabilityExact(t *testing.T) {
	// Population sd of 1..4 is √1.25; the mean is 2.5.
	assert.InDelta(t, math.Sqrt(1.25)/2.5, Instability(CV, []float64{4, 1, 3, 2}, 0, 0, nil), 1e-15)
	// Median 3, absolute deviations 2 1 0 1 97: their median is 1.
	assert.Equal(t, 1.0/3, Instability(RMAD, []float64{1, 2, 3, 4, 100}, 0, 0, nil))
	// Even count: median 2.5, deviations 1.5 .5 .5 1.5, median 1.
	assert.Equal(t, 1/2.5, Instability(RMAD, []float64{4, 1, 3, 2}, 0, 0, nil))
	assert.Equal(t, 2.5, RMAD.Average([]float64{4, 1, 3, 2}))
	assert.Equal(t, 2.5, CV.Average([]float64{4, 1, 3, 2}))
	assert.True(t, math.IsNaN(Instability(CV, nil, 0, 0, nil)))

	rng := rand.New(rand.NewPCG(1, 1))
	for _, m := range Metrics() {
		assert.Zero(t, Instability(m, []float64{7, 7, 7, 7}, 100, 0.99, rng), m.String())
	}
}

// On a large normal sample, the bootstrap interval widths approach their
// normal-theory values: 2·z·σ/√n for the mean and 2·z·√(π/2)·σ/√n for the
// median, z = 2.576 at 99%.
func TestInstabilityBootstrapWidths(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const n, mu, sigma = 2000, 100.0, 1.0
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = mu + sigma*rng.NormFloat64()
	}
	z := 2.5758293035489
	meanW := 2 * z * sigma / math.Sqrt(n) / mu
	medianW := meanW * math.Sqrt(math.Pi/2)
	assert.InEpsilon(t, meanW, Instability(RCIWMean, xs, 4000, 0.99, rng), 0.06)
	assert.InEpsilon(t, meanW, Instability(RCIWMeanT, xs, 4000, 0.99, rng), 0.06)
	assert.InEpsilon(t, medianW, Instability(RCIWMedian, xs, 4000, 0.99, rng), 0.12)
	// The median interval is the interval of the median, not of the
	// mean: on this sample it is clearly wider.
	assert.Greater(t, Instability(RCIWMedian, xs, 4000, 0.99, rng), 1.15*meanW)
}

// The bootstrap-t interval of three distinct values is unbounded: one
// resample in 27 repeats the smallest value three times.
func TestRCIWMeanTDegenerate(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	assert.True(t, math.IsInf(Instability(RCIWMeanT, []float64{10, 10.1, 10.2}, 10000, 0.99, rng), 1))
	// With 40 values a degenerate resample is (almost) impossible.
	xs := make([]float64, 40)
	for i := range xs {
		xs[i] = 100 + float64(i%7)
	}
	v := Instability(RCIWMeanT, xs, 10000, 0.99, rng)
	assert.False(t, math.IsInf(v, 0))
	assert.Greater(t, v, 0.0)
}

// Simulated coverage: the 99% percentile interval of the mean of 30
// normal values covers the true mean in about 99% of samples (a little
// less, as percentile intervals are narrow for small samples).
func TestRCIWMeanCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	const trials, n, mu = 400, 30, 50.0
	covered, halves := 0, 0.0
	xs := make([]float64, n)
	for range trials {
		sum := 0.0
		for i := range xs {
			xs[i] = mu + rng.NormFloat64()
			sum += xs[i]
		}
		mean := sum / n
		half := Instability(RCIWMean, xs, 1000, 0.99, rng) * mean / 2
		if math.Abs(mean-mu) <= half {
			covered++
		}
		halves += half
	}
	rate := float64(covered) / trials
	assert.Greater(t, rate, 0.96)
	// Nor too wide: the percentile interval's half-width is about
	// z(0.995)·s·√((n−1)/n)/√n, with E[s] = c4(30)·1 = 0.9914, so
	// 2.5758 × 0.9914 × 0.9832 / 5.4772 = 0.458 on average (its spread
	// over 400 trials is about 0.003).
	assert.InDelta(t, 0.458, halves/trials, 0.015)
}
