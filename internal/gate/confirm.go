package gate

import (
	"fmt"
	"math"

	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
)

// Discovery, then confirmation (docs/GATE.md, "A red gate is confirmed").
//
// The looks of a sequential plan keep each benchmark's chance of a false
// verdict at its level, but a run judges many benchmarks, and a team reads
// one check per run. So a change the looks find is measured again on
// fresh process pairs, each with links of its own (rmit draws a new link
// per process), and counts only when those pairs alone show a change in
// the same direction, tested one-sided at ConfirmAlpha. The fresh pairs
// are independent of the ones that found the change, so a benchmark
// without a change is reported changed with chance at most α·α₂, where α
// bounds its false verdicts in either direction, and a run of m
// benchmarks reports any with chance at most m·α·α₂. ConfirmAlpha sets
// α₂ so that this is at most RunFalseAlarm.

// RunFalseAlarm bounds the chance that a run of benchmarks none of which
// changed reports any regression or improvement, whatever their number.
const RunFalseAlarm = 0.05

// MaxConfirmAlpha is the confirmation's one-sided level when the run's
// bound leaves room for more: a change must still be shown on its fresh
// pairs at 95%.
const MaxConfirmAlpha = 0.05

// MinConfirmPairs is the fewest fresh pairs a confirmation takes.
const MinConfirmPairs = 5

// ConfirmPairs returns how many fresh pairs confirm a change the looks
// found at n pairs: as many, at least MinConfirmPairs.
func ConfirmPairs(n int) int { return max(MinConfirmPairs, n) }

// ConfirmAlpha returns the confirmation's one-sided level for a run that
// judges m benchmarks, each at level alpha: RunFalseAlarm/(m·alpha), at
// most MaxConfirmAlpha.
func ConfirmAlpha(m int, alpha float64) float64 {
	if m < 1 || alpha <= 0 {
		return MaxConfirmAlpha
	}
	return math.Min(MaxConfirmAlpha, RunFalseAlarm/(float64(m)*alpha))
}

// ConfirmRoom returns how many suite runs past the plan's last look a
// confirmation may need: what a change found at the last look takes.
func (p Plan) ConfirmRoom() int {
	if !p.Confirm || len(p.Looks) == 0 {
		return 0
	}
	return ConfirmPairs(p.Looks[len(p.Looks)-1])
}

// discovered returns the first look of d at which the plan decides, and
// the direction it decides, or 0 and undecided.
func (p Plan) discovered(d []float64, threshold, alpha float64) (int, int) {
	for _, n := range p.Looks {
		if n > len(d) {
			break
		}
		if n < 2 {
			continue
		}
		if dir := direction(pairedOf(d[:n]), p.levelAt(alpha, n), threshold); dir != undecided {
			return n, dir
		}
	}
	return 0, undecided
}

// confirming says where a pair of a confirming plan stands when its looks
// have found a change, or when it is undecided at the last look; ok is
// false otherwise, and the looks judge it as without confirmation. A
// change found at n pairs runs on until ConfirmPairs(n) more have run, at
// a look or not.
func (p Plan) confirming(d []float64, threshold, alpha float64) (st PairState, ok bool) {
	n, dir := p.discovered(d, threshold, alpha)
	switch {
	case dir == up || dir == down:
		if len(d) >= n+ConfirmPairs(n) {
			return PairSettled, true
		}
		return PairOpen, true
	case dir == undecided && len(p.Looks) > 0 && len(d) >= p.Looks[len(p.Looks)-1]:
		// The run's cap leaves room for confirmations past the last
		// look; an undecided pair stops there as at its cap.
		return PairAtCap, true
	}
	return PairOpen, false
}

// A Confirmation is what the fresh pairs measured after a change was found
// showed on their own.
type Confirmation struct {
	// Pairs is the number of fresh pairs; Ratio their interval of
	// NEW/OLD at the two-sided level whose one side is Alpha.
	Pairs int
	Ratio stats.Interval
	Alpha float64
	// Confirmed reports that the interval lies wholly on the side of no
	// change the change was found on.
	Confirmed bool
}

// confirm tests the pairs of c measured after the look that found a
// change in direction dir, at one-sided level alpha2, records what they
// showed, and returns dir when they agree and undecided otherwise, saying
// why in the note.
func confirm(c *Comparison, dir int, alpha2 float64) int {
	fresh := c.d[min(c.Look, len(c.d)):]
	cf := &Confirmation{Pairs: len(fresh), Alpha: alpha2, Ratio: nanInterval(1 - 2*alpha2)}
	c.Confirmation = cf
	if len(fresh) >= 2 {
		lr := tInterval(fresh)
		h := lr.width(2 * alpha2)
		lo, hi := math.Exp(lr.mean-h), math.Exp(lr.mean+h)
		cf.Ratio = stats.Interval{Center: math.Exp(lr.mean), Lo: lo, Hi: hi, Confidence: 1 - 2*alpha2}
		cf.Confirmed = dir == up && lo > 1 || dir == down && hi < 1
	}
	if cf.Confirmed {
		return dir
	}
	found := fmt.Sprintf("found at %d pairs, %s [%s, %s]", c.Look, signedPct(c.Ratio.Center-1), signedPct(c.Ratio.Lo-1), signedPct(c.Ratio.Hi-1))
	switch {
	case len(fresh) < 2:
		c.confirmNote = fmt.Sprintf("not confirmed: %s, and %d fresh pairs ran before the budget or the run ended (%d needed)", found, len(fresh), ConfirmPairs(c.Look))
	default:
		c.confirmNote = fmt.Sprintf("not confirmed: %s; %d fresh pairs %s [%s, %s]", found, len(fresh),
			signedPct(cf.Ratio.Center-1), signedPct(cf.Ratio.Lo-1), signedPct(cf.Ratio.Hi-1))
	}
	return undecided
}

// signedPct formats a change as a signed percentage, "+7.6%".
var signedPct = render.Percent{Digits: 1, Sign: true}.Format
