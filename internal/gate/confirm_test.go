package gate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// simulatedRun is what one simulated gate over m benchmarks reported.
type simulatedRun struct {
	changes, found int // benchmarks called changed, and of those with a real shift
	pairs          int // pairs run in all
}

// simulateGate runs m benchmarks through the default sequential plan, as
// a run stops each pair and the comparison judges it, with or without
// confirmation. The first shifted benchmarks change by shift; the others
// not at all. drift adds to the pairs' log ratios a state of the machine
// that carries over from pair to pair (an AR(1) of lag-1 correlation ½
// and this standard deviation), which a t interval over the pairs does
// not expect.
func simulateGate(rng *rand.Rand, m, shifted int, shift float64, nz noise, drift float64, confirm bool) simulatedRun {
	plan := NewPlan(DefaultFirstLook, DefaultLastLook)
	plan.Spending, plan.Confirm = DefaultSpending, confirm
	opts := DefaultOptions()
	alpha := 1 - opts.Confidence
	opts.confirmAlpha = ConfirmAlpha(m, alpha)
	if confirm {
		plan.ConfirmAlpha = opts.confirmAlpha
	}
	opts.Paired, opts.Plan = true, plan
	last := plan.Looks[len(plan.Looks)-1]
	var run simulatedRun
	for i := range m {
		s := 0.0
		if i < shifted {
			s = shift
		}
		d := pairRatios(rng, last+plan.ConfirmRoom(), 5, s, nz)
		state := drift * rng.NormFloat64()
		for j := range d {
			state = 0.5*state + 0.866*drift*rng.NormFloat64()
			d[j] += state
		}
		// As the run stops the pair: at the first look that settles it
		// or finds it out of reach, and a change found then runs on
		// for its confirmation.
		n := last
		for _, look := range plan.Looks {
			st := plan.judge(d[:look], DefaultThreshold, alpha)
			if st == PairSettled || st == PairAtCap || st == PairOutOfReach {
				n = look
				break
			}
		}
		if confirm {
			if k, dir := plan.discovered(d[:n], DefaultThreshold, alpha); dir == up || dir == down {
				// Its fresh pairs, up to where the plan stops them:
				// their early look when they agree, else all.
				for n = k; n < k+ConfirmPairs(k) && n < len(d); n++ {
					if st, _ := plan.confirming(d[:n], DefaultThreshold, alpha); st == PairSettled {
						break
					}
				}
			}
		}
		run.pairs += n
		c := Comparison{Method: MethodPaired, Better: -1, d: d[:n]}
		verdict(&c, alpha, true, opts)
		if c.Verdict == Regression || c.Verdict == Improvement {
			run.changes++
			if i < shifted {
				run.found++
			}
		}
	}
	return run
}

// TestConfirmationBoundsFalseAlarmsPerRun simulates A/A gates of 10, 100
// and 500 benchmarks, with the spread of a CPU-bound benchmark, with
// outlying processes, and with a machine whose state drifts from pair to
// pair: with confirmation at most 5% of runs report any regression or
// improvement where the pairs are independent, and never more than
// without it. A +10% change on one
// benchmark of 10 is found as often, at a few more pairs. The runs scale
// with -reps (docs/GATE.md's table: -reps 2500).
func TestConfirmationBoundsFalseAlarmsPerRun(t *testing.T) {
	scale := func(n int) int { return max(1, n**simReps/500) }
	var table strings.Builder
	table.WriteString("| benchmarks | spread | drift | runs | runs with a false change, confirmed | without confirmation |\n|--:|---|--:|--:|--:|--:|\n")
	for _, c := range []struct {
		m, runs int
	}{{10, scale(60)}, {100, scale(8)}, {500, scale(2)}} {
		for k, nz := range []struct {
			noise
			drift float64
		}{{noise{0.02, 0.02, 0}, 0}, {noise{0.02, 0.02, 0.15}, 0}, {noise{0.02, 0.02, 0}, 0.06}} {
			seed := uint64(4400 + 10*c.m + k)
			var with, without int
			for _, confirm := range []bool{true, false} {
				rng := rand.New(rand.NewPCG(seed, 44))
				for range c.runs {
					if simulateGate(rng, c.m, 0, 0, nz.noise, nz.drift, confirm).changes > 0 {
						if confirm {
							with++
						} else {
							without++
						}
					}
				}
			}
			rate, plain := float64(with)/float64(c.runs), float64(without)/float64(c.runs)
			fmt.Fprintf(&table, "| %d | %v | %.0f%% | %d | %.1f%% | %.1f%% |\n", c.m, nz.noise, 100*nz.drift, c.runs, 100*rate, 100*plain)
			if nz.drift == 0 {
				// The bound rests on fresh pairs independent of
				// those that found the change; a state that carries
				// over from pair to pair breaks that, and the bound
				// with it, though confirmation still removes most.
				assert.LessOrEqual(t, rate, RunFalseAlarm, "%d benchmarks, %v", c.m, nz)
			}
			assert.LessOrEqual(t, with, without, "%d benchmarks, %v", c.m, nz)
		}
	}
	t.Logf("A/A\n%s", table.String())

	// A +10% change on one benchmark of 10, and on one of 2: a pull
	// request that slows one function reaches few benchmarks and slows
	// some of them, and there what their confirmation costs is what the
	// run costs.
	for _, c := range []struct {
		m, runs int
		nz      noise
		seed    uint64
		stream  uint64
	}{
		{10, scale(60), noise{0.02, 0.02, 0}, 4500, 45},
		{10, scale(60), noise{0.045, 0.03, 0}, 4501, 45},
		{2, scale(100), noise{0.045, 0.03, 0}, 4600, 46},
		{2, scale(100), noise{0.10, 0.05, 0}, 4601, 46},
	} {
		var found, pairs [2]int
		for j, confirm := range []bool{false, true} {
			rng := rand.New(rand.NewPCG(c.seed, c.stream))
			for range c.runs {
				r := simulateGate(rng, c.m, 1, 0.10, c.nz, 0, confirm)
				found[j] += r.found
				pairs[j] += r.pairs
			}
		}
		t.Logf("+10%% on 1 of %d, %v: found %d → %d of %d runs, pairs %d → %d (%+.1f%%)",
			c.m, c.nz, found[0], found[1], c.runs, pairs[0], pairs[1], 100*(float64(pairs[1])/float64(pairs[0])-1))
		assert.GreaterOrEqual(t, found[1], found[0]*98/100, "+10%% still found, 1 of %d, %v", c.m, c.nz)
		assert.LessOrEqual(t, float64(pairs[1]), 1.15*float64(pairs[0]), "at most 15%% more pairs, 1 of %d, %v", c.m, c.nz)
	}
}

// A change found at 12 pairs whose fresh pairs show it at once stops at
// the early look of 5 fresh pairs, and is confirmed on them; with no
// in-run level it runs to 12 fresh pairs; where the looks alone keep the
// run's bound, it stops when found, and nothing is measured again.
func TestConfirmationStopsAtItsEarlyLook(t *testing.T) {
	plan := NewPlan(DefaultFirstLook, DefaultLastLook)
	plan.Spending, plan.Confirm = DefaultSpending, true
	alpha := 0.01
	d := make([]float64, 80)
	for i := range d {
		// +10% with a spread that the first looks cannot decide.
		d[i] = math.Log(1.10) + 0.06*float64(i%5-2)
	}
	n, dir := plan.discovered(d, DefaultThreshold, alpha)
	require.Equal(t, up, dir)
	require.Greater(t, n, MinConfirmPairs)
	for i := n; i < len(d); i++ {
		// The fresh pairs show it plainly.
		d[i] = math.Log(1.10) + 0.01*float64(i%3-1)
	}

	stops := func(p Plan) int {
		for k := n; k <= len(d); k++ {
			if st, _ := p.confirming(d[:k], DefaultThreshold, alpha); st == PairSettled {
				return k - n
			}
		}
		return -1
	}
	early := plan
	early.ConfirmAlpha = ConfirmAlpha(100, alpha)
	assert.Equal(t, MinConfirmPairs, stops(early), "shown on its first fresh pairs")
	assert.Equal(t, ConfirmPairs(n), stops(plan), "no in-run level: all fresh pairs")
	none := plan
	none.ConfirmAlpha = ConfirmAlpha(5, alpha)
	assert.Equal(t, 1.0, none.ConfirmAlpha)
	assert.Equal(t, 0, stops(none), "five benchmarks keep the bound without it")
	assert.Zero(t, none.ConfirmRoom())

	c := Comparison{Method: MethodPaired, Better: -1, d: d[:n+MinConfirmPairs], Look: n}
	assert.Equal(t, up, confirm(&c, up, ConfirmAlpha(100, alpha)))
	require.NotNil(t, c.Confirmation)
	assert.Equal(t, MinConfirmPairs, c.Confirmation.Pairs)
	assert.InDelta(t, ConfirmAlpha(100, alpha)/2, c.Confirmation.Alpha, 1e-12, "the level split over two looks")
	assert.Equal(t, 0.05, ConfirmAlpha(100, alpha))
	assert.Equal(t, 0.5, ConfirmAlpha(10, alpha))
}
