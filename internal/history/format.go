package history

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"golang.org/x/perf/benchunit"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
)

// Statuses of a change point measured again.
const (
	StatusConfirmed    = "confirmed"
	StatusRefuted      = "refuted"
	StatusInconclusive = "inconclusive"
)

// short returns the first 12 characters of a commit hash.
func short(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

func pct(x float64) string {
	if math.IsNaN(x) {
		return "?"
	}
	return fmt.Sprintf("%+.1f%%", 100*x)
}

func interval(lo, hi float64) string {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return ""
	}
	return fmt.Sprintf("[%s, %s]", pct(lo), pct(hi))
}

// level formats a value of unit as benchstat scales it: "1.23µ".
func level(v float64, unit string) string {
	if math.IsNaN(v) {
		return "?"
	}
	tv, tu := benchunit.Tidy(v, unit)
	return benchunit.Scale(tv, benchunit.ClassOf(tu))
}

func pvalue(p float64) string {
	if math.IsNaN(p) {
		return "?"
	}
	if p < 1e-300 {
		return "<1e-300"
	}
	return fmt.Sprintf("%.2g", p)
}

// Kind returns "regression", "improvement" or "change" (for a unit of
// unknown direction).
func (c *ChangePoint) Kind() string {
	switch {
	case gate.Better(c.Key.Unit, nil) == 0:
		return "change"
	case c.Regression():
		return "regression"
	}
	return "improvement"
}

// status is the confirmation column: "confirmed (regression +4.9% [...])",
// or "" when not measured again.
func (c *ChangePoint) status() string {
	cf := c.Confirmation
	if cf == nil {
		return ""
	}
	s := cf.Status
	if cf.Verdict != "" {
		s += " (" + cf.Verdict
		if !math.IsNaN(cf.Change) {
			s += " " + pct(cf.Change)
			if iv := interval(cf.Lo, cf.Hi); iv != "" {
				s += " " + iv
			}
		}
		s += ")"
	}
	return s
}

// WriteText writes the change points of a as a table, one line each.
func (a *Analysis) WriteText(w io.Writer) error {
	cps := a.ChangePoints()
	fmt.Fprintf(w, "%d change points in %d series (%d points), method %s, p < %g", len(cps), a.Series, a.Points, a.Options.Method, a.Options.PValue)
	if a.Since != "" {
		fmt.Fprintf(w, ", after %s", short(a.Since))
	}
	fmt.Fprintln(w)
	if a.Order.Any() {
		fmt.Fprintf(w, "order: %s\n", a.Order)
	}
	if len(cps) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "benchmark\tunit\tcommit\tkind\tchange\tinterval\tp\tbefore → after\tpoints\tmachine\tconfirmation")
	for _, c := range cps {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s → %s\t%d+%d\t%s\t%s\n",
			c.Key.Name(), c.Key.Unit, short(c.Commit), c.Kind(), pct(c.Change), interval(c.Lo, c.Hi), pvalue(c.P),
			level(c.LevelBefore, c.Key.Unit), level(c.LevelAfter, c.Key.Unit), c.Before, c.After, machineOptions(c.Key), c.status())
	}
	return tw.Flush()
}

// String says which commits the graph did not place alone, and how they
// were placed.
func (o OrderNotes) String() string {
	var parts []string
	if o.ByTime > 0 {
		parts = append(parts, fmt.Sprintf("%d commits of one first-parent position placed by commit time", o.ByTime))
	}
	if o.Unplaced > 0 {
		parts = append(parts, fmt.Sprintf("%d commits recorded without their place in the commit graph placed by commit time", o.Unplaced))
	}
	if o.OffLine > 0 {
		parts = append(parts, fmt.Sprintf("%d commits off the first-parent line left out", o.OffLine))
	}
	return strings.Join(parts, "; ")
}

func machineOptions(k Key) string {
	if k.Options == "" {
		return k.Machine
	}
	return k.Machine + " [" + k.Options + "]"
}

// WriteMarkdown writes the change points of a for a pull request or a
// CI job summary.
func (a *Analysis) WriteMarkdown(w io.Writer) error {
	cps := a.ChangePoints()
	reg := 0
	for _, c := range cps {
		if c.Regression() && (c.Confirmation == nil || c.Confirmation.Status != StatusRefuted) {
			reg++
		}
	}
	fmt.Fprintf(w, "### Benchmark history: %d change points, %d regressions\n\n", len(cps), reg)
	fmt.Fprintf(w, "%d series, %d points; E-divisive means (%s), p < %g, intervals at %.0f%%", a.Series, a.Points, a.Options.Method, a.Options.PValue, 100*a.Options.Confidence)
	if a.Since != "" {
		fmt.Fprintf(w, "; change points after `%s`", short(a.Since))
	}
	fmt.Fprint(w, ".\n\n")
	if a.Order.Any() {
		fmt.Fprintf(w, "Order: %s.\n\n", a.Order)
	}
	if len(cps) == 0 {
		_, err := fmt.Fprintln(w, "No change points.")
		return err
	}
	fmt.Fprintln(w, "| benchmark | unit | commit | kind | change | interval | p | before → after | machine | confirmation |")
	fmt.Fprintln(w, "|---|---|---|---|--:|--:|--:|--:|---|---|")
	for _, c := range cps {
		kind := c.Kind()
		if kind == "regression" {
			kind = "**regression**"
		}
		fmt.Fprintf(w, "| `%s` | %s | `%s` | %s | %s | %s | %s | %s → %s | %s | %s |\n",
			mdEscape(c.Key.Name()), mdEscape(c.Key.Unit), short(c.Commit), kind, pct(c.Change), interval(c.Lo, c.Hi), pvalue(c.P),
			level(c.LevelBefore, c.Key.Unit), level(c.LevelAfter, c.Key.Unit), mdEscape(machineOptions(c.Key)), mdEscape(c.status()))
	}
	return nil
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// num is a float that JSON writes as null when it is NaN or infinite.
type num = render.JSONFloat

type jsonConfirmation struct {
	Status     string `json:"status"`
	Verdict    string `json:"verdict"`
	Change     num    `json:"change"`
	Lo         num    `json:"lo"`
	Hi         num    `json:"hi"`
	Confidence num    `json:"confidence"`
}

type jsonChangePoint struct {
	Key
	Commit       string            `json:"commit"`
	Time         time.Time         `json:"time"`
	Prev         string            `json:"prev"`
	Index        int               `json:"index"`
	Kind         string            `json:"kind"`
	Change       num               `json:"change"`
	Lo           num               `json:"lo"`
	Hi           num               `json:"hi"`
	Confidence   float64           `json:"confidence"`
	P            num               `json:"p"`
	LevelBefore  num               `json:"level_before"`
	LevelAfter   num               `json:"level_after"`
	PointsBefore int               `json:"points_before"`
	PointsAfter  int               `json:"points_after"`
	Confirmation *jsonConfirmation `json:"confirmation,omitempty"`
}

type jsonAnalysis struct {
	Method       Method            `json:"method"`
	PValue       float64           `json:"pvalue"`
	MinChange    float64           `json:"min_change"`
	Series       int               `json:"series"`
	Points       int               `json:"points"`
	Since        string            `json:"since,omitempty"`
	Order        *OrderNotes       `json:"order,omitempty"`
	ChangePoints []jsonChangePoint `json:"change_points"`
}

// WriteJSON writes the change points of a as one JSON object.
func (a *Analysis) WriteJSON(w io.Writer) error {
	out := jsonAnalysis{Method: a.Options.Method, PValue: a.Options.PValue, MinChange: a.Options.MinChange, Series: a.Series, Points: a.Points, Since: a.Since, ChangePoints: []jsonChangePoint{}}
	if a.Order.Any() {
		out.Order = &a.Order
	}
	for _, c := range a.ChangePoints() {
		j := jsonChangePoint{
			Key: c.Key, Commit: c.Commit, Time: c.Time, Prev: c.Prev, Index: c.Index, Kind: c.Kind(),
			Change: num(c.Change), Lo: num(c.Lo), Hi: num(c.Hi), Confidence: c.Confidence, P: num(c.P),
			LevelBefore: num(c.LevelBefore), LevelAfter: num(c.LevelAfter), PointsBefore: c.Before, PointsAfter: c.After,
		}
		if cf := c.Confirmation; cf != nil {
			j.Confirmation = &jsonConfirmation{Status: cf.Status, Verdict: cf.Verdict, Change: num(cf.Change), Lo: num(cf.Lo), Hi: num(cf.Hi), Confidence: num(cf.Confidence)}
		}
		out.ChangePoints = append(out.ChangePoints, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
