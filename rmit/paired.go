package rmit

import (
	"gonum.org/v1/gonum/stat"

	"github.com/gobench-dyn/gobench-dyn/policy"
	"github.com/gobench-dyn/gobench-dyn/record"
)

// Paired wraps a Policy for a run that interleaves two versions of the
// same benchmarks. A benchmark stops only when its policy holds it stable
// and so does its partner's: stopping one side early would leave the
// comparison with unequal, differently timed samples.
//
// With Settled set, a pair also stops once the two versions' iteration
// means settle the comparison, whatever the wrapped policy says.
type Paired struct {
	Policy
	// Partner maps a benchmark ID to the ID of the same benchmark in the
	// other version. Benchmarks without a partner stop on their own.
	Partner map[string]string
	// Base holds the IDs of the baseline version's benchmarks.
	Base map[string]bool
	// Settled, if set, reports whether the iteration means of a pair's
	// baseline and head already decide their comparison (for example
	// compare.Settled). It is asked after every iteration of either side.
	Settled func(base, head []float64) bool

	stable  map[string]bool
	settled map[string]bool
	means   map[string][]float64
}

// NewPaired returns policy paired over the benchmarks of base and head:
// the benchmarks with the same package and name.
func NewPaired(policy Policy, base, head []*Benchmark) *Paired {
	p := &Paired{Policy: policy, Partner: Pair(base, head), Base: map[string]bool{}}
	for _, b := range base {
		p.Base[b.ID] = true
	}
	return p
}

// EndIteration implements Policy: it passes on the wrapped policy's
// decision, stopping a pair only when both sides are stable or their
// comparison is settled, and then stopping the partner with it.
func (p *Paired) EndIteration(bench string, it policy.Iteration) policy.Decision {
	if p.stable == nil {
		p.stable, p.settled, p.means = map[string]bool{}, map[string]bool{}, map[string][]float64{}
	}
	d := p.Policy.EndIteration(bench, it)
	p.stable[bench] = d.Stop
	other, ok := p.Partner[bench]
	if !ok {
		return d
	}
	if p.Settled != nil && len(it.Measured) > 0 {
		p.means[bench] = append(p.means[bench], stat.Mean(it.Measured, nil))
		base, head := p.means[bench], p.means[other]
		if !p.Base[bench] {
			base, head = head, base
		}
		if p.settled[bench] || p.Settled(base, head) {
			p.settled[bench], p.settled[other] = true, true
		}
	}
	d.Stop = p.settled[bench] || p.stable[bench] && p.stable[other]
	if d.Stop {
		// A pair stops together, so the version that did not end the
		// deciding iteration does not run another one.
		d.With = append(d.With, other)
		if p.settled[bench] {
			d.Reason = record.ReasonSettled
		}
	}
	return d
}

// Pair returns the partner map of two versions' benchmarks: the benchmarks
// of base and head with the same package and name.
func Pair(base, head []*Benchmark) map[string]string {
	byName := map[record.Bench]*Benchmark{}
	for _, b := range base {
		byName[b.Bench()] = b
	}
	m := map[string]string{}
	for _, h := range head {
		if b, ok := byName[h.Bench()]; ok {
			m[h.ID], m[b.ID] = b.ID, h.ID
		}
	}
	return m
}

// ShareN gives each benchmark of base the b.N of its partner in head, so
// that both versions measure the same number of operations per slice.
func ShareN(base, head []*Benchmark) {
	byName := map[record.Bench]*Benchmark{}
	for _, h := range head {
		byName[h.Bench()] = h
	}
	for _, b := range base {
		if h, ok := byName[b.Bench()]; ok {
			b.N = h.N
		}
	}
}
