package stopper_test

import (
	"fmt"

	"github.com/gobench-dyn/gobench-dyn/stopper"
	"github.com/gobench-dyn/gobench-dyn/stopper/policy"
)

// A stopper.Policy takes a benchmark out of the schedule once its
// criterion holds. Under CV, after each iteration it appends the
// coefficient of variation of all measured slices so far to the
// iteration vector, and stops once the vector's values lie within the
// threshold (0.01) of each other.
func ExampleNewPolicy() {
	p, err := stopper.NewPolicy(stopper.Default(stopper.CV))
	if err != nil {
		fmt.Println(err)
		return
	}
	loop := policy.Loop{Policy: p}
	slices := []float64{150, 120, 101, 100, 99, 100, 101, 100, 99, 100, 101, 100, 99, 100, 101, 100, 99, 100, 101, 100}
	for run := 1; run <= 20; run++ {
		feed := loop.Begin("BenchmarkParse")
		for i := 0; !feed.Step.Done; i++ {
			feed.Add(slices[i%len(slices)])
		}
		d := feed.End(policy.Iteration{SuiteRun: run})
		if d.Stop {
			fmt.Printf("%s met: %v, after %d iterations of %d warmup and %d measured slices\n",
				d.Criterion, d.Met, run, len(feed.Warmup), len(feed.Measured))
			for _, cv := range p.Vector("BenchmarkParse") {
				fmt.Printf("CV %.4f\n", cv)
			}
			return
		}
	}
	fmt.Println("never stopped")
	// Output:
	// cv met: true, after 3 iterations of 1 warmup and 5 measured slices
	// CV 0.0863
	// CV 0.0813
	// CV 0.0799
}
