package rmit_test

import (
	"fmt"

	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// Schedule interleaves the iterations of a suite run in an order drawn
// from the seed: the same seed and suite run give the same order, so a
// run can be reproduced.
func ExampleSchedule() {
	pkg := &rmit.Package{ImportPath: "example.com/parse"}
	benches := []*rmit.Benchmark{
		rmit.NewBenchmark(pkg, "BenchmarkParse-8", 8, false),
		rmit.NewBenchmark(pkg, "BenchmarkFormat-8", 8, false),
	}
	twice := func(*rmit.Benchmark) int { return 2 }
	for run := 1; run <= 2; run++ {
		fmt.Printf("suite run %d:", run)
		for _, e := range rmit.Schedule(7, run, benches, twice) {
			fmt.Printf(" %s#%d", e.Bench.Base, e.Iteration)
		}
		fmt.Println()
	}
	// Output:
	// suite run 1: BenchmarkFormat#1 BenchmarkParse#1 BenchmarkParse#2 BenchmarkFormat#2
	// suite run 2: BenchmarkParse#1 BenchmarkFormat#1 BenchmarkParse#2 BenchmarkFormat#2
}
