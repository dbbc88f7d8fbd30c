package session

import (
	"context"
	"errors"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// measure runs the assembled runner until every benchmark of p stopped,
// ctx ended or an output failed, and returns what it measured.
func (r *run) measure(ctx context.Context, p *prepared, a *assembly) *Result {
	// A results file that fails stops the run as a failed record does.
	ctx, halt := context.WithCancelCause(ctx)
	defer halt(nil)
	obs := a.obs
	obs.halt = halt
	sum, runErr := a.runner.Run(ctx)
	obs.progress.Close()
	res := &Result{Summary: sum, PrepareFailures: p.suite.Failures, Options: r.opts, Drifting: drifting(obs.head), Unsettled: unsettled(obs.head), Amortized: amortized(obs.head), GoTest: a.goTest, AutoBudget: a.autoBudget, Unaffected: len(p.unaffected),
		Head: obs.head, NonFinite: obs.odd.list(), Order: obs.order, minimumBudget: a.minimumBudget, prepTime: a.prepTime}
	if a.goTest > 0 {
		res.GoTest = goTestTime(a.runner.Benchmarks, seenSetups(a.runner.Benchmarks, obs.head))
		res.Building = a.building
	}
	if p.base != nil && r.opts.ExtendPast > 0 {
		for _, b := range p.head.Benchmarks {
			if obs.done[b] > r.opts.ExtendPast*max(1, b.Config.Iterations) {
				res.PastCap++
			}
		}
	}
	if runErr != nil && !errors.Is(runErr, rmit.ErrInterrupted) {
		// An output failed: what was measured is still written
		// wherever it can be, marked partial.
		res.Stopped = runErr
	}
	return res
}

// seenSetups returns the setup of each benchmark of bs that has measured
// slices in run, refitted from what they spent outside the timer
// (record.Slice's wall beyond its ops) at the largest b.N it ran: a setup
// that grows with b.N shows there, and go test's ramp to a second pays it
// at a b.N ten times a slice's (goTestTime).
func seenSetups(bs []*rmit.Benchmark, run *record.Run) map[record.Key]rmit.Setup {
	seen := map[record.Key]*seenSetup{}
	for i := range run.Slices {
		s := &run.Slices[i]
		ns, ok := s.Values["ns/op"]
		if s.Warmup || s.Turn != 0 || !ok || s.N <= 0 {
			continue
		}
		k := s.Key()
		if seen[k] == nil {
			seen[k] = &seenSetup{}
		}
		seen[k].add(s.N, time.Duration(s.WallNs)-time.Duration(float64(s.N)*ns))
	}
	setups := map[record.Key]rmit.Setup{}
	for _, b := range bs {
		if s := seen[b.Key()]; s != nil {
			setups[b.Key()] = rmit.FitSetup(b.SetupN, b.Setup, float64(s.n), s.median())
		}
	}
	return setups
}

// seenSetup holds what a benchmark's slices at its largest b.N, n, spent
// outside the timer.
type seenSetup struct {
	n      int64
	setups []float64 // nanoseconds
}

func (s *seenSetup) add(n int64, setup time.Duration) {
	switch {
	case n > s.n:
		s.n, s.setups = n, []float64{float64(setup)}
	case n == s.n:
		s.setups = append(s.setups, float64(setup))
	}
}

func (s *seenSetup) median() time.Duration { return time.Duration(stats.MedianInPlace(s.setups)) }
