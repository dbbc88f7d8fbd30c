package history

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/htmlpage/browsertest"
)

// historyScreenshotOut keeps TestHistoryBrowser's screenshot:
// go test ./internal/history -run TestHistoryBrowser -history-screenshot ../../docs/history.png
var historyScreenshotOut = flag.String("history-screenshot", "", "copy TestHistoryBrowser's screenshot to `FILE`")

// demoHistory is a history of three benchmarks over 60 commits: one 8%
// slower from commit 30 (its change point confirmed), one 12% faster
// from commit 45 (refuted), one steady.
func demoHistory(t *testing.T) *Analysis {
	t.Helper()
	t0 := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	var es Entries
	for i := range 60 {
		for j, b := range []string{"BenchmarkParse/small-2", "BenchmarkEncode-2", "BenchmarkHash-2"} {
			m := 1200.0 * float64(j+1) * (1 + 0.006*math.Sin(float64(3*i+j)))
			switch {
			case j == 0 && i >= 30:
				m *= 1.08
			case j == 1 && i >= 45:
				m *= 0.88
			}
			h := m * 0.01 * (1 + float64(i%4))
			es = append(es, Entry{Commit: fmt.Sprintf("%02x%038x", i, j), CommitTime: t0.Add(time.Duration(i) * time.Hour), Branch: "main",
				Machine: "linux/amd64 runner", Package: "example.com/p", Benchmark: b, Unit: "ns/op", Mean: m, Lo: m - h, Hi: m + h,
				Confidence: 0.95, Processes: 8, AllocsPerOp: 3, BytesPerOp: 96})
		}
	}
	a, err := Analyze(context.Background(), es, Query{KeepSeries: true, Plots: MaxPlots}, DefaultOptions())
	require.NoError(t, err)
	cps := a.ChangePoints()
	require.Len(t, cps, 2)
	cps[0].Confirmation = &Confirmation{Status: StatusRefuted, Verdict: "no change", Change: 0.004, Lo: -0.01, Hi: 0.018, Confidence: 0.99}
	cps[1].Confirmation = &Confirmation{Status: StatusConfirmed, Verdict: "regression", Change: 0.079, Lo: 0.06, Hi: 0.1, Confidence: 0.99}
	return a
}

func TestHistoryHTML(t *testing.T) {
	a := demoHistory(t)
	var page bytes.Buffer
	require.NoError(t, a.WriteHTML(&page))
	html := page.String()
	assert.Equal(t, 9, strings.Count(html, `<svg class="plot"`), "one plot per series")
	assert.Contains(t, html, "regression")
	assert.Contains(t, html, "confirmed")
	assert.Contains(t, html, "refuted")
	assert.Contains(t, html, "8.06%")
	assert.Contains(t, html, "--bad:#d62728", "the report's style sheet")
}

// TestHistoryBrowser opens the history page in headless Chromium, as
// TestBrowser does the report: the plots render, the script runs without
// errors, and nothing is loaded from elsewhere.
func TestHistoryBrowser(t *testing.T) {
	browsertest.Need(t)
	var page bytes.Buffer
	require.NoError(t, demoHistory(t).WriteHTML(&page))
	s := browsertest.NewServer(t, page.Bytes())
	dom, logs := browsertest.Run(t, s, "--dump-dom")
	assert.Contains(t, dom, `data-ready="1"`, "the page's script did not finish")
	assert.Equal(t, 9, strings.Count(dom, `<svg class="plot`))
	assert.Contains(t, dom, "<circle")
	assert.NotContains(t, logs, "Uncaught")
	assert.NotContains(t, logs, "Refused to")
	shot := filepath.Join(t.TempDir(), "history.png")
	browsertest.Run(t, s, "--hide-scrollbars", "--window-size=1280,1400", "--screenshot="+shot)
	b, err := os.ReadFile(shot)
	require.NoError(t, err)
	assert.NotEmpty(t, b)
	if *historyScreenshotOut != "" {
		require.NoError(t, os.WriteFile(*historyScreenshotOut, b, 0o644))
	}
	assert.Empty(t, s.Requests(), "requests that left the page's host")
}
