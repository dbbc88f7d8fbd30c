package runreport

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/explain"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
)

// The text under the verdicts: the change per op of each version, the
// top functions each way with their shares, and the pprof command.
func TestWriteExplanations(t *testing.T) {
	e := &session.Explained{Package: "example.com/m", Benchmark: "BenchmarkA-2", CompareUnit: "ns/op",
		Explanation: &explain.Explanation{Kind: explain.CPU, Unit: "ns/op", Base: 1000, Head: 2000, Change: 1000,
			Flat: []explain.Line{{Function: "example.com/m.burn", Head: 1100, Change: 1100, Share: 1.1}, {Function: "example.com/m.scan", Base: 300, Head: 200, Change: -100, Share: -0.1}},
			Cum:  []explain.Line{{Function: "example.com/m.Parse", Base: 1000, Head: 2000, Change: 1000, Share: 1}}},
		Processes: 3, Ops: 30000, Seconds: 2.5, Command: "go tool pprof -diff_base a.pprof b.pprof"}
	e.Samples.Base, e.Samples.Head = 120, 250
	res := &session.Result{Explained: []*session.Explained{e}, ExplainTime: 2600 * time.Millisecond}
	var buf bytes.Buffer
	require.NoError(t, WriteExplanations(&buf, res))
	assert.Equal(t, `
where the changes went (profiles of both versions at the gate's b.N, 2.6s in all):

example.com/m.BenchmarkA-2 ns/op: 1.000µs → 2.000µs per op in the cpu profiles (3+3 processes, 30000 ops each, 120/250 samples, 2.5s)
  flat Δ/op  share  function
  +1.100µs   110%   example.com/m.burn
  -0.100µs   -10%   example.com/m.scan
  cum Δ/op   share  function
  +1.000µs   100%   example.com/m.Parse
  go tool pprof -diff_base a.pprof b.pprof
`, buf.String())
	buf.Reset()
	require.NoError(t, WriteExplanations(&buf, &session.Result{}))
	assert.Empty(t, buf.String(), "nothing explained, nothing written")
}
