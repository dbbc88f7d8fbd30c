package gate

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// TestMarkdownEscapesNames writes benchmark names that would break a job
// summary (an HTML tag, a backtick, a pipe, emphasis) and checks that each
// table row keeps its six cells and every name stands in a code span that
// closes where the name ends, where a tag is text.
func TestMarkdownEscapesNames(t *testing.T) {
	names := []string{"BenchmarkParse/<script>", "BenchmarkParse/a`b", "BenchmarkParse/x|y", "BenchmarkParse/*em*_x_"}
	r := &Result{Rule: RuleCI, Threshold: 0.03, Confidence: 0.99, OldName: "old`s.txt", NewName: "<new>.txt"}
	for _, n := range names {
		r.Comparisons = append(r.Comparisons, Comparison{Benchmark: n, Unit: "ns/op",
			Old: Summary{N: 6, Mean: 100}, New: Summary{N: 6, Mean: 101},
			Ratio: stats.Interval{Center: 1.01, Lo: 1.0, Hi: 1.02}, Change: 0.01, Verdict: NoChange})
	}
	r.OnlyNew = []record.Bench{{Benchmark: "BenchmarkOnly/<b>`x`"}}
	var b bytes.Buffer
	require.NoError(t, r.WriteMarkdown(&b))
	out := b.String()
	assert.Contains(t, out, "| `Parse/<script>` |", "inside a code span a tag is text")
	assert.Contains(t, out, "| `` Parse/a`b `` |")
	assert.Contains(t, out, "| `Parse/x\\|y` |")
	assert.Contains(t, out, "| `Parse/*em*_x_` |")
	assert.Contains(t, out, "- `` BenchmarkOnly/<b>`x` ``")
	assert.Contains(t, out, "`` old`s.txt `` vs `<new>.txt`")
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "| `") {
			cells := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|")
			assert.Equal(t, 7, cells, "a row of six cells: %s", line)
		}
	}
}
