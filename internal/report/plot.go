package report

import (
	"cmp"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/htmlpage"
)

// pointColor colours a slice by suite run, with alternate iterations of a
// run in a lighter shade so that iteration boundaries show.
func pointColor(suiteRun, iteration int) color.Color {
	c := htmlpage.Palette[(max(suiteRun, 1)-1)%len(htmlpage.Palette)]
	if iteration%2 == 0 {
		return htmlpage.Lighten(c, 0.45)
	}
	return c
}

// timelinePlot draws b's slices in run order as an SVG element.
func timelinePlot(b *Benchmark, unit string) string {
	if len(b.points) == 0 {
		return ""
	}
	vals := make([]float64, len(b.points))
	for i, pt := range b.points {
		vals[i] = pt.Value
	}
	sc := htmlpage.NewScale(unit, vals)
	p := htmlpage.NewSeriesPlot("slice, in run order", sc.Label)

	xys := make(plotter.XYs, len(b.points))
	for i, pt := range b.points {
		xys[i] = plotter.XY{X: float64(pt.X), Y: pt.Value * sc.Factor}
	}
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return ""
	}
	s.GlyphStyleFunc = func(i int) draw.GlyphStyle { return pointGlyph(b.points[i]) }
	p.Add(s)

	p.Y.Min, p.Y.Max = yRange(b.points, sc.Factor)
	// Warmup slices far off the measurements would squeeze them into a
	// line; those beyond the range sit on its edge.
	for i := range s.XYs {
		s.XYs[i].Y = math.Max(p.Y.Min, math.Min(p.Y.Max, s.XYs[i].Y))
	}
	p.X.Min, p.X.Max = 0.5, float64(b.points[len(b.points)-1].X)+0.5
	p.X.Tick.Marker = htmlpage.Ticks{Integer: true}
	p.Y.Tick.Marker = htmlpage.Ticks{}
	addMarks(p, b.marks)
	addSegments(p, b.segments, sc.Factor)
	return htmlpage.SVG(p, htmlpage.SeriesWidth, htmlpage.SeriesHeight)
}

// pointGlyph is how a slice shows: its colour tells its iteration, its
// shape its version and whether it warmed up.
func pointGlyph(pt point) draw.GlyphStyle {
	g := draw.GlyphStyle{Color: pointColor(pt.SuiteRun, pt.Iteration), Radius: 2.2}
	switch {
	case pt.Baseline && pt.Warmup:
		g.Shape = draw.TriangleGlyph{}
	case pt.Baseline:
		g.Shape = draw.PyramidGlyph{}
	case pt.Warmup:
		g.Shape = draw.RingGlyph{}
	default:
		g.Shape = draw.CircleGlyph{}
	}
	return g
}

// addMarks draws the vertical marks of the timeline plot across its
// value range.
func addMarks(p *plot.Plot, marks []mark) {
	for _, m := range marks {
		l, err := plotter.NewLine(plotter.XYs{{X: m.X, Y: p.Y.Min}, {X: m.X, Y: p.Y.Max}})
		if err != nil {
			continue
		}
		switch m.Kind {
		case markSuiteRun:
			l.Color = htmlpage.ColorGrid
			l.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
			l.Width = vg.Points(0.7)
		case markStop:
			l.Color = htmlpage.ColorWorse
			l.Width = vg.Points(1.4)
		case markStopCap:
			l.Color = htmlpage.ColorCapped
			l.Width = vg.Points(1.4)
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		case markSteady:
			l.Color = htmlpage.ColorSteady
			l.Width = vg.Points(1.2)
			l.Dashes = []vg.Length{vg.Points(1.5), vg.Points(1.5)}
		}
		p.Add(l)
	}
}

// addSegments draws the steady-state segments of the timeline plot, their
// means scaled by factor.
func addSegments(p *plot.Plot, segments []segment, factor float64) {
	for _, sg := range segments {
		y := math.Max(p.Y.Min, math.Min(p.Y.Max, sg.Mean*factor))
		l, err := plotter.NewLine(plotter.XYs{{X: sg.X0 - 0.5, Y: y}, {X: sg.X1 + 0.5, Y: y}})
		if err != nil {
			continue
		}
		l.Width = vg.Points(1.6)
		l.Color = htmlpage.ColorSegment
		if sg.Steady {
			l.Color = htmlpage.ColorSteady
		}
		p.Add(l)
	}
}

// yRange returns the value range of the timeline plot: the measurements
// with a margin, widened for warmup slices by at most the measurements'
// spread on either side.
func yRange(pts []point, factor float64) (lo, hi float64) {
	mlo, mhi := math.Inf(1), math.Inf(-1)
	wlo, whi := math.Inf(1), math.Inf(-1)
	for _, pt := range pts {
		v := pt.Value * factor
		if pt.Warmup {
			wlo, whi = math.Min(wlo, v), math.Max(whi, v)
		} else {
			mlo, mhi = math.Min(mlo, v), math.Max(mhi, v)
		}
	}
	if math.IsInf(mlo, 1) { // only warmup slices
		mlo, mhi = wlo, whi
	}
	span := mhi - mlo
	if span == 0 {
		span = math.Abs(mhi)*0.02 + 1e-9
	}
	lo = math.Max(math.Min(mlo, wlo), mlo-span)
	hi = math.Min(math.Max(mhi, whi), mhi+span)
	return lo - 0.06*span, hi + 0.06*span
}

// forestRows is the most comparisons the forest plot shows; the table
// lists them all.
const forestRows = 40

// forestPlot draws the change of each comparison with its interval, the
// largest changes first, as an SVG element.
func forestPlot(cs []gate.Comparison, threshold float64) string {
	var rows []gate.Comparison
	for _, c := range cs {
		if !math.IsNaN(c.Ratio.Lo) && !math.IsNaN(c.Ratio.Hi) && !math.IsNaN(c.Ratio.Center) {
			rows = append(rows, c)
		}
	}
	if len(rows) == 0 {
		return ""
	}
	slices.SortStableFunc(rows, func(a, b gate.Comparison) int {
		return cmp.Compare(verdictRank(a.Verdict), verdictRank(b.Verdict))
	})
	rows = rows[:min(len(rows), forestRows)]

	p := htmlpage.NewPlot()
	p.X.Label.Text = "change of the mean, % (head / baseline − 1)"
	p.Add(plotter.NewGrid())
	names := make([]string, len(rows))
	n := len(rows)
	for i, c := range rows {
		y := float64(n - 1 - i)
		names[n-1-i] = shorten(c.Benchmark, 38)
		bar, err := plotter.NewLine(plotter.XYs{{X: 100 * (c.Ratio.Lo - 1), Y: y}, {X: 100 * (c.Ratio.Hi - 1), Y: y}})
		if err != nil {
			continue
		}
		col := verdictColor(c.Verdict)
		bar.Color, bar.Width = col, vg.Points(2)
		dot, err := plotter.NewScatter(plotter.XYs{{X: 100 * (c.Ratio.Center - 1), Y: y}})
		if err != nil {
			continue
		}
		dot.GlyphStyle = draw.GlyphStyle{Color: col, Radius: 2.8, Shape: draw.CircleGlyph{}}
		p.Add(bar, dot)
	}
	p.NominalY(names...)
	p.Y.Tick.Label.Font = font.From(htmlpage.Sans, 8)
	xmin, xmax := math.Min(p.X.Min, -100*threshold), math.Max(p.X.Max, 100*threshold)
	pad := (xmax - xmin) * 0.05
	p.X.Min, p.X.Max = xmin-pad, xmax+pad
	for _, x := range []float64{0, -100 * threshold, 100 * threshold} {
		l, err := plotter.NewLine(plotter.XYs{{X: x, Y: -0.5}, {X: x, Y: float64(n) - 0.5}})
		if err != nil {
			continue
		}
		l.Color = htmlpage.ColorGrid
		if x != 0 {
			l.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
		}
		p.Add(l)
	}
	h := vg.Length(n)*14 + 50
	return htmlpage.SVG(p, 7*vg.Inch, h)
}

func verdictRank(v gate.Verdict) int {
	switch v {
	case gate.Regression:
		return 0
	case gate.Changed:
		return 1
	case gate.Improvement:
		return 2
	case gate.NoChange:
		return 3
	}
	return 4
}

func verdictColor(v gate.Verdict) color.Color {
	switch v {
	case gate.Regression:
		return htmlpage.ColorWorse
	case gate.Improvement:
		return htmlpage.ColorBetter
	case gate.Changed:
		return htmlpage.ColorCapped
	}
	return htmlpage.ColorNoChange
}

// shorten cuts s to n runes, keeping its end, where sub-benchmark names
// differ.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return "…" + string(r[len(r)-n+1:])
}
