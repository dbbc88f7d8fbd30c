package gate

import "github.com/gobench-dyn/gobench-dyn/rmit/record"

// PairingProcess is the Pairing of a comparison whose benchmark was
// measured by process pairs in a run that takes turns: its calls spend too
// long outside the timer for turns short enough to follow the host's noise
// (record.EventProcessPairs).
const PairingProcess = "process"

// noteProcessPairs marks the comparisons of the benchmarks the events of
// the runs say were measured by process pairs, and says why in their
// notes, after whatever else the note says.
func noteProcessPairs(cs []Comparison, runs ...*record.Run) {
	why := map[record.Bench]string{}
	for _, r := range runs {
		for _, ev := range r.Events {
			if ev.Event == record.EventProcessPairs {
				why[record.Bench{Package: ev.Package, Benchmark: ev.Benchmark}] = ev.Reason
			}
		}
	}
	for i := range cs {
		c := &cs[i]
		w, ok := why[record.Bench{Package: c.Package, Benchmark: c.Benchmark}]
		if !ok {
			continue
		}
		c.Pairing = PairingProcess
		note := "measured by process pairs: " + w
		if c.Note != "" {
			note = c.Note + "; " + note
		}
		c.Note = note
	}
}
