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
	Stop      stopper.Config
	Pair      session.PairOptions
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
// head interleaved in one schedule, as a gate runs its pairs
// (session.PairedRun), and compares them. It returns the comparison, the
// unchanged code's measurements, and the number of failed iterations;
// with an interrupted run, what was measured is still compared.
func pairRun(ctx context.Context, base, head []*rmit.Benchmark, o pairOptions) (*gate.Result, *record.Run, int, error) {
	policy, err := session.StopPolicy(o.Stop, o.Seed, o.SuiteRuns)
	if err != nil {
		return nil, nil, 0, err
	}
	o.Pair.Judged = o.Pair.Judged && o.Stop.Criterion != stopper.None
	paired := session.NewPairedRun(policy, base, head, o.Pair)
	obs := newCollector()
	r := &rmit.Runner{
		Benchmarks: append(append([]*rmit.Benchmark(nil), base...), head...),
		Seed:       o.Seed, SliceTime: o.SliceTime, Timeout: o.Timeout,
		Budget: o.Budget, MinIterations: o.Stop.MinIterations, Observer: obs,
		Starter: o.Starter, Clock: o.Clock,
	}
	paired.Drive(r)
	sum, runErr := r.Run(ctx)
	if runErr != nil && !errors.Is(runErr, rmit.ErrInterrupted) {
		return nil, obs.base, 0, runErr
	}
	failed := 0
	if sum != nil {
		failed = len(sum.Failed)
	}
	res, err := paired.Judge(obs.base, obs.head)
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
