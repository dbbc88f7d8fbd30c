// Package browsertest opens the HTML pages of gobench-dyn in headless
// Chromium for tests: a page must render and run with nothing loaded from
// the network, which a proxy that refuses and records every other host
// checks.
package browsertest

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// chromiumNames are the commands a Chromium is installed as, looked up
// on PATH: Debian's package (chromium, with /usr/lib/chromium/chromium
// behind it), Ubuntu's and Fedora's (chromium-browser), and Google's.
var chromiumNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// chromiumPath returns the Chromium to start, or an error naming what was
// looked for.
func chromiumPath() (string, error) {
	for _, name := range chromiumNames {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	// Debian's binary, for a PATH without /usr/bin.
	const debian = "/usr/lib/chromium/chromium"
	if _, err := os.Stat(debian); err == nil {
		return debian, nil
	}
	return "", fmt.Errorf("none of %s on PATH, nor %s", strings.Join(chromiumNames, ", "), debian)
}

// A Server serves one page and, as the browser's proxy, records every
// request for any other host.
type Server struct {
	page   *httptest.Server
	proxy  *httptest.Server
	mu     sync.Mutex
	others []string
}

// NewServer serves html until the test ends.
func NewServer(t testing.TB, html []byte) *Server {
	s := &Server{}
	serve := func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/report.html" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(html)
	}
	s.page = httptest.NewServer(http.HandlerFunc(serve))
	s.proxy = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.URL.Host
		if host == "" {
			host = r.Host
		}
		if host == strings.TrimPrefix(s.page.URL, "http://") {
			serve(w, r)
			return
		}
		s.mu.Lock()
		s.others = append(s.others, r.Method+" "+host+r.URL.Path)
		s.mu.Unlock()
		http.Error(w, "no network in tests", http.StatusForbidden)
	}))
	t.Cleanup(func() { s.page.Close(); s.proxy.Close() })
	return s
}

func (s *Server) url() string { return s.page.URL + "/report.html" }

// browserOwn are hosts Chromium itself calls whatever the flags say (the
// component updater and the sign-in check). No report would load anything
// from them; every other host, font and script CDNs included, counts.
var browserOwn = []string{"update.googleapis.com", "accounts.google.com"}

// Requests returns the requests for other hosts, except the browser's own.
func (s *Server) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, r := range s.others {
		own := false
		for _, h := range browserOwn {
			own = own || strings.Contains(r, " "+h+":") || strings.Contains(r, " "+h+"/")
		}
		if !own {
			out = append(out, r)
		}
	}
	return out
}

// Run runs headless Chromium on the page with extra arguments and
// returns its standard output and error.
func Run(t testing.TB, s *Server, extra ...string) (stdout, stderr string) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-default-apps", "--disable-extensions", "--no-default-browser-check",
		// Chromium's own services, which would otherwise call home
		// through the proxy and hide what the page does.
		"--disable-client-side-phishing-detection", "--disable-domain-reliability", "--no-pings",
		"--disable-breakpad", "--metrics-recording-only", "--safebrowsing-disable-auto-update",
		"--disable-features=AutofillServerCommunication,NetworkTimeServiceQuerying,OptimizationHints,Translate,MediaRouter,CertificateTransparencyComponentUpdater,AccountConsistency,SignInProfileCreation,DnsOverHttps,InterestFeedContentSuggestions",
		"--user-data-dir=" + t.TempDir(),
		"--proxy-server=" + s.proxy.URL, "--proxy-bypass-list=<-loopback>",
		"--enable-logging=stderr", "--v=0",
		"--virtual-time-budget=3000",
	}
	args = append(args, extra...)
	args = append(args, s.url())
	chromium, err := chromiumPath()
	require.NoError(t, err)
	cmd := exec.CommandContext(ctx, chromium, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	require.NoError(t, err, "chromium: %s", errOut.String())
	return out.String(), errOut.String()
}

// Need skips the test when no Chromium is installed or in -short mode.
func Need(t testing.TB) {
	if _, err := chromiumPath(); err != nil {
		t.Skipf("Chromium is missing (apt-get install chromium): %v", err)
	}
	if testing.Short() {
		t.Skip("starts a browser")
	}
}
