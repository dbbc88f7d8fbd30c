package session

import (
	"gonum.org/v1/gonum/stat"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// A Drift is a benchmark whose slices trend inside its processes.
type Drift struct {
	Key   record.Key
	Trend stats.Trend
}

// drifting returns the benchmarks of run whose measurement slices (ns/op)
// trend inside their processes (Trend.Drifts), in the run's order.
func drifting(run *record.Run) []Drift {
	var out []Drift
	for _, k := range run.Keys() {
		if t := stats.TrendOf(processSlices(run, k)); t.Drifts() {
			out = append(out, Drift{Key: k, Trend: t})
		}
	}
	return out
}

// A TwoSpeed benchmark's processes read at two speeds, each process
// steady inside (stats.Speeds.Two): where its code or data landed, or the
// machine's moment, held for a whole process. A go test pass, one
// process, reads one speed or the other, and a mean over processes lies
// between them.
type TwoSpeed struct {
	Key    record.Key
	Speeds stats.Speeds
}

// twoSpeeds returns the benchmarks of run whose processes read at two
// speeds of ns/op, in the run's order.
func twoSpeeds(run *record.Run) []TwoSpeed {
	var out []TwoSpeed
	for _, k := range run.Keys() {
		if s := stats.SpeedsOf(processSlices(run, k)); s.Two() {
			out = append(out, TwoSpeed{Key: k, Speeds: s})
		}
	}
	return out
}

// processSlices returns the ns/op of the measurement slices of k in run,
// one list for each process.
func processSlices(run *record.Run, k record.Key) [][]float64 {
	var procs [][]float64
	for _, it := range run.Series(k, "ns/op") {
		procs = append(procs, it.Values)
	}
	return procs
}

// unsettled returns the stop events of run whose benchmark's warmup ran
// to its cap still getting faster (record.Event.Unsettled), in the order
// they stopped.
func unsettled(run *record.Run) []record.Event {
	var out []record.Event
	for _, e := range run.Events {
		if e.Event == record.EventStop && e.Unsettled != nil {
			out = append(out, e)
		}
	}
	return out
}

// An Amortized benchmark measured more ns/op at a small b.N than at a
// larger one: each call of its function costs time that b.N spreads
// (goroutines and buffers started per call, a heap grown per call), so
// its ns/op depends on b.N, and go test's larger b.N reports less.
type Amortized struct {
	Key           record.Key
	LowN, HighN   int64   // the smallest and largest b.N of its processes
	LowNs, HighNs float64 // the mean of the process means at each
}

// amortized returns the benchmarks of run whose processes ran at b.N
// values at least 3 apart, the smallest first, and measured, at the
// smallest, rmit.AmortizedRatio times the ns/op they measured at the
// largest, in the run's order. A recalibration between processes changes
// b.N at least threefold, and a benchmark of few ops per slice is tried
// at rmit.FewOpsStep times its b.N (rmit.Runner).
//
// The smallest must come first: b.N grows when a benchmark's slices ran
// shorter than its calibration planned, as they do when the one-op start
// of a calibration probe cost more than the ops after it. It shrinks when
// they ran longer, as they do on a machine that just got busier, and the
// processes at the smaller b.N then measure the busier machine, not b.N.
func amortized(run *record.Run) []Amortized {
	type proc struct {
		n     int64
		sum   float64
		k     int
		first int // the index of its first slice in run
	}
	byKey := map[record.Key]map[record.Process]*proc{}
	for i := range run.Slices {
		s := &run.Slices[i]
		ns, ok := s.Values["ns/op"]
		if s.Warmup || !ok {
			continue
		}
		k := s.Key()
		if byKey[k] == nil {
			byKey[k] = map[record.Process]*proc{}
		}
		p := byKey[k][s.Process()]
		if p == nil {
			p = &proc{n: s.N, first: i}
			byKey[k][s.Process()] = p
		}
		p.sum += ns
		p.k++
	}
	var out []Amortized
	for _, k := range run.Keys() {
		procs := byKey[k]
		a := Amortized{Key: k}
		for _, p := range procs {
			if a.LowN == 0 || p.n < a.LowN {
				a.LowN = p.n
			}
			a.HighN = max(a.HighN, p.n)
		}
		if a.LowN == 0 || a.HighN < 3*a.LowN {
			continue
		}
		var lo, hi []float64
		firstLow, firstHigh := len(run.Slices), len(run.Slices)
		for _, p := range procs {
			switch p.n {
			case a.LowN:
				lo = append(lo, p.sum/float64(p.k))
				firstLow = min(firstLow, p.first)
			case a.HighN:
				hi = append(hi, p.sum/float64(p.k))
				firstHigh = min(firstHigh, p.first)
			}
		}
		if firstLow > firstHigh {
			continue
		}
		a.LowNs, a.HighNs = stat.Mean(lo, nil), stat.Mean(hi, nil)
		if a.LowNs > rmit.AmortizedRatio*a.HighNs {
			out = append(out, a)
		}
	}
	return out
}
