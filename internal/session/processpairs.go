package session

import (
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// ProcessPairs implements rmit.PairingObserver: the comparison says which
// benchmarks were measured by process pairs, and why.
func (o *observer) ProcessPairs(_ *rmit.Benchmark, ev *record.Event) {
	run := o.head
	if ev.Version == record.VersionBaseline {
		run = o.baseline
	}
	if run != nil {
		run.Events = append(run.Events, *ev)
	}
}
