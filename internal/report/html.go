package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/htmlpage"
)

//go:embed report.html
var pageHTML string

var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"slug": func(s any) string { return strings.ReplaceAll(fmt.Sprint(s), " ", "-") },
	// Plots are SVG this package drew itself; vgsvg escapes their text.
	"svg":   func(s string) template.HTML { return template.HTML(s) },
	"style": func() template.CSS { return htmlpage.Style },
}).Parse(pageHTML))

// htmlView is what the page template reads.
type htmlView struct {
	*Report
	Conf           string
	Counts         []statusCount
	Spent          string
	SpentNote      string
	TimeLine       string
	ConfigLine     string
	CriterionLine  string
	Rows           []row
	Regressions    int
	CompareSummary string
	CompareRule    string
	Forest         template.HTML
}

// WriteHTML writes the report as one self-contained HTML page: styles,
// script and plots inline, nothing loaded from elsewhere.
func (rep *Report) WriteHTML(w io.Writer) error {
	v := htmlView{
		Report:        rep,
		Conf:          confidence(rep.Confidence),
		Counts:        rep.statusCounts(),
		Spent:         duration(rep.Suite.Spent),
		SpentNote:     "measured",
		TimeLine:      rep.timeLine(),
		ConfigLine:    rep.configLine(),
		CriterionLine: rep.criterionLine(),
		Rows:          rep.rows(),
	}
	if s := rep.Suite; s.Full > 0 {
		v.SpentNote = fmt.Sprintf("measured, %s saved", percent(s.Saved()))
	}
	if c := rep.Comparison; c != nil {
		v.Regressions = c.Count(gate.Regression)
		v.CompareSummary = c.Summary()
		v.CompareRule = fmt.Sprintf("rule %s, threshold %s, %s confidence", c.Rule, percent(c.Threshold), confidence(c.Confidence))
		if f := forestPlot(c.Comparisons, c.Threshold); f != "" {
			v.Forest = template.HTML(strings.Replace(f, `class="plot"`, `class="plot forest"`, 1))
		}
	}
	return page.Execute(w, v)
}
