package stopper

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/stopper/policy"
)

func intervalConfig(target float64, measure int) Config {
	cfg := Default(Interval)
	cfg.Threshold, cfg.Measure = target, measure
	return cfg
}

func TestIntervalStopsAtTarget(t *testing.T) {
	p := newPolicy(t, intervalConfig(0.05, 2))
	// Process means 100 and 102: ±t(0.975, 1)·√2/√2 = ±12.706 around 101.
	d := p.EndIteration("b", policy.Iteration{SuiteRun: 1, Measured: []float64{99, 101}})
	assert.False(t, d.Stop)
	d = p.EndIteration("b", policy.Iteration{SuiteRun: 2, Measured: []float64{101, 103}})
	assert.False(t, d.Stop)
	assert.InDelta(t, 12.706205/101, d.Precision.Width, 1e-6)
	// Means 100, 102, 101: sd 1, ±4.302653/√3 = ±2.48414 around 101;
	// met once, the stop waits for the next process.
	d = p.EndIteration("b", policy.Iteration{SuiteRun: 3, Measured: []float64{100, 102}})
	assert.False(t, d.Stop, "held at one process")
	assert.Equal(t, "interval", d.Criterion)
	assert.InDelta(t, 4.302653/math.Sqrt(3)/101, d.Precision.Width, 1e-6)
	assert.Equal(t, 0.05, d.Precision.Target)
	assert.Equal(t, 0.95, d.Precision.Confidence)
	// Means 100, 102, 101, 101: sd 0.8165, ±3.182446·0.8165/2 = ±1.29923.
	d = p.EndIteration("b", policy.Iteration{SuiteRun: 4, Measured: []float64{100, 102}})
	assert.True(t, d.Stop, "held at two consecutive processes")
	assert.True(t, d.Met)
	assert.InDelta(t, 3.182446*math.Sqrt(2.0/3)/2/101, d.Precision.Width, 1e-6)
	// A process that widens the interval again resets the count.
	p = newPolicy(t, intervalConfig(0.05, 2))
	for k, vals := range [][]float64{{99, 101}, {101, 103}, {100, 102}, {80, 80}, {100, 102}} {
		assert.False(t, p.EndIteration("b", policy.Iteration{SuiteRun: k + 1, Measured: vals}).Stop, "process %d", k+1)
	}
}

func TestIntervalNeverJudgesFewerThanThreeProcesses(t *testing.T) {
	cfg := intervalConfig(0.05, 2)
	cfg.MinIterations = 1
	p := newPolicy(t, cfg)
	for k := 1; k <= 2; k++ {
		d := p.EndIteration("b", policy.Iteration{SuiteRun: k, Measured: []float64{100, 100}})
		assert.False(t, d.Stop, "process %d: width 0, but fewer than %d processes", k, MinProcesses)
	}
	assert.False(t, p.EndIteration("b", policy.Iteration{SuiteRun: 3, Measured: []float64{100, 100}}).Stop, "held once")
	assert.True(t, p.EndIteration("b", policy.Iteration{SuiteRun: 4, Measured: []float64{100, 100}}).Stop)
}

func TestIntervalAdaptsSlicesPerProcess(t *testing.T) {
	ms := time.Millisecond
	// handData of package varcomp: S₁² = 2, T₂² = 6 after three
	// processes, so m* = ⌈√(c₂·2/(c₁·6))⌉. ±1% is out of reach in any
	// plan, so m* decides, at most the pilot's 5 slices.
	procs := [][]float64{{10, 12}, {14, 16}, {9, 11}}
	for _, c := range []struct {
		c2   time.Duration
		want int
	}{{1200 * ms, 2}, {2400 * ms, 3}, {30 * time.Second, 10}, {10 * ms, MinSlices}} {
		cfg := intervalConfig(0.01, 5)
		cfg.WarmupMax = cfg.WarmupMin // a fixed warmup: TestIntervalLearnsWarmup has the learned one
		p := newPolicy(t, cfg)
		assert.Equal(t, 1+5, p.MaxSlices("b"), "the pilot: one warmup and Measure slices")
		for k, vals := range procs {
			p.EndIteration("b", policy.Iteration{SuiteRun: k + 1, Measured: vals, SliceCost: 100 * ms, ProcessCost: c.c2})
		}
		want := min(c.want, 5)
		assert.Equal(t, want, p.Slices("b"), "c₂ = %v", c.c2)
		assert.Equal(t, 1+want, p.MaxSlices("b"))
		// The iteration then ends after that many measurement slices.
		_, measured := runIteration(p, "b", []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1})
		assert.Len(t, measured, want)
	}
}

func TestIntervalWithoutCostsKeepsPilotSlices(t *testing.T) {
	p := newPolicy(t, intervalConfig(0.01, 4))
	for k, vals := range [][]float64{{10, 12}, {14, 16}, {9, 11}} {
		p.EndIteration("b", policy.Iteration{SuiteRun: k + 1, Measured: vals})
	}
	assert.Equal(t, 4, p.Slices("b"))
}

func TestIntervalPredictsProcesses(t *testing.T) {
	p := newPolicy(t, intervalConfig(0.05, 2))
	var d policy.Decision
	for k, vals := range [][]float64{{10, 12}, {14, 16}, {9, 11}} {
		d = p.EndIteration("b", policy.Iteration{SuiteRun: k + 1, Measured: vals})
	}
	assert.False(t, d.Stop)
	assert.Equal(t, 78, d.Precision.Processes, "as varcomp's known answer")
	assert.Equal(t, "±55%; about 78 processes for ±5%", d.Precision.String())
}

// TestIntervalPredictsItsStop: each decision that does not stop says after
// which process the criterion is predicted to stop: the next, for a
// benchmark at its target once or one it will say out of reach; the
// processes predicted for the target and one more to hold it there, for
// one within its cap; none for one predicted to run to its cap.
func TestIntervalPredictsItsStop(t *testing.T) {
	run := func(maxIterations int, procs [][]float64) (policy.Decision, *Policy) {
		cfg := intervalConfig(0.05, 2)
		cfg.MaxIterations = maxIterations
		p := newPolicy(t, cfg)
		var d policy.Decision
		for k, vals := range procs {
			d = p.EndIteration("b", policy.Iteration{SuiteRun: k + 1, Measured: vals})
		}
		return d, p
	}
	steady := [][]float64{{99, 101}, {101, 103}, {100, 102}}
	d, p := run(10, steady)
	require.False(t, d.Stop, "at the target once")
	assert.Equal(t, 4, d.Precision.Stop)
	assert.True(t, p.EndIteration("b", policy.Iteration{SuiteRun: 4, Measured: []float64{100, 102}}).Met, "stopped where predicted")

	noisy := [][]float64{{80, 81}, {120, 121}, {95, 96}}
	d, p = run(10, noisy)
	require.False(t, d.Stop)
	assert.Equal(t, 4, d.Precision.Stop)
	assert.Equal(t, policy.ReasonOutOfReach, p.EndIteration("b", policy.Iteration{SuiteRun: 4, Measured: []float64{110, 111}}).Reason, "stopped where predicted")

	// 78 processes for ±5% (TestIntervalPredictsProcesses), then one
	// more to hold it.
	wide := [][]float64{{10, 12}, {14, 16}, {9, 11}}
	d, _ = run(0, wide)
	assert.Equal(t, 79, d.Precision.Stop, "no cap")
	d, _ = run(100, wide)
	assert.Equal(t, 79, d.Precision.Stop)
	d, _ = run(50, wide)
	assert.Zero(t, d.Precision.Stop, "it runs to its cap: 78 is not over 3 times 50")
	d, _ = run(10, wide)
	assert.Equal(t, 4, d.Precision.Stop, "out of reach of a cap of 10")
}

// TestIntervalStopsOutOfReach: a benchmark whose process means scatter by
// ±20% needs hundreds of processes for ±5%, far over OutOfReach times a cap
// of 10, so it stops unmet at the earliest point the criterion could stop
// it (the 4th process), saying why; under no cap, or a cap it could
// reach, it runs on.
func TestIntervalStopsOutOfReach(t *testing.T) {
	noisy := [][]float64{{80, 81}, {120, 121}, {95, 96}, {110, 111}, {85, 86}}
	run := func(maxIterations int) (policy.Decision, int) {
		cfg := intervalConfig(0.05, 2)
		cfg.MaxIterations = maxIterations
		p := newPolicy(t, cfg)
		var d policy.Decision
		for k, vals := range noisy {
			d = p.EndIteration("b", policy.Iteration{SuiteRun: k + 1, Measured: vals})
			if d.Stop {
				return d, k + 1
			}
		}
		return d, len(noisy)
	}
	d, procs := run(10)
	assert.True(t, d.Stop)
	assert.False(t, d.Met)
	assert.Equal(t, policy.ReasonOutOfReach, d.Reason)
	assert.Equal(t, MinProcesses+HoldProcesses-1, procs)
	assert.Greater(t, d.Precision.Processes, OutOfReach*10)

	d, procs = run(0)
	assert.False(t, d.Stop, "no cap: nothing is out of reach")
	assert.Equal(t, len(noisy), procs)

	d, procs = run(1000)
	assert.False(t, d.Stop, "a cap that can reach the target")
	assert.Equal(t, len(noisy), procs)
}

// A benchmark whose interval has just reached its target is not stopped as
// out of reach of it, though the model, from its large within-process
// noise, predicts many processes for the target: it waits for the second
// process in a row at the target, as any other.
func TestIntervalAtTargetIsNotOutOfReach(t *testing.T) {
	cfg := intervalConfig(0.05, 2)
	cfg.MaxIterations = 10
	p := newPolicy(t, cfg)
	var d policy.Decision
	// Process means 100, 100, 104 (±5.7%), then 101 (±3.0%).
	for k, m := range []float64{100, 100, 104, 101} {
		d = p.EndIteration("b", policy.Iteration{SuiteRun: k + 1, Measured: []float64{m - 50, m + 50}})
	}
	require.LessOrEqual(t, d.Precision.Width, 0.05)
	require.Greater(t, d.Precision.Processes, OutOfReach*10, "the case: the model predicts it out of reach")
	assert.False(t, d.Stop, "held once: not out of reach, not yet stable")
	d = p.EndIteration("b", policy.Iteration{SuiteRun: 5, Measured: []float64{51, 151}})
	assert.True(t, d.Met || d.Reason == policy.ReasonOutOfReach && d.Precision.Width > 0.05, "%+v", d)
}

// simulate draws processes of a benchmark with mean 100, within-process
// sd sigma and between-process effects from between, runs the Interval
// policy on them until it stops or reaches capProcs, and reports the last
// decision, the processes and slices it took and the true mean.
func simulate(p *Policy, bench string, rng *rand.Rand, sigma float64, between func(*rand.Rand) float64, capProcs int, c1, c2 time.Duration) (d policy.Decision, procs, slices int) {
	for procs < capProcs {
		m := p.Slices(bench)
		b := between(rng)
		vals := make([]float64, m)
		for i := range vals {
			vals[i] = 100 + b + sigma*rng.NormFloat64()
		}
		procs++
		slices += m
		d = p.EndIteration(bench, policy.Iteration{SuiteRun: procs, Measured: vals, SliceCost: c1, ProcessCost: c2})
		if d.Stop {
			break
		}
	}
	return d, procs, slices
}

// coverageCases are the between-process effects of the coverage
// simulation, with a within-process sd of 2%: normal effects with ratios
// of between to within sd of 0, 0.5, 1 and 3, and a bimodal case whose
// processes land ±3% around the mean at random. least is the coverage the
// test holds each case to: 93%, 2 points under the nominal 95%, for the
// cases that reach it; for the two that fall short, ratio 3 and the
// bimodal case, a floor just under their measured coverage (92% against
// 92.3%, 89.5% against 90.0%, within the standard error of 0.5 points), so
// the test catches them getting worse and claims no more. (With a pilot of
// 5 slices per process, before IntervalPilotSlices, they were 92.7% and
// 86.4%.)
//
// Ratio 3 comes out at 92.3%, short of 93%: such a benchmark takes
// about 18 processes, and the more looks a rule takes, the likelier one
// of them sees a spread that is low by chance. Requiring the criterion to
// hold at more consecutive processes in long runs did not help (91.9–92.3%).
//
// The bimodal case falls short further: 90.0%. There the
// spread of the process means is smallest exactly when their mean is
// furthest off (most processes in one mode), so a rule that stops on a
// narrow interval picks those runs; and a run whose first processes all
// land in one mode cannot be told from a stable benchmark. Only more
// processes before any stop fix it (TestIntervalCoverageSixProcesses), at
// a cost that every stable benchmark pays (docs/EVALUATION.md).
var coverageCases = []struct {
	name    string
	between func(*rand.Rand) float64
	least   float64
}{
	{"ratio 0", func(*rand.Rand) float64 { return 0 }, 0.93},
	{"ratio 0.5", func(r *rand.Rand) float64 { return 1 * r.NormFloat64() }, 0.93},
	{"ratio 1", func(r *rand.Rand) float64 { return 2 * r.NormFloat64() }, 0.93},
	{"ratio 3", func(r *rand.Rand) float64 { return 6 * r.NormFloat64() }, 0.92},
	{"bimodal ±3%", func(r *rand.Rand) float64 {
		if r.IntN(2) == 0 {
			return -3
		}
		return 3
	}, 0.895},
}

// TestIntervalCoverage: the interval a benchmark stops with, at the
// default target and confidence, covers the true mean within 2 points of
// its nominal 95% for normal between-process effects up to a ratio of 1,
// although the stop looks at the interval after every process; at ratio 3
// it falls just short, and a bimodal benchmark further (see
// coverageCases). No case covers more than 97%: the interval is not
// needlessly wide. 2000 benchmarks per case (a standard error of
// 0.5 points), a cap of 30 processes, slices of 100 ms and processes
// costing 150 ms besides them.
func TestIntervalCoverage(t *testing.T) {
	for _, c := range coverageCases {
		cov := intervalCoverage(t, c.between, MinProcesses, 30)
		t.Logf("%s: coverage %.1f%%", c.name, 100*cov)
		assert.GreaterOrEqual(t, cov, c.least, c.name)
		assert.LessOrEqual(t, cov, 0.97, c.name)
	}
}

// TestIntervalCoverageSixProcesses: with --min-iterations 6, so that the
// earliest stop is at the 7th process, the bimodal case and ratio 3 come
// within 2 points of 95% as well. Only 1 run in 64 then has its first 7
// processes in one mode, against 1 in 8 for the first 4.
func TestIntervalCoverageSixProcesses(t *testing.T) {
	for _, c := range coverageCases {
		if c.name != "ratio 3" && c.name != "bimodal ±3%" {
			continue
		}
		cov := intervalCoverage(t, c.between, 6, 30)
		t.Logf("%s, at least 6 processes: coverage %.1f%%", c.name, 100*cov)
		assert.InDelta(t, 0.95, cov, 0.02, c.name)
	}
}

// TestIntervalCoverageAtDefaultCap: at the cap `run` gives Interval by
// default (10 suite runs), every normal case is within 2 points of 95%,
// ratio 3 included (94.8%): a benchmark that needs about 18 processes now
// runs to the cap and stops there, or out of reach, instead of stopping
// on the first of many looks whose spread came out low. The bimodal case
// stays short (89.0%; 87.2% with a pilot of 5 slices) for the reason
// coverageCases gives.
func TestIntervalCoverageAtDefaultCap(t *testing.T) {
	for _, c := range coverageCases {
		cov := intervalCoverage(t, c.between, MinProcesses, 10)
		t.Logf("%s, cap 10: coverage %.1f%%", c.name, 100*cov)
		least := 0.93
		if c.name == "bimodal ±3%" {
			least = 0.885
		}
		assert.GreaterOrEqual(t, cov, least, c.name)
		assert.LessOrEqual(t, cov, 0.97, c.name)
	}
}

// intervalCoverage returns the share of 2000 simulated benchmarks, each
// with a within-process sd of 2% and the given between-process effect,
// whose interval at their stop covers the true mean, under the default
// Interval policy with at least minIterations processes and a cap of
// capProcs.
func intervalCoverage(t *testing.T, between func(*rand.Rand) float64, minIterations, capProcs int) float64 {
	cov, _ := simulatedCoverage(t, between, minIterations, capProcs, false)
	return cov
}

// simulatedCoverage runs 2000 simulated benchmarks (see intervalCoverage)
// and returns the share of stopped intervals that cover the true mean and
// the mean slices per benchmark. A slow op's slices cost as much as a
// process's warmup: 100 ms each, and 110 ms besides them.
func simulatedCoverage(t *testing.T, between func(*rand.Rand) float64, minIterations, capProcs int, slowOp bool) (coverage, slices float64) {
	rng := rand.New(rand.NewPCG(1, 2))
	cfg := Default(Interval)
	cfg.MaxIterations, cfg.MinIterations = capProcs, minIterations
	p := newPolicy(t, cfg)
	c2 := 150 * time.Millisecond
	if slowOp {
		c2 = 110 * time.Millisecond
	}
	covered, n, total := 0, 2000, 0
	for i := range n {
		if slowOp {
			require.True(t, p.SetSlowOp(string(rune(i)), false))
		}
		d, _, sl := simulate(p, string(rune(i)), rng, 2, between, capProcs, 100*time.Millisecond, c2)
		total += sl
		require.True(t, d.Precision.Known())
		// The interval is the mean ± Width·|mean|; recover it from the
		// estimate to check it.
		iv := stats.FitComponents(p.state(string(rune(i))).procs).Interval(IntervalConfidence)
		if iv.Lo <= 100 && 100 <= iv.Hi {
			covered++
		}
	}
	return float64(covered) / float64(n), float64(total) / float64(n)
}

// TestSlowOpPilot: a slow op warms up for one slice from its first
// process on, or for none when go test measures it cold, unless --warmup
// asks for more; it measures two slices in its first process and one in
// each other process of the pilot, and is then planned from one slice up.
func TestSlowOpPilot(t *testing.T) {
	ms := time.Millisecond
	p := newPolicy(t, intervalConfig(0.03, 2))
	require.True(t, p.SetSlowOp("b", false))
	assert.Equal(t, 1+2, p.MaxSlices("b"), "one warmup slice, not the learning cap")
	// The first slice is far slower than the second: a process looking
	// for the steady state would warm up again.
	warmup, measured := runIteration(p, "b", []float64{900, 100, 101, 1, 1})
	assert.Equal(t, []float64{900}, warmup)
	assert.Equal(t, []float64{100, 101}, measured)
	// Between-process spread far above the within: the plan measures one
	// slice per process past the pilot.
	for k, vals := range [][]float64{{100, 101}, {90}, {112}, {95}} {
		if k > 0 {
			assert.Equal(t, 1, p.Slices("b"), "process %d", k+1)
		}
		p.EndIteration("b", policy.Iteration{SuiteRun: k + 1, Measured: vals, SliceCost: 100 * ms, ProcessCost: 110 * ms})
	}
	assert.Equal(t, PlannedMinSlices, p.Slices("b"))
	assert.False(t, p.SetSlowOp("b", false), "only before the first process")

	q := newPolicy(t, intervalConfig(0.03, 2))
	assert.True(t, q.SetLearnedWarmup("c", 4), "a warmup from --config")
	require.True(t, q.SetSlowOp("c", true))
	n, _ := q.LearnedWarmup("c")
	assert.Equal(t, 4, n, "a learned warmup from an earlier run stands")

	none := newPolicy(t, Default(None))
	assert.False(t, none.SetSlowOp("b", false), "a static configuration keeps its own")

	cold := newPolicy(t, intervalConfig(0.03, 2))
	require.True(t, cold.SetSlowOp("d", true))
	assert.Equal(t, 2, cold.MaxSlices("d"), "no warmup")
	warmup, measured = runIteration(cold, "d", []float64{900, 100, 101})
	assert.Empty(t, warmup, "a cold op is measured from its first run, as go test measures it")
	assert.Equal(t, []float64{900, 100}, measured)
	cold.EndIteration("d", policy.Iteration{SuiteRun: 1, Measured: measured, SliceCost: 100 * ms, ProcessCost: 10 * ms})
	warmup, measured = runIteration(cold, "d", []float64{500, 100})
	assert.Empty(t, warmup)
	assert.Equal(t, []float64{500}, measured)

	// --warmup 3: a warmup asked for, cold or not.
	cfg := intervalConfig(0.03, 2)
	cfg.WarmupMin = 3
	asked := newPolicy(t, cfg)
	require.True(t, asked.SetSlowOp("e", true))
	require.True(t, asked.SetSlowOp("f", false))
	for _, b := range []string{"e", "f"} {
		warmup, measured = runIteration(asked, b, []float64{900, 800, 700, 100, 101, 1})
		assert.Equal(t, []float64{900, 800, 700}, warmup, b)
		assert.Equal(t, []float64{100, 101}, measured, b)
	}
}

// TestSlowOpCoverage: a slow op's pilot of two slices and then one per
// process keeps the coverage of its stopped interval within 2 points of
// the default pilot's in every case of coverageCases, in 35–45% fewer
// slices. The normal cases stay within their standard error (0.5 points);
// the bimodal case loses 1.5 (88.5% against 90.0%), as a slow op takes
// fewer slices to the same early stop.
func TestSlowOpCoverage(t *testing.T) {
	for _, c := range coverageCases {
		def, defSlices := simulatedCoverage(t, c.between, MinProcesses, 30, false)
		slow, slowSlices := simulatedCoverage(t, c.between, MinProcesses, 30, true)
		t.Logf("%s: coverage %.1f%% in %.1f slices; as a slow op %.1f%% in %.1f", c.name, 100*def, defSlices, 100*slow, slowSlices)
		assert.GreaterOrEqual(t, slow, def-0.02, c.name)
		assert.Less(t, slowSlices, defSlices, c.name)
	}
}

func TestIntervalLearnsWarmup(t *testing.T) {
	for _, c := range []struct {
		name    string
		first   []float64 // the first process's slices
		learned int
		settled bool
	}{
		{"steady from the first slice", []float64{100, 99, 1, 1}, 1, true},
		{"one slice of transient", []float64{300, 100, 101, 1, 1}, 1, true},
		{"two slices of transient", []float64{900, 300, 100, 101, 1, 1}, 2, true},
		{"getting faster to the cap", []float64{1000, 900, 800, 700, 600, 500, 400, 300, 200, 100, 1, 1}, LearnedWarmupMax, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newPolicy(t, intervalConfig(0.03, 2))
			assert.Equal(t, LearnedWarmupMax+2, p.MaxSlices("b"), "the first process may warm up to the cap")
			warmup, measured := runIteration(p, "b", c.first)
			assert.Len(t, warmup, min(len(c.first)-2, LearnedWarmupMax))
			assert.Len(t, measured, 2)
			p.EndIteration("b", policy.Iteration{SuiteRun: 1, Measured: measured})
			n, settled := p.LearnedWarmup("b")
			assert.Equal(t, c.learned, n)
			assert.Equal(t, c.settled, settled)
			assert.Equal(t, c.learned+2, p.MaxSlices("b"))
			// Every later process warms up as long, whatever its slices.
			warmup, measured = runIteration(p, "b", []float64{5, 50, 500, 5000, 5, 5, 5, 5, 5, 5, 5, 5, 5})
			assert.Len(t, warmup, c.learned)
			assert.Len(t, measured, 2)
			_, met := p.WarmupSlices("b")
			assert.Equal(t, c.settled, met, "a later process's warmup holds as the first one's did")
		})
	}
}

// TestIntervalTakesAnEarlierWarmup gives a benchmark the warmup a
// configuration file carries: its first process warms up that long, not
// until its slices settle, and a criterion that does not learn its
// warmup leaves it to the caller.
func TestIntervalTakesAnEarlierWarmup(t *testing.T) {
	p := newPolicy(t, intervalConfig(0.03, 2))
	require.True(t, p.SetLearnedWarmup("b", 3))
	assert.Equal(t, 3+2, p.MaxSlices("b"))
	// Slices that keep getting faster would have warmed it to the cap.
	warmup, measured := runIteration(p, "b", []float64{1000, 900, 800, 700, 600, 500, 400, 300, 200, 100, 1, 1})
	assert.Len(t, warmup, 3)
	assert.Len(t, measured, 2)
	d := p.EndIteration("b", policy.Iteration{SuiteRun: 1, Measured: measured})
	assert.Nil(t, d.Unsettled, "a warmup carried over is not one found unsettled")
	n, settled := p.LearnedWarmup("b")
	assert.Equal(t, 3, n)
	assert.True(t, settled)
	assert.False(t, p.SetLearnedWarmup("b", 5), "once measured, the benchmark keeps its warmup")

	p = newPolicy(t, intervalConfig(0.03, 2))
	assert.False(t, p.SetLearnedWarmup("c", 0))
	assert.True(t, p.SetLearnedWarmup("c", 30))
	assert.Equal(t, 30+2, p.MaxSlices("c"), "beyond the cap of learning: steady -o found it")

	cv := newPolicy(t, Default(CV))
	assert.False(t, cv.SetLearnedWarmup("b", 3), "CV does not learn its warmup")
}
