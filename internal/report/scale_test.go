package report

import (
	"bytes"
	"testing"
	"time"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScale builds the report of 1,000 benchmarks × 75 samples (3 suite
// runs × 5 iterations × 5 slices) and checks that the page stays a sane
// size. The time is logged, not asserted: the machine is shared.
func TestScale(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a report of 1,000 benchmarks")
	}
	run := synthRun(5, 3, 5, 1, 5, manyBenches(1000))
	start := time.Now()
	rep, err := Build([]*record.Run{run}, Options{})
	require.NoError(t, err)
	built := time.Since(start)
	var html, md bytes.Buffer
	require.NoError(t, rep.WriteHTML(&html))
	require.NoError(t, rep.WriteMarkdown(&md))
	t.Logf("1000 benchmarks × 75 samples: build %v, total %v, HTML %.1f MB, Markdown %.0f kB", built, time.Since(start), float64(html.Len())/1e6, float64(md.Len())/1e3)
	require.Len(t, rep.Benchmarks, 1000)
	assert.Equal(t, 75, rep.Benchmarks[0].Head.Samples)
	assert.Less(t, html.Len(), 40<<20)
	// GitHub accepts at most 1 MiB of step summary.
	assert.Less(t, md.Len(), 1<<20)
}
