package record

import (
	"cmp"
	"slices"
	"time"
)

// An IterationSample holds the values of one unit from one iteration of one
// benchmark, in slice order.
type IterationSample struct {
	Instance  string
	SuiteRun  int
	Iteration int
	Warmup    []float64 // warmup slices
	Values    []float64 // measurement slices
	// Duet reports whether the iteration ran as one worker of a duet
	// (record.Slice.Turn): its slices pair one to one, in order, with
	// those of the other version's worker of the same suite run and
	// iteration.
	Duet bool
	// Layout is the -randlayout seed of the link the iteration ran
	// (Slice.Layout), 0 for the linker's own layout.
	Layout uint64
	// Walls are the wall times of the slices, warmup first, in the order
	// of Warmup then Values; the first is timed from the process start,
	// so it carries the process's start-up. Nil when the recording has no
	// times (a converted CSV or JMH file).
	Walls []time.Duration
}

// Series returns the samples of benchmark k in unit, one element per
// iteration, ordered by instance, suite run and iteration.
func (r *Run) Series(k Key, unit string) []IterationSample {
	index := map[Process]int{}
	var out []IterationSample
	// The walls of each iteration's warmup and measurement slices, kept
	// apart as the values are, so that Walls lines up with Warmup then
	// Values whatever order the slices were recorded in.
	var warmWalls, valueWalls [][]time.Duration
	timed := true
	for _, i := range r.positions(k) {
		s := &r.Slices[i]
		v, ok := s.Values[unit]
		if !ok {
			continue
		}
		key := s.Process()
		j, ok := index[key]
		if !ok {
			j = len(out)
			index[key] = j
			out = append(out, IterationSample{Instance: s.Instance, SuiteRun: s.SuiteRun, Iteration: s.Iteration})
			warmWalls, valueWalls = append(warmWalls, nil), append(valueWalls, nil)
		}
		out[j].Duet = out[j].Duet || s.Turn > 0
		out[j].Layout = max(out[j].Layout, s.Layout)
		if s.Warmup {
			out[j].Warmup = append(out[j].Warmup, v)
			warmWalls[j] = append(warmWalls[j], time.Duration(s.WallNs))
		} else {
			out[j].Values = append(out[j].Values, v)
			valueWalls[j] = append(valueWalls[j], time.Duration(s.WallNs))
		}
		timed = timed && s.WallNs > 0
	}
	if timed {
		for j := range out {
			out[j].Walls = append(warmWalls[j], valueWalls[j]...)
		}
	}
	slices.SortStableFunc(out, func(a, b IterationSample) int {
		return cmp.Or(cmp.Compare(a.Instance, b.Instance), cmp.Compare(a.SuiteRun, b.SuiteRun), cmp.Compare(a.Iteration, b.Iteration))
	})
	return out
}

// positions returns the indexes in r.Slices of benchmark k's slices, in
// order. Indexing once makes Series linear in the size of the run rather
// than in its size times the number of benchmarks.
func (r *Run) positions(k Key) []int {
	if r.index == nil || r.indexed != len(r.Slices) {
		r.index = map[Key][]int{}
		for i := range r.Slices {
			key := r.Slices[i].Key()
			r.index[key] = append(r.index[key], i)
		}
		r.indexed = len(r.Slices)
	}
	return r.index[k]
}

// Measurements returns every measurement value in series, in order.
func Measurements(series []IterationSample) []float64 {
	var out []float64
	for _, it := range series {
		out = append(out, it.Values...)
	}
	return out
}

// MergeSlices returns the measured slices ss of one process as one slice
// of all their operations: N their sum, each unit the mean weighted by N
// over the slices that report it (for ns/op, the total time over the
// total operations), WallNs the sum, and the rest the first slice's. A
// duet's worker runs hundreds of short turns; written one line each, a
// results file would hand benchstat hundreds of samples per process that
// share its layout and heap, and benchstat's intervals, which take every
// line as independent, would come out far narrower than the processes
// allow. The totals are divided once, so that turns that all report 4
// allocs/op merge to 4, not to a float a rounding away from it.
func MergeSlices(ss []Slice) Slice {
	out := ss[0]
	out.Values = map[string]float64{}
	out.N, out.Turn, out.WallNs = 0, 0, 0
	ops := map[string]float64{}
	for _, s := range ss {
		out.N += s.N
		out.WallNs += s.WallNs
		for u, v := range s.Values {
			out.Values[u] += v * float64(s.N)
			ops[u] += float64(s.N)
		}
	}
	for u := range out.Values {
		out.Values[u] /= ops[u]
	}
	return out
}

// WithDuetsMerged returns r with the measured slices of every duet
// iteration (Slice.Turn > 0) merged into one (MergeSlices), in place of
// the first of them, and every other slice as it is: the results one
// line per process.
func (r *Run) WithDuetsMerged() *Run {
	out := &Run{Header: r.Header, Events: r.Events, Complete: r.Complete}
	duets := map[Key]map[Process][]Slice{}
	for _, s := range r.Slices {
		if s.Turn > 0 && !s.Warmup {
			k, p := s.Key(), s.Process()
			if duets[k] == nil {
				duets[k] = map[Process][]Slice{}
			}
			duets[k][p] = append(duets[k][p], s)
		}
	}
	if len(duets) == 0 {
		return r
	}
	for _, s := range r.Slices {
		if s.Turn == 0 || s.Warmup {
			out.Slices = append(out.Slices, s)
			continue
		}
		k, p := s.Key(), s.Process()
		if ss := duets[k][p]; len(ss) > 0 {
			out.Slices = append(out.Slices, MergeSlices(ss))
			delete(duets[k], p)
		}
	}
	return out
}
