// Package stopper decides when a benchmark's measurements are stable
// enough to stop: the end of warmup inside an iteration, and the last
// iteration of a benchmark. It implements the dynamic reconfiguration of
// Laaber et al. (FSE'20, Algorithm 1) with an iteration of gobench-dyn in
// the place of a JMH fork and a slice in the place of a JMH iteration.
//
// The package is pure: it sees ns/op values and returns decisions. It runs
// the same way inside the runner and in a post-hoc replay of a recorded run.
//
// Three stoppage criteria keep the paper's semantics:
//
//   - CV: the coefficient of variation (sample sd / mean). Stable when the
//     values in the window lie within t of each other (t = 0.01).
//   - RCIW: the relative width of the 99% percentile bootstrap confidence
//     interval of the mean, resampled hierarchically (suite runs, then
//     iterations, then slices). Stable when the values in the window lie
//     within t of each other (t = 0.03).
//   - KLD: the probability 2^−J that the samples with and without the newest
//     element come from one distribution, J being the symmetric
//     Kullback-Leibler divergence in bits of their Gaussian kernel density
//     estimates (He et al.). Stable when the mean probability in the window
//     exceeds t (t = 0.99).
//
// Two criteria state a guarantee instead of a steadiness. The default:
//
//   - Interval: the relative half-width of the 95% Student-t interval of
//     the mean over process means (package varcomp). The benchmark stops
//     once it is at most t (t = IntervalTarget: ±3%), after at least
//     MinProcesses processes; slices per process adapt to the measured
//     variance components and costs.
//
// And the older one:
//
//   - Precision: the relative width of a 99% confidence interval of the
//     mean that holds its level with few iterations (PrecisionCI). The
//     benchmark stops once that width is at most t (t = 0.03: the mean is
//     known to about ±1.5%). Warmup ends when a slice is no longer faster
//     than the one before it (WarmupSettled).
package stopper

import (
	"fmt"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/policy"
)

// A Criterion names a stoppage criterion.
type Criterion int

// The stoppage criteria.
const (
	None      Criterion = iota // a static configuration: fixed warmup, no early stop
	CV                         // coefficient of variation
	RCIW                       // relative width of the bootstrap CI of the mean
	KLD                        // Kullback-Leibler divergence similarity probability
	Precision                  // relative width of a small-sample-safe CI of the mean
	Interval                   // relative half-width of the process-level t interval of the mean
)

var criterionNames = [...]string{None: "none", CV: "cv", RCIW: "rciw", KLD: "kld", Precision: "precision", Interval: "interval"}

// String returns the criterion's name as the --stop flag spells it.
func (c Criterion) String() string {
	if c < 0 || int(c) >= len(criterionNames) {
		return fmt.Sprintf("Criterion(%d)", int(c))
	}
	return criterionNames[c]
}

// ParseCriterion returns the criterion named s: none, cv, rciw, kld,
// precision or interval.
func ParseCriterion(s string) (Criterion, error) {
	for c, name := range criterionNames {
		if strings.EqualFold(s, name) {
			return Criterion(c), nil
		}
	}
	return None, fmt.Errorf("unknown stoppage criterion %q (want %s)", s, strings.Join(criterionNames[:], ", "))
}

// Set parses s into c, so that a *Criterion serves as a flag value.
func (c *Criterion) Set(s string) error {
	v, err := ParseCriterion(s)
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// Type names the flag value type in help text.
func (c *Criterion) Type() string { return "none|cv|rciw|kld|precision|interval" }

// DefaultThreshold returns the paper's threshold for c: 0.01 for CV, 0.03
// for RCIW, 0.99 for KLD; 0.03 for Precision, IntervalTarget for
// Interval, and 0 for None.
func (c Criterion) DefaultThreshold() float64 {
	switch c {
	case CV:
		return 0.01
	case RCIW:
		return 0.03
	case KLD:
		return 0.99
	case Precision:
		return PrecisionThreshold
	case Interval:
		return IntervalTarget
	}
	return 0
}

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
// measurement slices per iteration (under Interval, the pilot's). At least
// MinProcesses iterations: no criterion judges a benchmark on fewer
// processes, since with two the spread between processes is one
// difference, and a criterion that sees mostly within-process slices
// stops long before the mean is known (docs/EVALUATION.md). That leaves at
// least 6 samples (benchstat needs 6) even at the least slices per
// process. Go has no JIT: its first slice pays for page faults, cache and
// heap growth, and the slices after it are steady, so warmup is one slice.
// A dynamic warmup costs much time for no measurable gain in bias
// (docs/EVALUATION.md, "Simulations behind the defaults"); a
// WarmupMax above Warmup turns it on.
func Default(c Criterion) Config {
	return Config{
		Criterion:     c,
		Threshold:     c.DefaultThreshold(),
		Window:        3,
		WarmupMin:     1,
		WarmupMax:     1,
		Measure:       5,
		MinIterations: MinProcesses,
		Resamples:     1000,
	}
}

// MinProcesses is the least number of processes (iterations) on which a
// default criterion judges a benchmark.
const MinProcesses = 3

// MinSlices is the least number of measurement slices per iteration the
// Interval criterion allocates: one slice says nothing of the noise inside
// a process, and the within-process variance S₁² needs two.
const MinSlices = 2

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
type ConfigError struct {
	Field string
	Msg   string
}

func (e *ConfigError) Error() string { return e.Field + ": " + e.Msg }

// Validate reports the first invalid field of c, as a *ConfigError.
func (c Config) Validate() error {
	bad := func(field, format string, args ...any) error {
		return &ConfigError{Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case c.Criterion < None || c.Criterion > Interval:
		return bad("Criterion", "unknown criterion %d", int(c.Criterion))
	case c.Threshold < 0 || c.Threshold != c.Threshold:
		return bad("Threshold", "must be ≥ 0, got %v", c.Threshold)
	case c.Criterion == KLD && c.Threshold >= 1:
		return bad("Threshold", "a KLD threshold is a probability below 1, got %v", c.Threshold)
	case c.WarmupMin < 0:
		return bad("WarmupMin", "must be ≥ 0, got %d", c.WarmupMin)
	case c.Measure < 1:
		return bad("Measure", "must be ≥ 1, got %d", c.Measure)
	case c.MinIterations < 1:
		return bad("MinIterations", "must be ≥ 1, got %d", c.MinIterations)
	case c.MeasureMax != 0 && c.MeasureMax < max(c.Measure, MinSlices):
		return bad("MeasureMax", "must be at least the measurement slices %d, got %d", max(c.Measure, MinSlices), c.MeasureMax)
	}
	if c.Criterion == None {
		return nil
	}
	switch {
	case c.Window < c.Criterion.minWindow():
		return bad("Window", "must be ≥ %d for %s, got %d", c.Criterion.minWindow(), c.Criterion, c.Window)
	case c.WarmupMax < c.WarmupMin:
		return bad("WarmupMax", "must be at least the minimum warmup %d, got %d", c.WarmupMin, c.WarmupMax)
	case (c.Criterion == RCIW || c.Criterion == Precision) && c.Resamples < 100:
		return bad("Resamples", "must be ≥ 100, got %d", c.Resamples)
	}
	return nil
}

// minWindow is the smallest window in which c yields a value: CV and RCIW
// need two slices, KLD two slices before the newest one. Precision has no
// window.
func (c Criterion) minWindow() int {
	switch c {
	case KLD:
		return 3
	case Precision, Interval:
		return 0
	}
	return 2
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
