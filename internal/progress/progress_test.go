package progress

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

// clockStart is when a fake clock starts.
var clockStart = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func newPlain(plan Plan) (*Reporter, *bytes.Buffer, *fakeClock) {
	var buf bytes.Buffer
	clk := &fakeClock{t: clockStart}
	return newReporter(&buf, plan, clk.now, false), &buf, clk
}

func assertPlain(t *testing.T, out string) {
	t.Helper()
	for i, c := range out {
		if c == '\n' {
			continue
		}
		assert.False(t, c < 0x20 || c == 0x7f, "control character %q at byte %d in %q", c, i, out)
	}
}

func TestPlainLines(t *testing.T) {
	r, buf, clk := newPlain(Plan{SuiteRuns: 2, Iterations: 8, Benchmarks: 2})
	r.SuiteRunStarted(1, 4)
	for range 4 {
		clk.advance(10 * time.Second)
		r.IterationDone("BenchmarkA", true)
	}
	r.SuiteRunStarted(2, 4)
	clk.advance(10 * time.Second)
	r.IterationDone("BenchmarkA", true)
	r.BenchmarkStopped("BenchmarkA", "stable")
	r.SkippedIterations(1)
	clk.advance(10 * time.Second)
	r.IterationDone("BenchmarkB", false)
	r.BenchmarkFailed("BenchmarkB", "panic: boom\n\x1b[31mgoroutine 1\x1b[0m")
	r.SkippedIterations(1)
	r.Finish("time spent: 1m0s of 1m20s (75%)")

	out := buf.String()
	assertPlain(t, out)
	want := []string{
		"suite run 1/2: 4 iterations; 0 iterations done, 8 left, 0/2 benchmarks stopped, elapsed 0s",
		"suite run 2/2: 4 iterations; 4 iterations done, 4 left, 0/2 benchmarks stopped, elapsed 40s, ETA 40s",
		"stopped BenchmarkA: stable",
		"FAIL BenchmarkB: panic: boom …",
		"done: 6 iterations in 1m0s, 2 skipped by early stops, 1 of 2 benchmarks stopped early, 1 failed",
		"time spent: 1m0s of 1m20s (75%)",
	}
	assert.Equal(t, want, strings.Split(strings.TrimSuffix(out, "\n"), "\n"))
}

// A suite too large for a line per stop gets counts: the status lines say
// how many stopped and how many the budget cut, the failures still get
// their line.
func TestLargeSuiteCounts(t *testing.T) {
	r, buf, clk := newPlain(Plan{SuiteRuns: 2, Iterations: 2 * (QuietAbove + 1), Benchmarks: QuietAbove + 1})
	r.SuiteRunStarted(1, QuietAbove+1)
	for range QuietAbove + 1 {
		clk.advance(time.Second)
		r.IterationDone("BenchmarkA", true)
	}
	r.BenchmarkStopped("BenchmarkA", "stable")
	r.BenchmarkFailed("BenchmarkB", "exit status 2")
	for range 3 {
		r.BenchmarkCut("BenchmarkC")
	}
	r.SuiteRunStarted(2, 2)
	r.Finish("")
	out := buf.String()
	assert.NotContains(t, out, "stopped BenchmarkA")
	assert.Contains(t, out, "FAIL BenchmarkB: exit status 2")
	assert.Contains(t, out, "suite run 2/2: 2 iterations; 21 iterations done, 21 left, 1/21 benchmarks stopped, 3 cut by the budget, 1 failed")
	assert.Contains(t, out, "1 of 21 benchmarks stopped early, 3 cut by the budget, 1 failed")
}

// TestETAAccountsForSkips checks that iterations removed by early stops
// shorten the estimate.
func TestETAAccountsForSkips(t *testing.T) {
	r, _, clk := newPlain(Plan{SuiteRuns: 1, Iterations: 10, Benchmarks: 5})
	clk.advance(20 * time.Second)
	r.IterationDone("A", true)
	r.IterationDone("A", true)
	assert.Equal(t, 80*time.Second, r.eta()) // 8 left at 10 s each
	r.SkippedIterations(4)
	assert.Equal(t, 40*time.Second, r.eta())
	r.SkippedIterations(100) // more than planned: nothing left, never negative
	assert.Equal(t, time.Duration(0), r.eta())
}

// TestETAStopsAtTheBudget checks that a run with a budget is expected to
// end at its deadline, not at its cap, but not before the iterations the
// budget spares.
func TestETAStopsAtTheBudget(t *testing.T) {
	r, _, clk := newPlain(Plan{SuiteRuns: 180, Iterations: 36000, Benchmarks: 200,
		Budget: Budget{Length: 5 * time.Minute, Start: clockStart, Spared: 900, Needed: 3}})
	for range 120 {
		clk.advance(time.Second / 2)
		r.IterationDone("A", true)
	}
	// 780 spared iterations are left at 0.5 s: past the deadline.
	assert.Equal(t, 6*time.Minute+30*time.Second, r.eta())
	for range 780 {
		clk.advance(time.Second / 2)
		r.IterationDone("A", true)
	}
	// 7.5 minutes in, past the deadline and the spared minimum.
	assert.Equal(t, time.Duration(0), r.eta())

	r, buf, clk := newPlain(Plan{SuiteRuns: 180, Iterations: 36000, Benchmarks: 200,
		Budget: Budget{Length: 5 * time.Minute, Start: clockStart}})
	for range 120 {
		clk.advance(time.Second / 2)
		r.IterationDone("A", true)
	}
	assert.Equal(t, 4*time.Minute, r.eta()) // the deadline, not 36000 iterations
	assert.Contains(t, buf.String(), "120 iterations done, 480 left within the budget, 0/200 benchmarks stopped, elapsed 1m0s, ETA 4m0s")
}

// TestBudgetTooShortForAnInterval checks that a run warns, as soon as its
// first suite run shows it, that the budget ends before the suite runs an
// interval needs, and says what budget would give them; once, and never
// when the pace fits or the budget spares the minimum.
func TestBudgetTooShortForAnInterval(t *testing.T) {
	run := func(b Budget, perSuiteRun time.Duration) string {
		b.Start = clockStart
		r, buf, clk := newPlain(Plan{SuiteRuns: 180, Iterations: 180 * 72, Benchmarks: 72, Budget: b})
		for k := 1; k <= 3; k++ {
			r.SuiteRunStarted(k, 72)
			clk.advance(perSuiteRun)
		}
		return buf.String()
	}
	out := run(Budget{Length: 6 * time.Minute, Needed: 3}, 2*time.Minute+50*time.Second)
	assert.Equal(t, 1, strings.Count(out, "warning"), out)
	assert.Contains(t, out, "gobench-dyn: warning: a suite run takes about 2m50s, so --budget 6m0s ends before every benchmark has the 3 processes an interval needs; --budget 9m would give them")
	assert.NotContains(t, run(Budget{Length: 9 * time.Minute, Needed: 3}, 2*time.Minute+50*time.Second), "warning")
	assert.NotContains(t, run(Budget{Length: 6 * time.Minute, Needed: 3, Spared: 216}, 2*time.Minute+50*time.Second), "warning")
}

// TestPeriodicLine checks that a quiet plain log gets a status line once a
// minute, not on every iteration.
func TestPeriodicLine(t *testing.T) {
	r, buf, clk := newPlain(Plan{SuiteRuns: 1, Iterations: 100, Benchmarks: 1})
	for range 30 {
		clk.advance(5 * time.Second)
		r.IterationDone("A", true)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	require.Len(t, lines, 2) // at 60 s and at 120 s
	assert.Equal(t, "12 iterations done, 88 left, 0/1 benchmarks stopped, elapsed 1m0s, ETA 7m20s", lines[0])
	assertPlain(t, buf.String())
}

func TestFinishOnce(t *testing.T) {
	r, buf, _ := newPlain(Plan{SuiteRuns: 1, Iterations: 1, Benchmarks: 1})
	r.Finish("")
	r.Finish("again")
	assert.Equal(t, "done: 0 iterations in 0s, 0 of 1 benchmarks stopped early\n", buf.String())
}

func TestParseMode(t *testing.T) {
	for _, s := range []string{"auto", "on", "off"} {
		m, err := ParseMode(s)
		require.NoError(t, err)
		assert.Equal(t, s, m.String())
	}
	_, err := ParseMode("yes")
	assert.ErrorContains(t, err, `"yes"`)

	var m Mode
	require.NoError(t, m.Set("off"))
	assert.Equal(t, Off, m)
	assert.Error(t, m.Set(""))
}

func TestLive(t *testing.T) {
	env := func(ci string) func(string) string {
		return func(k string) string {
			if k == "CI" {
				return ci
			}
			return ""
		}
	}
	var buf bytes.Buffer
	assert.True(t, Live(&buf, On, env("true")))
	assert.False(t, Live(&buf, Off, env("")))
	assert.False(t, Live(&buf, Auto, env("")), "a buffer is not a terminal")
	f, err := os.CreateTemp(t.TempDir(), "out")
	require.NoError(t, err)
	defer f.Close()
	assert.False(t, Live(f, Auto, env("")), "a file is not a terminal")
}

// TestLiveBar drives the live bar into a buffer: it must end with the
// totals line and leave the bar complete.
func TestLiveBar(t *testing.T) {
	var buf bytes.Buffer
	clk := &fakeClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	r := newReporter(&buf, Plan{SuiteRuns: 1, Iterations: 3, Benchmarks: 1}, clk.now, true)
	r.SuiteRunStarted(1, 3)
	clk.advance(time.Second)
	r.IterationDone("A", true)
	r.BenchmarkStopped("A", "not stable, stopped by a limit")
	r.SkippedIterations(2)
	r.Finish("")
	out := buf.String()
	assert.Contains(t, out, "stopped A: not stable, stopped by a limit")
	assert.Contains(t, out, "1/1")
	assert.True(t, strings.HasSuffix(out, "done: 1 iterations in 1s, 2 skipped by early stops, 1 of 1 benchmarks stopped early\n"), out)
}

func TestOneLine(t *testing.T) {
	assert.Equal(t, "a[1mb …", oneLine("  a\x1b[1mb\nsecond\n"))
	assert.Equal(t, "tab", oneLine("t\ta\rb"))
}

// FuzzParseMode checks that every accepted value round-trips and that no
// input panics.
func FuzzParseMode(f *testing.F) {
	for _, s := range []string{"auto", "on", "off", "", "ON", "yes"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMode(s)
		if err != nil {
			assert.Contains(t, err.Error(), "want auto, on or off")
			return
		}
		assert.Equal(t, s, m.String())
	})
}
