// Package stopper decides when a benchmark's measurements are stable
// enough to stop: the end of warmup inside an iteration, and the last
// iteration of a benchmark. It implements the dynamic reconfiguration of
// Laaber et al. (FSE'20, Algorithm 1) with an iteration of gobench-dyn in
// the place of a JMH fork and a slice in the place of a JMH iteration.
//
// The package is pure: it sees ns/op values and returns decisions. It runs
// the same way inside the runner and in a post-hoc replay of a recorded run.
//
// The stoppage criteria (Criteria) are CV, RCIW and KLD, with the paper's
// semantics, and Interval, the default, and Precision, which state a
// guarantee instead of a steadiness. Each is one definition in a file of
// its own, registered in one list.
package stopper

import (
	"fmt"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/stopper/policy"
)

// Confidence is the confidence level of every bootstrap interval the
// package computes.
const Confidence = 0.99

// A Config is a dynamic reconfiguration: the criterion, its threshold and
// window, and the bounds of warmup and of iterations.
type Config struct {
	Criterion Criterion
	// Threshold is the criterion's t. Zero means Criterion.DefaultThreshold.
	Threshold float64
	// Window is sW, the number of slices the warmup criterion looks at, and
	// the most stability values of the iteration vector it compares.
	Window int
	// WarmupMin (wimin) is the least number of warmup slices per iteration;
	// with Criterion None it is the fixed warmup.
	WarmupMin int
	// WarmupMax (wimax) caps the warmup slices per iteration. Warmup ends
	// there even if the criterion never held.
	WarmupMax int
	// Measure (mi) is the number of measurement slices per iteration.
	Measure int
	// MeasureMax caps the measurement slices per iteration that the
	// Interval criterion allocates; zero means 4·Measure.
	MeasureMax int
	// MinIterations (fmin) is the least number of completed iterations
	// before the benchmark may stop.
	MinIterations int
	// MaxIterations is the most iterations a benchmark may run (the
	// runner's cap), which the Interval criterion plans its slices per
	// iteration for; zero means unknown.
	MaxIterations int
	// Resamples is the number of bootstrap resamples per RCIW value.
	Resamples int
	// Seed seeds the bootstrap; together with the benchmark ID it makes
	// every RCIW value reproducible.
	Seed uint64
}

// Paper returns the configuration of the FSE'20 evaluation for c:
// ⟨wimin 5, wimax 50, mi 10, fmin 2⟩, window 5, 1000 resamples. Its fmax of
// 5 forks is the runner's iteration cap.
func Paper(c Criterion) Config {
	return Config{
		Criterion:     c,
		Threshold:     c.DefaultThreshold(),
		Window:        5,
		WarmupMin:     5,
		WarmupMax:     50,
		Measure:       10,
		MinIterations: 2,
		Resamples:     1000,
	}
}

// Default returns the Go defaults for c, chosen by replaying the published
// µOpTime Go measurements (docs/REPLAY.md): a window of 3 and 5
// measurement slices per iteration (under Interval, a pilot of
// IntervalPilotSlices, then up to 20 as the variance asks). At least
// MinProcesses iterations: no criterion judges a benchmark on fewer
// processes, since with two the spread between processes is one
// difference, and a criterion that sees mostly within-process slices
// stops long before the mean is known (docs/EVALUATION.md). That leaves at
// least 6 samples (benchstat needs 6) even at the least slices per
// process. Go has no JIT: its first slice pays for page faults, cache and
// heap growth, and for most benchmarks the slices after it are steady, so
// warmup is one slice. A dynamic warmup in every process costs much time
// for no measurable gain in bias (docs/EVALUATION.md, "Simulations behind
// the defaults"); a WarmupMax above Warmup turns it on. Interval learns
// its warmup in a benchmark's first process instead, up to
// LearnedWarmupMax: one slice more for most benchmarks, and a benchmark
// whose heap or caches still grow after one slice is warmed until steady.
func Default(c Criterion) Config {
	cfg := Config{
		Criterion:     c,
		Threshold:     c.DefaultThreshold(),
		Window:        3,
		WarmupMin:     1,
		WarmupMax:     1,
		Measure:       5,
		MinIterations: MinProcesses,
		Resamples:     1000,
	}
	if c.spec().interval {
		cfg.Measure, cfg.MeasureMax = IntervalPilotSlices, 4*cfg.Measure
	}
	if c.spec().learns {
		cfg.WarmupMax = LearnedWarmupMax
	}
	return cfg
}

// IntervalPilotSlices is the measurement slices per process of Interval's
// first MinIterations processes (at least MinProcesses), after which the
// slices follow the variance components and costs they measured, up to
// 20. Most of a Go benchmark's
// variance lies between processes (a median share of 78% on a real
// 122-benchmark suite), where slices past the second buy almost nothing:
// on fastjson's 100 benchmarks a pilot of 2 took the default run from
// 1.65 to 1.07 times one go test pass (docs/EVALUATION.md, "The main job
// at the cost of one go test pass").
const IntervalPilotSlices = MinSlices

// LearnedWarmupMax is the most warmup slices a criterion that learns its
// warmup (Interval) gives a benchmark's first process: at the default
// slice time, about the second go test's ramp takes before it reports.
const LearnedWarmupMax = 10

// MinProcesses is the least number of processes (iterations) on which a
// default criterion judges a benchmark.
const MinProcesses = 3

// MinSlices is the least number of measurement slices per iteration the
// Interval criterion allocates: one slice says nothing of the noise inside
// a process, and the within-process variance S₁² needs two.
const MinSlices = 2

// PlannedMinSlices is the least number of measurement slices that a
// process of a slow op (SetSlowOp) measures after the first under
// Interval. The first process's two slices have given S₁², and a
// process's mean is one draw of its between-process effect whatever its
// slices: when a slice costs as much as a process's warmup, one slice and
// one more process narrow the interval more per second than a second
// slice does. Other benchmarks keep MinSlices: with one slice in the
// processes after the pilot, a benchmark takes more processes and so
// more looks at its interval before it stops, and the stopped interval
// covered less often in simulation (TestIntervalCoverage: 91.8% against
// 92.6% at a between-to-within ratio of 3, 88.0% against 90.0% for
// bimodal processes).
const PlannedMinSlices = 1

// IntervalConfidence is the confidence level of the Interval criterion's
// interval, and of the precision every decision reports.
const IntervalConfidence = 0.95

// IntervalTarget is the default threshold of the Interval criterion: a
// 95% interval of the mean of ±3%. It matches the smallest change compare
// reports by default (3%), and is the target that most benchmarks of a
// shared machine reach in the processes of the old default's time
// (docs/EVALUATION.md).
const IntervalTarget = 0.03

// maxPredicted bounds the predicted processes of a precision: beyond it
// the answer is "more than that".
const maxPredicted = policy.ManyProcesses

// A ConfigError is an invalid Config field; Field is the Config field name.
// Flag is the flag of gobench-dyn run and replay that sets the field, so
// that the command names what the user typed, or empty for a field no flag
// sets.
type ConfigError struct {
	Field string
	Flag  string
	Msg   string
}

func (e *ConfigError) Error() string { return e.Field + ": " + e.Msg }

// Validate reports the first invalid field of c, as a *ConfigError.
func (c Config) Validate() error {
	def := c.Criterion.spec()
	bad := func(field, flag, format string, args ...any) error {
		return &ConfigError{Field: field, Flag: flag, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case !c.Criterion.known():
		return bad("Criterion", "stop", "criterion %s is not in the list of criteria", c.Criterion)
	case c.Threshold < 0 || c.Threshold != c.Threshold:
		return bad("Threshold", "threshold", "must be ≥ 0, got %v", c.Threshold)
	case def.probability && c.Threshold >= 1:
		return bad("Threshold", "threshold", "a %s threshold is a probability below 1, got %v", strings.ToUpper(def.name), c.Threshold)
	case c.WarmupMin < 0:
		return bad("WarmupMin", "warmup", "must be ≥ 0, got %d", c.WarmupMin)
	case c.Measure < 1:
		return bad("Measure", "slices", "must be ≥ 1, got %d", c.Measure)
	case c.MinIterations < 1:
		return bad("MinIterations", "min-iterations", "must be ≥ 1, got %d", c.MinIterations)
	case c.MeasureMax != 0 && c.MeasureMax < max(c.Measure, MinSlices):
		return bad("MeasureMax", "", "must be at least the measurement slices %d, got %d", max(c.Measure, MinSlices), c.MeasureMax)
	}
	if c.Criterion == None {
		return nil
	}
	switch {
	case c.Window < def.minWindow:
		return bad("Window", "window", "must be ≥ %d for %s, got %d", def.minWindow, c.Criterion, c.Window)
	case c.WarmupMax < c.WarmupMin:
		return bad("WarmupMax", "warmup-max", "must be at least the minimum warmup %d, got %d", c.WarmupMin, c.WarmupMax)
	case def.resamples && c.Resamples < 100:
		return bad("Resamples", "", "must be ≥ 100, got %d", c.Resamples)
	}
	return nil
}

// withDefaults fills a zero threshold and resample count.
func (c Config) withDefaults() Config {
	if c.Threshold == 0 {
		c.Threshold = c.Criterion.DefaultThreshold()
	}
	if c.Resamples == 0 {
		c.Resamples = 1000
	}
	if c.MeasureMax == 0 {
		c.MeasureMax = max(4*c.Measure, MinSlices)
	}
	return c
}
