package apiscore

import (
	"encoding/json"
	"fmt"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"io"
	"math"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
)

// A Verdict says whether the suite detects a candidate's slowdown.
type Verdict string

// Verdicts of a candidate.
const (
	// Detected: some benchmark that reaches the function shows a
	// regression beyond the threshold.
	Detected Verdict = "detected"
	// NotDetected: every benchmark that reaches it shows no change, or
	// none reaches it at all.
	NotDetected Verdict = "not detected"
	// Inconclusive: no benchmark detects it, and some could not tell
	// within the budget, failed or did not run.
	Inconclusive Verdict = "inconclusive"
)

// A BenchResult is what one benchmark showed of a candidate's slowdown.
type BenchResult struct {
	Package string `json:"pkg"`
	Name    string `json:"name"`
	// Verdict is the comparison's: regression, no change, inconclusive…
	Verdict gate.Verdict `json:"verdict"`
	// Change is the relative change of ns/op; Low and High bound it at
	// the comparison's confidence.
	Change     float64 `json:"change"`
	Low        float64 `json:"low"`
	High       float64 `json:"high"`
	Iterations int     `json:"iterations"` // processes per version
	// Note says why an inconclusive verdict has no interval, or warns.
	Note string `json:"note,omitempty"`
}

// interval returns b's interval as the report prints it: the note that
// says why there is none, where there is none.
func (b BenchResult) interval() string {
	if (math.IsNaN(b.Low) || math.IsNaN(b.High)) && b.Note != "" {
		return "(" + b.Note + ")"
	}
	return fmt.Sprintf("[%s, %s]", signed(b.Low), signed(b.High))
}

// A Function is the result of one candidate.
type Function struct {
	Package string  `json:"pkg"`
	Name    string  `json:"name"`
	Verdict Verdict `json:"verdict"`
	// Reachable is false when no benchmark runs the function: its
	// slowdown cannot be detected and it was not run.
	Reachable bool `json:"reachable"`
	// Hits is how many statement executions of the function the covering
	// benchmarks' one-op runs made: the ranking of candidates.
	Hits       int64         `json:"hits"`
	Benchmarks []BenchResult `json:"benchmarks"`
	Note       string        `json:"note,omitempty"`
}

// A Spread is one benchmark's maxSpread over the unchanged code's runs.
type Spread struct {
	Package   string  `json:"pkg"`
	Benchmark string  `json:"bench"`
	MaxSpread float64 `json:"max_spread"`
	Runs      int     `json:"runs"`
}

// A Report is the API benchmarking score of a suite.
type Report struct {
	// Slowdown is v: each candidate's own time was made 1+v times longer.
	Slowdown float64 `json:"slowdown"`
	// SlowdownSource says where v came from: "measured" (twice the 95th
	// percentile maxSpread) or "flag".
	SlowdownSource string `json:"slowdown_source"`
	// Threshold is the least change that counts as detected: v/2, as in
	// the paper's second condition.
	Threshold float64 `json:"threshold"`
	// Rule is how each pair was judged: "gate" or "paper".
	Rule Rule `json:"rule"`
	// Score is detected / candidates.
	Score     float64    `json:"score"`
	Detected  int        `json:"detected"`
	Functions []Function `json:"functions"`
	Spreads   []Spread   `json:"spreads"`
	// Seconds is the wall time of the whole evaluation.
	Seconds float64 `json:"seconds"`
}

// Judge returns a reachable candidate's verdict from the comparisons of
// the benchmarks that reach it (the ns/op ones count), and those
// benchmarks' results. complete says whether every covering benchmark was
// run and compared; if not, a candidate no benchmark detects is
// inconclusive. A regression is a detection; not detected needs every
// benchmark to show no change; an improvement or an undecided comparison
// leaves the candidate inconclusive.
func Judge(cs []gate.Comparison, complete bool) (Verdict, []BenchResult) {
	var rs []BenchResult
	detected, unsure := false, !complete
	for _, c := range cs {
		if c.Unit != "ns/op" && c.Unit != "sec/op" {
			continue
		}
		rs = append(rs, BenchResult{Package: c.Package, Name: c.Benchmark, Verdict: c.Verdict,
			Change: c.Change, Low: c.Ratio.Lo - 1, High: c.Ratio.Hi - 1, Iterations: c.New.Iterations, Note: c.Note})
		switch c.Verdict {
		case gate.Regression:
			detected = true
		case gate.NoChange:
		default:
			// An improvement of a slowed function is noise or a
			// side effect the comparison cannot explain: not a
			// sign that the slowdown is invisible.
			unsure = true
		}
	}
	switch {
	case detected:
		return Detected, rs
	case unsure || len(rs) == 0:
		return Inconclusive, rs
	}
	return NotDetected, rs
}

// finish counts the detected functions and sets the score.
func (r *Report) finish() {
	r.Detected = 0
	for _, f := range r.Functions {
		if f.Verdict == Detected {
			r.Detected++
		}
	}
	r.Score = 0
	if len(r.Functions) > 0 {
		r.Score = float64(r.Detected) / float64(len(r.Functions))
	}
}

// WriteText writes the maxSpread of every benchmark, one row per
// candidate and the score, as aligned tables.
func (r *Report) WriteText(w io.Writer) error {
	tw := render.Table(w)
	if len(r.Spreads) > 0 {
		fmt.Fprintln(tw, "benchmark\tmaxSpread\truns")
		for _, s := range r.Spreads {
			fmt.Fprintf(tw, "%s\t%s\t%d\n", s.Benchmark, pct(s.MaxSpread), s.Runs)
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprintf(tw, "slowdown v = %s (%s): each function's own time ×%.3g; detected = a regression beyond %s\n\n",
		pct(r.Slowdown), r.SlowdownSource, 1+r.Slowdown, pct(r.Threshold))
	fmt.Fprintln(tw, "function\tverdict\tbenchmarks")
	for _, f := range r.Functions {
		verdict := string(f.Verdict)
		if !f.Reachable {
			verdict = "not reachable"
		}
		var cells []string
		for _, b := range f.Benchmarks {
			cells = append(cells, fmt.Sprintf("%s %s %s %s", b.Name, signed(b.Change), b.interval(), b.Verdict))
		}
		if f.Note != "" {
			cells = append(cells, f.Note)
		}
		if len(cells) == 0 {
			cells = []string{""}
		}
		name := f.Name
		for _, c := range cells {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", name, verdict, c)
			name, verdict = "", ""
		}
	}
	fmt.Fprintf(tw, "\nscore: %d of %d functions detected = %.0f%%\n", r.Detected, len(r.Functions), 100*r.Score)
	return tw.Flush()
}

// WriteJSON writes the report as one JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(jsonSafe(r))
}

// jsonSafe replaces the NaN and infinite values JSON cannot hold by 0.
func jsonSafe(r *Report) *Report {
	c := *r
	fix := func(x *float64) {
		if math.IsNaN(*x) || math.IsInf(*x, 0) {
			*x = 0
		}
	}
	c.Spreads = append([]Spread(nil), r.Spreads...)
	for i := range c.Spreads {
		fix(&c.Spreads[i].MaxSpread)
	}
	c.Functions = append([]Function(nil), r.Functions...)
	for i := range c.Functions {
		bs := append([]BenchResult(nil), c.Functions[i].Benchmarks...)
		for j := range bs {
			fix(&bs[j].Change)
			fix(&bs[j].Low)
			fix(&bs[j].High)
		}
		if bs == nil {
			bs = []BenchResult{}
		}
		c.Functions[i].Benchmarks = bs
	}
	fix(&c.Slowdown)
	return &c
}

// WriteHTML writes the report as a self-contained HTML page in the style
// of gobench-dyn report: the score, per function its verdict and the
// change and interval of every benchmark that reaches it, and every
// benchmark's maxSpread.
func (r *Report) WriteHTML(w io.Writer) error {
	a := &absPage{Slowdown: pct(r.Slowdown), Source: r.SlowdownSource, Threshold: pct(r.Threshold),
		Rule: string(r.Rule), Score: fmt.Sprintf("%.0f%%", 100*r.Score), Detected: r.Detected}
	for _, f := range r.Functions {
		v := string(f.Verdict)
		if !f.Reachable {
			v = "not reachable"
		}
		af := absFunction{Package: f.Package, Name: f.Name, Verdict: v, Note: f.Note}
		for _, b := range f.Benchmarks {
			af.Benchmarks = append(af.Benchmarks, absBench{Name: b.Name, Change: signed(b.Change),
				Interval: b.interval(), Verdict: string(b.Verdict)})
		}
		a.Functions = append(a.Functions, af)
	}
	for _, s := range r.Spreads {
		a.Spreads = append(a.Spreads, absSpread{Package: s.Package, Benchmark: s.Benchmark, MaxSpread: pct(s.MaxSpread), Runs: s.Runs})
	}
	return writeABSPage(w, a)
}

// pct formats a share such as a slowdown or a spread, and signed a change
// with its sign.
var (
	pct    = render.Percent{Digits: 1, Trim: true, NaN: "-"}.Format
	signed = render.Percent{Digits: 1, Sign: true}.Format
)
