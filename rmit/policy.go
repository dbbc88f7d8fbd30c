package rmit

import "github.com/gobench-dyn/gobench-dyn/stopper/policy"

// A Policy decides how long each benchmark runs (package policy holds the
// protocol). The runner feeds it through a policy.Loop, slice by slice
// inside an iteration and after every completed iteration, and records
// what its Decision says. Benchmark IDs are opaque strings chosen by the
// runner (package, version and leaf name together).
type Policy = policy.Policy

// Static is the policy of a fixed configuration: Warmup warmup slices and
// Slices measurement slices in every iteration, and no early stop.
// PerBenchmark overrides both for some benchmarks, by ID.
type Static struct {
	Warmup, Slices int
	PerBenchmark   map[string]SliceConfig
}

// A SliceConfig is the warmup and measurement slices of one iteration.
type SliceConfig struct {
	Warmup, Slices int
}

func (p Static) config(bench string) SliceConfig {
	if c, ok := p.PerBenchmark[bench]; ok {
		return c
	}
	return SliceConfig{p.Warmup, p.Slices}
}

// MaxSlices implements Policy.
func (p Static) MaxSlices(bench string) int {
	c := p.config(bench)
	return c.Warmup + c.Slices
}

// NextSlice implements Policy.
func (p Static) NextSlice(bench string, warmup, measured []float64) policy.Step {
	c := p.config(bench)
	if len(warmup) < c.Warmup {
		return policy.Step{Warmup: true}
	}
	return policy.Step{Done: len(measured) >= c.Slices, Met: true}
}

// EndIteration implements Policy: a static configuration never stops
// early and names no criterion.
func (Static) EndIteration(string, policy.Iteration) policy.Decision { return policy.Decision{} }

// Capped caps the measurement slices per iteration of some benchmarks,
// by ID, below what its Policy would take: a configuration file's d is the
// cap of a dynamic policy. Warmup, by ID, is the least number of warmup
// slices of every iteration, a configuration file's learned warmup; the
// policy decides from there.
type Capped struct {
	Policy
	Slices map[string]int
	Warmup map[string]int
}

// MaxSlices implements Policy: a learned warmup longer than the policy's
// own comes on top of the slices the policy would take.
func (p *Capped) MaxSlices(bench string) int {
	return p.Warmup[bench] + p.Policy.MaxSlices(bench)
}

// NextSlice implements Policy.
func (p *Capped) NextSlice(bench string, warmup, measured []float64) policy.Step {
	s := p.Policy.NextSlice(bench, warmup, measured)
	if c, ok := p.Slices[bench]; ok && !s.Warmup && len(measured) >= c {
		s.Done = true
	}
	if w := p.Warmup[bench]; len(measured) == 0 && len(warmup) < w {
		// The policy saw the slice, and decides again once the learned
		// warmup is over.
		return policy.Step{Warmup: true}
	}
	return s
}
