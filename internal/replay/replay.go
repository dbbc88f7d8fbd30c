// Package replay runs a stopping policy post hoc on a recorded full run,
// as Laaber et al. evaluated dynamic reconfiguration (FSE'20, §5): where
// each benchmark would have stopped, how much time that saves, and how
// much its result differs from the full run's.
//
// Each iteration of the recorded run is fed to the policy slice by slice
// in recorded order, warmup and measurement slices alike, until the
// policy says the iteration is done; then the policy sees the iteration
// end and may stop the benchmark. The recorded iterations are the cap
// (the paper's fmax). An iteration that ends before the policy is done
// (fewer recorded slices than its warmup plus Measure) is marked short.
//
// The full result is every recorded measurement slice, after dropping the
// first FullWarmup slices of each iteration when FullWarmup ≥ 0 (the
// paper's static baseline drops 50 of each fork's 100). The dynamic result
// is the measurement slices the policy kept. Results compare by:
//
//   - change rate: |mean(dynamic) − mean(full)| / mean(full);
//   - the A/A test: whether the 99% hierarchical bootstrap interval of
//     mean(dynamic)/mean(full) contains 1;
//   - time saved: 1 − time consumed dynamically / time recorded. A
//     recording with slice times (a gobench-dyn raw file) counts the walls
//     of the slices consumed, the first of each process timed from its
//     start, so a replayed process pays its start-up as a live one does;
//     one without (CSV, JMH) counts slices, warmup included on both sides,
//     and each process Options.ProcessCost slice times more (zero, as the
//     paper counts, by default).
package replay

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper"
	"github.com/gobench-dyn/gobench-dyn/stopper/policy"
)

// Options configure a replay.
type Options struct {
	// Config is the dynamic reconfiguration to replay.
	Config stopper.Config
	// FullWarmup is the number of leading slices of each recorded
	// iteration that the full result leaves out; below zero, the full
	// result takes the recorded warmup flags.
	FullWarmup int
	// MaxIterations caps the iterations replayed per benchmark and
	// instance (fmax); zero means all recorded ones. The full result
	// always takes every recorded iteration.
	MaxIterations int
	// Resamples is the number of bootstrap resamples of the A/A test; zero
	// means 10,000, as in the paper.
	Resamples int
	// Seed seeds the A/A test's bootstrap.
	Seed uint64
	// Now reads the clock that times the policy's criteria; nil leaves
	// them untimed, and the replay a function of its inputs.
	Now func() time.Time
	// ProcessCost is, for a recording without slice times, the cost of
	// starting and ending one process in slice times. It enters the time
	// saved and the costs the policy sees, from which the Interval
	// criterion plans slices per process; a recording with times uses
	// those instead.
	ProcessCost float64
}

// An Iteration is where the policy ended one replayed iteration.
type Iteration struct {
	SuiteRun, Iteration int
	Warmup              int  // warmup slices the policy ran
	WarmupMet           bool // the warmup criterion held (false: WarmupMax forced the end)
	Measured            int  // measurement slices
	Short               bool // the recording ended before the policy was done
}

// A Benchmark is the replay of one benchmark on one instance.
type Benchmark struct {
	Key      record.Key
	Instance string

	Iterations []Iteration // the replayed iterations, in order
	Recorded   int         // recorded iterations
	Stopped    bool        // the policy stopped it before the recorded iterations ran out
	Met        bool        // the criterion held at the last iteration decision

	FullSlices, DynSlices int // slices consumed, warmup included
	// FullCost and DynCost are the time consumed: seconds when the
	// recording has slice times, otherwise slice times with each process
	// Options.ProcessCost more.
	FullCost, DynCost float64
	TimeSaved         float64 // 1 − DynCost/FullCost
	// Timed reports that the costs are the recorded slice times.
	Timed bool

	FullMean, DynMean float64
	Change            float64        // |DynMean − FullMean| / FullMean
	Ratio             stats.Interval // 99% CI of DynMean/FullMean
	Same              bool           // Ratio contains 1: the A/A test finds no difference
	Criterion         time.Duration  // time the policy spent in criteria
	// Precision is the interval of the mean at the last decision, over
	// the replayed iterations.
	Precision policy.Precision

	fullTree, dynTree *stats.Tree
	warmups           []float64 // warmup slices per iteration
}

// A Summary aggregates a replay over its benchmarks, as the rows of the
// paper's Tables 2 and 3.
type Summary struct {
	Benchmarks int

	FullSlices, DynSlices int
	FullCost, DynCost     float64 // as a Benchmark's, summed
	TimeSaved             float64 // 1 − ΣDynCost/ΣFullCost
	// Timed reports that every benchmark's costs are recorded slice
	// times; ProcessCost is the cost per process otherwise.
	Timed       bool
	ProcessCost float64

	// Same is the share of benchmarks whose A/A test finds no difference.
	Same float64
	// MeanChange and SDChange are the mean and standard deviation of the
	// change rates.
	MeanChange, SDChange float64
	// Below1, Below2 and Below3 are the shares of benchmarks with a change
	// rate below 1%, 2% and 3%.
	Below1, Below2, Below3 float64

	// WarmupMean and WarmupSD describe the warmup slices per iteration;
	// IterationsMean and IterationsSD the iterations per benchmark.
	WarmupMean, WarmupSD         float64
	IterationsMean, IterationsSD float64
	// WarmupUnmet is the share of iterations whose warmup hit WarmupMax;
	// Unmet the share of benchmarks that ran all their iterations without
	// the criterion holding.
	WarmupUnmet, Unmet float64
	// Short is the number of iterations the recording cut short.
	Short int
}

// A Result is a replay of a run.
type Result struct {
	Config     stopper.Config
	Benchmarks []*Benchmark
	Summary    Summary
}

// DefaultResamples is the bootstrap resamples of the A/A test of a
// replay that sets none.
const DefaultResamples = 10000

// JMHFullWarmup is the warmup of the static JMH baseline in the FSE'20
// study: JMH 1.21's 5 warmup iterations of 10 s, as 50 of 1 s. A replay
// of the study's JMH files leaves it out of the full result.
const JMHFullWarmup = 50

// Run replays opts.Config on run, benchmark by benchmark and instance by
// instance: each instance of a benchmark is replayed on its own, as each
// machine decides for itself. Only ns/op values take part.
func Run(run *record.Run, opts Options) (*Result, error) {
	if run == nil || len(run.Slices) == 0 {
		return nil, errors.New("replay: the run holds no slices")
	}
	if opts.Resamples == 0 {
		opts.Resamples = DefaultResamples
	}
	if !(opts.ProcessCost >= 0) || math.IsInf(opts.ProcessCost, 0) {
		return nil, fmt.Errorf("replay: process cost %v: want a finite number of slice times ≥ 0", opts.ProcessCost)
	}
	p, err := stopper.NewPolicy(opts.Config)
	if err != nil {
		return nil, err
	}
	loop := &policy.Loop{Policy: p, Now: opts.Now}
	res := &Result{Config: p.Config()}
	rng := rand.New(rand.NewPCG(opts.Seed, 0x5eed))
	for _, k := range run.Keys() {
		series := run.Series(k, "ns/op")
		for _, inst := range instances(series) {
			b := replayOne(loop, k, inst, series, opts)
			if b == nil {
				continue
			}
			b.compare(opts.Resamples, rng)
			res.Benchmarks = append(res.Benchmarks, b)
		}
	}
	if len(res.Benchmarks) == 0 {
		return nil, errors.New("replay: no benchmark has ns/op measurements")
	}
	res.Summary = summarize(res.Benchmarks)
	res.Summary.ProcessCost = opts.ProcessCost
	return res, nil
}

func instances(series []record.IterationSample) []string {
	var out []string
	for i, it := range series {
		if i == 0 || it.Instance != series[i-1].Instance {
			out = append(out, it.Instance)
		}
	}
	return out
}

// replayOne replays the iterations of one benchmark on one instance.
func replayOne(loop *policy.Loop, k record.Key, inst string, series []record.IterationSample, opts Options) *Benchmark {
	id := k.ID() + "\x00" + inst
	b := &Benchmark{Key: k, Instance: inst}
	full := &stats.Tree{}
	dyn := &stats.Tree{}
	var fullRun, dynRun *stats.Tree
	lastRun := math.MinInt
	stopped := false
	for _, it := range series {
		if it.Instance != inst {
			continue
		}
		vals := append(append([]float64(nil), it.Warmup...), it.Values...)
		b.Recorded++
		b.FullSlices += len(vals)
		b.FullCost += consumedCost(it.Walls, len(vals), opts.ProcessCost)
		b.Timed = it.Walls != nil
		fullVals := it.Values
		if opts.FullWarmup >= 0 {
			fullVals = vals[min(opts.FullWarmup, len(vals)):]
		}
		if it.SuiteRun != lastRun {
			fullRun = &stats.Tree{}
			full.Children = append(full.Children, fullRun)
		}
		fullRun.Children = append(fullRun.Children, stats.Leaf(fullVals))

		if stopped || opts.MaxIterations > 0 && len(b.Iterations) >= opts.MaxIterations {
			lastRun = it.SuiteRun
			continue
		}
		rec := Iteration{SuiteRun: it.SuiteRun, Iteration: it.Iteration}
		feed := loop.Begin(id)
		rec.WarmupMet = !feed.Step.Warmup && feed.Step.Met
		pos := 0
		for ; !feed.Step.Done; pos++ {
			if pos == len(vals) {
				rec.Short = true
				break
			}
			if feed.Add(vals[pos]) {
				rec.WarmupMet = feed.Step.Met
			}
		}
		measured := feed.Measured
		rec.Warmup, rec.Measured = len(feed.Warmup), len(measured)
		b.DynSlices += pos
		b.DynCost += consumedCost(it.Walls, pos, opts.ProcessCost)
		b.warmups = append(b.warmups, float64(len(feed.Warmup)))
		if it.SuiteRun != lastRun || dynRun == nil {
			dynRun = &stats.Tree{}
			dyn.Children = append(dyn.Children, dynRun)
		}
		dynRun.Children = append(dynRun.Children, stats.Leaf(measured))
		d := feed.End(costsOf(it, pos, len(feed.Warmup), opts.ProcessCost))
		stopped = d.Stop
		b.Met, b.Criterion, b.Precision = d.Met, loop.Spent(id), d.Precision
		b.Iterations = append(b.Iterations, rec)
		lastRun = it.SuiteRun
	}
	if b.Recorded == 0 {
		return nil
	}
	b.Stopped = stopped && len(b.Iterations) < b.Recorded
	b.fullTree, b.dynTree = full.Prune(), dyn.Prune()
	return b
}

// compare fills in the time saved and the result comparison.
func (b *Benchmark) compare(resamples int, rng *rand.Rand) {
	b.TimeSaved = 1 - b.DynCost/b.FullCost
	nan := math.NaN()
	b.FullMean, b.DynMean, b.Change = nan, nan, nan
	b.Ratio = stats.Interval{Center: nan, Lo: nan, Hi: nan, Confidence: stopper.Confidence}
	if b.fullTree == nil || b.dynTree == nil {
		return
	}
	b.FullMean = stat.Mean(b.fullTree.Flatten(nil), nil)
	b.DynMean = stat.Mean(b.dynTree.Flatten(nil), nil)
	b.Change = math.Abs(b.DynMean-b.FullMean) / b.FullMean
	b.Ratio = stats.RatioCI(b.fullTree, b.dynTree, stopper.Confidence, resamples, rng)
	b.Same = b.Ratio.Contains(1)
}

func summarize(bs []*Benchmark) Summary {
	var s Summary
	var changes, warmups, iters []float64
	same, unmet, warmupUnmet, nIter := 0, 0, 0, 0
	var below [3]int
	s.Timed = len(bs) > 0
	for _, b := range bs {
		s.FullSlices += b.FullSlices
		s.DynSlices += b.DynSlices
		s.FullCost += b.FullCost
		s.DynCost += b.DynCost
		s.Timed = s.Timed && b.Timed
		iters = append(iters, float64(len(b.Iterations)))
		warmups = append(warmups, b.warmups...)
		for _, it := range b.Iterations {
			nIter++
			if !it.WarmupMet {
				warmupUnmet++
			}
			if it.Short {
				s.Short++
			}
		}
		if !b.Met {
			unmet++
		}
		if math.IsNaN(b.Change) {
			continue
		}
		s.Benchmarks++
		changes = append(changes, b.Change)
		if b.Same {
			same++
		}
		for i, lim := range []float64{0.01, 0.02, 0.03} {
			if b.Change < lim {
				below[i]++
			}
		}
	}
	share := func(k, n int) float64 {
		if n == 0 {
			return math.NaN()
		}
		return float64(k) / float64(n)
	}
	s.TimeSaved = 1 - s.DynCost/s.FullCost
	s.Same = share(same, s.Benchmarks)
	s.MeanChange, s.SDChange = meanSD(changes)
	s.Below1, s.Below2, s.Below3 = share(below[0], s.Benchmarks), share(below[1], s.Benchmarks), share(below[2], s.Benchmarks)
	s.WarmupMean, s.WarmupSD = meanSD(warmups)
	s.IterationsMean, s.IterationsSD = meanSD(iters)
	s.WarmupUnmet = share(warmupUnmet, nIter)
	s.Unmet = share(unmet, len(bs))
	return s
}

func meanSD(xs []float64) (float64, float64) {
	switch len(xs) {
	case 0:
		return math.NaN(), math.NaN()
	case 1:
		return xs[0], 0
	}
	return stat.MeanStdDev(xs, nil)
}

// costUnit is the nominal time of one slice of a recording without
// times: the policy sees costs in slice times through it.
const costUnit = time.Second

// consumedCost returns the time the first n slices of an iteration took:
// the sum of their recorded walls in seconds (the first includes the
// process's start-up), or, without times, n slice times and processCost.
func consumedCost(walls []time.Duration, n int, processCost float64) float64 {
	if walls == nil {
		return float64(n) + processCost
	}
	var d time.Duration
	for _, w := range walls[:min(n, len(walls))] {
		d += w
	}
	return d.Seconds()
}

// costsOf returns what the policy sees at the end of a replayed iteration
// that consumed n slices, the first warm of them warmup: as a live run
// measures them, c₁ is the mean wall of its measurement slices and c₂ the
// rest of its wall. Without times, a slice costs costUnit and the process
// processCost of them more; with neither, the costs are unknown (zero).
func costsOf(it record.IterationSample, n, warm int, processCost float64) policy.Iteration {
	out := policy.Iteration{SuiteRun: it.SuiteRun}
	measured := n - warm
	switch {
	case measured <= 0:
	case it.Walls != nil:
		var all, in time.Duration
		for i, w := range it.Walls[:min(n, len(it.Walls))] {
			all += w
			if i >= warm {
				in += w
			}
		}
		out.SliceCost, out.ProcessCost = in/time.Duration(measured), all-in
	case processCost > 0:
		out.SliceCost = costUnit
		out.ProcessCost = time.Duration((processCost + float64(warm)) * float64(costUnit))
	}
	return out
}
