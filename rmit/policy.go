package rmit

import "time"

// A Policy decides how long each benchmark runs. The runner consults it
// slice by slice inside an iteration and after every completed iteration.
// It sees only benchmark IDs and ns/op values, so that policies can be
// written, tested and replayed without processes.
//
// Benchmark IDs are opaque strings chosen by the runner (package, version
// and leaf name together); a policy keeps its per-benchmark state by them.
// The runner calls a Policy from one goroutine at a time.
type Policy interface {
	// MaxSlices returns the most slices, warmup included, that one
	// iteration of bench may run. The runner asks the test binary for
	// that many and ends the process early once NextSlice says done.
	MaxSlices(bench string) int

	// NextSlice is called before every slice of an iteration with the
	// ns/op values of the iteration's warmup and measurement slices so
	// far. It says whether the next slice is a warmup slice, or that the
	// iteration is done.
	NextSlice(bench string, warmup, measured []float64) (nextWarmup, done bool)

	// EndIteration is called after each completed iteration with its
	// measurement values. It reports whether the benchmark is done and
	// leaves the schedule.
	EndIteration(bench string, suiteRun int, measured []float64) (stop bool)
}

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
func (p Static) NextSlice(bench string, warmup, measured []float64) (bool, bool) {
	c := p.config(bench)
	if len(warmup) < c.Warmup {
		return true, false
	}
	return false, len(measured) >= c.Slices
}

// EndIteration implements Policy.
func (Static) EndIteration(string, int, []float64) bool { return false }

// An Explainer is a Policy that can say why it decided as it did. The
// runner records its answers in stop and warmup-end events.
type Explainer interface {
	// Explain reports whether the stability criterion held at the last
	// decision about bench (false when a cap forced it), and the time
	// spent computing criteria for bench so far.
	Explain(bench string) (met bool, criterion time.Duration)
}

// A StopReasoner is a Policy that can say why it stopped a benchmark,
// for the stop record: record.ReasonCriterionMet or another reason.
type StopReasoner interface {
	StopReason(bench string) string
}

// A CoStopper is a Policy whose decision to stop one benchmark stops
// others with it, at once: the two versions of a pair.
type CoStopper interface {
	// StopsWith returns the IDs of the benchmarks that stop with bench,
	// which the policy has just stopped.
	StopsWith(bench string) []string
}

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

// NextSlice implements Policy.
func (p *Capped) NextSlice(bench string, warmup, measured []float64) (bool, bool) {
	if c, ok := p.Slices[bench]; ok && len(measured) >= c {
		return false, true
	}
	if w := p.Warmup[bench]; len(measured) == 0 && len(warmup) < w {
		if len(warmup) == 0 {
			// The policy starts its iteration here.
			p.Policy.NextSlice(bench, nil, nil)
		}
		return true, false
	}
	return p.Policy.NextSlice(bench, warmup, measured)
}

// Explain implements Explainer when the capped policy does.
func (p *Capped) Explain(bench string) (bool, time.Duration) {
	if ex, ok := p.Policy.(Explainer); ok {
		return ex.Explain(bench)
	}
	return false, 0
}

// RelWidth implements Widther when the capped policy does.
func (p *Capped) RelWidth(bench string) float64 {
	if w, ok := p.Policy.(Widther); ok {
		return w.RelWidth(bench)
	}
	return 0
}
