package report

import (
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"math"

	"github.com/gobench-dyn/gobench-dyn/internal/htmlpage"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
)

// interval formats a confidence interval as "[lo, hi]" at the scale f.
func interval(f render.Scale, iv stats.Interval) string {
	if math.IsNaN(iv.Lo) {
		return ""
	}
	return "[" + f.Value(iv.Lo) + ", " + f.Value(iv.Hi) + "]"
}

// plusMinus formats the larger distance from the center to an end of iv,
// relative to the center: "± 1.2%".
func plusMinus(iv stats.Interval) string {
	if math.IsNaN(iv.Lo) || iv.Center == 0 {
		return ""
	}
	hw := math.Max(iv.Hi-iv.Center, iv.Center-iv.Lo) / math.Abs(iv.Center)
	return "± " + percent(hw)
}

var (
	percent       = htmlpage.Percent
	signedPercent = htmlpage.SignedPercent
	duration      = render.Duration
	confidence    = render.Confidence
)
