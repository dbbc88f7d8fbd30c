package report

import (
	"fmt"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"io"
	"strings"
)

// mdCollapse is the number of benchmarks above which the results table is
// folded away, so that a pull-request comment stays short.
const mdCollapse = 20

// WriteMarkdown writes the essentials of the report as Markdown tables,
// with no images, for pull-request comments and $GITHUB_STEP_SUMMARY.
func (rep *Report) WriteMarkdown(w io.Writer) error {
	bw := &errWriter{w: w}
	fmt.Fprintf(bw, "## %s\n\n", render.Markdown(rep.Title))
	var counts []string
	for _, c := range rep.statusCounts() {
		counts = append(counts, fmt.Sprintf("%d %s", c.N, c.Status))
	}
	fmt.Fprintf(bw, "**%d benchmarks**: %s.  \n", rep.Suite.Benchmarks, strings.Join(counts, ", "))
	fmt.Fprintf(bw, "**Time**: %s.  \n", rep.timeLine())
	fmt.Fprintf(bw, "**Full configuration**: %s.", rep.configLine())
	if c := rep.criterionLine(); c != "" {
		fmt.Fprintf(bw, "  \n**Stoppage criteria**: %s.", c)
	}
	fmt.Fprintln(bw)
	for _, warn := range rep.Warnings {
		fmt.Fprintf(bw, "\n> [!WARNING]\n> %s\n", render.Markdown(warn))
	}

	if rep.Comparison != nil {
		fmt.Fprintln(bw)
		if err := rep.Comparison.WriteMarkdown(bw); err != nil {
			return err
		}
	}

	rows := rep.rows()
	var trouble []row
	for _, r := range rows {
		if r.Status == StatusFailed || r.Status == StatusCap || r.Status == StatusOutOfReach || r.Status == StatusBudget {
			trouble = append(trouble, r)
		}
	}
	if len(trouble) > 0 {
		fmt.Fprintf(bw, "\n### Needs attention\n\n| benchmark | status | why | CV | RCIW |\n|---|---|---|--:|--:|\n")
		for _, r := range trouble {
			fmt.Fprintf(bw, "| %s | %s | %s | %s | %s |\n", render.MarkdownCodeCell(r.Name), r.Status, render.Markdown(r.StatusNote), r.CV, r.RCIW)
		}
	}

	conf := confidence(rep.Confidence)
	fmt.Fprintf(bw, "\n### Results (%s)\n\n", render.Markdown(rep.Unit))
	if len(rows) > mdCollapse {
		fmt.Fprintf(bw, "<details><summary>%d benchmarks</summary>\n\n", len(rows))
	}
	fmt.Fprintf(bw, "| benchmark | status | samples | mean | median | %s CI of median | CV | RCIW | time |\n|---|---|--:|--:|--:|--:|--:|--:|--:|\n", conf)
	for _, r := range rows {
		fmt.Fprintf(bw, "| %s | %s | %s | %s %s | %s | %s | %s | %s | %s |\n",
			render.MarkdownCodeCell(r.Name), r.Status, r.Samples, r.Mean, r.MeanCI, r.Median, r.MedianCI, r.CV, r.RCIW, r.Spent)
	}
	if len(rows) > mdCollapse {
		fmt.Fprintf(bw, "\n</details>\n")
	}
	return bw.err
}

// errWriter keeps the first write error, so that the formatting code can
// write freely and check once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
