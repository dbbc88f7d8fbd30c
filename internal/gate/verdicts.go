package gate

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
)

// SchemaVersion is the version of the verdicts JSON that compare --json
// and run --baseline --json write, described in docs/VERDICTS.md and
// docs/verdicts.schema.json. A field added leaves it as it is; a field
// removed, renamed or given another meaning, or a verdict that changes
// meaning, raises it.
const SchemaVersion = 1

// JSONOptions says what the verdicts JSON tells beyond the comparison:
// what fails the gate, and whether the run behind it was cut short.
type JSONOptions struct {
	// FailOn selects what fails the gate; nil is DefaultFailOn.
	FailOn FailOn
	// Partial says that the run stopped before its end (an interrupt):
	// the verdicts rest on what it measured, and the exit status does
	// not.
	Partial bool
	// Explanation returns where the change of the comparison of pkg's
	// bench in unit went (run --explain), written as its "explanation",
	// or nil for none.
	Explanation func(pkg, bench, unit string) any
}

// num is a float that JSON writes as null when it is NaN or infinite.
type num = render.JSONFloat

type jsonInterval struct {
	Center, Lo, Hi num
	Confidence     float64
}

func jsonIV(iv stats.Interval) jsonInterval {
	return jsonInterval{num(iv.Center), num(iv.Lo), num(iv.Hi), iv.Confidence}
}

// jsonChangeInterval is the interval of the relative change, NEW/OLD − 1.
type jsonChangeInterval struct {
	Lo         num     `json:"lo"`
	Hi         num     `json:"hi"`
	Confidence float64 `json:"confidence"`
}

type jsonSummary struct {
	N          int          `json:"n"`
	Iterations int          `json:"iterations"`
	Mean       num          `json:"mean"`
	Median     num          `json:"median"`
	CI         jsonInterval `json:"ci"`
}

func jsonSum(s Summary) jsonSummary {
	return jsonSummary{s.N, s.Iterations, num(s.Mean), num(s.Median), jsonIV(s.CI)}
}

type jsonProcesses struct {
	Old int `json:"old"`
	New int `json:"new"`
}

type jsonComparison struct {
	Package    string             `json:"pkg,omitempty"`
	Benchmark  string             `json:"bench"`
	Unit       string             `json:"unit"`
	Better     int                `json:"better"`
	Old        jsonSummary        `json:"old"`
	New        jsonSummary        `json:"new"`
	Ratio      jsonInterval       `json:"ratio"`
	Change     num                `json:"change"`
	Interval   jsonChangeInterval `json:"interval"`
	Processes  jsonProcesses      `json:"processes"`
	P          num                `json:"p"`
	Confidence float64            `json:"confidence"`
	Verdict    Verdict            `json:"verdict"`
	Reason     string             `json:"reason"`
	Fails      bool               `json:"fails"`
	Method     string             `json:"method,omitempty"`
	Trimmed    bool               `json:"trimmed,omitempty"`
	Units      int                `json:"units,omitempty"`
	Look       int                `json:"look,omitempty"`
	Detectable num                `json:"detectable,omitempty"`
	More       int                `json:"more,omitempty"`
	Note       string             `json:"note,omitempty"`
	// LayoutSpread as Comparison's.
	LayoutSpread num `json:"layout_spread,omitempty"`
	// Pairing as Comparison's.
	Pairing      string            `json:"pairing,omitempty"`
	Confirmation *jsonConfirmation `json:"confirmation,omitempty"`
	Explanation  any               `json:"explanation,omitempty"`
}

// jsonConfirmation is Confirmation as the verdicts JSON writes it.
type jsonConfirmation struct {
	Pairs     int          `json:"pairs"`
	Ratio     jsonInterval `json:"ratio"`
	Alpha     float64      `json:"alpha"`
	Confirmed bool         `json:"confirmed"`
}

func jsonConfirm(c *Confirmation) *jsonConfirmation {
	if c == nil {
		return nil
	}
	return &jsonConfirmation{Pairs: c.Pairs, Ratio: jsonIV(c.Ratio), Alpha: c.Alpha, Confirmed: c.Confirmed}
}

// WriteJSON writes r as one indented JSON object in the verdicts schema
// (SchemaVersion). Undefined values (the ratio of an inconclusive
// comparison, a change from zero) are null.
func (r *Result) WriteJSON(w io.Writer, o JSONOptions) error {
	failOn := o.FailOn
	if failOn == nil {
		failOn, _ = ParseFailOn(DefaultFailOn)
	}
	out := struct {
		SchemaVersion int `json:"schema_version"`
		*Result
		Comparisons []jsonComparison `json:"comparisons"`
		FailOn      FailOn           `json:"fail_on"`
		Failed      bool             `json:"failed"`
		Partial     bool             `json:"partial"`
		Summary     string           `json:"summary"`
	}{
		SchemaVersion: SchemaVersion, Result: r, Comparisons: []jsonComparison{},
		FailOn: failOn, Failed: r.Failed(failOn), Partial: o.Partial, Summary: r.Summary(),
	}
	for _, c := range r.Comparisons {
		var why any
		if o.Explanation != nil {
			why = o.Explanation(c.Package, c.Benchmark, c.Unit)
		}
		out.Comparisons = append(out.Comparisons, jsonComparison{
			Package: c.Package, Benchmark: c.Benchmark, Unit: c.Unit, Better: c.Better,
			Old: jsonSum(c.Old), New: jsonSum(c.New), Ratio: jsonIV(c.Ratio), Change: num(c.Change),
			Interval:  jsonChangeInterval{num(c.Ratio.Lo - 1), num(c.Ratio.Hi - 1), c.Ratio.Confidence},
			Processes: jsonProcesses{c.Old.Iterations, c.New.Iterations},
			P:         num(c.P), Confidence: c.Confidence, Verdict: c.Verdict,
			Reason: r.Reason(c), Fails: fails(c, failOn),
			Method: c.Method, Trimmed: c.Trimmed, Units: c.Units, Look: c.Look,
			Detectable: num(c.Detectable), More: c.More, Note: c.Note,
			LayoutSpread: num(c.LayoutSpread), Explanation: why, Pairing: c.Pairing, Confirmation: jsonConfirm(c.Confirmation),
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// fails reports whether c alone fails a gate under f.
func fails(c Comparison, f FailOn) bool {
	return f.Covers(c.Unit) && (c.Verdict == Regression || f.Strict() && c.Verdict == Inconclusive)
}

// Reason says in one sentence why c got its verdict: where its interval
// lies against the threshold, what the rule saw, or, for exact and
// inconclusive comparisons, its note.
func (r *Result) Reason(c Comparison) string {
	why := r.ruleReason(c)
	switch {
	case why == "":
		return c.Note
	case c.Note != "":
		return why + "; " + c.Note
	}
	return why
}

// ruleReason is the part of Reason the rule gives, or "" where the note
// says it all.
func (r *Result) ruleReason(c Comparison) string {
	if c.Method == MethodExact && c.Verdict == NoChange && c.Note == "" {
		return fmt.Sprintf("exact: %s in every process of both versions", fmtNum(c.Old.Mean))
	}
	if c.Method == MethodNone || c.Method == MethodExact || c.Method == MethodSeparated || c.Verdict == Inconclusive {
		return ""
	}
	level := render.Confidence(c.Confidence)
	iv := ratioCI(c.Ratio)
	switch c.Verdict {
	case NoChange:
		return fmt.Sprintf("the %s interval of the change, %s, lies inside ±%s", level, iv, pctSize(r.Threshold))
	case Regression, Improvement, Changed:
	default:
		return ""
	}
	beyond := pctChange(math.Copysign(r.Threshold, c.Change))
	switch r.Rule {
	case RuleUTest:
		return fmt.Sprintf("U test p = %.2g < %.2g, and the change of the medians, %s, reaches %s", c.P, 1-c.Confidence, pctChange(c.Change), beyond)
	case RuleCIOverlap:
		return fmt.Sprintf("the %s intervals of the two versions' means do not overlap, and the change, %s, exceeds %s", level, pctChange(c.Change), beyond)
	}
	return fmt.Sprintf("the %s interval of the change, %s, lies beyond %s", level, iv, beyond)
}
