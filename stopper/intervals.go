package stopper

import (
	"math"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/stopper/policy"
)

// Intervals wraps a policy that estimates no interval of its own, such as
// a static configuration (--stop none, or a configuration file's), and
// adds to each of its decisions the interval of the benchmark's mean over
// its processes, as Policy gives under every criterion, with the processes
// that would reach IntervalTarget. A run then says how precise its results
// are whatever decided its length. Intervals changes no decision to stop,
// and leaves the expected next width unknown, so that a budget, which
// spends its time where intervals narrow most (policy.Gain), keeps a
// static configuration's benchmarks in their order.
type Intervals struct {
	policy.Policy
	procs map[string][][]float64
}

// NewIntervals returns p with intervals added to its decisions.
func NewIntervals(p policy.Policy) *Intervals {
	return &Intervals{Policy: p, procs: map[string][][]float64{}}
}

// EndIteration implements policy.Policy: the wrapped policy's decision,
// with the interval over the processes so far when it gives none.
func (p *Intervals) EndIteration(bench string, it policy.Iteration) policy.Decision {
	d := p.Policy.EndIteration(bench, it)
	if len(it.Measured) == 0 {
		return d
	}
	p.procs[bench] = append(p.procs[bench], append([]float64(nil), it.Measured...))
	if !d.Precision.Known() {
		d.Precision = precisionOf(stats.FitComponents(p.procs[bench]), IntervalTarget, len(it.Measured))
		d.Precision.Next = math.NaN()
	}
	return d
}
