// Package progress shows where a benchmark run stands, on standard error,
// while it works.
//
// On a terminal a Reporter draws one live bar: the suite run, iterations
// done and left, benchmarks already stopped, elapsed time and an estimate
// of the time left that shrinks as early stops remove iterations from the
// schedule. Elsewhere, in CI logs and files, it writes plain lines: one per
// suite run, one per stopped or failed benchmark, one at most every minute
// in between, and a final line with totals. Plain lines hold no control
// characters, so logs stay readable.
//
// A Reporter does its work only when the runner calls it, between slices,
// plus one redraw a second on a terminal to keep the clock moving: on a
// small machine every cycle the harness spends while a slice runs is noise
// in that slice. The live bar is drawn by github.com/schollz/progressbar,
// a widely used and maintained bar that handles terminal width, throttling
// and printing lines above the bar.
package progress

import (
	"fmt"
	"github.com/gobench-dyn/gobench-dyn/internal/choice"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// A Mode says whether to draw a live bar.
type Mode int

// Modes, as the --progress flag spells them.
const (
	Auto Mode = iota // a live bar on a terminal outside CI, plain lines otherwise
	On               // always a live bar
	Off              // always plain lines
)

// ParseMode parses a --progress value: auto, on or off.
func ParseMode(s string) (Mode, error) {
	return choice.ParseFunc("progress mode", s, Mode.String, Auto, On, Off)
}

// String returns the flag spelling of m.
func (m Mode) String() string {
	switch m {
	case On:
		return "on"
	case Off:
		return "off"
	}
	return "auto"
}

// Set parses s into m, so that a *Mode can serve as a flag value.
func (m *Mode) Set(s string) error {
	v, err := ParseMode(s)
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// Type names the flag value type in help output.
func (m *Mode) Type() string { return "auto|on|off" }

// Live reports whether progress written to w in mode m should be a live
// bar: always with On, never with Off, and with Auto when w is a terminal
// and the CI environment variable is not "true". It is the one place that
// decides about terminals.
func Live(w io.Writer, m Mode, getenv func(string) string) bool {
	switch m {
	case On:
		return true
	case Off:
		return false
	}
	if getenv("CI") == "true" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// A Plan is the work scheduled when the run starts.
type Plan struct {
	SuiteRuns  int // suite runs, s
	Iterations int // iterations scheduled over all suite runs
	Benchmarks int // benchmarks in the suite
	// Budget, when its Length is set, ends the run before its cap.
	Budget Budget
}

// plainEvery is the longest a plain log stays silent while iterations
// complete, so that CI logs show the run is alive.
const plainEvery = time.Minute

// liveEvery is how often the live bar is redrawn: often enough to look
// alive, rarely enough to cost nothing measurable. Events only update the
// state; the redraw happens on this clock, so the runner never waits for
// the terminal.
const liveEvery = 500 * time.Millisecond

// A Reporter shows the progress of one run. Its methods may be called from
// any goroutine.
type Reporter struct {
	mu   sync.Mutex
	w    io.Writer
	plan Plan
	now  func() time.Time

	start          time.Time
	lastLine       time.Time
	suiteRun       int
	done           int // iterations completed, failed ones included
	failedIt       int // iterations that failed
	skipped        int // iterations removed from the schedule
	stopped        int // benchmarks that left the schedule early
	cut            int // benchmarks the budget cut short
	failed         map[string]bool
	firstSuiteRun  time.Time // when suite run 1 started
	warnedOfBudget bool
	closing        bool // Finish was called
	finished       bool // the bar is complete
	bar            *progressbar.ProgressBar
	stopTick       chan struct{}
	tickGroup      sync.WaitGroup
}

// New returns a Reporter writing to w, normally os.Stderr.
func New(w io.Writer, mode Mode, plan Plan) *Reporter {
	return newReporter(w, plan, time.Now, Live(w, mode, os.Getenv))
}

func newReporter(w io.Writer, plan Plan, now func() time.Time, live bool) *Reporter {
	r := &Reporter{w: w, plan: plan, now: now, failed: map[string]bool{}}
	r.start = now()
	r.lastLine = r.start
	if live {
		r.bar = progressbar.NewOptions(max(plan.Iterations, 1),
			progressbar.OptionSetWriter(w),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(false),
			progressbar.OptionSetElapsedTime(false),
			progressbar.OptionShowDescriptionAtLineEnd(),
			progressbar.OptionFullWidth(),
			progressbar.OptionSetRenderBlankState(true),
		)
		r.stopTick = make(chan struct{})
		r.tickGroup.Add(1)
		go r.tick()
	}
	return r
}

// tick redraws the live bar, which also keeps its clock moving while a long
// iteration runs.
func (r *Reporter) tick() {
	defer r.tickGroup.Done()
	t := time.NewTicker(liveEvery)
	defer t.Stop()
	for {
		select {
		case <-r.stopTick:
			return
		case <-t.C:
			r.mu.Lock()
			r.redraw()
			r.mu.Unlock()
		}
	}
}

// SuiteRunStarted reports that suite run k (1-based) starts with the given
// number of iterations.
func (r *Reporter) SuiteRunStarted(k, iterations int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.suiteRun = k
	r.warnIfShort(k)
	if r.bar != nil {
		return
	}
	r.line(fmt.Sprintf("suite run %d/%d: %d iterations; %s", k, r.plan.SuiteRuns, iterations, r.status()))
}

// IterationDone reports that one iteration of bench finished, or failed
// when ok is false.
func (r *Reporter) IterationDone(bench string, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done++
	if !ok {
		r.failedIt++
	}
	if r.bar == nil && r.now().Sub(r.lastLine) >= plainEvery {
		r.line(r.status())
	}
}

// SkippedIterations reports that n scheduled iterations were removed from
// the schedule, by early stops or failures, so that the estimate of the
// time left accounts for them.
func (r *Reporter) SkippedIterations(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.skipped += n
}

// QuietAbove is the most benchmarks a suite may have for each stop to get
// a line of its own: a larger suite's stops are counted in the status
// lines, so that a log shows the run's progress rather than hundreds of
// lines, and its summary says the rest.
const QuietAbove = 20

// BenchmarkStopped reports that bench left the schedule before its cap;
// why says in a few words whether its criterion held, and if not, what
// stopped it. It writes a line unless the suite has more than QuietAbove
// benchmarks.
func (r *Reporter) BenchmarkStopped(bench, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped++
	if r.plan.Benchmarks <= QuietAbove {
		r.println(fmt.Sprintf("stopped %s: %s", oneLine(bench), oneLine(why)))
	}
}

// BenchmarkCut reports that the budget took bench out of the schedule
// before it was stable. Cuts come in crowds when the budget runs out:
// they are counted in the status lines, never a line each.
func (r *Reporter) BenchmarkCut(bench string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cut++
}

// BenchmarkFailed reports that bench failed; reason says why in one line.
func (r *Reporter) BenchmarkFailed(bench, reason string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed[bench] = true
	r.println(fmt.Sprintf("FAIL %s: %s", oneLine(bench), oneLine(reason)))
}

// Finish ends the progress display with a line of totals, followed by
// summary if it is not empty. Later calls do nothing.
func (r *Reporter) Finish(summary string) {
	if !r.Close() {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintln(r.w, r.totals())
	if summary != "" {
		fmt.Fprintln(r.w, strings.TrimRight(summary, "\n"))
	}
}

// Close ends the progress display without a line of totals, for a caller
// that prints its own summary as the run's one final line. It reports
// whether the display was still open; later calls and Finish do nothing.
func (r *Reporter) Close() bool {
	r.mu.Lock()
	if r.closing {
		r.mu.Unlock()
		return false
	}
	r.closing = true
	bar := r.bar
	r.mu.Unlock()
	if bar != nil {
		close(r.stopTick)
		r.tickGroup.Wait()
		r.mu.Lock()
		r.redraw()
		r.mu.Unlock()
		// Exit, not Finish: an interrupted run keeps its true state.
		_ = bar.Exit()
		fmt.Fprintln(r.w)
	}
	r.mu.Lock()
	r.finished = true
	r.mu.Unlock()
	return true
}

// totals is the final line.
func (r *Reporter) totals() string {
	var b strings.Builder
	fmt.Fprintf(&b, "done: %d iterations in %s", r.done, render.Duration(r.now().Sub(r.start)))
	if r.skipped > 0 {
		fmt.Fprintf(&b, ", %d skipped by early stops", r.skipped)
	}
	fmt.Fprintf(&b, ", %d of %d benchmarks stopped early", r.stopped, r.plan.Benchmarks)
	if r.cut > 0 {
		fmt.Fprintf(&b, ", %d cut by the budget", r.cut)
	}
	if n := len(r.failed); n > 0 {
		fmt.Fprintf(&b, ", %d failed", n)
	}
	return b.String()
}

// A Budget is the time a run may take: the run stops at its end rather
// than at its cap, and the ETA and the bar count to it. If the first suite
// runs show that it will end before the suite runs Needed, the Reporter
// says so then, and how long a budget would give them.
type Budget struct {
	// Length is the budget, counted from Start, the start of the run
	// (building and calibrating included).
	Length time.Duration
	Start  time.Time
	// Spared is the iterations that run whatever the budget: the
	// minimum, when the budget spares it.
	Spared int
	// Needed is the suite runs that every benchmark needs for its
	// interval, the fewest that bound one; 0 when nothing is needed.
	Needed int
}

// deadline returns when the budget ends.
func (b Budget) deadline() time.Time { return b.Start.Add(b.Length) }

// warnIfShort says, once, at the start of suite run k, when the budget
// ends before the suite runs every benchmark needs at the pace of those
// done so far.
func (r *Reporter) warnIfShort(k int) {
	b := r.plan.Budget
	if k == 1 {
		r.firstSuiteRun = r.now()
	}
	if r.warnedOfBudget || b.Length <= 0 || b.Spared > 0 || k < 2 || k > b.Needed {
		return
	}
	now := r.now()
	per := now.Sub(r.firstSuiteRun) / time.Duration(k-1)
	end := now.Add(per * time.Duration(b.Needed-k+1))
	if !end.After(b.deadline()) {
		return
	}
	r.warnedOfBudget = true
	r.println(fmt.Sprintf("gobench-dyn: warning: a suite run takes about %s, so --budget %s ends before every benchmark has the %d processes an interval needs; --budget %s would give them",
		render.Duration(per.Round(time.Second)), render.Duration(b.Length), b.Needed, render.DurationUp(b.Length+end.Sub(b.deadline()))))
}

// toCap returns the iterations still scheduled up to the cap.
func (r *Reporter) toCap() int {
	return max(r.plan.Iterations-r.done-r.skipped, 0)
}

// left returns the iterations still to run: those still scheduled, or at
// the mean time per completed iteration so far as many as fit before the
// budget's deadline, if fewer.
func (r *Reporter) left() int {
	left := r.toCap()
	b := r.plan.Budget
	if b.Length <= 0 || r.done == 0 {
		return left
	}
	per := r.now().Sub(r.start) / time.Duration(r.done)
	fit := max(b.Spared-r.done, 0)
	if remaining := b.deadline().Sub(r.now()); remaining > 0 && per > 0 {
		fit = max(fit, int(remaining/per))
	}
	return min(left, fit)
}

// eta estimates the time left from the mean time per completed iteration
// so far. It is negative when nothing is known yet.
func (r *Reporter) eta() time.Duration {
	if r.done == 0 {
		return -1
	}
	per := r.now().Sub(r.start) / time.Duration(r.done)
	return per * time.Duration(r.left())
}

// status says where the run stands, in one line.
func (r *Reporter) status() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d iterations done, %d left", r.done, r.left())
	if r.left() < r.toCap() {
		b.WriteString(" within the budget")
	}
	fmt.Fprintf(&b, ", %d/%d benchmarks stopped", r.stopped, r.plan.Benchmarks)
	if r.cut > 0 {
		fmt.Fprintf(&b, ", %d cut by the budget", r.cut)
	}
	if n := len(r.failed); n > 0 {
		fmt.Fprintf(&b, ", %d failed", n)
	}
	fmt.Fprintf(&b, ", elapsed %s", render.Duration(r.now().Sub(r.start)))
	if eta := r.eta(); eta >= 0 {
		fmt.Fprintf(&b, ", ETA %s", render.Duration(eta))
	}
	return b.String()
}

// redraw updates the live bar.
func (r *Reporter) redraw() {
	if r.bar == nil || r.finished {
		return
	}
	total := max(r.done+r.left(), 1)
	if r.bar.GetMax() != total {
		r.bar.ChangeMax(total)
	}
	desc := fmt.Sprintf("suite run %d/%d, %d/%d stopped", r.suiteRun, r.plan.SuiteRuns, r.stopped, r.plan.Benchmarks)
	if r.cut > 0 {
		desc += fmt.Sprintf(", %d cut", r.cut)
	}
	if n := len(r.failed); n > 0 {
		desc += fmt.Sprintf(", %d failed", n)
	}
	desc += ", " + render.Duration(r.now().Sub(r.start))
	if eta := r.eta(); eta >= 0 {
		desc += ", ETA " + render.Duration(eta)
	}
	r.bar.Describe(desc)
	_ = r.bar.Set(r.done)
}

// println writes a message line: above the bar when live, as a plain line
// otherwise.
func (r *Reporter) println(msg string) {
	if r.bar != nil {
		// The bar holds the line back and prints it above itself at
		// the next redraw.
		_, _ = progressbar.Bprintln(r.bar, msg)
		return
	}
	r.line(msg)
}

// line writes one plain line.
func (r *Reporter) line(msg string) {
	fmt.Fprintln(r.w, msg)
	r.lastLine = r.now()
}

// oneLine keeps only printable characters of s on one line, so that a
// benchmark's error output cannot break the log or move the cursor.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return strings.Map(func(c rune) rune {
		if c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) {
			return -1
		}
		return c
	}, s)
}
