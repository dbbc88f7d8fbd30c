package htmlpage

import (
	"bytes"
	"image/color"
	"math"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/perf/benchunit"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Plot sizes of a series over time, small enough that a thousand
// benchmarks make a page of sane size, large enough to tell iterations
// apart.
const (
	SeriesWidth  = 6.5 * vg.Inch
	SeriesHeight = 2.1 * vg.Inch
)

// Palette holds one hue per suite run, from the Tableau 10 palette, which
// stays distinguishable for most colour-blind readers.
var Palette = []color.RGBA{
	{0x4e, 0x79, 0xa7, 0xff}, // blue
	{0xf2, 0x8e, 0x2b, 0xff}, // orange
	{0x59, 0xa1, 0x4f, 0xff}, // green
	{0xb0, 0x7a, 0xa1, 0xff}, // purple
	{0x9c, 0x75, 0x5f, 0xff}, // brown
	{0x76, 0xb7, 0xb2, 0xff}, // teal
	{0xed, 0xc9, 0x48, 0xff}, // yellow
	{0xff, 0x9d, 0xa7, 0xff}, // pink
}

// The colours of what plots mark, the same on every page.
var (
	ColorWorse    = color.RGBA{0xd6, 0x27, 0x28, 0xff} // a regression, a stop
	ColorCapped   = color.RGBA{0xe1, 0x7c, 0x05, 0xff} // a stop at a cap, a change both ways
	ColorGrid     = color.RGBA{0xb0, 0xb0, 0xb0, 0xff}
	ColorSteady   = color.RGBA{0x2c, 0xa0, 0x2c, 0xff}
	ColorSegment  = color.RGBA{0x55, 0x55, 0x55, 0xff} // the level of a segment
	ColorNoChange = color.RGBA{0x70, 0x70, 0x70, 0xff}
	ColorBetter   = color.RGBA{0x2e, 0x7d, 0x32, 0xff} // an improvement
)

// Lighten mixes c with white: f = 0 keeps c, f = 1 is white.
func Lighten(c color.RGBA, f float64) color.RGBA {
	l := func(v uint8) uint8 { return uint8(float64(v) + (255-float64(v))*f) }
	return color.RGBA{l(c.R), l(c.G), l(c.B), 0xff}
}

// Sans is the font of every plot: metrically compatible with Arial and
// Helvetica, which the SVG names as fallbacks.
var Sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// NewPlot returns an empty plot in the pages' fonts and colours.
func NewPlot() *plot.Plot {
	p := plot.New()
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = font.From(Sans, 9)
		ax.Tick.Label.Font = font.From(Sans, 8)
		ax.Color = ColorGrid
		ax.Tick.Color = ColorGrid
	}
	p.Title.TextStyle.Font = font.From(Sans, 10)
	return p
}

// NewSeriesPlot returns a plot of values along x, labelled xLabel and
// yLabel, with faint horizontal grid lines only: vertical ones would
// read as marks in the series.
func NewSeriesPlot(xLabel, yLabel string) *plot.Plot {
	p := NewPlot()
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Transparent
	grid.Horizontal.Color = color.RGBA{0xe6, 0xe6, 0xe6, 0xff}
	p.Add(grid)
	return p
}

// A Scale shows values of one unit in a readable magnitude, as benchstat
// does: ns/op as µs/op when that suits.
type Scale struct {
	Factor float64 // multiply a raw value by Factor to plot it
	Label  string
}

// NewScale returns the scale of unit that suits values.
func NewScale(unit string, values []float64) Scale {
	if len(values) == 0 {
		return Scale{1, unit}
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
	return Scale{tf / s.Factor, label}
}

// Ticks places about five labelled ticks at round values (1, 2 or 5
// times a power of ten), labelled with no more digits than the step needs.
type Ticks struct {
	Integer bool // only whole numbers, for positions
}

// Ticks implements plot.Ticker.
func (t Ticks) Ticks(lo, hi float64) []plot.Tick {
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
	if t.Integer {
		step = math.Max(1, math.Round(step))
	}
	prec := max(0, -int(math.Floor(math.Log10(step))))
	var ticks []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', prec, 64)})
		// Unlabelled minor ticks halfway.
		if m := v + step/2; m < hi && !t.Integer {
			ticks = append(ticks, plot.Tick{Value: m})
		}
	}
	return ticks
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

// SVG renders p as an <svg> element for inline use in HTML: no XML
// prolog, a size that scales with the page, and fonts that fall back to
// what the reader's machine has (the page's style sheet names them).
func SVG(p *plot.Plot, w, h vg.Length) string {
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
