package runreport

import (
	"fmt"
	"io"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/explain"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// explainTop is how many functions the text shows of each ranking.
const explainTop = 5

// explainShare writes a line's share of the net change.
var explainShare = render.Percent{Digits: 0, NaN: "—"}

// WriteExplanations writes, under the verdicts, where each change res
// explained went: the top functions by flat and cumulative change per
// operation, and the command that opens the profiles' diff.
func WriteExplanations(w io.Writer, res *session.Result) error {
	if len(res.Explained) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nwhere the changes went (profiles of both versions at the gate's b.N, %s in all):\n", render.Duration(res.ExplainTime))
	for _, e := range res.Explained {
		sc := render.NewScale(e.Unit, e.Base, e.Head)
		fmt.Fprintf(w, "\n%s %s: %s → %s per op in the %s profiles (%d+%d processes, %d ops each, %d/%d samples, %s)\n",
			record.Bench{Package: e.Package, Benchmark: e.Benchmark}, e.CompareUnit, sc.Value(e.Base), sc.Value(e.Head), e.Kind,
			e.Processes, e.Processes, e.Ops, e.Samples.Base, e.Samples.Head, render.Duration(time.Duration(e.Seconds*float64(time.Second))))
		tw := render.Table(w)
		for _, part := range []struct {
			name  string
			lines []explain.Line
		}{{"flat", e.Flat}, {"cum", e.Cum}} {
			fmt.Fprintf(tw, "  %s Δ/op\tshare\tfunction\n", part.name)
			for _, l := range part.lines[:min(explainTop, len(part.lines))] {
				sign := "+"
				if l.Change < 0 {
					sign = "-"
				}
				fmt.Fprintf(tw, "  %s%s\t%s\t%s\n", sign, sc.Value(abs(l.Change)), explainShare.Format(l.Share), l.Function)
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "  %s\n", e.Command); err != nil {
			return err
		}
	}
	if res.ExplainHTML != "" {
		if _, err := fmt.Fprintf(w, "\ndifferential flame graphs (red slower, blue faster): %s\n", res.ExplainHTML); err != nil {
			return err
		}
	}
	return nil
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
