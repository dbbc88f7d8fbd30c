// Package render formats what gobench-dyn shows people: percentages,
// durations and precisions, aligned text tables, Markdown that is safe
// in a pull-request comment or a GitHub job summary, and numbers in JSON. Every command formats
// these through here, so that one figure reads the same everywhere.
package render

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"
)

// Percent formats shares (0.05 is 5%) as percentages. The zero value
// writes no digits after the point and NaN as "?".
type Percent struct {
	// Digits is the number of digits after the point.
	Digits int
	// Steps give other digits from a magnitude on, the largest first: the
	// first step whose From is at most |x| decides.
	Steps []Step
	// Sign writes a '+' before positive values and zero.
	Sign bool
	// Trim drops trailing zeros after the point, and then the point.
	Trim bool
	// NaN is what NaN reads as; "?" when empty.
	NaN string
}

// A Step of a Percent: from a share of From on (in magnitude), Digits
// digits after the point.
type Step struct {
	From   float64
	Digits int
}

// Format formats x. Infinities read as "∞" ("+∞" with Sign) and "-∞".
func (p Percent) Format(x float64) string {
	switch {
	case math.IsNaN(x):
		if p.NaN == "" {
			return "?"
		}
		return p.NaN
	case math.IsInf(x, -1):
		return "-∞"
	case math.IsInf(x, 1):
		if p.Sign {
			return "+∞"
		}
		return "∞"
	}
	digits := p.Digits
	for _, s := range p.Steps {
		if math.Abs(x) >= s.From {
			digits = s.Digits
			break
		}
	}
	f := "%.*f"
	if p.Sign {
		f = "%+.*f"
	}
	s := fmt.Sprintf(f, digits, 100*x)
	if p.Trim && strings.Contains(s, ".") {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	return s + "%"
}

// Confidence formats a confidence level as people write it: "99%",
// "99.9%", "95.25%".
func Confidence(c float64) string { return confidence.Format(c) }

var confidence = Percent{Digits: 4, Trim: true}

// DurationUp rounds d up for a flag that asks for at least d: to the
// second up to a minute, to the minute above, as "45s" or "9m".
func DurationUp(d time.Duration) string {
	if d <= time.Minute {
		return fmt.Sprintf("%ds", int((d+time.Second-1)/time.Second))
	}
	return fmt.Sprintf("%dm", int((d+time.Minute-1)/time.Minute))
}

// Duration rounds d for people: whole micro- or milliseconds below a
// second, tenths of a second below ten, seconds below an hour, minutes
// above.
func Duration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return d.Round(time.Microsecond).String()
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < 10*time.Second:
		return d.Round(100 * time.Millisecond).String()
	case d < time.Hour:
		return d.Round(time.Second).String()
	}
	return d.Round(time.Minute).String()
}

// ManyProcesses is where a precision's prediction of processes stops
// counting: Precision says "over 10000 processes" above it.
const ManyProcesses = 10000

// ReachableProcesses is the most processes Precision still predicts by
// number. Beyond it, "about 811 processes for ±3%" names a run of one
// benchmark that nobody would make: it says "over 100 processes", which
// is what a user needs to know.
const ReachableProcesses = 100

// FewestProcesses is the fewest processes whose interval is worth
// reporting. From two, the t interval of the mean has one degree of
// freedom and reaches 12.7 standard errors either side at 95%: ±376%
// says only that two processes cannot tell.
const FewestProcesses = 3

// precisionPct writes a precision with two significant digits or so: a
// whole percent from 10% on, a tenth below, hundredths below 0.1%.
var precisionPct = Percent{Digits: 2, Steps: []Step{{0.1, 0}, {0.001, 1}}, Trim: true}

// Precision formats how well a benchmark's mean is known: "±4.1%; about
// 14 processes for ±2%", or "±1.3%" when the relative half-width width
// reached target (no target when 0), and "" when width is unknown (NaN or
// infinite). processes is the prediction of the processes that would
// reach target, 0 when unknown.
func Precision(width, target float64, processes int) string {
	if math.IsNaN(width) || math.IsInf(width, 0) {
		return ""
	}
	w := precisionPct.Format(width)
	if width > target && w == precisionPct.Format(target) {
		// Just past the target: show the digits that say so.
		w = Percent{Digits: 2}.Format(width)
	}
	s := "±" + w
	switch {
	case target <= 0 || width <= target || processes <= 0:
	case processes > ReachableProcesses:
		s += fmt.Sprintf("; over %d processes for ±%s", ReachableProcesses, precisionPct.Format(target))
	default:
		s += fmt.Sprintf("; about %d processes for ±%s", processes, precisionPct.Format(target))
	}
	return s
}

// Table returns a writer that aligns tab-separated cells into columns two
// spaces apart, as every text table of gobench-dyn is laid out. Flush it
// at the end of the table.
func Table(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
}

// Plural writes n and noun, with an s (es after an s) unless n is 1:
// "1 path", "3 paths", "2 processes".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "s") {
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// FirstLine returns s, trimmed, up to its first line break: a table cell
// or a note holds one line of a message that may run to several.
func FirstLine(s string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return first
}

// TwoSpeeds describes the process means, in ns/op, of a benchmark whose
// processes read at two speeds, fast and slow, each ascending, gap apart:
// "3 processes at 442.5ns–461.5ns and 1 at 1.376µs, 3.0× apart".
func TwoSpeeds(fast, slow []float64, gap float64) string {
	speed := func(means []float64) string {
		sc := NewScale("ns/op", means...)
		if means[0] == means[len(means)-1] {
			return sc.Value(means[0])
		}
		return sc.Value(means[0]) + "–" + sc.Value(means[len(means)-1])
	}
	return fmt.Sprintf("%s at %s and %d at %s, %.1f× apart", Plural(len(fast), "process"), speed(fast), len(slow), speed(slow), gap)
}
