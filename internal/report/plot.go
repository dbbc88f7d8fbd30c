package report

import (
	"bytes"
	"cmp"
	"image/color"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"golang.org/x/perf/benchunit"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Plot sizes, small enough that a thousand benchmarks make a page of
// sane size, large enough to tell iterations apart.
const (
	timelineW = 6.5 * vg.Inch
	timelineH = 2.1 * vg.Inch
)

// suiteRunColors holds one hue per suite run, from the Tableau 10
// palette, which stays distinguishable for most colour-blind readers.
var suiteRunColors = []color.RGBA{
	{0x4e, 0x79, 0xa7, 0xff}, // blue
	{0xf2, 0x8e, 0x2b, 0xff}, // orange
	{0x59, 0xa1, 0x4f, 0xff}, // green
	{0xb0, 0x7a, 0xa1, 0xff}, // purple
	{0x9c, 0x75, 0x5f, 0xff}, // brown
	{0x76, 0xb7, 0xb2, 0xff}, // teal
	{0xed, 0xc9, 0x48, 0xff}, // yellow
	{0xff, 0x9d, 0xa7, 0xff}, // pink
}

var (
	colorStop     = color.RGBA{0xd6, 0x27, 0x28, 0xff}
	colorStopCap  = color.RGBA{0xe1, 0x7c, 0x05, 0xff}
	colorGrid     = color.RGBA{0xb0, 0xb0, 0xb0, 0xff}
	colorSteady   = color.RGBA{0x2c, 0xa0, 0x2c, 0xff}
	colorSegment  = color.RGBA{0x55, 0x55, 0x55, 0xff}
	colorNoChange = color.RGBA{0x70, 0x70, 0x70, 0xff}
	colorBetter   = color.RGBA{0x2e, 0x7d, 0x32, 0xff}
)

// pointColor colours a slice by suite run, with alternate iterations of a
// run in a lighter shade so that iteration boundaries show.
func pointColor(suiteRun, iteration int) color.Color {
	c := suiteRunColors[(max(suiteRun, 1)-1)%len(suiteRunColors)]
	if iteration%2 == 0 {
		return lighten(c, 0.45)
	}
	return c
}

func lighten(c color.RGBA, f float64) color.RGBA {
	l := func(v uint8) uint8 { return uint8(float64(v) + (255-float64(v))*f) }
	return color.RGBA{l(c.R), l(c.G), l(c.B), 0xff}
}

// sans is the font of every plot: metrically compatible with Arial and
// Helvetica, which the SVG names as fallbacks.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

func newPlot() *plot.Plot {
	p := plot.New()
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = font.From(sans, 9)
		ax.Tick.Label.Font = font.From(sans, 8)
		ax.Color = colorGrid
		ax.Tick.Color = colorGrid
	}
	p.Title.TextStyle.Font = font.From(sans, 10)
	return p
}

// newSeriesPlot returns a plot of values along x, labelled xLabel and
// yLabel, with faint horizontal grid lines only: vertical ones would
// read as marks in the series.
func newSeriesPlot(xLabel, yLabel string) *plot.Plot {
	p := newPlot()
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Transparent
	grid.Horizontal.Color = color.RGBA{0xe6, 0xe6, 0xe6, 0xff}
	p.Add(grid)
	return p
}

// A scale shows values of one unit in a readable magnitude, as benchstat
// does: ns/op as µs/op when that suits.
type scale struct {
	factor float64 // multiply a raw value by factor to plot it
	label  string
}

func newScale(unit string, values []float64) scale {
	if len(values) == 0 {
		return scale{1, unit}
	}
	_, tidy := benchunit.Tidy(1, unit)
	tidied := make([]float64, len(values))
	for i, v := range values {
		tidied[i], _ = benchunit.Tidy(v, unit)
	}
	cls := benchunit.ClassOf(tidy)
	s := benchunit.CommonScale(tidied, cls)
	tf, _ := benchunit.Tidy(1, unit)
	label := s.Prefix + tidy
	if strings.HasPrefix(tidy, "sec/") {
		label = s.Prefix + "s/" + strings.TrimPrefix(tidy, "sec/")
	}
	return scale{tf / s.Factor, label}
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
	sc := newScale(unit, vals)
	p := newSeriesPlot("slice, in run order", sc.label)

	xys := make(plotter.XYs, len(b.points))
	for i, pt := range b.points {
		xys[i] = plotter.XY{X: float64(pt.X), Y: pt.Value * sc.factor}
	}
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return ""
	}
	s.GlyphStyleFunc = func(i int) draw.GlyphStyle { return pointGlyph(b.points[i]) }
	p.Add(s)

	p.Y.Min, p.Y.Max = yRange(b.points, sc.factor)
	// Warmup slices far off the measurements would squeeze them into a
	// line; those beyond the range sit on its edge.
	for i := range s.XYs {
		s.XYs[i].Y = math.Max(p.Y.Min, math.Min(p.Y.Max, s.XYs[i].Y))
	}
	p.X.Min, p.X.Max = 0.5, float64(b.points[len(b.points)-1].X)+0.5
	p.X.Tick.Marker = niceTicks{integer: true}
	p.Y.Tick.Marker = niceTicks{}
	addMarks(p, b.marks)
	addSegments(p, b.segments, sc.factor)
	return svgString(p, timelineW, timelineH)
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
			l.Color = colorGrid
			l.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
			l.Width = vg.Points(0.7)
		case markStop:
			l.Color = colorStop
			l.Width = vg.Points(1.4)
		case markStopCap:
			l.Color = colorStopCap
			l.Width = vg.Points(1.4)
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		case markSteady:
			l.Color = colorSteady
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
		l.Color = colorSegment
		if sg.Steady {
			l.Color = colorSteady
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

// niceTicks places about five labelled ticks at round values (1, 2 or 5
// times a power of ten), labelled with no more digits than the step needs.
type niceTicks struct {
	integer bool // only whole numbers, for slice positions
}

// Ticks implements plot.Ticker.
func (t niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 4, 64)}}
	}
	raw := (hi - lo) / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	if t.integer {
		step = math.Max(1, math.Round(step))
	}
	prec := max(0, -int(math.Floor(math.Log10(step))))
	var ticks []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', prec, 64)})
		// Unlabelled minor ticks halfway.
		if m := v + step/2; m < hi && !t.integer {
			ticks = append(ticks, plot.Tick{Value: m})
		}
	}
	return ticks
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

	p := newPlot()
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
	p.Y.Tick.Label.Font = font.From(sans, 8)
	xmin, xmax := math.Min(p.X.Min, -100*threshold), math.Max(p.X.Max, 100*threshold)
	pad := (xmax - xmin) * 0.05
	p.X.Min, p.X.Max = xmin-pad, xmax+pad
	for _, x := range []float64{0, -100 * threshold, 100 * threshold} {
		l, err := plotter.NewLine(plotter.XYs{{X: x, Y: -0.5}, {X: x, Y: float64(n) - 0.5}})
		if err != nil {
			continue
		}
		l.Color = colorGrid
		if x != 0 {
			l.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
		}
		p.Add(l)
	}
	h := vg.Length(n)*14 + 50
	return svgString(p, 7*vg.Inch, h)
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
		return colorStop
	case gate.Improvement:
		return colorBetter
	case gate.Changed:
		return colorStopCap
	}
	return colorNoChange
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

var (
	svgProlog = regexp.MustCompile(`(?s)^.*?<svg `)
	svgSize   = regexp.MustCompile(`^<svg width="[^"]*" height="[^"]*"`)
	// fontStyle matches the font description vgsvg writes on every text
	// element; the page's style sheet says it once instead, with
	// fallbacks.
	// circlePath matches the two-arc path vgsvg draws a circle glyph
	// with; a <circle> element says the same in half the bytes.
	circlePath = regexp.MustCompile(`<path d="M([-0-9.e]+),([-0-9.e]+)A([0-9.e]+),[0-9.e]+ 0 1 1 [-0-9.e]+,[-0-9.e]+A[0-9.e]+,[0-9.e]+ 0 1 1 [-0-9.e]+,[-0-9.e]+Z" style="([^"]*)" />`)
	fontStyle  = regexp.MustCompile(`font-family:Liberation Sans;font-variant:normal;font-weight:normal;font-style:normal;`)
)

// svgString renders p as an <svg> element for inline use in HTML: no XML
// prolog, a size that scales with the page, and fonts that fall back to
// what the reader's machine has (the page's style sheet names them).
func svgString(p *plot.Plot, w, h vg.Length) string {
	c := vgsvg.New(w, h)
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return ""
	}
	s := svgProlog.ReplaceAllString(buf.String(), "<svg ")
	s = svgSize.ReplaceAllString(s, `<svg class="plot" role="img"`)
	s = fontStyle.ReplaceAllString(s, "")
	s = circlePath.ReplaceAllStringFunc(s, func(m string) string {
		g := circlePath.FindStringSubmatch(m)
		x, err1 := strconv.ParseFloat(g[1], 64)
		r, err2 := strconv.ParseFloat(g[3], 64)
		if err1 != nil || err2 != nil {
			return m
		}
		// The path starts at the circle's rightmost point.
		cx := strconv.FormatFloat(x-r, 'f', 2, 64)
		return `<circle cx="` + cx + `" cy="` + g[2] + `" r="` + g[3] + `" style="` + g[4] + `"/>`
	})
	return s
}
