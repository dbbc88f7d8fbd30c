package stopper

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/stopper/policy"
)

// A simBench is a simulated benchmark: within-process sd and a draw of
// the between-process effect, both in % of a mean of 100.
type simBench struct {
	within  float64
	between func(*rand.Rand) float64
}

func normal(sd float64) func(*rand.Rand) float64 {
	return func(r *rand.Rand) float64 { return sd * r.NormFloat64() }
}

// population is a suite like examples/ measured at 10 processes × 5
// slices of 100 ms on a shared machine: most benchmarks with
// within-process spread of 1.5–6% and between-process spread of
// 0.1–2.5%, a few noisier, one bimodal from process to process (±17%) and
// one very noisy inside each process.
var population = []simBench{
	{1.5, normal(0.1)}, {2, normal(0.3)}, {1.5, normal(0.5)}, {3, normal(0.2)},
	{3, normal(0.5)}, {2, normal(1)}, {4, normal(1)}, {6, normal(0.5)},
	{1.5, normal(1)}, {3, normal(1.5)}, {2, normal(2)}, {5, normal(2.5)},
	{2.5, normal(0.8)}, {4, normal(1.8)}, {1.8, normal(0.4)}, {3.5, normal(1.2)},
	{4, normal(4)}, {3, normal(6)},
	{3, func(r *rand.Rand) float64 { return float64(34*r.IntN(2) - 17) }},
	{20, normal(5)},
}

// Costs of the simulation: a slice of 100 ms, and per process a warmup
// slice plus 50 ms to start and exit the test binary.
const (
	simSlice   = 100 * time.Millisecond
	simProcess = 150 * time.Millisecond
)

func drawProcess(r *rand.Rand, b simBench, m int) []float64 {
	e := b.between(r)
	vals := make([]float64, m)
	for i := range vals {
		vals[i] = 100 + e + b.within*r.NormFloat64()
	}
	return vals
}

// staticRun is --stop none: n processes of m slices for every benchmark.
// It returns the processes reaching the target and the time.
func staticRun(r *rand.Rand, n, m int, target float64) (reached int, wall time.Duration) {
	for _, b := range population {
		var procs [][]float64
		for range n {
			procs = append(procs, drawProcess(r, b, m))
			wall += simProcess + time.Duration(m)*simSlice
		}
		if stats.FitComponents(procs).Interval(IntervalConfidence).RelHalfWidth() <= target {
			reached++
		}
	}
	return reached, wall
}

// dynamicRun runs the Interval policy over the population in suite runs
// as the runner does: every benchmark gets a process per suite run until
// it stops or reaches capRuns; with a budget, after MinProcesses suite
// runs the benchmarks due are taken greedily by policy.Gain while their
// expected process time fits in what is left.
func dynamicRun(r *rand.Rand, target float64, capRuns int, budget time.Duration) (reached, stoppedEarly int, wall time.Duration) {
	cfg := Default(Interval)
	cfg.Threshold, cfg.MaxIterations = target, capRuns
	p, _ := NewPolicy(cfg)
	last := make([]policy.Decision, len(population))
	stopped := make([]bool, len(population))
	cost := func(i int) time.Duration {
		return simProcess + time.Duration(p.Slices(fmt.Sprint(i)))*simSlice
	}
	for k := 1; k <= capRuns; k++ {
		var due []int
		for i := range population {
			if !stopped[i] {
				due = append(due, i)
			}
		}
		if budget > 0 && k > MinProcesses {
			slices.SortStableFunc(due, func(a, b int) int {
				ga, gb := policy.Gain(last[a].Precision, cost(a)), policy.Gain(last[b].Precision, cost(b))
				switch {
				case ga > gb:
					return -1
				case ga < gb:
					return 1
				}
				return 0
			})
		}
		ran := false
		for _, i := range due {
			c := cost(i)
			if budget > 0 && wall+c > budget {
				continue
			}
			m := p.Slices(fmt.Sprint(i))
			last[i] = p.EndIteration(fmt.Sprint(i), policy.Iteration{SuiteRun: k, Measured: drawProcess(r, population[i], m), SliceCost: simSlice, ProcessCost: simProcess})
			wall += c
			ran = true
			if last[i].Stop {
				stopped[i] = true
				if k < capRuns {
					stoppedEarly++
				}
			}
		}
		if !ran {
			break
		}
	}
	for i := range population {
		if w := last[i].Precision.Width; w <= target {
			reached++
		}
	}
	return reached, stoppedEarly, wall
}

// TestAllocationAtOldDefaultTime compares the default policy with a
// static run of 5 slices per process at the same cap, 20 seeded
// replicates of the population. With a budget of the static run's wall
// time, the policy brings more benchmarks to its target, because it stops
// the stable benchmarks early, runs fewer slices per process where
// processes differ, and spends what is left where intervals narrow most
// per second. Without a budget it stops most benchmarks before a cap of
// 10 and takes about half the static run's time. The goal of 1.5 times as
// many benchmarks at the target is not reached on this population: the
// static run already brings 69% of them to ±3%, and two cannot reach it in
// any run this short (docs/EVALUATION.md).
func TestAllocationAtOldDefaultTime(t *testing.T) {
	type row struct {
		capN                       int
		target                     float64
		static, budgeted, capped   float64 // shares reaching the target
		early, timeCapped, timeBud float64
	}
	var rows []row
	for _, capN := range []int{5, 10} {
		for _, target := range []float64{0.02, IntervalTarget} {
			var oldReached, newReached, capReached, early, n int
			var oldWall, newWall, capWall time.Duration
			for seed := range uint64(20) {
				r := rand.New(rand.NewPCG(seed, 7))
				got, wall := staticRun(r, capN, 5, target)
				oldReached += got
				oldWall += wall
				got, _, w := dynamicRun(r, target, 50, wall)
				newReached += got
				newWall += w
				got, e, w := dynamicRun(r, target, capN, 0)
				capReached += got
				early += e
				capWall += w
				n += len(population)
			}
			share := func(k int) float64 { return float64(k) / float64(n) }
			rw := row{capN, target, share(oldReached), share(newReached), share(capReached), share(early),
				float64(capWall) / float64(oldWall), float64(newWall) / float64(oldWall)}
			rows = append(rows, rw)
			t.Logf("cap %2d, target ±%.0f%%: --stop none %d×5 reaches %.1f%%; interval with its time as budget %.1f%% (%.2f×, %.0f%% of it used); interval at the cap %.1f%%, %.0f%% stopped before the cap, in %.2f× the time",
				capN, 100*target, capN, 100*rw.static, 100*rw.budgeted, rw.budgeted/rw.static, 100*rw.timeBud, 100*rw.capped, 100*rw.early, rw.timeCapped)
		}
	}
	for _, rw := range rows {
		assert.Greater(t, rw.budgeted, 1.1*rw.static, "cap %d target %v: more at the target in the same time", rw.capN, rw.target)
		assert.Less(t, rw.timeCapped, 1.0, "cap %d target %v: less time than --stop none", rw.capN, rw.target)
		if rw.capN == 10 && rw.target == IntervalTarget {
			assert.Less(t, rw.timeCapped, 0.6)
			assert.Greater(t, rw.early, 0.3)
		}
	}
}
