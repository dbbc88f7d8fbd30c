package optime_test

import (
	"fmt"

	"github.com/gobench-dyn/gobench-dyn/optime"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// Optimize finds, per benchmark, the smallest configuration whose sample
// is as stable as the threshold asks, from one full run: here 3 suite runs
// of 3 iterations of 5 measurement slices, whose values vary by a few
// percent. Configurations are (suite runs, iterations, slices).
func ExampleOptimize() {
	var series []record.IterationSample
	for run := 1; run <= 3; run++ {
		for it := 1; it <= 3; it++ {
			series = append(series, record.IterationSample{
				SuiteRun:  run,
				Iteration: it,
				Warmup:    []float64{140},
				Values:    []float64{96 + 3*float64(run) + 2*float64(it), 99, 101, 100 + float64(it), 100},
			})
		}
	}
	bench := optime.Benchmark{Package: "example.com/p", Name: "BenchmarkParse-8", Warmup: 1, Series: series}
	res, err := optime.Optimize([]optime.Benchmark{bench}, optime.Options{Metric: optime.CV, Threshold: 0.02})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range res.Choices {
		fmt.Printf("%s: %v instead of %v, stable %v, CV %.4f\n", c.Name, c.Config, c.Full, c.Stable, c.Value)
	}
	chosen, full := res.Time()
	fmt.Printf("%d of %d slices\n", chosen, full)
	// Output:
	// BenchmarkParse-8: (1, 3, 1) instead of (3, 3, 5), stable true, CV 0.0159
	// 3 of 45 slices
}
