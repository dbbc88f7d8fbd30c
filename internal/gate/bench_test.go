package gate

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// BenchmarkRuns compares 100 benchmarks of 3 suite runs × 5 iterations × 5
// slices in ns/op and in a constant allocs/op: the shape of the scale
// evaluation's synthetic suites.
func BenchmarkRuns(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	build := func() *record.Run {
		r := &record.Run{}
		for k := range 100 {
			for sr := 1; sr <= 3; sr++ {
				for it, vals := range simulate(rng, 1000, 5, 5, 0.02, 0.01) {
					for sl, v := range vals {
						r.Slices = append(r.Slices, record.Slice{
							Package: "example.com/p", Benchmark: fmt.Sprintf("BenchmarkX%d", k),
							SuiteRun: sr, Iteration: it + 1, Slice: sl + 1, N: 1000,
							Values: map[string]float64{"ns/op": v, "allocs/op": 2},
						})
					}
				}
			}
		}
		return r
	}
	old, new := build(), build()
	opts := DefaultOptions()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Runs(old, new, opts); err != nil {
			b.Fatal(err)
		}
	}
}
