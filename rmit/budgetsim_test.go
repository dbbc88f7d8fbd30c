package rmit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/stopper"
	"github.com/gobench-dyn/gobench-dyn/stopper/policy"
)

// liveSpreads are quantiles (0, 10, 25, 50, 75, 90 and 100%) of the
// coefficient of variation of the process means of each benchmark of a
// default run of fastjson v1.6.10's root package (100 benchmarks,
// 2026-11-30, its raw records), from which simulated benchmarks draw
// theirs.
var liveSpreads = []float64{0.008, 0.032, 0.056, 0.101, 0.174, 0.230, 0.6}

// drawSpread draws a coefficient of variation from liveSpreads, linearly
// between its quantiles.
func drawSpread(rng *rand.Rand) float64 {
	qs := []float64{0, 0.1, 0.25, 0.5, 0.75, 0.9, 1}
	u := rng.Float64()
	i := max(1, slices.IndexFunc(qs, func(q float64) bool { return q >= u }))
	f := (u - qs[i-1]) / (qs[i] - qs[i-1])
	return liveSpreads[i-1] + f*(liveSpreads[i]-liveSpreads[i-1])
}

// budgetOutcome is what a simulated budgeted run left its benchmarks at.
type budgetOutcome struct {
	stable, outOfReach, beyond, cut int
	widths                          []float64
}

// simulateBudget runs benchmarks of the given spreads under the Interval
// criterion (cap 10, 2 slices per process within 1% of each other),
// processes of 300 ms, and perBench processes' worth of budget per
// benchmark past its 3, spent as fitBudget spends it or, with gainOnly,
// greedily by policy.Gain as before stops were funded.
func simulateBudget(t *testing.T, rng *rand.Rand, spreads []float64, perBench float64, gainOnly bool) budgetOutcome {
	cfg := stopper.Default(stopper.Interval)
	cfg.MaxIterations = 10
	p, err := stopper.NewPolicy(cfg)
	require.NoError(t, err)
	const process = 300 * time.Millisecond
	r := budgetRunner(p, 3)
	bs := make([]*Benchmark, len(spreads))
	for i := range bs {
		bs[i] = budgetBench(fmt.Sprintf("BenchmarkSim%d", i))
		bs[i].Config.SuiteRuns = 10
		r.state[bs[i]] = &benchState{}
	}
	remaining := time.Duration(perBench * float64(len(bs)) * float64(process))
	var out budgetOutcome
	run := func(b *Benchmark, k int, spread float64) {
		mean := 100 * math.Exp(spread*rng.NormFloat64())
		vals := []float64{mean * (1 + 0.01*rng.NormFloat64()), mean * (1 + 0.01*rng.NormFloat64())}
		st := r.state[b]
		st.iterations++
		st.wall += process
		d := r.loop.End(b.ID, policy.Iteration{SuiteRun: k, Measured: vals, SliceCost: process / 3, ProcessCost: process / 3})
		if d.Stop {
			st.stopped = true
			if d.Met {
				out.stable++
			} else {
				out.outOfReach++
			}
		}
	}
	for k := 1; k <= 10; k++ {
		var active []*Benchmark
		for _, b := range bs {
			if st := r.state[b]; !st.stopped && !st.budgetCut {
				active = append(active, b)
			}
		}
		if k > 3 {
			var cut, beyond []*Benchmark
			if gainOnly {
				left := remaining
				active, cut = r.fill(r.sortedByGain(active), &left)
			} else {
				active, cut, beyond = r.fitBudget(active, remaining)
			}
			for _, b := range append(cut, beyond...) {
				r.state[b].budgetCut = true
			}
			out.cut += len(cut)
			out.beyond += len(beyond)
		}
		for _, b := range active {
			if k > 3 {
				if remaining < process {
					r.state[b].budgetCut = true
					out.cut++
					continue
				}
				remaining -= process
			}
			run(b, k, spreads[slices.Index(bs, b)])
		}
	}
	for _, b := range bs {
		d, _ := r.loop.Last(b.ID)
		out.widths = append(out.widths, d.Precision.Width)
	}
	return out
}

// TestBudgetFundsStopsSimulated: under a budget of about a go test pass,
// which leaves 1 to 2 processes per benchmark past its 3, spending it
// first on the stops predicted soonest brings more benchmarks to ±3% than
// spending it by gain alone, and the median interval no wider
// (docs/EVALUATION.md, "A budget funds the stops it can reach").
// 100 benchmarks with process spreads drawn from a live run's, 20 runs
// per budget, fixed seeds.
func TestBudgetFundsStopsSimulated(t *testing.T) {
	for _, perBench := range []float64{1.3, 1.5, 2.5} {
		var funded, byGain budgetOutcome
		for seed := range uint64(20) {
			spreads := make([]float64, 100)
			rng := rand.New(rand.NewPCG(seed, 1))
			for i := range spreads {
				spreads[i] = drawSpread(rng)
			}
			a := simulateBudget(t, rand.New(rand.NewPCG(seed, 2)), spreads, perBench, false)
			b := simulateBudget(t, rand.New(rand.NewPCG(seed, 2)), spreads, perBench, true)
			for _, o := range []struct{ sum, one *budgetOutcome }{{&funded, &a}, {&byGain, &b}} {
				o.sum.stable += o.one.stable
				o.sum.outOfReach += o.one.outOfReach
				o.sum.beyond += o.one.beyond
				o.sum.cut += o.one.cut
				o.sum.widths = append(o.sum.widths, o.one.widths...)
			}
		}
		t.Logf("%.1f processes past the minimum each: funded %d stable, %d out of reach, %d beyond, %d cut, median ±%.1f%%; by gain %d stable, %d out of reach, %d cut, median ±%.1f%%",
			perBench, funded.stable, funded.outOfReach, funded.beyond, funded.cut, 100*stats.Median(funded.widths),
			byGain.stable, byGain.outOfReach, byGain.cut, 100*stats.Median(byGain.widths))
		assert.Greater(t, funded.stable, byGain.stable*11/10, "%.1f processes each", perBench)
		assert.LessOrEqual(t, stats.Median(funded.widths), stats.Median(byGain.widths)+0.005, "%.1f processes each", perBench)
	}
}
