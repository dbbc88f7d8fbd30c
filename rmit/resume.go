package rmit

import (
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// A Resume is what an interrupted run recorded, for a run that continues
// it with the same seed and options. The resumed runner walks the same
// schedule; an iteration the records hold whole is not run again but
// replayed: its slices go to the Observer and its values to the Policy, in
// schedule order, so that the policy's decisions and the schedule come out
// as if the run had never stopped. An iteration the interruption cut short
// is run again, after an EventDiscarded record that tells readers to drop
// its earlier slices.
//
// A Resume holds the records of one instance, as one run writes them.
type Resume struct {
	iterations map[iterationKey]*pastIteration
	stopped    map[string]bool   // IDs with a stop event recorded
	budgetCut  map[string]string // the reason of each budget event recorded, by ID
	// byProcess holds why each benchmark measured by process pairs was,
	// by ID (record.EventProcessPairs).
	byProcess map[string]string
	// prepared holds the failure and skip events recorded before the
	// first iteration, by prepareKey.
	prepared map[string]bool
}

// iterationKey identifies one iteration of one benchmark.
type iterationKey struct {
	id                  string
	suiteRun, iteration int
}

// pastIteration is what the records hold of one iteration.
type pastIteration struct {
	slices  []record.Slice
	failure *record.Event
}

// NewResume returns the Resume of run, the records read from the raw file
// of an interrupted run.
func NewResume(run *record.Run) *Resume {
	r := &Resume{iterations: map[iterationKey]*pastIteration{}, stopped: map[string]bool{}, budgetCut: map[string]string{}, prepared: map[string]bool{},
		byProcess: map[string]string{}}
	at := func(id string, k, it int) *pastIteration {
		key := iterationKey{id, k, it}
		p := r.iterations[key]
		if p == nil {
			p = &pastIteration{}
			r.iterations[key] = p
		}
		return p
	}
	for _, s := range run.Slices {
		p := at(s.Key().ID(), s.SuiteRun, s.Iteration)
		p.slices = append(p.slices, s)
	}
	for i := range run.Events {
		e := &run.Events[i]
		id := e.Key().ID()
		if e.SuiteRun == 0 && (e.Event == record.EventFailure || e.Event == record.EventSkip) {
			r.prepared[prepareKey(e)] = true
		}
		switch e.Event {
		case record.EventFailure:
			// Failures while preparing carry no suite run: the
			// resumed run prepares again and finds them itself.
			if e.SuiteRun > 0 {
				at(id, e.SuiteRun, e.Iteration).failure = e
			}
		case record.EventStop:
			r.stopped[id] = true
		case record.EventBudget:
			r.budgetCut[id] = e.Reason
		case record.EventProcessPairs:
			r.byProcess[id] = e.Reason
		}
	}
	return r
}

func prepareKey(e *record.Event) string {
	return strings.Join([]string{e.Event, e.Version, e.Package, e.Benchmark, e.Reason}, "\x00")
}

// WriteEvents writes the failures and skips met while preparing s to w,
// leaving out those that past, the records of the run s resumes (or nil),
// already hold.
func (s *Suite) WriteEvents(w *record.Writer, past *Resume) error {
	var evs []*record.Event
	for _, f := range s.Failures {
		evs = append(evs, f.Event())
	}
	for _, f := range s.Skipped {
		evs = append(evs, f.SkipEvent())
	}
	for _, e := range evs {
		if past != nil && past.prepared[prepareKey(e)] {
			continue
		}
		if err := w.Write(e); err != nil {
			return err
		}
	}
	return nil
}

// Len returns the number of iterations the records hold, whole or not.
func (r *Resume) Len() int {
	if r == nil {
		return 0
	}
	return len(r.iterations)
}

// lookup returns what the records hold of iteration it of b in suite run
// k, or nil.
func (r *Resume) lookup(b *Benchmark, k, it int) *pastIteration {
	if r == nil {
		return nil
	}
	return r.iterations[iterationKey{b.ID, k, it}]
}

// cutByBudget returns the reason of the budget event the records hold
// for the benchmark of ID id, and whether they hold one.
func (r *Resume) cutByBudget(id string) (reason string, ok bool) {
	if r == nil {
		return "", false
	}
	reason, ok = r.budgetCut[id]
	return reason, ok
}

// forget drops the records of iteration it of b in suite run k, which
// were discarded: the iteration runs again.
func (r *Resume) forget(b *Benchmark, k, it int) {
	if r != nil {
		delete(r.iterations, iterationKey{b.ID, k, it})
	}
}

// replay takes the recorded iteration past of entry e in place of running
// it, if the records hold it whole: it completed (the policy says it was
// done after its last slice) or it failed. It reports whether it did. An
// iteration cut short is discarded, to be run again.
func (r *Runner) replay(e Entry, k int, past *pastIteration, sum *Summary) bool {
	b := e.Bench
	st := r.state[b]
	// Consult the policy slice by slice exactly as the iteration did, so
	// that a policy with a random source draws the same numbers.
	feed := r.loop.Begin(b.ID)
	for _, s := range past.slices {
		// The recorded flags, not the policy's steps, say which slices
		// were warmup: the policy may have changed its mind since.
		feed.Step.Warmup = s.Warmup
		feed.Add(primaryValue(s.Values))
	}
	measured := feed.Measured
	if past.failure == nil && !feed.Step.Done {
		r.discard(e, k)
		return false
	}

	var times processTimes
	for i := range past.slices {
		s := &past.slices[i]
		// A replayed slice counts as measured, but its time was spent
		// before this run started: Summary.InSlices is this run's.
		if s.Warmup {
			sum.Warmup++
		} else {
			sum.Slices++
		}
		times.add(s)
		b.N = s.N
		if r.Observer != nil {
			r.Observer.Slice(b, s)
		}
	}
	st.wall += times.wall
	st.iterations++
	st.last = [2]int{k, e.Iteration}
	sum.Iterations++
	var fail *Failure
	if past.failure != nil {
		fail = &Failure{Bench: b, SuiteRun: k, Iteration: e.Iteration, Reason: past.failure.Reason, Detail: past.failure.Detail}
	}
	if r.Observer != nil {
		r.Observer.IterationDone(b, fail)
	}
	if fail != nil {
		st.failed = true
		sum.Failed = append(sum.Failed, fail)
		if r.Observer != nil {
			r.Observer.BenchmarkDone(b, past.failure)
		}
		return true
	}
	r.recalibrate(b, &times)
	if e.Padding {
		return true
	}
	if d := feed.End(costs(k, e.Iteration, measured, times.inSlices, times.wall)); d.Stop {
		// An interruption between the iteration and its stop record
		// leaves the record to write now.
		r.stop(b, k, e.Iteration, sum, r.Resume.stopped, d)
	}
	return true
}

// discard records that the slices an interrupted run recorded of entry e
// in suite run k are dropped: the iteration was cut short and runs again.
func (r *Runner) discard(e Entry, k int) {
	b := e.Bench
	r.Resume.forget(b, k, e.Iteration)
	r.event(&record.Event{Event: record.EventDiscarded, Package: b.Package.ImportPath, Benchmark: b.Name, Version: b.Package.Version,
		SuiteRun: k, Iteration: e.Iteration, Reason: "the iteration was cut short; it runs again"})
}

// judgeRecorded is judge for an iteration replayed from the records of an
// interrupted run: a stop those records already hold is not written
// again.
func (r *Runner) judgeRecorded(e Entry, k int, measured []float64, inSlices, wall time.Duration, sum *Summary) {
	if d := r.loop.End(e.Bench.ID, costs(k, e.Iteration, measured, inSlices, wall)); d.Stop {
		r.stop(e.Bench, k, e.Iteration, sum, r.Resume.stopped, d)
	}
}
