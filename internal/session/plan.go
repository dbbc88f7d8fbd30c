package session

import (
	"fmt"
	"io"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/shard"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"github.com/gobench-dyn/gobench-dyn/optime"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// A runPlan is what a run goes by, decided from its options alone before
// anything is prepared, so that a bad input fails at once rather than
// after building.
type runPlan struct {
	// opts are the run's options with the seed and the raw file
	// resolved.
	opts Options
	// past holds the records of the run resumed, and resume what it
	// measured; nil for a fresh run.
	past   *record.Run
	resume *rmit.Resume
	// config holds the per-benchmark configurations of --config, or nil.
	config *optime.ConfigFile
	// policy is the stopping policy before configurations and pairing
	// wrap it (assemblePolicy).
	policy rmit.Policy
	// shardTimes are the benchmark times of --shard-times, which
	// balance the shards; nil without it.
	shardTimes map[record.Bench]time.Duration
	// pairs says how a baseline run schedules, stops and judges its
	// pairs. Its confirmation's level waits for the benchmarks, which
	// bound how many comparisons are judged (assemblePolicy).
	pairs PairOptions
}

// plan decides the resume and raw-file rule, the seed, the stopping
// policy and the comparison's plan, reading the run to resume, the
// configuration file and the shard times: a resumed run appends to its
// own raw file with its own seed, and a fresh one without --seed draws
// one.
func plan(o Options, log io.Writer) (runPlan, error) {
	if o.Resume != "" {
		if o.Raw != "" && o.Raw != o.Resume {
			return runPlan{}, usage.ValueErrorf("raw", o.Raw, "a resumed run appends to %s", o.Resume)
		}
		o.Raw = o.Resume
	}
	past, err := readResume(&o, log)
	if err != nil {
		return runPlan{}, err
	}
	p := runPlan{past: past}
	switch {
	case past != nil:
		p.resume = rmit.NewResume(past)
		o.Seed = past.Header.Seed
	case !o.SeedSet:
		o.Seed = RandomSeed()
	}
	if o.ConfigFile != "" {
		if p.config, err = optime.ReadConfigFile(o.ConfigFile); err != nil {
			return runPlan{}, usage.Errorf("config", "%w", err)
		}
	}
	if o.ShardTimes != "" && !o.Shard.IsZero() {
		if p.shardTimes, err = readShardTimes(o.ShardTimes, log); err != nil {
			return runPlan{}, err
		}
	}
	if p.policy, err = StopPolicy(o.Stop, o.Seed, o.SuiteRuns*o.Iterations); err != nil {
		return runPlan{}, err
	}
	if o.Baseline != "" {
		p.pairs = pairOptions(&o, p.config)
	}
	p.opts = o
	return p, nil
}

// pairOptions returns how a baseline run with options o and per-benchmark
// configurations cf pairs its versions: o.Compare, paired by suite run,
// with the looks of a sequential plan when o.Sequential, and in duets of
// turns for the pairings that take them.
func pairOptions(o *Options, cf *optime.ConfigFile) PairOptions {
	po := PairOptions{Compare: o.Compare}
	po.Compare.Paired = true
	if o.duets() {
		turns := o.Turns
		turns.Together = o.Pairing == PairTogether
		po.Turns, po.TurnTime = &turns, o.TurnTime
	}
	// A fixed configuration stops nothing early, and judges only at the
	// end.
	if o.Sequential && o.Stop.Criterion != stopper.None {
		plan := gate.DefaultPlan(maxSuiteRuns(o, cf), o.ExtendPast)
		plan.Confirm = o.Confirm
		po.Compare.Plan, po.Judged = plan, true
	}
	return po
}

// StopPolicy returns the stopping policy stop asks for, before
// configurations and pairing wrap it, with seed for its draws: the
// Interval criterion plans its slices per process for maxProcesses, the
// cap. Every run drives the runner through it: run, its comparisons and
// abs alike.
func StopPolicy(stop stopper.Config, seed uint64, maxProcesses int) (rmit.Policy, error) {
	if stop.Criterion == stopper.None {
		return rmit.Static{Warmup: stop.WarmupMin, Slices: stop.Measure}, nil
	}
	stop.Seed, stop.MaxIterations = seed, maxProcesses
	p, err := stopper.NewPolicy(stop)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	return p, nil
}

// maxSuiteRuns returns the most suite runs any benchmark of the run can
// take: the last look of a sequential comparison.
func maxSuiteRuns(o *Options, cf *optime.ConfigFile) int {
	n := o.SuiteRuns
	if cf != nil {
		for _, e := range cf.Entries {
			n = max(n, e.SuiteRuns)
		}
	}
	return n
}

// readShardTimes reads the benchmark times of an earlier raw file, which
// balance the shards.
func readShardTimes(path string, log io.Writer) (map[record.Bench]time.Duration, error) {
	run, warns, err := record.ReadFile(path)
	if err != nil {
		return nil, usage.Errorf("shard-times", "%w", err)
	}
	for _, w := range warns {
		fmt.Fprintf(log, "gobench-dyn: warning: %s\n", w)
	}
	return shard.ExpectedTimes(run), nil
}
