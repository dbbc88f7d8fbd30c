package session

import (
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
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
		var procs [][]float64
		for _, it := range run.Series(k, "ns/op") {
			procs = append(procs, it.Values)
		}
		if t := stats.TrendOf(procs); t.Drifts() {
			out = append(out, Drift{Key: k, Trend: t})
		}
	}
	return out
}
