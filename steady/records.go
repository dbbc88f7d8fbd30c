package steady

import "github.com/gobench-dyn/gobench-dyn/record"

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

// A Drift is a benchmark whose slices trend inside its processes.
type Drift struct {
	Key   record.Key
	Trend Trend
}

// Drifting returns the benchmarks of run whose measurement slices (ns/op)
// trend inside their processes (Trend.Drifts), in the run's order.
func Drifting(run *record.Run) []Drift {
	var out []Drift
	for _, k := range run.Keys() {
		var procs [][]float64
		for _, it := range run.Series(k, "ns/op") {
			procs = append(procs, it.Values)
		}
		if t := TrendOf(procs); t.Drifts() {
			out = append(out, Drift{Key: k, Trend: t})
		}
	}
	return out
}
