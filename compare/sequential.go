package compare

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
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
}

// PlanGrowth is the ratio between successive looks: looking after every
// suite run would split α over many looks and widen every interval;
// looking at geometrically spaced points keeps K small (5 looks from 5 to
// 20 suite runs) while no pair runs much past the point where it is
// decided.
const PlanGrowth = 1.5

// DefaultFirstLook is the first look of a default plan: with fewer pairs
// the t interval at a Bonferroni-split level is too wide to decide anything
// but changes of several times the process-to-process spread.
const DefaultFirstLook = 5

// DefaultLastLook is the last look of the default plan, the suite-run cap
// of a sequential baseline run: looks at 5, 8, 12, 18, 27 and 40 paired
// suite runs. Simulated (TestSequentialEvaluation, docs/COMPARE.md), a cap
// of 40 instead of 20 turns an unchanged CPU-bound benchmark (2% between
// processes) from "no change" in under half the pairs to nearly all, after
// 27 paired suite runs on average instead of 19, and finds +10% under a 5%
// process spread in 98% instead of 66% of pairs; pairs decided early stop
// where they did, so only the undecided pay for the longer cap.
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

// String returns the looks as a comma-separated list, as ParsePlan reads
// them and run records them in its raw file's header.
func (p Plan) String() string { return strings.ReplaceAll(joinInts(p.Looks), " ", "") }

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

// level returns the significance level of one look when alpha is spent
// over the whole plan.
func (p Plan) level(alpha float64) float64 {
	return alpha / float64(max(len(p.Looks), 1))
}

// sequential judges the per-suite-run log ratios d look by look and
// returns the first decided look, or the last look (all of d) if none is
// decided: its interval, verdict direction and the number of pairs it used.
func (p Plan) sequential(d []float64, threshold, alpha float64) (lr logRatio, looked int, dir int) {
	a := p.level(alpha)
	for _, n := range p.Looks {
		if n >= len(d) {
			break
		}
		if n < 2 {
			continue
		}
		lr = pairedOf(d[:n])
		if dir = direction(lr, a, threshold); dir != undecided {
			return lr, n, dir
		}
	}
	lr = pairedOf(d)
	return lr, len(d), direction(lr, a, threshold)
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

// PairDecided reports whether a pair measured in paired suite runs is
// decided at this look: regression, improvement or no change beyond doubt
// at the plan's level. base[i] and head[i] hold the process means (for
// example of ns/op) of the two versions in the i-th suite run that both
// completed. It is false between planned looks and for a pair whose
// interval still straddles ±threshold, which should then run on while its
// cap and the budget allow.
func PairDecided(base, head [][]float64, threshold, confidence float64, p Plan) bool {
	n := min(len(base), len(head))
	if n < 2 || !p.IsLook(n) {
		return false
	}
	d := make([]float64, 0, n)
	for i := range n {
		if len(base[i]) == 0 || len(head[i]) == 0 {
			return false
		}
		var lb, lh float64
		for _, x := range base[i] {
			if !(x > 0) {
				return false
			}
			lb += math.Log(x)
		}
		for _, x := range head[i] {
			if !(x > 0) {
				return false
			}
			lh += math.Log(x)
		}
		d = append(d, lh/float64(len(head[i]))-lb/float64(len(base[i])))
	}
	return direction(pairedOf(d), p.level(1-confidence), threshold) != undecided
}
