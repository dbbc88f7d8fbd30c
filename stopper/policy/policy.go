// Package policy is the protocol between a stopping policy and what feeds
// it measurements: the live runner and the post-hoc replay. A policy sees
// benchmark IDs and ns/op values, and answers with a Step inside an
// iteration and a Decision after it. Wrappers (a slice cap, the pairing of
// two versions) change the Decision they pass on; the callers read
// everything they record from it, so that no optional interface has to be
// forwarded through a wrapper.
//
// Loop is the one feeding loop both callers share. It also times the
// policy's calls, with a clock its caller injects, so that the policies
// themselves stay pure.
package policy

import (
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"math"
	"time"
)

// A Policy decides how long each benchmark runs. Benchmark IDs are opaque
// strings chosen by the caller; a policy keeps its per-benchmark state by
// them. A Policy is called from one goroutine at a time.
type Policy interface {
	// MaxSlices returns the most slices, warmup included, that the next
	// iteration of bench may run. The runner asks the test binary for
	// that many and ends the process early once a Step says done.
	MaxSlices(bench string) int

	// NextSlice is called before every slice of an iteration with the
	// ns/op values of the iteration's warmup and measurement slices so
	// far (both empty at the start of an iteration).
	NextSlice(bench string, warmup, measured []float64) Step

	// EndIteration is called after each completed iteration.
	EndIteration(bench string, it Iteration) Decision
}

// A Step is a policy's answer before a slice.
type Step struct {
	// Warmup says the next slice is a warmup slice.
	Warmup bool
	// Done says the iteration is complete: run no other slice.
	Done bool
	// Met, at the first step after warmup, says whether the warmup
	// criterion held (false when a maximum ended the warmup).
	Met bool
}

// An Iteration is what a policy learns at the end of one iteration.
type Iteration struct {
	SuiteRun int
	// Process is the 1-based index of the iteration among the
	// benchmark's iterations in its suite run; 0 when unknown.
	Process int
	// Measured holds the measurement values (ns/op) in slice order.
	Measured []float64
	// SliceCost is the mean wall time of one measurement slice, c₁; zero
	// when unknown (a replay of a file without times).
	SliceCost time.Duration
	// ProcessCost is the iteration's wall time outside its measurement
	// slices (start, warmup, exit), c₂; zero when unknown.
	ProcessCost time.Duration
}

// ReasonOutOfReach is the Reason of a stop before the cap of a benchmark
// whose interval is predicted to stay far from its target however many
// processes the cap still allows: it stops unmet, and its interval and
// the processes it would need are reported.
const ReasonOutOfReach = "out of reach"

// A Decision is a policy's answer at the end of an iteration.
type Decision struct {
	// Stop takes the benchmark out of the schedule.
	Stop bool
	// Reason says why it stopped, for the stop record.
	Reason string
	// Met says whether the stoppage criterion held.
	Met bool
	// Criterion names the criterion that decided; empty for a static
	// configuration, which has none.
	Criterion string
	// With lists the IDs of benchmarks that stop with this one (the
	// other version of a pair), which would otherwise run one more
	// iteration only to learn that they are done.
	With []string

	// Precision describes the interval of the benchmark's mean when the
	// policy estimates one.
	Precision Precision
	// Unsettled is, for a benchmark whose first iteration's warmup ran
	// to its cap still getting faster, how much faster; nil otherwise.
	Unsettled *Unsettled
}

// An Unsettled warmup is one that ended at its cap while each slice still
// ran faster than the one before it: the benchmark's heap, page tables or
// caches were still growing when measurement began.
type Unsettled struct {
	// Slices is the warmup slices it ran.
	Slices int
	// Drop is the first warmup slice's ns/op over the last one's.
	Drop float64
}

// A Precision is how well a benchmark's mean is known, and what it would
// take to know it as well as asked.
type Precision struct {
	// Width is the relative half-width of the interval of the mean at
	// Confidence (the ±x of "±2%"); NaN when unknown.
	Width      float64
	Confidence float64
	// Target is the relative half-width asked for (0 when none).
	Target float64
	// Processes is the predicted number of processes (iterations) that
	// reach Target; 0 when unknown.
	Processes int
	// Next is the expected Width after one more iteration, which a budget
	// uses to spend time where it narrows intervals most.
	Next float64
	// Stop is the iteration after which the criterion is predicted to
	// stop the benchmark, at its target or as out of reach of it, which a
	// budget uses to fund first the benchmarks that end soonest; 0 when
	// unknown, or when the benchmark is predicted to run to its cap.
	Stop int
}

// ManyProcesses is where predictions of processes stop counting: a
// Precision whose Processes exceed it says "over 10000 processes".
const ManyProcesses = render.ManyProcesses

// Known reports whether p holds an estimate.
func (p Precision) Known() bool {
	return p.Confidence > 0 && !math.IsNaN(p.Width) && !math.IsInf(p.Width, 0)
}

// String formats p as a person reads it: "±4.1%; about 14 processes for
// ±2%", or "±1.3%" when the target was reached, or "" when unknown.
func (p Precision) String() string {
	if !p.Known() {
		return ""
	}
	return render.Precision(p.Width, p.Target, p.Processes)
}

// Gain is the expected narrowing per second of a benchmark's interval
// from one more iteration costing cost, counted only down to the target:
// an interval already at its target gains nothing, and one not yet
// estimated gains +Inf, so that a budget measures it first. A budget
// spent greedily by Gain goes to the intervals furthest from their target
// that are cheapest to narrow.
func Gain(p Precision, cost time.Duration) float64 {
	if !p.Known() || math.IsNaN(p.Next) {
		return math.Inf(1)
	}
	narrow := p.Width - max(p.Next, p.Target)
	if narrow <= 0 || cost <= 0 {
		return 0
	}
	return narrow / cost.Seconds()
}
