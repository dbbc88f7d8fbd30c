package gate

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/choice"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"golang.org/x/perf/benchunit"
)

// FailOn selects what fails a comparison: regressions in the unit classes
// it lists and, when it lists FailInconclusive, inconclusive comparisons in
// them too (a strict gate, which passes only what it has shown unchanged or
// better).
type FailOn []string

// The classes of FailOn.
const (
	FailTime   = "time"   // ns/op (sec/op)
	FailAllocs = "allocs" // allocs/op
	FailBytes  = "bytes"  // B/op
	FailAny    = "any"    // every unit
	// FailInconclusive also fails on inconclusive comparisons in the
	// listed units, or in DefaultFailOn's units when it is listed alone.
	FailInconclusive = "inconclusive"
	// FailRegression names the default verdict; it is accepted for
	// symmetry with FailInconclusive and changes nothing.
	FailRegression = "regression"
)

// DefaultFailOn is the default of --fail-on: regressions in time and in
// allocations, since an allocation regression is a regression.
const DefaultFailOn = FailTime + "," + FailAllocs

// ParseFailOn parses a comma-separated list of unit classes (time, allocs,
// bytes, any) and verdicts (regression, inconclusive). A list of verdicts
// alone applies to DefaultFailOn's units.
func ParseFailOn(s string) (FailOn, error) {
	var f FailOn
	units := false
	for c := range strings.SplitSeq(s, ",") {
		c = strings.TrimSpace(c)
		if _, err := choice.Parse("class", c, FailTime, FailAllocs, FailBytes, FailAny, FailRegression, FailInconclusive); err != nil {
			return nil, err
		}
		switch c {
		case FailTime, FailAllocs, FailBytes, FailAny:
			units = true
		case FailRegression:
			continue
		}
		if !slices.Contains(f, c) {
			f = append(f, c)
		}
	}
	if !units {
		f = append(f, FailTime, FailAllocs)
	}
	return f, nil
}

// Strict reports whether inconclusive comparisons fail under f.
func (f FailOn) Strict() bool { return slices.Contains(f, FailInconclusive) }

// Covers reports whether a regression in unit fails under f.
func (f FailOn) Covers(unit string) bool {
	_, tidy := benchunit.Tidy(1, unit)
	for _, c := range f {
		switch {
		case c == FailAny,
			c == FailTime && tidy == "sec/op",
			c == FailAllocs && tidy == "allocs/op",
			c == FailBytes && tidy == "B/op":
			return true
		}
	}
	return false
}

// Regressions returns the regressions in the units f covers.
func (r *Result) Regressions(f FailOn) []Comparison {
	return r.with(Regression, f)
}

// Inconclusives returns the inconclusive comparisons in the units f
// covers.
func (r *Result) Inconclusives(f FailOn) []Comparison {
	return r.with(Inconclusive, f)
}

func (r *Result) with(v Verdict, f FailOn) []Comparison {
	var out []Comparison
	for _, c := range r.Comparisons {
		if c.Verdict == v && f.Covers(c.Unit) {
			out = append(out, c)
		}
	}
	return out
}

// Failed reports whether r holds a regression in a unit f covers, or,
// when f is strict, an inconclusive comparison in one.
func (r *Result) Failed(f FailOn) bool {
	return len(r.Regressions(f)) > 0 || f.Strict() && len(r.Inconclusives(f)) > 0
}

// Count returns how many comparisons reached verdict v.
func (r *Result) Count(v Verdict) int {
	n := 0
	for _, c := range r.Comparisons {
		if c.Verdict == v {
			n++
		}
	}
	return n
}

// Summary returns a one-line count of the verdicts.
func (r *Result) Summary() string {
	var parts []string
	for _, v := range []Verdict{Regression, Improvement, Changed, NoChange, Inconclusive, Unaffected} {
		if n := r.Count(v); n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, v))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "nothing to compare")
	}
	s := strings.Join(parts, ", ")
	if len(r.OnlyOld) > 0 {
		s += fmt.Sprintf("; %d only in old", len(r.OnlyOld))
	}
	if len(r.OnlyNew) > 0 {
		s += fmt.Sprintf("; %d only in new", len(r.OnlyNew))
	}
	return s
}

func (r *Result) ruleLine() string {
	s := fmt.Sprintf("rule %s, threshold %s, %s confidence", r.Rule, pctSize(r.Threshold), render.Confidence(r.Confidence))
	if r.Correction != CorrectionNone {
		s += ", " + string(r.Correction) + " correction"
	}
	switch {
	case r.SlicePaired:
		s += ", slice by slice in process pairs"
	case r.Paired:
		s += ", paired by suite run"
	}
	if len(r.Looks) > 1 {
		s += fmt.Sprintf(", sequential (looks at %s", joinInts(r.Looks))
		if r.Spending != "" && r.Spending != SpendBonferroni {
			s += "; " + r.Spending.Name()
		}
		s += ")"
	}
	if r.RunFalseAlarm > 0 {
		s += fmt.Sprintf("; each change confirmed on fresh pairs, so that at most %s of runs without a change report one", render.Confidence(r.RunFalseAlarm))
	}
	return s
}

func joinInts(xs []int) string {
	var ss []string
	for _, x := range xs {
		ss = append(ss, strconv.Itoa(x))
	}
	return strings.Join(ss, ", ")
}

// inconclusiveLine describes one inconclusive comparison for the list
// under the tables.
func inconclusiveLine(c Comparison) string {
	s := c.Benchmark
	if c.Package != "" {
		s += " (" + c.Package + ")"
	}
	_, tu := benchunit.Tidy(1, c.Unit)
	s += " " + tu
	if iv := ratioCI(c.Ratio); iv != "" {
		s += ": " + pctChange(c.Change) + " " + iv
	}
	if c.Detectable > 0 {
		s += fmt.Sprintf("; detects ±%s", pctSize(c.Detectable))
	}
	switch {
	case c.More > 0 && c.paired():
		s += fmt.Sprintf("; ~%d more %s", c.More, c.unitName())
	case c.More > 0:
		s += fmt.Sprintf("; ~%d more processes per version", c.More)
	case c.More < 0:
		s += "; out of reach"
	case c.Note != "":
		s += "; " + c.Note
	}
	if c.More != 0 && c.Pairing == PairingProcess {
		s += "; measured by process pairs"
	}
	return s
}

// row is one formatted line of a table.
type row struct {
	name, old, new, change, ci, verdict, note string
}

// table is the comparisons of one unit.
type table struct {
	unit string // tidied, as benchstat labels it
	pkgs []string
	rows map[string][]row // by package
}

func (r *Result) tables() []*table {
	var out []*table
	units := map[string][]Comparison{}
	var order []string
	for _, c := range r.Comparisons {
		if _, ok := units[c.Unit]; !ok {
			order = append(order, c.Unit)
		}
		units[c.Unit] = append(units[c.Unit], c)
	}
	for _, u := range order {
		cs := units[u]
		var vals []float64
		for _, c := range cs {
			vals = append(vals, c.Old.Mean, c.New.Mean)
		}
		scale := render.NewScale(u, vals...)
		t := &table{unit: scale.Unit(), rows: map[string][]row{}}
		for _, c := range cs {
			if _, ok := t.rows[c.Package]; !ok {
				t.pkgs = append(t.pkgs, c.Package)
			}
			t.rows[c.Package] = append(t.rows[c.Package], row{
				name:    strings.TrimPrefix(c.Benchmark, "Benchmark"),
				old:     center(scale, c.Old),
				new:     center(scale, c.New),
				change:  changeCell(c),
				ci:      ratioCI(c.Ratio),
				verdict: string(c.Verdict),
				note:    rowNote(c),
			})
		}
		out = append(out, t)
	}
	return out
}

// center formats a mean with the relative half-width of its interval, as
// benchstat shows "1.234µ ± 2%"; from fewer than render.FewestProcesses
// processes, the mean alone: their interval says only that they cannot
// tell.
func center(scale render.Scale, s Summary) string {
	if s.N == 0 || math.IsNaN(s.Mean) {
		return "—"
	}
	out := scale.Format(s.Mean)
	ci := s.CI
	if s.Mean != 0 && !math.IsNaN(ci.Lo) && s.Iterations >= render.FewestProcesses {
		hw := math.Max(ci.Hi-s.Mean, s.Mean-ci.Lo) / math.Abs(s.Mean)
		out += " ± " + pctSize(hw)
	}
	return out
}

// pctChange and pctSize format relative values as percentages with enough
// digits to tell thresholds of a few percent apart: a change with its
// sign, a size (a threshold, a half-width) without.
var (
	pctChange = render.Percent{Digits: 2, Sign: true}.Format
	pctSize   = render.Percent{Digits: 2}.Format
)

// rowNote is the note under the table that c's row points to. Those
// not measured share one line instead (writeUnaffected).
func rowNote(c Comparison) string {
	if c.Verdict == Unaffected {
		return ""
	}
	return c.Note
}

// writeUnaffected says once what the rows of benchmarks that were not
// measured mean.
func (r *Result) writeUnaffected(w io.Writer) {
	if n := r.Count(Unaffected); n > 0 {
		fmt.Fprintf(w, "\nunaffected: %d %s, not measured: %s no code and %s no file that differs\n", n, pick(n == 1, "benchmark", "benchmarks"), pick(n == 1, "it executes", "they execute"), pick(n == 1, "reads", "read"))
	}
}

func pick(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

// changeCell is the change column of c: empty for a benchmark that was
// not measured.
func changeCell(c Comparison) string {
	if c.Verdict == Unaffected {
		return ""
	}
	return pctChange(c.Change)
}

func ratioCI(iv stats.Interval) string {
	if math.IsNaN(iv.Lo) || math.IsNaN(iv.Hi) {
		return ""
	}
	return fmt.Sprintf("[%s, %s]", pctChange(iv.Lo-1), pctChange(iv.Hi-1))
}

// WriteText writes r as aligned text tables, one per unit, in the manner
// of benchstat.
func (r *Result) WriteText(w io.Writer) error {
	tw := render.Table(w)
	fmt.Fprintf(tw, "%s vs %s: %s\n", nameOr(r.OldName, "old"), nameOr(r.NewName, "new"), r.ruleLine())
	var notes []string
	for _, t := range r.tables() {
		fmt.Fprintf(tw, "\n%s\told\tnew\tchange\tCI of change\tverdict\n", t.unit)
		for _, p := range t.pkgs {
			if p != "" && len(t.pkgs) > 1 {
				fmt.Fprintf(tw, "pkg: %s\t\t\t\t\t\n", p)
			}
			for _, rw := range t.rows[p] {
				v := rw.verdict
				if rw.note != "" {
					notes = append(notes, rw.note)
					v += fmt.Sprintf(" (%d)", len(notes))
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", rw.name, rw.old, rw.new, rw.change, rw.ci, v)
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for i, n := range notes {
		fmt.Fprintf(w, "(%d) %s\n", i+1, n)
	}
	writeOnly(w, "only in old", r.OnlyOld, "")
	writeOnly(w, "only in new", r.OnlyNew, "")
	r.writeUnaffected(w)
	r.writeInconclusive(w, "  ")
	r.writeLayoutSensitive(w, "  ")
	r.writeShift(w)
	r.writeWhen(w)
	_, err := fmt.Fprintf(w, "\n%s\n", r.Summary())
	return err
}

// writeWhen says when a slice-paired comparison was measured: pairing
// takes the machine's changes of speed out of a change, but the state of
// a shared machine also moves the relative cost of code, so a change
// describes its hour (docs/COMPARE.md, "A change describes its hour").
func (r *Result) writeWhen(w io.Writer) {
	if !r.SlicePaired || r.From.IsZero() {
		return
	}
	from, to := r.From.UTC(), r.To.UTC()
	fmt.Fprintf(w, "\nmeasured %s–%s UTC, both versions slice by slice: a change describes the machine of that time; re-measure at another time to confirm one\n",
		from.Format("2006-01-02 15:04"), to.Format("15:04"))
}

func writeOnly(w io.Writer, title string, bs []record.Bench, bullet string) {
	if len(bs) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s:\n", title)
	for _, b := range bs {
		if bullet != "" {
			fmt.Fprintf(w, "%s%s", bullet, render.MarkdownCode(b.Benchmark))
		} else {
			fmt.Fprintf(w, "  %s", b.Benchmark)
		}
		if b.Package != "" && bullet != "" {
			fmt.Fprintf(w, " (%s)", render.Markdown(b.Package))
		} else if b.Package != "" {
			fmt.Fprintf(w, " (%s)", b.Package)
		}
		fmt.Fprintln(w)
	}
}

// maxTooFewListed is how many comparisons with too few processes the
// inconclusive list names one by one; more are counted in one line.
const maxTooFewListed = 10

// writeInconclusive lists the inconclusive comparisons: what they could
// have detected and how much more data would settle them.
func (r *Result) writeInconclusive(w io.Writer, bullet string) {
	var lines []string
	var tooFew []Comparison
	for _, c := range r.Comparisons {
		if c.Verdict != Inconclusive {
			continue
		}
		if c.tooFew {
			tooFew = append(tooFew, c)
			continue
		}
		lines = append(lines, inconclusiveLine(c))
	}
	// A run cut short (by an interrupt or a budget) leaves most of a large
	// suite with one process or none per version: one line says so, where a
	// line per benchmark and unit would bury the ones that were measured.
	if len(tooFew) > maxTooFewListed {
		more := ""
		if len(lines) > 0 {
			more = " more"
		}
		lines = append(lines, fmt.Sprintf("%d%s (benchmark, unit) pairs had too few processes to judge (%s, …); the table above lists each",
			len(tooFew), more, tooFew[0].Note))
	} else {
		for _, c := range tooFew {
			lines = append(lines, inconclusiveLine(c))
		}
	}
	if len(lines) == 0 {
		return
	}
	title := "inconclusive (neither a change nor its absence is shown)"
	if bullet == "- " {
		title = "Inconclusive (neither a change nor its absence is shown)"
	}
	fmt.Fprintf(w, "\n%s:\n", title)
	for _, l := range lines {
		if bullet == "- " {
			l = render.Markdown(l)
		}
		fmt.Fprintf(w, "%s%s\n", bullet, l)
	}
}

func nameOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// WriteMarkdown writes r as Markdown tables for a pull-request comment or
// $GITHUB_STEP_SUMMARY.
func (r *Result) WriteMarkdown(w io.Writer) error {
	fmt.Fprintf(w, "### Benchmarks: %s\n\n", r.Summary())
	fmt.Fprintf(w, "%s vs %s: %s.\n", render.MarkdownCode(nameOr(r.OldName, "old")), render.MarkdownCode(nameOr(r.NewName, "new")), r.ruleLine())
	for _, t := range r.tables() {
		fmt.Fprintf(w, "\n| %s | old | new | change | CI of change | verdict |\n|---|--:|--:|--:|--:|---|\n", render.Markdown(t.unit))
		for _, p := range t.pkgs {
			if p != "" && len(t.pkgs) > 1 {
				fmt.Fprintf(w, "| **%s** | | | | | |\n", render.Markdown(p))
			}
			for _, rw := range t.rows[p] {
				v := rw.verdict
				if rw.verdict == string(Regression) {
					v = "**" + v + "**"
				}
				if rw.note != "" {
					v += ": " + render.Markdown(rw.note)
				}
				fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", render.MarkdownCodeCell(rw.name), rw.old, rw.new, rw.change, rw.ci, v)
			}
		}
	}
	writeOnly(w, "Only in old", r.OnlyOld, "- ")
	writeOnly(w, "Only in new", r.OnlyNew, "- ")
	r.writeUnaffected(w)
	r.writeInconclusive(w, "- ")
	r.writeLayoutSensitive(w, "- ")
	r.writeShift(w)
	return nil
}
