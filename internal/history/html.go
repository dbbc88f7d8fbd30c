package history

import (
	_ "embed"
	"fmt"
	"html/template"
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gobench-dyn/gobench-dyn/internal/htmlpage"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
)

//go:embed history.html
var historyHTML string

var historyPage = template.Must(template.New("history").Parse(historyHTML))

// MaxPlots bounds the plots of a history page: series with change
// points first, then others while the page has room. The analysis keeps
// the points of that many series (Query.Plots).
const MaxPlots = 300

type historyRow struct {
	ID, Name, Unit, Commit, Kind, Change, Interval, P, Levels, Machine, Status, Detail string
}

type historyPlot struct {
	ID, Name, Unit, Machine, Latest string
	Points                          int
	Kinds                           []string
	Open                            bool
	SVG                             template.HTML
}

type historyView struct {
	Style                                    template.CSS
	Series, Points                           int
	Method                                   Method
	PValue                                   float64
	Conf                                     string
	Since                                    string
	Rows                                     []historyRow
	Plots                                    []historyPlot
	Regressions, Confirmed, Refuted, Omitted int
}

// WriteHTML writes the change points of a as one self-contained
// page: a table of the change points and, per series, a plot of its
// points over commits with their intervals, the levels between change
// points and the change points marked.
func (a *Analysis) WriteHTML(w io.Writer) error {
	v := historyView{
		Style: htmlpage.Style, Series: a.Series, Points: a.Points, Method: a.Options.Method,
		PValue: a.Options.PValue, Conf: render.Confidence(a.Options.Confidence), Since: a.Since,
	}
	ids := map[Key]string{}
	for i, r := range a.Results {
		ids[r.Series.Key] = fmt.Sprintf("s%d", i+1)
	}
	for _, c := range a.ChangePoints() {
		row := historyRow{
			ID: ids[c.Key], Name: c.Key.Name(), Unit: c.Key.Unit, Commit: shortCommit(c.Commit), Kind: c.Kind(),
			Change: htmlpage.SignedPercent(c.Change), Interval: percentInterval(c.Lo, c.Hi), P: fmt.Sprintf("%.2g", c.P),
			Levels: historyLevel(c.LevelBefore, c.Key.Unit) + " → " + historyLevel(c.LevelAfter, c.Key.Unit), Machine: machineLabel(c.Key),
		}
		if c.Kind() == "regression" {
			v.Regressions++
		}
		if cf := c.Confirmation; cf != nil {
			row.Status = cf.Status
			row.Detail = cf.Verdict
			if !math.IsNaN(cf.Change) {
				row.Detail += " " + htmlpage.SignedPercent(cf.Change) + " " + percentInterval(cf.Lo, cf.Hi)
			}
			switch cf.Status {
			case StatusConfirmed:
				v.Confirmed++
			case StatusRefuted:
				v.Refuted++
			}
		}
		v.Rows = append(v.Rows, row)
	}
	for _, r := range a.Results {
		if len(r.Series.Points) == 0 {
			v.Omitted++
			continue
		}
		p := historyPlot{
			ID: ids[r.Series.Key], Name: r.Series.Key.Name(), Unit: r.Series.Key.Unit, Machine: machineLabel(r.Series.Key),
			Points: len(r.Series.Points), Open: len(r.ChangePoints) > 0,
			SVG: template.HTML(historyPlotSVG(r)),
		}
		if n := len(r.Series.Points); n > 0 {
			p.Latest = historyLevel(r.Series.Points[n-1].Mean, r.Series.Key.Unit) + " at " + shortCommit(r.Series.Points[n-1].Commit)
		}
		for _, c := range r.ChangePoints {
			p.Kinds = append(p.Kinds, c.Kind())
		}
		v.Plots = append(v.Plots, p)
	}
	return historyPage.Execute(w, v)
}

func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

func percentInterval(lo, hi float64) string {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return ""
	}
	return "[" + htmlpage.SignedPercent(lo) + ", " + htmlpage.SignedPercent(hi) + "]"
}

func historyLevel(v float64, unit string) string {
	sc := htmlpage.NewScale(unit, []float64{v})
	return fmt.Sprintf("%.4g %s", v*sc.Factor, sc.Label)
}

func machineLabel(k Key) string {
	if k.Options == "" {
		return k.Machine
	}
	return k.Machine + " [" + k.Options + "]"
}

var (
	colorPoint    = htmlpage.Palette[0]
	colorRefuted  = color.RGBA{0x70, 0x70, 0x70, 0xff}
	colorInterval = htmlpage.Lighten(htmlpage.Palette[0], 0.35)
)

// historyPlotSVG draws one series over commits: each point with its
// interval, the level of each segment between change points, and the
// change points as vertical lines.
func historyPlotSVG(r Result) string {
	pts := r.Series.Points
	if len(pts) == 0 {
		return ""
	}
	vals := make([]float64, 0, 3*len(pts))
	for _, p := range pts {
		vals = append(vals, p.Mean)
	}
	sc := htmlpage.NewScale(r.Series.Key.Unit, vals)
	p := htmlpage.NewSeriesPlot("commit, in history order", sc.Label)

	lo, hi := math.Inf(1), math.Inf(-1)
	xys := make(plotter.XYs, len(pts))
	for i, pt := range pts {
		xys[i] = plotter.XY{X: float64(i + 1), Y: pt.Mean * sc.Factor}
		lo, hi = math.Min(lo, pt.Mean*sc.Factor), math.Max(hi, pt.Mean*sc.Factor)
		if !math.IsNaN(pt.Lo) {
			l, err := plotter.NewLine(plotter.XYs{{X: float64(i + 1), Y: pt.Lo * sc.Factor}, {X: float64(i + 1), Y: pt.Hi * sc.Factor}})
			if err == nil {
				l.Color, l.Width = colorInterval, vg.Points(0.8)
				p.Add(l)
			}
			lo, hi = math.Min(lo, pt.Lo*sc.Factor), math.Max(hi, pt.Hi*sc.Factor)
		}
	}
	span := hi - lo
	if !(span > 0) {
		span = math.Abs(hi)*0.02 + 1e-9
	}
	p.Y.Min, p.Y.Max = lo-0.06*span, hi+0.06*span
	p.X.Min, p.X.Max = 0.5, float64(len(pts))+0.5
	p.X.Tick.Marker = htmlpage.Ticks{Integer: true}
	p.Y.Tick.Marker = htmlpage.Ticks{}

	if s, err := plotter.NewScatter(xys); err == nil {
		s.GlyphStyle = draw.GlyphStyle{Color: colorPoint, Radius: 1.8, Shape: draw.CircleGlyph{}}
		p.Add(s)
	}
	addHistoryLevels(p, r, sc.Factor)
	for _, c := range r.ChangePoints {
		x := float64(c.Index) + 0.5
		l, err := plotter.NewLine(plotter.XYs{{X: x, Y: p.Y.Min}, {X: x, Y: p.Y.Max}})
		if err != nil {
			continue
		}
		l.Width = vg.Points(1.4)
		switch {
		case c.Confirmation != nil && c.Confirmation.Status == StatusRefuted:
			l.Color = colorRefuted
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		case c.Regression():
			l.Color = htmlpage.ColorWorse
		default:
			l.Color = htmlpage.ColorBetter
		}
		p.Add(l)
	}
	return htmlpage.SVG(p, htmlpage.SeriesWidth, htmlpage.SeriesHeight)
}

// addHistoryLevels draws the level of each segment between change
// points.
func addHistoryLevels(p *plot.Plot, r Result, factor float64) {
	start := 0
	for i := 0; i <= len(r.ChangePoints); i++ {
		end := len(r.Series.Points)
		level := math.NaN()
		if i < len(r.ChangePoints) {
			end = r.ChangePoints[i].Index
			level = r.ChangePoints[i].LevelBefore
		} else if i > 0 {
			level = r.ChangePoints[i-1].LevelAfter
		}
		if !math.IsNaN(level) {
			l, err := plotter.NewLine(plotter.XYs{{X: float64(start) + 0.5, Y: level * factor}, {X: float64(end) + 0.5, Y: level * factor}})
			if err == nil {
				l.Width, l.Color = vg.Points(1.6), htmlpage.ColorSegment
				p.Add(l)
			}
		}
		start = end
	}
}
