package steady

import (
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// An Input is one benchmark's series: its processes' values in order,
// with what the outlier filter and the times need.
type Input struct {
	// Name names the benchmark ("pkg.BenchmarkX") or the file a published
	// series came from; Package and Benchmark are empty for the latter.
	Name, Package, Benchmark string
	Processes                [][]float64
	// Walls holds the seconds each value of each process took.
	Walls [][]float64
	// Ops is the mean number of operations one value averages.
	Ops float64
}

// Inputs returns the series of each benchmark of the code under test in
// run, in ns/op, warmup slices included.
func Inputs(run *record.Run) []Input {
	var ins []Input
	for _, k := range run.Keys() {
		if k.Version != record.VersionHead {
			continue
		}
		procs := Processes(run, k, "ns/op")
		if len(procs) == 0 {
			continue
		}
		// The wall times, in the order of Processes: the benchmark's
		// slices with their wall time as the only unit.
		ops := 0.0
		wr := &record.Run{}
		for i := range run.Slices {
			if s := run.Slices[i]; s.Key() == k {
				if _, ok := s.Values["ns/op"]; !ok {
					continue
				}
				ops += float64(s.N)
				s.Values = map[string]float64{"wall": float64(s.WallNs) / 1e9}
				wr.Slices = append(wr.Slices, s)
			}
		}
		ins = append(ins, Input{
			Name: k.Bench.String(), Package: k.Package, Benchmark: k.Benchmark,
			Processes: procs, Walls: Processes(wr, k, "wall"), Ops: ops / float64(len(wr.Slices)),
		})
	}
	return ins
}

// SeriesInput returns the Input of a published series whose values each
// took seconds and averaged ops operations.
func SeriesInput(name string, forks [][]float64, seconds, ops float64) Input {
	in := Input{Name: name, Processes: forks, Ops: ops}
	for _, f := range forks {
		w := make([]float64, len(f))
		for i := range w {
			w[i] = seconds
		}
		in.Walls = append(in.Walls, w)
	}
	return in
}

// WarmupTime returns the seconds process j spent before its value start.
func (in Input) WarmupTime(j, start int) float64 {
	t := 0.0
	if j < len(in.Walls) {
		for _, w := range in.Walls[j][:min(max(start, 0), len(in.Walls[j]))] {
			t += w
		}
	}
	return t
}

// LearnedWarmupTime returns the longest time a steady process of in took
// to reach its steady state by r, and −1 when none is steady: a warmup of
// that long would have measured every steady process in its steady state
// only.
func (in Input) LearnedWarmupTime(r Result) float64 {
	w := -1.0
	for j, s := range r.Series {
		if s.Class == Steady {
			w = max(w, in.WarmupTime(j, s.Start))
		}
	}
	return w
}

// Processes returns the series of benchmark k in unit, one per process
// (iteration) in recorded order, warmup slices included and first.
func Processes(run *record.Run, k record.Key, unit string) [][]float64 {
	var out [][]float64
	for _, it := range run.Series(k, unit) {
		xs := append(append([]float64(nil), it.Warmup...), it.Values...)
		if len(xs) > 0 {
			out = append(out, xs)
		}
	}
	return out
}

// PublishedInput returns the Input of a published series file (Traini et
// al.'s), whose values are seconds per operation, each averaged over an
// iteration that took iteration seconds.
func PublishedInput(name string, forks [][]float64, iteration float64) Input {
	sum, n := 0.0, 0
	for _, f := range forks {
		for _, v := range f {
			sum += v
			n++
		}
	}
	return SeriesInput(name, forks, iteration, iteration/(sum/float64(n)))
}
