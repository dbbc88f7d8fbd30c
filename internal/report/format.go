package report

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"golang.org/x/perf/benchunit"
)

// A formatter prints values of one unit at one common scale, as benchstat
// does: "1.234µs" for ns/op, "1.2kB" for B/op.
type formatter struct {
	unit   string // the unit after tidying, "sec/op"
	scaler benchunit.Scaler
}

func newFormatter(unit string, values ...float64) formatter {
	_, tidy := benchunit.Tidy(1, unit)
	var tidied []float64
	for _, v := range values {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			t, _ := benchunit.Tidy(v, unit)
			tidied = append(tidied, t)
		}
	}
	return formatter{unit: tidy, scaler: benchunit.CommonScale(tidied, benchunit.ClassOf(tidy))}
}

// value formats v, given in the original unit, with the scaled unit's
// prefix and its dimension: "1.234µs", "512B", "3.000" for allocs/op.
func (f formatter) value(v float64, unit string) string {
	if math.IsNaN(v) {
		return "—"
	}
	t, _ := benchunit.Tidy(v, unit)
	s := f.scaler.Format(t)
	switch {
	case strings.HasPrefix(f.unit, "sec/"):
		s += "s"
	case strings.HasPrefix(f.unit, "B/"):
		s += "B"
	}
	return s
}

// interval formats a confidence interval as "[lo, hi]".
func (f formatter) interval(iv stats.Interval, unit string) string {
	if math.IsNaN(iv.Lo) {
		return ""
	}
	return "[" + f.value(iv.Lo, unit) + ", " + f.value(iv.Hi, unit) + "]"
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

// percent formats a share as a percentage with two significant digits
// below 10%.
func percent(x float64) string {
	switch {
	case math.IsNaN(x):
		return "—"
	case math.IsInf(x, 0):
		return "∞"
	case math.Abs(x) < 0.1:
		return fmt.Sprintf("%.2f%%", 100*x)
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}

// signedPercent is percent with a sign, for changes.
func signedPercent(x float64) string {
	if x >= 0 && !math.IsNaN(x) {
		return "+" + percent(x)
	}
	return percent(x)
}

// duration rounds d for people.
func duration(d time.Duration) string {
	switch {
	case d <= 0:
		return "0s"
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// confidence formats a confidence level: "99%".
func confidence(c float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", 100*c), "0"), ".") + "%"
}
