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
