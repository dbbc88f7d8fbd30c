package report

import (
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"math"

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

// percent formats a share with two decimals below 10%, one above, and
// signedPercent a change with its sign.
var (
	percent       = render.Percent{Digits: 2, Steps: []render.Step{{From: 0.1, Digits: 1}}, NaN: "—"}.Format
	signedPercent = render.Percent{Digits: 2, Steps: []render.Step{{From: 0.1, Digits: 1}}, NaN: "—", Sign: true}.Format
	duration      = render.Duration
	confidence    = render.Confidence
)
