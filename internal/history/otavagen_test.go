package history

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// The generators of otava-test-data (the Python package of Apache
// Otava's test patterns, 0.1.x), written again from their published
// description and defaults: each returns a series and its level
// changes. The random numbers are Go's, not numpy's, so the series are
// alike in distribution, not equal.
type otavaGen struct {
	name string
	gen  func(n int, seed uint64) truth
}

// valueSeries wraps plain values, without intervals, as a series.
func valueSeries(name string, xs []float64, changes []int) truth {
	s := &Series{Key: Key{Benchmark: name, Unit: "ns/op", Machine: "otava-test-data"}}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	nan := math.NaN()
	for i, x := range xs {
		s.Points = append(s.Points, Point{Commit: fmt.Sprintf("c%04d", i), Time: t0.Add(time.Duration(i) * time.Hour),
			Mean: x, Lo: nan, Hi: nan, SE: nan, Processes: 1, Runs: 1})
	}
	return truth{Series: s, Changes: changes}
}

// levels returns n points at values[i] from at[i−1] to at[i], plus
// normal noise of sd sigma.
func levels(n int, values []float64, at []int, sigma float64, rng *rand.Rand) []float64 {
	xs := make([]float64, n)
	k := 0
	for i := range xs {
		for k < len(at) && i >= at[k] {
			k++
		}
		xs[i] = values[k]
		if sigma > 0 {
			xs[i] += sigma * rng.NormFloat64()
		}
	}
	return xs
}

// sigmaOtava is the noise of the patterns that take one: the quick
// start's noise_normal(sigma=5) on a level of 100.
const sigmaOtava = 5.0

func otavaGenerators() []otavaGen {
	return []otavaGen{
		{"constant", func(n int, seed uint64) truth {
			return valueSeries("constant", levels(n, []float64{100}, nil, 0, nil), nil)
		}},
		{"noise_normal (bounded at 4σ)", func(n int, seed uint64) truth {
			rng := rand.New(rand.NewPCG(seed, 1))
			xs := levels(n, []float64{100}, nil, sigmaOtava, rng)
			for i, x := range xs {
				xs[i] = math.Max(100-4*sigmaOtava, math.Min(100+4*sigmaOtava, x))
			}
			return valueSeries("noise_normal", xs, nil)
		}},
		{"noise_uniform (90–110)", func(n int, seed uint64) truth {
			rng := rand.New(rand.NewPCG(seed, 2))
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = 90 + 20*rng.Float64()
			}
			return valueSeries("noise_uniform", xs, nil)
		}},
		{"outlier (150 at n/2)", func(n int, seed uint64) truth {
			rng := rand.New(rand.NewPCG(seed, 3))
			xs := levels(n, []float64{100}, nil, sigmaOtava, rng)
			xs[n/2] = 150
			return valueSeries("outlier", xs, nil)
		}},
		{"step_function (100 → 120)", func(n int, seed uint64) truth {
			rng := rand.New(rand.NewPCG(seed, 4))
			return valueSeries("step_function", levels(n, []float64{100, 120}, []int{n / 2}, sigmaOtava, rng), []int{n / 2})
		}},
		{"regression_fix (130 for 10 points)", func(n int, seed uint64) truth {
			rng := rand.New(rand.NewPCG(seed, 5))
			at := []int{n / 3, n/3 + 10}
			return valueSeries("regression_fix", levels(n, []float64{100, 130, 100}, at, sigmaOtava, rng), at)
		}},
		{"banding (100 or 105)", func(n int, seed uint64) truth {
			rng := rand.New(rand.NewPCG(seed, 6))
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = 100 + 5*float64(rng.IntN(2))
			}
			return valueSeries("banding", xs, nil)
		}},
		{"variance_change (σ 2 → 10)", func(n int, seed uint64) truth {
			rng := rand.New(rand.NewPCG(seed, 7))
			xs := make([]float64, n)
			for i := range xs {
				sd := 2.0
				if i >= n/2 {
					sd = 10
				}
				xs[i] = 100 + sd*rng.NormFloat64()
			}
			return valueSeries("variance_change", xs, nil)
		}},
		{"phase_change (cos → sin)", func(n int, seed uint64) truth {
			xs := make([]float64, n)
			for i := range xs {
				ph := 0.0
				if i >= n/2 {
					ph = math.Pi / 2
				}
				xs[i] = 100 + 10*math.Cos(float64(i)*2*math.Pi/20+ph)
			}
			return valueSeries("phase_change", xs, nil)
		}},
		{"multiple_changes (100, 110, 120, 130)", func(n int, seed uint64) truth {
			rng := rand.New(rand.NewPCG(seed, 8))
			at := []int{n / 4, n / 2, 3 * (n / 4)}
			return valueSeries("multiple_changes", levels(n, []float64{100, 110, 120, 130}, at, sigmaOtava, rng), at)
		}},
		{"multiple_outliers (3 × 150)", func(n int, seed uint64) truth {
			rng := rand.New(rand.NewPCG(seed, 9))
			xs := levels(n, []float64{100}, nil, sigmaOtava, rng)
			for _, i := range rng.Perm(n - 2)[:3] {
				xs[i+1] = 150
			}
			return valueSeries("multiple_outliers", xs, nil)
		}},
		{"multiple_variance_changes (σ 2, 8, 3, 10)", func(n int, seed uint64) truth {
			rng := rand.New(rand.NewPCG(seed, 10))
			sds := []float64{2, 8, 3, 10}
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = 100 + sds[min(i/(n/4), 3)]*rng.NormFloat64()
			}
			return valueSeries("multiple_variance_changes", xs, nil)
		}},
		{"multiple_regression_fix (3 × 130)", func(n int, seed uint64) truth {
			rng := rand.New(rand.NewPCG(seed, 11))
			seg := n / 7
			var at []int
			values := []float64{100}
			for i := range 3 {
				at = append(at, seg*(2*i+1), seg*(2*i+2))
				values = append(values, 130, 100)
			}
			return valueSeries("multiple_regression_fix", levels(n, values, at, sigmaOtava, rng), at)
		}},
	}
}
