package session

import (
	"io"

	"github.com/gobench-dyn/gobench-dyn/internal/benchout"
	"github.com/gobench-dyn/gobench-dyn/internal/progress"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// observer writes results as they come and reports progress. With a
// baseline, it writes each version's results to its own output. It keeps
// both versions' slices in memory, for the comparison and the final,
// ordered results files.
type observer struct {
	out      *benchout.Writer
	baseOut  *benchout.Writer
	head     *record.Run
	baseline *record.Run
	header   *record.Header
	progress *progress.Reporter
	done     map[*rmit.Benchmark]int // completed iterations
	order    []record.Key            // the benchmarks as found
	// procs holds each benchmark's processes with results, and their
	// ns/op, which the precision line after its results counts and
	// splits by speed.
	procs map[record.Key]benchout.Processes
	// duet holds the measured slices of each benchmark's duet iteration
	// in progress, which its results get as one line when it is done.
	duet map[record.Key][]record.Slice
	odd  nonFinites // NaN and infinite values, for the summary
	// oneVersion says that the run measures one version, whose
	// precision lines say when its processes read at two speeds.
	oneVersion bool
	// halt stops the run when a results file fails; nil does nothing.
	halt func(error)
	err  error
}

// failed keeps the first results file failure and stops the run with it:
// measuring on would take slices that the results could not hold.
func (o *observer) failed(err error) {
	if err == nil || o.err != nil {
		return
	}
	o.err = err
	if o.halt != nil {
		o.halt(err)
	}
}

func newObserver(o *Options, bs []*rmit.Benchmark, header *record.Header, budget progress.Budget, outs Outputs, log io.Writer) *observer {
	total := 0
	for _, b := range bs {
		total += b.Config.SuiteRuns * b.Config.Iterations
	}
	obs := &observer{
		out:        benchout.NewWriter(outs.Results),
		header:     header,
		progress:   progress.New(log, o.Progress, progress.Plan{SuiteRuns: maxSuiteRunsOf(bs), Iterations: total, Benchmarks: len(bs), Budget: budget}),
		done:       map[*rmit.Benchmark]int{},
		procs:      map[record.Key]benchout.Processes{},
		duet:       map[record.Key][]record.Slice{},
		head:       &record.Run{Header: header},
		baseline:   &record.Run{Header: header},
		oneVersion: o.Baseline == "",
	}
	for _, b := range bs {
		if b.Package.Version == record.VersionHead {
			obs.order = append(obs.order, record.Key{Bench: b.Bench()})
		}
	}
	if o.Baseline != "" {
		base := io.Writer(io.Discard)
		if outs.Baseline != nil {
			base = outs.Baseline
		}
		obs.baseOut = benchout.NewWriter(base)
	}
	return obs
}

func (o *observer) SuiteRunStarted(k, iterations int) { o.progress.SuiteRunStarted(k, iterations) }

func (o *observer) Slice(b *rmit.Benchmark, s *record.Slice) {
	w, run := o.out, o.head
	if s.Version == record.VersionBaseline {
		w, run = o.baseOut, o.baseline
	}
	run.Slices = append(run.Slices, *s)
	o.odd.add(s)
	if s.Turn > 0 && !s.Warmup {
		o.duet[s.Key()] = append(o.duet[s.Key()], *s)
	} else {
		o.write(b, w, s)
	}
	if !s.Warmup {
		k := s.Key()
		if o.procs[k] == nil {
			o.procs[k] = benchout.Processes{}
		}
		o.procs[k].Add(s)
	}
}

// write writes slice s of b to w, keeping the first error.
func (o *observer) write(b *rmit.Benchmark, w *benchout.Writer, s *record.Slice) {
	o.failed(w.WriteSlice(benchout.PackageOf(o.header, b.Package.ImportPath), s))
}

func (o *observer) IterationDone(b *rmit.Benchmark, f *rmit.Failure) {
	if ss := o.duet[b.Key()]; len(ss) > 0 {
		w := o.out
		if b.Package.Version == record.VersionBaseline {
			w = o.baseOut
		}
		merged := record.MergeSlices(ss)
		o.write(b, w, &merged)
		delete(o.duet, b.Key())
	}
	o.done[b]++
	o.progress.IterationDone(b.String(), f == nil)
}

func (o *observer) BenchmarkDone(b *rmit.Benchmark, ev *record.Event) {
	if ev.Event == record.EventStop {
		o.stopped(ev)
	}
	if left := b.Config.SuiteRuns*b.Config.Iterations - o.done[b]; left > 0 {
		o.progress.SkippedIterations(left)
	}
	switch ev.Event {
	case record.EventFailure:
		o.progress.BenchmarkFailed(b.String(), ev.Reason)
	case record.EventBudget:
		o.progress.BenchmarkCut(b.String())
	default:
		o.progress.BenchmarkStopped(b.String(), stopWhy(ev))
	}
}

func (o *observer) StillScheduled(_ *rmit.Benchmark, ev *record.Event) { o.stopped(ev) }

// stopped ends a benchmark's results with the interval of its mean, which
// its stop event ev holds: now on the stream, and again when the results
// files are written in order.
func (o *observer) stopped(ev *record.Event) {
	w, run := o.out, o.head
	if ev.Version == record.VersionBaseline {
		w, run = o.baseOut, o.baseline
	}
	run.Events = append(run.Events, *ev)
	procs := o.procs[ev.Key()]
	var speeds stats.Speeds
	if o.oneVersion {
		// A comparison pairs the versions' processes, and reads what
		// their speeds do to it.
		speeds = procs.Speeds()
	}
	o.failed(w.WritePrecision(ev, len(procs), speeds))
}

// stopWhy says in a few words why a benchmark stopped before its cap.
func stopWhy(ev *record.Event) string {
	switch {
	case ev.Met:
		return "stable"
	case ev.Reason == record.ReasonSettled:
		return "verdict decided"
	case ev.Reason == record.ReasonNoVerdict:
		return "verdict out of reach"
	case ev.Reason == record.ReasonOutOfReach && ev.Precision != nil:
		return "out of reach at " + ev.Precision.String()
	case ev.Reason == record.ReasonOutOfReach:
		return "out of reach of its target"
	}
	return "not stable, stopped by a limit"
}
