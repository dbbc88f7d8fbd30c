package policy_test

import (
	"fmt"

	"github.com/gobench-dyn/gobench-dyn/stopper/policy"
)

// twoIterations is a policy another program might write: one warmup slice
// and three measurement slices per iteration, and a stop after two
// iterations of each benchmark.
type twoIterations struct {
	done map[string]int
}

func (twoIterations) MaxSlices(string) int { return 4 }

func (twoIterations) NextSlice(_ string, warmup, measured []float64) policy.Step {
	switch {
	case len(warmup) == 0:
		return policy.Step{Warmup: true}
	case len(measured) == 3:
		return policy.Step{Done: true}
	}
	return policy.Step{Met: true}
}

func (p twoIterations) EndIteration(bench string, _ policy.Iteration) policy.Decision {
	p.done[bench]++
	if p.done[bench] < 2 {
		return policy.Decision{}
	}
	return policy.Decision{Stop: true, Met: true, Reason: "two iterations"}
}

// A Loop feeds a policy the slices of each iteration as they are measured,
// as the runner does with live processes and the replay with recorded ones.
func ExampleLoop() {
	loop := policy.Loop{Policy: twoIterations{done: map[string]int{}}}
	slices := []float64{130, 101, 99, 100}
	for run := 1; ; run++ {
		feed := loop.Begin("BenchmarkParse")
		for i := 0; !feed.Step.Done; i++ {
			feed.Add(slices[i])
		}
		d := feed.End(policy.Iteration{SuiteRun: run})
		fmt.Printf("suite run %d: warmup %v, measured %v, stop %v\n", run, feed.Warmup, feed.Measured, d.Stop)
		if d.Stop {
			fmt.Println(d.Reason)
			break
		}
	}
	// Output:
	// suite run 1: warmup [130], measured [101 99 100], stop false
	// suite run 2: warmup [130], measured [101 99 100], stop true
	// two iterations
}
