package gate

import (
	"fmt"
	"io"
	"math"

	"golang.org/x/perf/benchunit"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// minLayoutDF is the fewest degrees of freedom the spread within groups of
// pairs that share a link needs before the groups are compared: with one
// or two repeated links, a spread within them that is small by chance
// makes any difference between links look significant.
const minLayoutDF = 5

// LayoutAlpha is the level of the test that finds a benchmark's pairs of
// processes spreading more than the noise inside them predicts.
const LayoutAlpha = 0.01

// layoutSpread returns the spread of a slice-paired comparison's change
// between code layouts, as the standard deviation the links' layouts add
// to a process pair's log ratio, and whether it dominates. Each pair ran
// its own draw of links with randomised layouts, one of each version; the
// pairs that share a version's link share its layout's effect, and agree
// more with each other than with the rest if that effect is real. So the
// pairs are grouped by each version's link in turn, and the variance
// between the groups beyond what the spread within them predicts (τ² of
// the variance components of DESIGN.md, with links as processes and
// pairs as slices) is the layouts' share. Whatever else moves a pair as a
// whole (the moment it ran, its heap) stays within the groups, and is
// not taken for layout.
//
// The layouts' share dominates when the one-way F test of either
// version's links finds it at LayoutAlpha (halved for the two tests), it
// is more than half the variance of the pairs' log ratios, and it is at
// least a third of the threshold. It is 0 for versions linked once.
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
	byOld, byNew := map[uint64][]float64{}, map[uint64][]float64{}
	var all []float64
	for _, h := range news {
		b, found := byKey[key{h.Instance, h.SuiteRun, h.Iteration}]
		if !h.Duet || h.Layout == 0 || !found || len(h.Values) == 0 || len(h.Values) != len(b.Values) {
			continue
		}
		var sum float64
		for j, x := range h.Values {
			if !(x > 0) || !(b.Values[j] > 0) {
				return 0, false
			}
			sum += math.Log(x) - math.Log(b.Values[j])
		}
		d := sum / float64(len(h.Values))
		byOld[b.Layout] = append(byOld[b.Layout], d)
		byNew[h.Layout] = append(byNew[h.Layout], d)
		all = append(all, d)
	}
	if len(all) < 3 {
		return 0, false
	}
	var layouts float64
	p := 1.0
	for _, groups := range []map[uint64][]float64{byOld, byNew} {
		var gs [][]float64
		for _, g := range groups {
			gs = append(gs, g)
		}
		c := stats.FitComponents(gs)
		n := float64(len(all))
		if math.IsNaN(c.S1) || math.IsNaN(c.S2) || c.Processes < 2 || n-float64(c.Processes) < minLayoutDF {
			continue
		}
		if tau2 := c.S2 - c.S1/c.Slices; tau2 > 0 {
			layouts += tau2
		}
		if c.S1 == 0 {
			if c.S2 > 0 {
				p = 0
			}
			continue
		}
		f := distuv.F{D1: float64(c.Processes - 1), D2: n - float64(c.Processes)}
		p = min(p, f.Survival(c.Slices*c.S2/c.S1))
	}
	if layouts == 0 {
		return 0, false
	}
	spread = math.Expm1(math.Sqrt(layouts))
	return spread, p < LayoutAlpha/2 && layouts > stat.Variance(all, nil)/2 && spread >= threshold/3
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
