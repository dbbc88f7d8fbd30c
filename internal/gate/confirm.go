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

// MinConfirmPairs is the fewest fresh pairs a confirmation takes.
const MinConfirmPairs = 5

// ConfirmPairs returns how many fresh pairs confirm a change the looks
// found at n pairs: as many, at least MinConfirmPairs.
func ConfirmPairs(n int) int { return max(MinConfirmPairs, n) }

// confirmLooks returns the numbers of fresh pairs at which a change found
// at n pairs is tested: MinConfirmPairs, and ConfirmPairs(n) when more.
// A change well beyond the noise, as most real regressions are, shows on
// its first few fresh pairs, and a confirmation of as many pairs as
// found it would double what the run spends on it: on a pull request
// that slows the few benchmarks it reaches, that is most of the run. The
// confirmation's level is split between its looks (Bonferroni), so that
// the chance that an unchanged benchmark passes any of them stays α₂.
func confirmLooks(n int) []int {
	if full := ConfirmPairs(n); full > MinConfirmPairs {
		return []int{MinConfirmPairs, full}
	}
	return []int{MinConfirmPairs}
}

// confirmedAt tests the fresh pairs of a change found in direction dir at
// each of looks they reach, one-sided at alpha2 split over the looks, and
// returns the first look at which they show it, or the last they reached
// (0 when none), with its interval and whether it confirmed.
func confirmedAt(fresh []float64, dir int, looks []int, alpha2 float64) (int, stats.Interval, bool) {
	level := alpha2 / float64(len(looks))
	at, iv := 0, nanInterval(1-2*level)
	for _, f := range looks {
		if f > len(fresh) || f < 2 {
			break
		}
		lr := tInterval(fresh[:f])
		h := lr.width(2 * level)
		lo, hi := math.Exp(lr.mean-h), math.Exp(lr.mean+h)
		at, iv = f, stats.Interval{Center: math.Exp(lr.mean), Lo: lo, Hi: hi, Confidence: 1 - 2*level}
		if dir == up && lo > 1 || dir == down && hi < 1 {
			return at, iv, true
		}
	}
	return at, iv, false
}

// ConfirmAlpha returns the confirmation's one-sided level for a run that
// judges m benchmarks, each at level alpha: RunFalseAlarm/(m·alpha), the
// whole of what the run's bound leaves, so that a real change loses as
// little power and time to its confirmation as the bound allows. It is 1
// where the looks alone keep the bound (m·alpha ≤ RunFalseAlarm: a pull
// request that reaches a few benchmarks), and no change is measured
// again.
func ConfirmAlpha(m int, alpha float64) float64 {
	if m < 1 || alpha <= 0 {
		return 1
	}
	return math.Min(1, RunFalseAlarm/(float64(m)*alpha))
}

// ConfirmRoom returns how many suite runs past the plan's last look a
// confirmation may need: what a change found at the last look takes.
func (p Plan) ConfirmRoom() int {
	if !p.Confirm || len(p.Looks) == 0 || p.ConfirmAlpha >= 1 {
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
		if len(d) >= n+ConfirmPairs(n) || p.ConfirmAlpha >= 1 {
			// Confirmed, or in need of none: the looks alone keep
			// the run's bound.
			return PairSettled, true
		}
		if p.ConfirmAlpha > 0 && len(d)-n == MinConfirmPairs {
			// The early look: stop once the fresh pairs agree.
			if _, _, ok := confirmedAt(d[n:], dir, confirmLooks(n), p.ConfirmAlpha); ok {
				return PairSettled, true
			}
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
	// Pairs is the number of fresh pairs the test rests on: those of
	// the look that confirmed the change, or of the last look they
	// reached; Ratio their interval of NEW/OLD at the two-sided level
	// whose one side is Alpha, the confirmation's level split over its
	// looks.
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
	if alpha2 >= 1 {
		// The looks alone keep the run's bound (ConfirmAlpha).
		return dir
	}
	fresh := c.d[min(c.Look, len(c.d)):]
	looks := confirmLooks(c.Look)
	at, iv, ok := confirmedAt(fresh, dir, looks, alpha2)
	cf := &Confirmation{Pairs: at, Alpha: alpha2 / float64(len(looks)), Ratio: iv, Confirmed: ok}
	c.Confirmation = cf
	if cf.Confirmed {
		return dir
	}
	found := fmt.Sprintf("found at %d pairs, %s [%s, %s]", c.Look, signedPct(c.Ratio.Center-1), signedPct(c.Ratio.Lo-1), signedPct(c.Ratio.Hi-1))
	switch {
	case at == 0:
		c.confirmNote = fmt.Sprintf("not confirmed: %s, and %d fresh pairs ran before the budget or the run ended (%d needed)", found, len(fresh), MinConfirmPairs)
	default:
		c.confirmNote = fmt.Sprintf("not confirmed: %s; %d fresh pairs %s [%s, %s]", found, at,
			signedPct(cf.Ratio.Center-1), signedPct(cf.Ratio.Lo-1), signedPct(cf.Ratio.Hi-1))
	}
	return undecided
}

// signedPct formats a change as a signed percentage, "+7.6%".
var signedPct = render.Percent{Digits: 1, Sign: true}.Format
