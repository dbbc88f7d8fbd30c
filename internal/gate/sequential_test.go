package gate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/stat"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

func TestNewPlan(t *testing.T) {
	assert.Equal(t, []int{5, 8, 12, 18, 20}, NewPlan(5, 20).Looks)
	assert.Equal(t, []int{5}, NewPlan(5, 5).Looks)
	assert.Equal(t, []int{3}, NewPlan(5, 3).Looks, "a cap below the first look is one fixed look")
	assert.Equal(t, []int{2, 3, 5, 8, 10}, NewPlan(1, 10).Looks)
	p := NewPlan(5, 20)
	assert.True(t, p.Sequential())
	assert.False(t, p.IsLook(6))
	assert.True(t, p.IsLook(8))
	assert.True(t, p.IsLook(25), "past the last look every suite run is one")
	assert.InDelta(t, 0.002, p.levelAt(0.01, 8), 1e-15)
}

// JudgePair by hand: at 5 pairs of a plan of 5 looks each look has level
// 0.002, t(4, 0.999) = 7.17318, so d = 0.10, 0.11, 0.09, 0.10, 0.10 (sd
// 0.0070711) has half-width 7.17318·0.0070711/√5 = 0.022684: the interval
// [e^0.077316, e^0.122684] = [+8.04%, +13.05%] lies beyond +3% and +8%.
func TestJudgePairKnownAnswer(t *testing.T) {
	p := NewPlan(5, 20)
	base := [][]float64{{100}, {100}, {100}, {100}, {100}}
	head := [][]float64{}
	for _, d := range []float64{0.1, 0.11, 0.09, 0.1, 0.1} {
		head = append(head, []float64{100 * math.Exp(d)})
	}
	assert.Equal(t, PairSettled, JudgePair(base, head, 0.03, 0.99, p))
	assert.Equal(t, PairOpen, JudgePair(base[:4], head[:4], 0.03, 0.99, p), "4 is not a look")
	assert.Equal(t, PairSettled, JudgePair(base, head, 0.08, 0.99, p))
	assert.Equal(t, PairOpen, JudgePair(base, head, 0.081, 0.99, p), "+8.04% straddles an 8.1% threshold, at the first look")
	assert.Equal(t, PairOpen, JudgePair([][]float64{{0}, {1}, {1}, {1}, {1}}, head, 0.03, 0.99, p), "no log of zero")
}

// TestJudgePairOutOfReach: log ratios spread evenly over ±15% around 0
// (sd about 8.7%) leave the last look's half-width near
// t(0.01/12, 39)·0.087/√40 ≈ 5.4%: "no change" within ±3% is out of the
// question, and a change beyond ±3% would need the mean to move 4 of its
// predictive standard deviations (about 2.1% at 12 pairs). From the third
// look on (12) the pair stops out of reach; at the second (8) it runs on,
// as between looks and at the last, where it is judged as usual. Ratios of
// +10% ± 1% settle at once; ratios centred on +9% with the same spread
// still may reach a verdict, and run on.
func TestJudgePairOutOfReach(t *testing.T) {
	p := NewPlan(DefaultFirstLook, DefaultLastLook)
	pairs := func(n int, centre float64) (base, head [][]float64) {
		for i := range n {
			d := centre + 0.3*(float64((i*37)%41)/40-0.5)
			base = append(base, []float64{100})
			head = append(head, []float64{100 * math.Exp(d)})
		}
		return base, head
	}
	for n, want := range map[int]PairState{8: PairOpen, 12: PairOutOfReach, 13: PairOpen, 18: PairOutOfReach, 27: PairOutOfReach, 40: PairOpen} {
		b, h := pairs(n, 0)
		assert.Equal(t, want, JudgePair(b, h, 0.03, 0.99, p), "%d pairs", n)
	}
	b, h := pairs(12, 0.09)
	assert.Equal(t, PairOpen, JudgePair(b, h, 0.03, 0.99, p), "a change may still show")
	var base, head [][]float64
	for i := range 12 {
		base = append(base, []float64{100})
		head = append(head, []float64{100 * math.Exp(0.1+0.01*float64(1-2*(i%2)))})
	}
	assert.Equal(t, PairSettled, JudgePair(base, head, 0.03, 0.99, p))
}

// A noise is the spread of a simulated benchmark's processes: sdB between
// processes, sdE between the slices of one, and the share of processes
// that a disturbance (a neighbour's burst, say) makes 40–80% slower.
type noise struct {
	sdB, sdE, outliers float64
}

// pairRatios draws n per-suite-run log ratios under the variance
// components model: one process of m slices per version and suite run.
func pairRatios(rng *rand.Rand, n, m int, shift float64, nz noise) []float64 {
	process := func(mu float64) float64 {
		pm := stat.Mean(components(rng, mu, 1, m, nz.sdB, nz.sdE)[0], nil)
		if rng.Float64() < nz.outliers {
			pm *= 1.4 + 0.4*rng.Float64()
		}
		return pm
	}
	d := make([]float64, n)
	for k := range d {
		a := process(1000)
		b := process(1000 * (1 + shift))
		d[k] = math.Log(b) - math.Log(a)
	}
	return d
}

// seqRates are the shares of regressions, improvements, no change and
// inconclusive among simulated pairs, and the mean number of pairs run;
// add counts them and per turns the counts into shares.
type seqRates struct {
	reg, imp, same, open, pairs float64
}

// add counts one simulated comparison that ended in direction dir after
// pairs pairs.
func (r *seqRates) add(dir int, pairs int) {
	r.pairs += float64(pairs)
	switch dir {
	case up:
		r.reg++
	case down:
		r.imp++
	case same:
		r.same++
	default:
		r.open++
	}
}

// per returns the counts of reps comparisons as shares and means.
func (r seqRates) per(reps int) seqRates {
	n := float64(reps)
	return seqRates{r.reg / n, r.imp / n, r.same / n, r.open / n, r.pairs / n}
}

// simulateSequential runs the sequential plan on reps simulated pairs and
// returns their rates.
func simulateSequential(seed uint64, reps int, plan Plan, futility bool, shift float64, nz noise) seqRates {
	rng := rand.New(rand.NewPCG(seed, 3))
	var r seqRates
	last := plan.Looks[len(plan.Looks)-1]
	alpha := 1 - DefaultConfidence
	for range reps {
		d := pairRatios(rng, last, 5, shift, nz)
		// As a run stops a pair: at the first look that settles it or,
		// with futility, finds it out of reach; then the comparison of
		// its records, which end there.
		n := last
		for _, look := range plan.Looks {
			st := plan.judge(d[:look], DefaultThreshold, alpha)
			if st == PairSettled || st == PairAtCap || futility && st == PairOutOfReach {
				n = look
				break
			}
		}
		_, looked, dir := plan.sequential(d[:n], DefaultThreshold, alpha)
		r.add(dir, looked)
	}
	return r.per(reps)
}

// TestSequentialValidity holds the false-alarm rate under optional
// stopping: looking at 5, 8, 12, 18, 27 and 40 pairs (the default plan)
// and stopping at the first decided look, A/A pairs are called a
// regression or an improvement in at most 1%, and a real change of 4%
// (beyond the 3% threshold) is called no change in at most 1%, with the
// spread of CPU-bound and of allocating benchmarks, and with outlying
// processes.
func TestSequentialValidity(t *testing.T) {
	reps := 3000
	if testing.Short() {
		reps = 1000
	}
	plan := NewPlan(DefaultFirstLook, DefaultLastLook)
	for i, nz := range []noise{{0.005, 0.02, 0}, {0.02, 0.02, 0}, {0.15, 0.02, 0}, {0.02, 0.02, 0.15}} {
		aa := simulateSequential(uint64(50+i), reps, plan, true, 0, nz)
		near := simulateSequential(uint64(60+i), reps, plan, true, 0.04, nz)
		t.Logf("sdB %.1f%%, outliers %.0f%%: A/A regression %.2f%% improvement %.2f%% no change %.1f%% (%.1f pairs); +4%%: no change %.2f%%",
			100*nz.sdB, 100*nz.outliers, 100*aa.reg, 100*aa.imp, 100*aa.same, aa.pairs, 100*near.same)
		assert.LessOrEqual(t, aa.reg+aa.imp, 0.01)
		assert.LessOrEqual(t, near.same, 0.01)
	}
}

// TestSequentialEvaluation prints the table of docs/COMPARE.md: power,
// false alarms, inconclusive share and mean pairs to a verdict of the
// default sequential plan (cap DefaultLastLook paired suite runs) against
// the former cap of 20 and a fixed 5 paired suite runs, for a CPU-bound
// spread (2% between processes), a busier machine's (5%), an allocating
// one (15%), and the CPU-bound one with 15% of processes disturbed
// (40–80% slower), with 2% within a process and 5 slices.
//
//	go test -run TestSequentialEvaluation -v ./internal/gate/ -args -reps 2000
func TestSequentialEvaluation(t *testing.T) {
	reps := *simReps
	if testing.Short() {
		reps = min(reps, 300)
	}
	plans := []struct {
		name     string
		plan     Plan
		futility bool
	}{
		{"fixed 5", NewPlan(5, 5), false},
		{"sequential ≤ 20", NewPlan(DefaultFirstLook, 20), false},
		{fmt.Sprintf("sequential ≤ %d, never out of reach", DefaultLastLook), NewPlan(DefaultFirstLook, DefaultLastLook), false},
		{fmt.Sprintf("**sequential ≤ %d**", DefaultLastLook), NewPlan(DefaultFirstLook, DefaultLastLook), true},
	}
	var b strings.Builder
	b.WriteString("| spread between processes | design | A/A false alarms | A/A no change | +5% found | +10% found | +25% found | +10% inconclusive | mean pairs (A/A, +10%) |\n|---|---|--:|--:|--:|--:|--:|--:|--:|\n")
	for i, nz := range []noise{{0.02, 0.02, 0}, {0.05, 0.02, 0}, {0.15, 0.02, 0}, {0.02, 0.02, 0.15}} {
		var found10 []float64
		for j, p := range plans {
			// The two designs of the default cap share their seeds, so
			// that the out-of-reach stop is judged on the same pairs.
			seed := uint64(100 + 10*i + min(j, 2))
			aa := simulateSequential(seed, reps, p.plan, p.futility, 0, nz)
			r5 := simulateSequential(seed+1000, reps, p.plan, p.futility, 0.05, nz)
			r10 := simulateSequential(seed+2000, reps, p.plan, p.futility, 0.10, nz)
			r25 := simulateSequential(seed+3000, reps, p.plan, p.futility, 0.25, nz)
			spread := fmt.Sprintf("%.0f%%", 100*nz.sdB)
			if nz.outliers > 0 {
				spread += fmt.Sprintf(", %.0f%% of processes 40–80%% slower", 100*nz.outliers)
			}
			fmt.Fprintf(&b, "| %s | %s | %.2f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f, %.1f |\n",
				spread, p.name, 100*(aa.reg+aa.imp), 100*aa.same, 100*r5.reg, 100*r10.reg, 100*r25.reg, 100*r10.open, aa.pairs, r10.pairs)
			assert.LessOrEqual(t, aa.reg+aa.imp, 0.01)
			assert.Zero(t, r10.same, "a +10% change is never no change")
			if nz.outliers > 0 && p.plan.Sequential() {
				// The trimmed interval sets the outlying pairs aside:
				// with the t interval alone, 14% were found at a cap of 20.
				assert.GreaterOrEqual(t, r10.reg, 0.6, "+10% among outlying processes")
			}
			found10 = append(found10, r10.reg)
		}
		// The longer cap only adds looks after the undecided ones: it
		// never finds less (within the simulation's noise).
		assert.GreaterOrEqual(t, found10[2], found10[1]-0.03, "cap %d against 20, spread %v", DefaultLastLook, nz)
		assert.GreaterOrEqual(t, found10[3], found10[2]-0.02, "stopping out of reach costs at most 2 points, spread %v", nz)
	}
	t.Logf("%d simulated pairs per cell\n%s", reps, b.String())
}

// FuzzParsePlan checks that ParsePlan accepts exactly ascending positive
// lists and that String gives back what it read.
func FuzzParsePlan(f *testing.F) {
	for _, s := range []string{"5,8,12,18,20", "5", "", "3,3", "0,1", "2, 4", "-1", "1,x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePlan(s)
		if err != nil {
			return
		}
		for i, n := range p.Looks {
			if n < 1 || i > 0 && n <= p.Looks[i-1] {
				t.Fatalf("%q: looks %v", s, p.Looks)
			}
		}
		q, err := ParsePlan(p.String())
		if err != nil || !slices.Equal(p.Looks, q.Looks) {
			t.Fatalf("%q: %v does not round-trip: %v %v", s, p.Looks, q.Looks, err)
		}
	})
}

func TestPlanString(t *testing.T) {
	assert.Equal(t, "5,8,12,18,20", NewPlan(5, 20).String())
}

// TestExtendedPlan holds the looks past the cap to their promise: with the
// level spent over looks up to ExtendedLastLook and only the pairs whose
// interval excludes zero running on past the default cap, A/A pairs are
// called a change in at most 1%, a change of exactly the threshold is
// called a regression in at most 1%, a change of 4% is called no change
// in at most 1%, and more changes of twice the threshold are found than
// with the default plan, at the spread of the fastjson pull request in
// docs/GATE.md (process pairs' log ratios 6–10% apart) and of a CPU-bound
// benchmark.
//
//	go test -run TestExtendedPlan -v ./internal/gate/ -args -reps 2000
func TestExtendedPlan(t *testing.T) {
	reps := *simReps
	if testing.Short() {
		reps = min(reps, 300)
	}
	def := DefaultPlan(DefaultLastLook, 0)
	ext := DefaultPlan(ExtendedLastLook, DefaultLastLook)
	assert.Equal(t, []int{5, 8, 12, 18, 27, 40}, def.Looks)
	assert.Equal(t, []int{5, 8, 12, 18, 27, 40, 60, 90}, ext.Looks)
	assert.Equal(t, DefaultLastLook, ext.Extend)
	assert.Equal(t, DefaultSpending, ext.Spending)
	var b strings.Builder
	b.WriteString("| pairs' log ratios spread | plan | A/A false alarms | A/A no change | +3% called regression | +4% called no change | +6% found | +6% inconclusive | mean pairs (A/A, +6%) |\n|---|---|--:|--:|--:|--:|--:|--:|--:|\n")
	for i, nz := range []noise{{0.02, 0.02, 0}, {0.045, 0.03, 0}, {0.065, 0.05, 0}} {
		var found []float64
		for j, p := range []Plan{def, ext} {
			seed := uint64(700 + 10*i)
			aa := simulateSequential(seed, reps, p, true, 0, nz)
			at := simulateSequential(seed+1, reps, p, true, DefaultThreshold, nz)
			near := simulateSequential(seed+2, reps, p, true, 0.04, nz)
			r6 := simulateSequential(seed+3, reps, p, true, 2*DefaultThreshold, nz)
			name := fmt.Sprintf("sequential ≤ %d", DefaultLastLook)
			if j == 1 {
				name = fmt.Sprintf("**past %d while zero is excluded, ≤ %d**", DefaultLastLook, ExtendedLastLook)
			}
			sd := math.Sqrt(2 * (nz.sdB*nz.sdB + nz.sdE*nz.sdE/5))
			fmt.Fprintf(&b, "| %.1f%% | %s | %.2f%% | %.1f%% | %.2f%% | %.2f%% | %.1f%% | %.1f%% | %.1f, %.1f |\n",
				100*sd, name, 100*(aa.reg+aa.imp), 100*aa.same, 100*at.reg, 100*near.same, 100*r6.reg, 100*r6.open, aa.pairs, r6.pairs)
			assert.LessOrEqual(t, aa.reg+aa.imp, 0.01, "A/A, %s, %v", name, nz)
			assert.LessOrEqual(t, at.reg, 0.01, "+3%%, %s, %v", name, nz)
			assert.LessOrEqual(t, near.same, 0.01, "+4%%, %s, %v", name, nz)
			found = append(found, r6.reg)
		}
		assert.GreaterOrEqual(t, found[1], found[0], "the looks past the cap find more +6%% changes, spread %v", nz)
	}
	t.Logf("%d simulated pairs per cell\n%s", reps, b.String())
}

// TestExtendedPlanStopsAtTheCap: at the default cap of an extended plan,
// an undecided pair whose interval holds zero stops there, one whose
// interval excludes zero but straddles the threshold runs on, and past the
// cap the last look is as any plan's.
func TestExtendedPlanStopsAtTheCap(t *testing.T) {
	p := ExtendedPlan(DefaultFirstLook, DefaultLastLook, ExtendedLastLook)
	p.Spending = DefaultSpending
	assert.Equal(t, DefaultLastLook, p.Extend)
	assert.Equal(t, []int{5, 8, 12, 18, 27, 40, 60, 90}, p.Looks)
	assert.Equal(t, NewPlan(5, 40), ExtendedPlan(5, 40, 40), "no looks past the cap")
	spread := func(n int, center, sd float64) []float64 {
		d := make([]float64, n)
		for i := range d {
			d[i] = center + sd*float64(2*(i%2)-1)
		}
		return d
	}
	// ±6% around +6%: the interval at 40 pairs is +2.2% to +9.9%,
	// beyond zero but across +3%.
	shown := spread(40, math.Log(1.06), 0.06)
	assert.Equal(t, PairOpen, JudgeDuets(shown, 0.03, 0.99, p))
	held := spread(40, math.Log(1.01), 0.06)
	assert.Equal(t, PairAtCap, JudgeDuets(held, 0.03, 0.99, p))
	assert.Equal(t, record.ReasonUndecidedAtCap, PairAtCap.Reason())
	assert.Equal(t, PairOpen, JudgeDuets(held[:39], 0.03, 0.99, p), "not a look")
	def := NewPlan(DefaultFirstLook, DefaultLastLook)
	def.Spending = DefaultSpending
	assert.Equal(t, PairOpen, JudgeDuets(held, 0.03, 0.99, def), "past its last look a plan runs on to the cap")
}
