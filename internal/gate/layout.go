package gate

import (
	"fmt"
	"io"
	"math"

	"golang.org/x/perf/benchunit"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobench-dyn/gobench-dyn/internal/record"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
)

// LayoutAlpha is the level of the test that finds a benchmark's pairs of
// processes spreading more than the noise inside them predicts.
const LayoutAlpha = 0.01

// layoutSpread returns the spread of a slice-paired comparison's change
// between code layouts, as the standard deviation of the log ratio that
// the pairs' layouts add (τ of the variance components of DESIGN.md, with
// the process pairs as processes and their slice pairs as slices), and
// whether it dominates: when each pair of processes ran its own draw of
// links with randomised layouts, the pairs' log ratios spread by what
// their slices' noise predicts plus what the layouts add. The layouts'
// share dominates when it is significant at LayoutAlpha (the F test of
// the one-way layout) and larger than the noise's share of the variance
// of a pair's mean, and large enough to matter: at least a third of the
// threshold. It is 0 for versions linked once: then the spread is that
// of processes, and not the layout's.
func layoutSpread(olds, news []record.IterationSample, threshold float64) (spread float64, dominates bool) {
	type key struct {
		inst    string
		sr, itn int
	}
	byKey := map[key]record.IterationSample{}
	for _, it := range olds {
		if it.Duet && it.Layout != 0 {
			byKey[key{it.Instance, it.SuiteRun, it.Iteration}] = it
		}
	}
	var pairs [][]float64
	for _, h := range news {
		b, found := byKey[key{h.Instance, h.SuiteRun, h.Iteration}]
		if !h.Duet || h.Layout == 0 || !found || len(h.Values) < 2 || len(h.Values) != len(b.Values) {
			continue
		}
		d := make([]float64, len(h.Values))
		for j, x := range h.Values {
			if !(x > 0) || !(b.Values[j] > 0) {
				return 0, false
			}
			d[j] = math.Log(x) - math.Log(b.Values[j])
		}
		pairs = append(pairs, d)
	}
	if len(pairs) < 3 {
		return 0, false
	}
	c := stats.FitComponents(pairs)
	if math.IsNaN(c.S1) || math.IsNaN(c.S2) || c.Floored {
		return 0, false
	}
	spread = math.Expm1(math.Sqrt(c.T2))
	if c.S1 == 0 {
		return spread, spread >= threshold/3
	}
	n, m := float64(c.Processes), c.Slices
	f := distuv.F{D1: n - 1, D2: n * (m - 1)}
	p := f.Survival(m * c.S2 / c.S1)
	return spread, p < LayoutAlpha && c.T2 > c.S1/m && spread >= threshold/3
}

// writeLayoutSensitive lists the comparisons whose change spread between
// code layouts more than their noise: a finding about the benchmark, which
// a change that only moves code can swing by as much, whatever the verdict.
func (r *Result) writeLayoutSensitive(w io.Writer, bullet string) {
	var lines []string
	for _, c := range r.Comparisons {
		if c.LayoutSpread <= 0 {
			continue
		}
		_, tu := benchunit.Tidy(1, c.Unit)
		s := c.Benchmark
		if c.Package != "" {
			s += " (" + c.Package + ")"
		}
		lines = append(lines, fmt.Sprintf("%s %s: ±%s across code layouts", s, tu, pctSize(c.LayoutSpread)))
	}
	if len(lines) == 0 {
		return
	}
	title := "layout-sensitive (where the linker places code moves these more than their noise; the interval holds it)"
	if bullet == "- " {
		title = "Layout-sensitive (where the linker places code moves these more than their noise; the interval holds it)"
	}
	fmt.Fprintf(w, "\n%s:\n", title)
	for _, l := range lines {
		if bullet == "- " {
			l = render.Markdown(l)
		}
		fmt.Fprintf(w, "%s%s\n", bullet, l)
	}
}
