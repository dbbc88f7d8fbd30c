package report

import (
	"fmt"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"math"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// A row is one benchmark's line in the results table, formatted.
type row struct {
	B          *Benchmark
	Name       string // package-qualified when the suite spans packages
	Status     Status
	StatusNote string
	Samples    string // "36 (6 it.)": measurement slices and the iterations they came from
	Mean       string
	MeanCI     string // "± 1.2%"
	Median     string
	MedianCI   string // "[lo, hi]"
	CV, RCIW   string
	Spent      string
	Full       string
	Verdict    gate.Verdict
	Change     string
	ChangeCI   string
	Open       bool // show the plot without a click
}

// rows formats the results table.
func (rep *Report) rows() []row {
	pkgs := map[string]bool{}
	for _, b := range rep.Benchmarks {
		pkgs[b.Package] = true
	}
	open := len(rep.Benchmarks) <= 12
	out := make([]row, len(rep.Benchmarks))
	for i, b := range rep.Benchmarks {
		r := row{B: b, Name: b.Name, Status: b.Status, Spent: duration(b.Spent)}
		if len(pkgs) > 1 {
			r.Name = b.Package + "." + b.Name
		}
		if b.Full > 0 {
			r.Full = duration(b.Full)
		}
		if h := b.Head; h != nil && h.Samples > 0 {
			f := render.NewScale(rep.Unit, h.Mean.Center, h.Median.Lo, h.Median.Hi)
			r.Samples = fmt.Sprintf("%d (%d it.)", h.Samples, h.Iterations)
			r.Mean = f.Value(h.Mean.Center)
			r.MeanCI = plusMinus(h.Mean)
			r.Median = f.Value(h.Median.Center)
			r.MedianCI = interval(f, h.Median)
			r.CV = percent(h.CV)
			r.RCIW = percent(h.RCIW)
		}
		r.StatusNote = statusNotes[b.Status]
		switch {
		case b.Status == StatusOutOfReach && b.Head.Stop != nil && b.Head.Stop.Reason == record.ReasonNoVerdict:
			r.StatusNote = "stopped early with its baseline: a verdict was out of reach within the cap"
		case b.Status == StatusBudget && b.Head.Stop != nil && b.Head.Stop.Reason == record.ReasonBeyondBudget:
			r.StatusNote = "cut short by the time budget: its stop was predicted after more processes than the budget had left"
		case b.Status == StatusFailed:
			r.StatusNote = strings.Join(b.Failures, "; ")
		}
		if pr := stopPrecision(b.Head); pr != "" {
			r.StatusNote += "; mean known to " + pr
		}
		if c := b.Comparison; c != nil {
			r.Verdict = c.Verdict
			r.Change = signedPercent(c.Change)
			if !math.IsNaN(c.Ratio.Lo) {
				r.ChangeCI = "[" + signedPercent(c.Ratio.Lo-1) + ", " + signedPercent(c.Ratio.Hi-1) + "]"
			}
		}
		r.Open = open || b.Status == StatusFailed || r.Verdict == gate.Regression
		out[i] = r
	}
	return out
}

// statusCounts lists the non-zero status counts, in display order.
func (rep *Report) statusCounts() []statusCount {
	var out []statusCount
	for _, s := range statuses {
		if n := rep.Suite.Count[s]; n > 0 {
			out = append(out, statusCount{s, n})
		}
	}
	return out
}

type statusCount struct {
	Status Status
	N      int
}

// timeLine says how the time spent compares with the full configuration.
func (rep *Report) timeLine() string {
	s := rep.Suite
	out := duration(s.Spent) + " measured"
	if s.Full > 0 {
		out = fmt.Sprintf("%s of %s for the full configuration (%s saved)", duration(s.Spent), duration(s.Full), percent(s.Saved()))
	}
	return out
}

// configLine describes the full configuration.
func (rep *Report) configLine() string {
	c := rep.Suite.Config
	if c.slicesPerInstance() == 0 {
		return "unknown (the records do not state suite-runs, iterations and slices)"
	}
	return fmt.Sprintf("%s × %s × (%d warmup + %s)", plural(c.SuiteRuns, "suite run"), plural(c.Iterations, "iteration"), c.Warmup, plural(c.Slices, "slice"))
}

// criterionLine says what computing the criteria cost.
func (rep *Report) criterionLine() string {
	s := rep.Suite
	if s.Criterion <= 0 {
		return ""
	}
	out := duration(s.Criterion)
	if s.Spent > 0 {
		out += " (" + percent(float64(s.Criterion)/float64(s.Spent)) + " of the measured time)"
	}
	return out
}

// plural formats a count of things: "1 suite run", "3 suite runs".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// stopPrecision formats the precision the stop record of h holds (see
// record.Precision.String), or "" without one.
func stopPrecision(h *Result) string {
	if h == nil || h.Stop == nil {
		return ""
	}
	return h.Stop.Precision.String()
}

// statusNotes says why a benchmark has its status.
var statusNotes = map[Status]string{
	StatusStable:     "the stoppage criterion held",
	StatusSettled:    "stopped with its baseline once the change was certain",
	StatusCap:        "stopped at its cap before the criterion held",
	StatusOutOfReach: "stopped early: the target was out of reach within the cap",
	StatusFull:       "ran its full configuration without a stop",
	StatusBudget:     "cut short by the time budget",
}
