package rmit

import "time"

// Paired wraps a Policy for a run that interleaves two versions of the
// same benchmarks. A benchmark stops only when its policy holds it stable
// and so does its partner's: stopping one side early would leave the
// comparison with unequal, differently timed samples.
type Paired struct {
	Policy
	// Partner maps a benchmark ID to the ID of the same benchmark in the
	// other version. Benchmarks without a partner stop on their own.
	Partner map[string]string
	stable  map[string]bool
}

// EndIteration implements Policy.
func (p *Paired) EndIteration(bench string, suiteRun int, measured []float64) bool {
	if p.stable == nil {
		p.stable = map[string]bool{}
	}
	p.stable[bench] = p.Policy.EndIteration(bench, suiteRun, measured)
	other, ok := p.Partner[bench]
	if !ok {
		return p.stable[bench]
	}
	return p.stable[bench] && p.stable[other]
}

// Explain implements Explainer when the wrapped policy does.
func (p *Paired) Explain(bench string) (bool, time.Duration) {
	if ex, ok := p.Policy.(Explainer); ok {
		return ex.Explain(bench)
	}
	return false, 0
}

// RelWidth implements Widther when the wrapped policy does.
func (p *Paired) RelWidth(bench string) float64 {
	if w, ok := p.Policy.(Widther); ok {
		return w.RelWidth(bench)
	}
	return 0
}

// Pair returns the partner map of two versions' benchmarks: the benchmarks
// of base and head with the same package and name.
func Pair(base, head []*Benchmark) map[string]string {
	byName := map[[2]string]*Benchmark{}
	for _, b := range base {
		byName[[2]string{b.Package.ImportPath, b.Name}] = b
	}
	m := map[string]string{}
	for _, h := range head {
		if b, ok := byName[[2]string{h.Package.ImportPath, h.Name}]; ok {
			m[h.ID], m[b.ID] = b.ID, h.ID
		}
	}
	return m
}

// ShareN gives each benchmark of base the b.N of its partner in head, so
// that both versions measure the same number of operations per slice.
func ShareN(base, head []*Benchmark) {
	byName := map[[2]string]*Benchmark{}
	for _, h := range head {
		byName[[2]string{h.Package.ImportPath, h.Name}] = h
	}
	for _, b := range base {
		if h, ok := byName[[2]string{b.Package.ImportPath, b.Name}]; ok {
			b.N = h.N
		}
	}
}
