package report

import (
	"bytes"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/htmlpage/browsertest"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// screenshotOut keeps TestBrowser's screenshot; docs/report.png is made
// with go test ./report -run 'TestBrowser$' -screenshot ../docs/report.png
var screenshotOut = flag.String("screenshot", "", "copy TestBrowser's screenshot to `FILE`")

// TestBrowser opens a report in headless Chromium: the plots must be in
// the rendered page, the script must run without errors, a screenshot
// must come out, and no request may leave the machine.
func TestBrowser(t *testing.T) {
	browsertest.Need(t)
	rep, err := Build([]*record.Run{demoRun()}, Options{Seed: 1})
	require.NoError(t, err)
	var page bytes.Buffer
	require.NoError(t, rep.WriteHTML(&page))
	s := browsertest.NewServer(t, page.Bytes())

	dom, logs := browsertest.Run(t, s, "--dump-dom")
	assert.Contains(t, dom, `data-ready="1"`, "the page's script did not finish")
	assert.Equal(t, len(rep.Benchmarks)+1, strings.Count(dom, `<svg class="plot`))
	assert.Contains(t, dom, "<circle")
	assert.NotContains(t, logs, "Uncaught")
	assert.NotContains(t, logs, "Refused to") // a Content-Security-Policy violation

	shot := filepath.Join(t.TempDir(), "report.png")
	browsertest.Run(t, s, "--hide-scrollbars", "--window-size=1280,1640", "--screenshot="+shot)
	if *screenshotOut != "" {
		b, err := os.ReadFile(shot)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(*screenshotOut, b, 0o644))
	}
	f, err := os.Open(shot)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	assert.Equal(t, 1280, img.Bounds().Dx())

	assert.Empty(t, s.Requests(), "requests that left the page's host")
}

// TestBrowserCatchesRequests checks that the proxy sees a page that does
// load something from elsewhere, so that TestBrowser can fail.
func TestBrowserCatchesRequests(t *testing.T) {
	browsertest.Need(t)
	s := browsertest.NewServer(t, []byte(`<!DOCTYPE html><html><body><img src="http://example.invalid/x.png"></body></html>`))
	browsertest.Run(t, s, "--dump-dom")
	assert.Contains(t, strings.Join(s.Requests(), "\n"), "example.invalid/x.png")
}
