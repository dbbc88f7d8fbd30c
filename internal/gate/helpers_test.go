package gate

import (
	"math"
	"math/rand/v2"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// runOf builds a run of one benchmark from values[iteration][slice], all in
// suite run 1, with unit ns/op.
func runOf(name string, values [][]float64) *record.Run {
	r := &record.Run{}
	addBench(r, name, "ns/op", "", values)
	return r
}

// addBench adds values[i] as the slices of iteration i+1, all in suite
// run 1.
func addBench(r *record.Run, name, unit, version string, values [][]float64) {
	addSlices(r, name, unit, version, values, func(i int) (int, int) { return 1, i + 1 })
}

// addSlices adds values[i] as the slices of one process of the benchmark,
// placed in the suite run and iteration at(i) returns.
func addSlices(r *record.Run, name, unit, version string, values [][]float64, at func(i int) (suiteRun, iteration int)) {
	for i, it := range values {
		sr, iter := at(i)
		for j, v := range it {
			r.Slices = append(r.Slices, record.Slice{
				Package: "example.com/p", Benchmark: name, Version: version,
				SuiteRun: sr, Iteration: iter, Slice: j + 1, N: 1000,
				Values: map[string]float64{unit: v},
			})
		}
	}
}

// simulate draws iterations × slices values around mu: each iteration
// (process) gets a lognormal offset of sdIter, each slice lognormal noise
// of sdSlice, as benchmarks on a shared machine show.
func simulate(rng *rand.Rand, mu float64, iterations, slices int, sdIter, sdSlice float64) [][]float64 {
	out := make([][]float64, iterations)
	for i := range out {
		off := math.Exp(rng.NormFloat64() * sdIter)
		for range slices {
			out[i] = append(out[i], mu*off*math.Exp(rng.NormFloat64()*sdSlice))
		}
	}
	return out
}

func scaled(values [][]float64, f float64) [][]float64 {
	out := make([][]float64, len(values))
	for i, it := range values {
		for _, v := range it {
			out[i] = append(out[i], v*f)
		}
	}
	return out
}

// components draws n processes of m slices of y = mu·(1+b_j)·(1+e_jk):
// between-process effects b_j with sd sdB, within-process noise e_jk with
// sd sdE, the variance components model of DESIGN.md.
func components(rng *rand.Rand, mu float64, n, m int, sdB, sdE float64) [][]float64 {
	out := make([][]float64, n)
	for j := range out {
		b := rng.NormFloat64() * sdB
		for range m {
			out[j] = append(out[j], mu*(1+b)*(1+rng.NormFloat64()*sdE))
		}
	}
	return out
}

// addRuns adds one process per suite run: values[k] are the slices of the
// process of suite run k+1.
func addRuns(r *record.Run, name, unit, version string, values [][]float64) {
	addSlices(r, name, unit, version, values, func(k int) (int, int) { return k + 1, 1 })
}

// pairedRuns returns the halves of a run that measured base and head in
// the same suite runs, one process each per suite run.
func pairedRuns(base, head [][]float64) (*record.Run, *record.Run) {
	r := &record.Run{}
	addRuns(r, "BenchmarkX", "ns/op", record.VersionBaseline, base)
	addRuns(r, "BenchmarkX", "ns/op", record.VersionHead, head)
	return Split(r)
}
