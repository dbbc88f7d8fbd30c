package session

import (
	"context"
	"errors"

	"github.com/gobench-dyn/gobench-dyn/rmit"
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
	a.warmups.keep(r.log)
	var speeds []TwoSpeed
	if r.opts.Baseline == "" {
		// A comparison pairs the versions' processes, and a pair at
		// two speeds reads as such in its interval.
		speeds = twoSpeeds(obs.head)
	}
	res := &Result{Summary: sum, TwoSpeeds: speeds, PrepareFailures: p.suite.Failures, Options: r.opts, Drifting: drifting(obs.head), Unsettled: unsettled(obs.head), Amortized: amortized(obs.head), GoTest: a.goTest, AutoBudget: a.autoBudget, Unaffected: len(p.unaffected),
		Head: obs.head, NonFinite: obs.odd.list(), Order: obs.order, minimumBudget: a.minimumBudget, prepTime: a.prepTime}
	if a.goTest > 0 {
		res.GoTest = rmit.GoTestPassTime(a.runner.Benchmarks, obs.head)
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
