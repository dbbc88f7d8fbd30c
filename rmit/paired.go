package rmit

import (
	"cmp"
	"math"
	"slices"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper/policy"
)

// Paired wraps a Policy for a run that interleaves two versions of the
// same benchmarks. A benchmark stops only together with its partner:
// stopping one side early would leave the comparison with unequal,
// differently timed samples.
//
// Without Judge, a pair stops when its policy holds both versions stable.
// With Judge, it stops when their comparison is decided (a regression, an
// improvement or no change beyond doubt) or its verdict is out of reach,
// and otherwise runs on to its cap or the end of the budget: two versions
// each stable on its own can still leave their difference undecided, and
// those pairs are where more processes buy the most.
type Paired struct {
	Policy
	Pairing
	// Judge, if set, says why a pair stops: record.ReasonSettled when its
	// comparison is decided, record.ReasonNoVerdict when no verdict is in
	// reach within its cap, "" to run on. base[i] and head[i] are the
	// process means (ns/op) of the two versions in the i-th suite run both
	// have run, in suite run order (for example through
	// compare.JudgePair). It is asked after every iteration of either
	// side.
	Judge func(base, head [][]float64) string
	// JudgeDuets, if set, is Judge for pairs that run as duet iterations
	// (Runner.Turns): d[i] is the mean log ratio head/base of the slice
	// pairs of the i-th process pair both versions completed, in the
	// order they ran (for example through gate.JudgeDuets).
	JudgeDuets func(d []float64) string
	// PlanDuet, if set, returns the measured turns of a pair's next duet
	// iteration from the log ratios head/base of the slice pairs of each
	// duet so far (one slice per process pair, in the order they ran)
	// and their mean costs: c1 of one turn of each worker, c2 of the rest
	// of a duet (the starts, the first slices and the warmup). It
	// returns 0 to keep Runner.Turns.
	PlanDuet func(ratios [][]float64, c1, c2 time.Duration) int

	stable  map[string]bool
	settled map[string]string            // why a pair stopped, by benchmark
	means   map[string]map[int][]float64 // by benchmark, then suite run
	// duets holds the measured slices of each duet iteration, by
	// benchmark, then suite run and iteration, and costs its costs.
	duets map[string]map[[2]int][]float64
	costs map[string]map[[2]int][2]time.Duration
	// turns holds the measured turns planned for each pair's next duet,
	// by benchmark.
	turns map[string]int
}

// NewPaired returns policy paired over the benchmarks of base and head:
// the benchmarks with the same package and name.
func NewPaired(policy Policy, base, head []*Benchmark) *Paired {
	return &Paired{Policy: policy, Pairing: NewPairing(base, head)}
}

// EndIteration implements Policy: it passes on the wrapped policy's
// decision, stopping a pair only when both sides are stable (without
// Judge) or Judge stops it, and then stopping the partner with it.
func (p *Paired) EndIteration(bench string, it policy.Iteration) policy.Decision {
	if p.stable == nil {
		p.stable, p.settled, p.means = map[string]bool{}, map[string]string{}, map[string]map[int][]float64{}
		p.duets, p.costs, p.turns = map[string]map[[2]int][]float64{}, map[string]map[[2]int][2]time.Duration{}, map[string]int{}
	}
	d := p.Policy.EndIteration(bench, it)
	p.stable[bench] = d.Stop
	other, ok := p.Partner[bench]
	if !ok {
		return d
	}
	if p.JudgeDuets != nil || p.PlanDuet != nil {
		if p.duets[bench] == nil {
			p.duets[bench] = map[[2]int][]float64{}
		}
		if p.costs[bench] == nil {
			p.costs[bench] = map[[2]int][2]time.Duration{}
		}
		key := [2]int{it.SuiteRun, it.Process}
		p.duets[bench][key] = it.Measured
		p.costs[bench][key] = [2]time.Duration{it.SliceCost, it.ProcessCost}
		ratios, c1, c2 := p.duetRatios(bench, other)
		if p.PlanDuet != nil && len(ratios) > 0 {
			t := p.PlanDuet(ratios, c1, c2)
			p.turns[bench], p.turns[other] = t, t
		}
		if p.JudgeDuets != nil && p.settled[bench] == "" {
			d := make([]float64, len(ratios))
			for i, r := range ratios {
				d[i] = stat.Mean(r, nil)
			}
			why := p.JudgeDuets(d)
			p.settled[bench], p.settled[other] = why, why
		}
	}
	switch {
	case p.JudgeDuets != nil:
		d.Stop = p.settled[bench] != ""
	case p.Judge == nil:
		d.Stop = p.stable[bench] && p.stable[other]
	default:
		if len(it.Measured) > 0 {
			if p.means[bench] == nil {
				p.means[bench] = map[int][]float64{}
			}
			p.means[bench][it.SuiteRun] = append(p.means[bench][it.SuiteRun], stat.Mean(it.Measured, nil))
		}
		if p.settled[bench] == "" {
			why := p.Judge(p.pairs(bench, other))
			p.settled[bench], p.settled[other] = why, why
		}
		d.Stop = p.settled[bench] != ""
	}
	if d.Stop {
		// A pair stops together, so the version that did not end the
		// deciding iteration does not run another one.
		d.With = append(d.With, other)
		if why := p.settled[bench]; why != "" {
			d.Reason = why
		}
	}
	return d
}

// duetRatios returns, for each duet iteration both versions of a pair
// completed with as many slices, the log ratios head/base of its slice
// pairs, in the order the iterations ran, and the mean costs of those
// duets: c1 of one turn of each worker, c2 of the rest of a duet.
func (p *Paired) duetRatios(bench, other string) (ratios [][]float64, c1, c2 time.Duration) {
	if !p.Base[bench] {
		bench, other = other, bench
	}
	var keys [][2]int
	for k, b := range p.duets[bench] {
		if h := p.duets[other][k]; len(h) > 0 && len(h) == len(b) {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	for _, k := range keys {
		b, h := p.duets[bench][k], p.duets[other][k]
		r := make([]float64, len(h))
		for j := range h {
			r[j] = math.Log(h[j] / b[j])
		}
		ratios = append(ratios, r)
		cb, ch := p.costs[bench][k], p.costs[other][k]
		c1 += cb[0] + ch[0]
		c2 += cb[1] + ch[1]
	}
	if n := time.Duration(len(keys)); n > 0 {
		c1, c2 = c1/n, c2/n
	}
	return ratios, c1, c2
}

// DuetTurns returns the measured turns PlanDuet planned for the next duet
// of bench, or 0 when it planned none.
func (p *Paired) DuetTurns(bench string) int { return p.turns[bench] }

// pairs returns the process means of the suite runs in which both versions
// of a pair have run as many iterations, baseline first.
func (p *Paired) pairs(bench, other string) (base, head [][]float64) {
	if !p.Base[bench] {
		bench, other = other, bench
	}
	var runs []int
	for k, b := range p.means[bench] {
		if h := p.means[other][k]; len(h) > 0 && len(h) == len(b) {
			runs = append(runs, k)
		}
	}
	slices.SortFunc(runs, cmp.Compare)
	for _, k := range runs {
		base = append(base, p.means[bench][k])
		head = append(head, p.means[other][k])
	}
	return base, head
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
