package gate

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// A Plan is the schedule of looks of a sequential paired comparison: after
// how many paired suite runs a pair is judged, and stopped if its verdict
// is decided. The false-alarm rate holds under this optional stopping
// because the significance level is spent in equal parts over the looks
// (Bonferroni): each look's interval has level α/K for K looks, so the
// chance that any look's interval misses the true ratio, which every wrong
// verdict needs, is at most α. A run that ends between looks (cap or
// budget) takes its last look there instead, which keeps the number of
// looks at most K.
type Plan struct {
	// Looks are the numbers of paired suite runs at which a pair is
	// judged, ascending.
	Looks []int
	// Spending is how the level is spent over the looks;
	// SpendBonferroni when empty.
	Spending Spending
	// Extend, when above zero, is the look past which an undecided pair
	// runs on only while its interval excludes zero: the change is shown,
	// its size against the threshold not yet. Other undecided pairs stop
	// there, as at a cap. The level is spent over every look up to the
	// last, so pairs that stop without a verdict, whatever the rule, add
	// no wrong verdict.
	Extend int
	// Confirm measures a change the looks find again on ConfirmPairs
	// fresh pairs and counts it only when they agree (confirm.go).
	Confirm bool
	// ConfirmAlpha, when above zero, lets a confirmation stop at its
	// early look (confirmLooks) once the fresh pairs already agree at
	// this one-sided level spent over the confirmation's looks. It must
	// be at most the level the comparison confirms at, ConfirmAlpha of
	// the benchmarks judged: the run's benchmarks bound that number.
	ConfirmAlpha float64
}

// PlanGrowth is the ratio between successive looks: looking after every
// suite run would split α over many looks and widen every interval;
// looking at geometrically spaced points keeps K small (6 looks from 5 to
// 40 suite runs) while no pair runs much past the point where it is
// decided.
const PlanGrowth = 1.5

// DefaultFirstLook is the first look of a default plan: with fewer pairs
// the t interval at a Bonferroni-split level is too wide to decide anything
// but changes of several times the process-to-process spread.
const DefaultFirstLook = 5

// DefaultLastLook is the last look of the default plan, the suite-run cap
// of a sequential baseline run: looks at 5, 8, 12, 18, 27 and 40 paired
// suite runs. Showing that an unchanged benchmark is unchanged is what
// costs pairs, and a cap of 20 left most such pairs inconclusive in
// simulation (TestSequentialEvaluation; the figures are in
// docs/COMPARE.md, "Why a cap of 40"); pairs decided early stop where they
// did, so only the undecided pay for the longer cap.
const DefaultLastLook = 40

// NewPlan returns looks from first to last paired suite runs, growing by
// PlanGrowth, always ending at last. With last ≤ first it is a single look
// at last: a fixed-size comparison at the full level.
func NewPlan(first, last int) Plan {
	first = max(first, 2)
	if last <= first {
		return Plan{Looks: []int{max(last, 1)}}
	}
	var looks []int
	for n := first; n < last; n = max(n+1, int(math.Ceil(float64(n)*PlanGrowth))) {
		looks = append(looks, n)
	}
	return Plan{Looks: append(looks, last)}
}

// DefaultPlan returns the plan by which a comparison of two versions
// judges its pairs by default, up to a cap of suiteRuns pairs: looks from
// DefaultFirstLook, spending DefaultSpending; with extendPast > 0, the
// looks past it, up to the cap, only for pairs whose change is shown but
// not its size (ExtendedPlan). run --baseline and abs both judge by it, so
// that abs scores the gate as it stops.
func DefaultPlan(suiteRuns, extendPast int) Plan {
	p := NewPlan(DefaultFirstLook, suiteRuns)
	if extendPast > 0 {
		p = ExtendedPlan(DefaultFirstLook, extendPast, suiteRuns)
	}
	p.Spending = DefaultSpending
	return p
}

// String returns the looks as a comma-separated list, as ParsePlan reads
// them and run records them in its raw file's header.
func (p Plan) String() string { return strings.ReplaceAll(joinInts(p.Looks), " ", "") }

// ExtendedLastLook is the last look of a baseline run bounded by
// --budget: 90 process pairs, looks at 60 and 90 after the default cap,
// which the pairs whose change is shown but not its size (a +6% change
// whose interval holds +2% to +10% after 40 pairs) run on to while the
// budget lasts (Plan.Extend; docs/GATE.md, "Past the cap, within the
// budget").
const ExtendedLastLook = 90

// ExtendedPlan returns the looks of NewPlan(first, last), then looks
// growing by PlanGrowth from last up to extended, with Extend at last.
func ExtendedPlan(first, last, extended int) Plan {
	p := NewPlan(first, last)
	if extended <= last {
		return p
	}
	for n := last; n < extended; {
		n = min(extended, max(n+1, int(math.Ceil(float64(n)*PlanGrowth))))
		p.Looks = append(p.Looks, n)
	}
	p.Extend = last
	return p
}

// ParsePlan reads the looks of a plan from a comma-separated list of
// ascending positive integers.
func ParsePlan(s string) (Plan, error) {
	var p Plan
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || len(p.Looks) > 0 && n <= p.Looks[len(p.Looks)-1] {
			return Plan{}, fmt.Errorf("looks %q: want ascending positive integers such as 5,8,12", s)
		}
		p.Looks = append(p.Looks, n)
	}
	return p, nil
}

// Sequential reports whether p plans more than one look.
func (p Plan) Sequential() bool { return len(p.Looks) > 1 }

// IsLook reports whether a pair is judged after n paired suite runs: at a
// planned look, or past the last one.
func (p Plan) IsLook(n int) bool {
	return slices.Contains(p.Looks, n) || len(p.Looks) > 0 && n > p.Looks[len(p.Looks)-1]
}

// sequential judges the per-suite-run log ratios d look by look and
// returns the first decided look, or the last look (all of d) if none is
// decided: its interval, verdict direction and the number of pairs it used.
func (p Plan) sequential(d []float64, threshold, alpha float64) (lr logRatio, looked int, dir int) {
	for _, n := range p.Looks {
		if n >= len(d) {
			break
		}
		if n < 2 {
			continue
		}
		lr = pairedOf(d[:n])
		if dir = direction(lr, p.levelAt(alpha, n), threshold); dir != undecided {
			return lr, n, dir
		}
	}
	lr = pairedOf(d)
	return lr, len(d), direction(lr, p.levelAt(alpha, len(d)), threshold)
}

// The directions of a verdict on an interval against ±threshold.
const (
	undecided = iota - 2 // the interval straddles a threshold
	down                 // entirely below −threshold
	same                 // entirely inside ±threshold
	up                   // entirely above +threshold
)

// direction places the interval of lr at level alpha against ±threshold.
func direction(lr logRatio, alpha, threshold float64) int {
	_, lo, hi := lr.interval(alpha)
	return placement(lo, hi, threshold)
}

// placement places the ratio interval [lo, hi] against 1 ± threshold:
// a change counts only when the whole interval lies beyond the threshold,
// and no change only when it lies inside it (an equivalence test).
func placement(lo, hi, threshold float64) int {
	switch {
	case lo > 1+threshold:
		return up
	case hi < 1-threshold:
		return down
	case lo > 1-threshold && hi < 1+threshold:
		return same
	}
	return undecided
}

// A PairState is where a pair of a sequential comparison stands after a
// paired suite run.
type PairState int

// The states of a pair.
const (
	// PairOpen: not at a look, or undecided and within reach: run on.
	PairOpen PairState = iota
	// PairSettled: regression, improvement or no change beyond doubt at
	// the plan's level.
	PairSettled
	// PairOutOfReach: undecided, and predicted to stay so until far past
	// the last look.
	PairOutOfReach
	// PairAtCap: undecided at the plan's Extend with an interval that
	// holds zero; it stops there as at its cap.
	PairAtCap
)

// Reason returns why a pair in state s stops, as a stop record gives it:
// record.ReasonSettled, record.ReasonNoVerdict,
// record.ReasonUndecidedAtCap, or "" when it runs on.
func (s PairState) Reason() string {
	switch s {
	case PairSettled:
		return record.ReasonSettled
	case PairOutOfReach:
		return record.ReasonNoVerdict
	case PairAtCap:
		return record.ReasonUndecidedAtCap
	}
	return ""
}

// OutOfReach is the chance of a verdict at the last look below which an
// undecided pair stops at an earlier look. Suite runs spent on such a pair
// (on a noisy machine, an unchanged benchmark can need many times the cap
// to show ±3%) go to the pairs in doubt, or nowhere. Stopping without a
// verdict cannot add a false alarm or a false "no change", so the level
// stays as planned; what it can cost is a pair that the last look would
// have decided after all. Simulated (TestSequentialEvaluation), that cost
// is small against the suite runs it saves (docs/COMPARE.md, "Why pairs
// stop out of reach").
const OutOfReach = 0.01

// FutilityLooks is how many looks a pair passes before it may stop out of
// reach: the chance rests on the spread of the per-suite-run log ratios,
// which at the first looks is too unsure to give up on.
const FutilityLooks = 2

// JudgePair says where a pair measured in paired suite runs stands. base[i]
// and head[i] hold the process means (for example of ns/op) of the two
// versions in the i-th suite run that both completed. Between planned
// looks, and at a look while its interval straddles ±threshold but a
// settling number of pairs lies within reach, it is PairOpen: the pair
// should run on while its cap and the budget allow.
func JudgePair(base, head [][]float64, threshold, confidence float64, p Plan) PairState {
	n := min(len(base), len(head))
	if n < 2 || !p.IsLook(n) && !p.Confirm {
		return PairOpen
	}
	d := make([]float64, 0, n)
	for i := range n {
		x, ok := logRatioOf(base[i], head[i])
		if !ok {
			return PairOpen
		}
		d = append(d, x)
	}
	return p.judgeLook(d, threshold, 1-confidence)
}

// judgeLook judges d after a pair, confirming as the plan asks, and at
// the looks as judge does.
func (p Plan) judgeLook(d []float64, threshold, alpha float64) PairState {
	if p.Confirm {
		if st, ok := p.confirming(d, threshold, alpha); ok {
			return st
		}
	}
	if !p.IsLook(len(d)) {
		return PairOpen
	}
	return p.judge(d, threshold, alpha)
}

// JudgeDuets says where a pair measured in duet iterations stands: d[i]
// is the mean log ratio new/old of the slice pairs of the i-th process
// pair, in the order they ran. It is JudgePair with process pairs as the
// units in place of paired suite runs.
func JudgeDuets(d []float64, threshold, confidence float64, p Plan) PairState {
	if len(d) < 2 || !p.IsLook(len(d)) && !p.Confirm {
		return PairOpen
	}
	for _, x := range d {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return PairOpen
		}
	}
	return p.judgeLook(d, threshold, 1-confidence)
}

// MinDuetTurns is the fewest measured turns of each version a planned
// duet takes: fewer, and the start and warmup of its two processes would
// outweigh its measurement many times over.
const MinDuetTurns = 8

// MaxDuetTime is about the longest a planned duet's turns take: long
// enough for a benchmark whose process pairs differ little to spend its
// time in turns rather than in starting processes, short enough that a
// pair still runs several duets, each a fresh pair of processes, within a
// few seconds.
const MaxDuetTime = time.Second

// DuetTurns returns the measured turns of each worker a pair's next duet
// should take, from the log ratios of the slice pairs of its duets so far
// (one slice per process pair) and their mean costs, c1 of one turn of
// each worker and c2 of the rest of a duet (starts, warmup): Kalibera and
// Jones's m*, which narrows the interval over process pairs most per
// second, at least MinDuetTurns and at most MaxDuetTime of turns. A
// process effect far above the turns' noise (allocating benchmarks, whose
// heap and layout differ between processes) asks for many short duets,
// one far below it for few long ones. Before two duets there is nothing
// to estimate, and it returns 0.
func DuetTurns(ratios [][]float64, c1, c2 time.Duration) int {
	if len(ratios) < 2 || c1 <= 0 {
		return 0
	}
	hi := max(MinDuetTurns, int(MaxDuetTime/c1))
	return stats.FitComponents(ratios).OptimalSlices(c1, c2, MinDuetTurns, hi)
}

// judge places the per-suite-run log ratios d, taken at a look, under the
// plan.
//
// With Extend, a pair whose interval excludes zero is judged against the
// last look, and any other against Extend, where it stops: the looks past
// Extend are for the pairs whose change is shown but not its size.
func (p Plan) judge(d []float64, threshold, alpha float64) PairState {
	lr := pairedOf(d)
	level := p.levelAt(alpha, len(d))
	if direction(lr, level, threshold) != undecided {
		return PairSettled
	}
	last := p.Looks[len(p.Looks)-1]
	if p.Extend > 0 && !excludesZero(lr, level) {
		if len(d) >= p.Extend {
			return PairAtCap
		}
		last = p.Extend
	}
	if len(d) < last && p.lookIndex(len(d)) >= FutilityLooks && verdictChance(d, lr, p.levelAt(alpha, last), threshold, last) < OutOfReach {
		return PairOutOfReach
	}
	return PairOpen
}

// excludesZero reports whether the interval of lr at level alpha lies
// wholly on one side of no change.
func excludesZero(lr logRatio, alpha float64) bool {
	_, lo, hi := lr.interval(alpha)
	return lo > 1 || hi < 1
}

// verdictChance returns the predictive probability that the interval at
// the last look, of last pairs at level a, decides: lies beyond ±threshold
// or inside it. It takes the mean log ratio μ as unknown around the
// centre m of d and their spread s as known: the last look's mean is then
// normal around m with variance s²·(last − n)/(last·n), n = len(d), and
// its half-width t·s/√last. Centre and spread are robust — the median,
// and the smaller of the standard deviation (as lr's narrower interval
// sees it) and 1.4826 times the median absolute deviation — because the
// last look's interval is the narrower of the t and the trimmed-mean
// one: a few far-out pairs early must not make a pair look hopeless that
// trimming would decide (in simulation with outlying processes, the plain
// estimates gave up on +10% changes that the last look finds;
// docs/COMPARE.md, "Why pairs stop out of reach").
func verdictChance(d []float64, lr logRatio, a, threshold float64, last int) float64 {
	f, _ := lr.pick(a)
	n, N := float64(len(d)), float64(last)
	m := stats.Median(d)
	dev := make([]float64, len(d))
	for i, x := range d {
		dev[i] = math.Abs(x - m)
	}
	s := math.Min(f.se*math.Sqrt(float64(f.n)), 1.4826*stats.Median(dev))
	if !(s > 0) {
		return 1
	}
	aN := a
	if last >= MinTrimmedPairs {
		aN = a / 2 // the last look's narrower interval, at half the level
	}
	h := stats.TCritical(aN, N-1) * s / math.Sqrt(N)
	sd := s * math.Sqrt((N-n)/(N*n))
	up, down := math.Log1p(threshold), math.Log1p(-math.Min(threshold, 0.999999))
	cdf := func(x float64) float64 { return distuv.UnitNormal.CDF((x - m) / sd) }
	chance := 1 - cdf(up+h) + cdf(down-h)
	if up-h > down+h {
		chance += cdf(up-h) - cdf(down+h)
	}
	return chance
}

// lookIndex returns the 0-based index of look n in the plan, or −1.
func (p Plan) lookIndex(n int) int { return slices.Index(p.Looks, n) }

// logRatioOf returns the log of the ratio of the geometric means of head's
// and base's process means, or false if either is empty or not positive.
func logRatioOf(base, head []float64) (float64, bool) {
	if len(base) == 0 || len(head) == 0 {
		return 0, false
	}
	var lb, lh float64
	for _, x := range base {
		if !(x > 0) {
			return 0, false
		}
		lb += math.Log(x)
	}
	for _, x := range head {
		if !(x > 0) {
			return 0, false
		}
		lh += math.Log(x)
	}
	return lh/float64(len(head)) - lb/float64(len(base)), true
}
