package changepoint

import (
	"math/rand/v2"
	"testing"
)

// warmupSeries returns n values that fall from 1.3 to 1 over the first
// tenth and then hold, with 1% normal noise and a 2% step at 60%.
func warmupSeries(n int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	xs := make([]float64, n)
	for i := range xs {
		m := 1.0
		if i < n/10 {
			m = 1.3 - 0.3*float64(i)/float64(n/10)
		}
		if i >= 6*n/10 {
			m = 1.02
		}
		xs[i] = m * (1 + 0.01*rng.NormFloat64())
	}
	return xs
}

// BenchmarkDetect measures a CROPS search over Traini et al.'s penalty
// range and the PELT run at its elbow, on a series of 3,000 values: the
// length of one published fork.
func BenchmarkDetect(b *testing.B) {
	xs := warmupSeries(3000, 1)
	b.ReportAllocs()
	for b.Loop() {
		Detect(xs, Options{})
	}
}

// BenchmarkPELT measures one PELT run at a fixed penalty on 3,000 values.
func BenchmarkPELT(b *testing.B) {
	xs := warmupSeries(3000, 1)
	for _, pen := range []float64{50, 5000} {
		b.Run(map[float64]string{50: "pen=50", 5000: "pen=5000"}[pen], func(b *testing.B) {
			for b.Loop() {
				PELT(xs, pen, DefaultMinSegment)
			}
		})
	}
}
