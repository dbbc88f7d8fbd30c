package apiscore

import (
	"context"
	"errors"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// pairOptions configures one paired run.
type pairOptions struct {
	Stop    stopper.Config
	Compare gate.Options
	// Judged, when set, stops a pair once its comparison under
	// Compare.Plan is decided or out of reach (gate.Plan.JudgePaired);
	// otherwise a pair stops once both versions are stable.
	Judged bool
	// Turns, when set, runs each pair as duets of this shape, with turns
	// of TurnTime.
	Turns     *rmit.TurnPlan
	TurnTime  time.Duration
	SuiteRuns int // the cap, which the Interval criterion plans for
	Seed      uint64
	SliceTime time.Duration
	Timeout   time.Duration
	Budget    time.Duration // 0: none
	// Starter and Clock replace real processes and time in tests; nil
	// means real ones.
	Starter rmit.Starter
	Clock   func() time.Time
}

// pairRun runs the unchanged benchmarks base and their slowed partners
// head interleaved in one schedule, each pair stopping once its judge
// stops it (or, without it, once its policy holds both versions stable),
// and compares them. It is
// the one place that drives the runner, the stopping policy and the
// comparison. It returns the comparison, the unchanged code's
// measurements, and the number of failed iterations; with an interrupted
// run, what was measured is still compared.
func pairRun(ctx context.Context, base, head []*rmit.Benchmark, o pairOptions) (*gate.Result, *record.Run, int, error) {
	policy, err := session.StopPolicy(o.Stop, o.Seed, o.SuiteRuns)
	if err != nil {
		return nil, nil, 0, err
	}
	// A pair stops together, once decided (or both sides are stable) or
	// at the cap; each pair's two versions run back to back in every
	// suite run.
	paired := rmit.NewPaired(policy, base, head)
	if o.Judged && o.Stop.Criterion != stopper.None {
		o.Compare.Plan.JudgePaired(paired, o.Compare.Threshold, o.Compare.Confidence, o.Turns != nil)
	}
	obs := newCollector()
	r := &rmit.Runner{
		Benchmarks: append(append([]*rmit.Benchmark(nil), base...), head...),
		Policy:     paired, Seed: o.Seed, SliceTime: o.SliceTime, Timeout: o.Timeout,
		Budget: o.Budget, MinIterations: o.Stop.MinIterations, FixedN: true, Observer: obs,
		Pairs: &paired.Pairing, Turns: o.Turns, TurnTime: o.TurnTime, Starter: o.Starter, Clock: o.Clock,
	}
	sum, runErr := r.Run(ctx)
	if runErr != nil && !errors.Is(runErr, rmit.ErrInterrupted) {
		return nil, obs.base, 0, runErr
	}
	failed := 0
	if sum != nil {
		failed = len(sum.Failed)
	}
	res, err := gate.Runs(obs.base, obs.head, o.Compare)
	if err != nil {
		return nil, obs.base, failed, err
	}
	return res, obs.base, failed, runErr
}

// collector keeps the slices of a run by version.
type collector struct {
	base, head *record.Run
}

func newCollector() *collector {
	return &collector{base: &record.Run{}, head: &record.Run{}}
}

func (c *collector) SuiteRunStarted(int, int) {}

func (c *collector) Slice(b *rmit.Benchmark, s *record.Slice) {
	if s.Version == record.VersionBaseline {
		c.base.Slices = append(c.base.Slices, *s)
	} else {
		c.head.Slices = append(c.head.Slices, *s)
	}
}

func (c *collector) IterationDone(*rmit.Benchmark, *rmit.Failure) {}

func (c *collector) BenchmarkDone(*rmit.Benchmark, *record.Event)  {}
func (c *collector) StillScheduled(*rmit.Benchmark, *record.Event) {}
