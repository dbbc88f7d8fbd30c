package session

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/compare"
	"github.com/gobench-dyn/gobench-dyn/progress"
	"github.com/gobench-dyn/gobench-dyn/record"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// buffer is an Output in memory.
type buffer struct {
	bytes.Buffer
	committed bool
}

func (b *buffer) Commit(*record.Run, []record.Key) error { b.committed = true; return nil }

// jitter returns ns/op within ±1% of base, varying deterministically with
// i, so that criteria and comparisons see a spread.
func jitter(base float64, i int) float64 {
	return base * (1 + 0.005*float64(i*7%5-2))
}

func newFake(names ...string) *fakeBinaries {
	return &fakeBinaries{
		clock:   newFakeClock(),
		names:   names,
		nsPerOp: func(_, _ string, i int) float64 { return jitter(1000, i) },
		counts:  map[string]int{},
	}
}

// testOptions is a static run of 3 suite runs of 2 warmup and 4
// measurement slices of 1ms each.
func testOptions(dir string) Options {
	stop := stopper.Default(stopper.None)
	stop.WarmupMin, stop.Measure = 2, 4
	return Options{
		Bench: ".", Stop: stop, SuiteRuns: 3, Iterations: 1, SliceTime: time.Millisecond, Timeout: time.Minute,
		Seed: 5, SeedSet: true, Raw: filepath.Join(dir, "raw.jsonl"), Compare: compare.DefaultOptions(),
		FailOn: compare.FailOn{compare.FailTime}, Progress: progress.Off, Tool: "gobench-dyn test",
	}
}

type outcome struct {
	res       *Result
	out, log  string
	committed bool
}

func runFake(t *testing.T, ctx context.Context, f *fakeBinaries, o Options) (outcome, error) {
	t.Helper()
	var out buffer
	var log bytes.Buffer
	res, err := Run(ctx, o, Outputs{Results: &out, Log: &log}, f.env())
	return outcome{res, out.String(), log.String(), out.committed}, err
}

// measured counts the measurement slices of run by benchmark and version.
func measured(run *record.Run) map[string]int {
	m := map[string]int{}
	for _, s := range run.Slices {
		if !s.Warmup {
			m[s.Version+":"+s.Benchmark]++
		}
	}
	return m
}

func TestStaticRunRecordsEverySlice(t *testing.T) {
	f := newFake("BenchmarkA", "BenchmarkB")
	o := testOptions(t.TempDir())
	got, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	assert.True(t, got.committed)
	assert.Equal(t, 2*3*4, strings.Count(got.out, " ns/op"), "2 benchmarks × 3 suite runs × 4 slices:\n%s", got.out)
	run, warns, err := record.ReadFile(o.Raw)
	require.NoError(t, err)
	assert.Empty(t, warns)
	assert.True(t, run.Complete)
	assert.Equal(t, map[string]int{":BenchmarkA" + suffix(): 12, ":BenchmarkB" + suffix(): 12}, measured(run))
	assert.Equal(t, ".", run.Header.Options["bench"])
	assert.Equal(t, uint64(5), run.Header.Seed)
}

func TestSummaryHasOneFinalLineWithOneDurationFormat(t *testing.T) {
	f := newFake("BenchmarkA")
	got, err := runFake(t, context.Background(), f, testOptions(t.TempDir()))
	require.NoError(t, err)
	var sum bytes.Buffer
	got.res.WriteSummary(&sum)
	text := sum.String()
	// 3 iterations of 6 slices of 1000 × 1µs, plus the calibration probe.
	assert.Regexp(t, `(?m)^gobench-dyn: done: 1 benchmarks, 3 iterations, 12 measurement slices \(6 warmup\) in \d+ms$`, text)
	assert.Equal(t, 1, strings.Count(text+got.log, "done:"), "one final line:\n%s%s", got.log, text)
	assert.NotRegexp(t, `\d+\.\d{3}s`, text, "no millisecond-precision seconds beside rounded ones")
	assert.NotContains(t, text, ", wall ")
}

func TestBudgetCutsBenchmarksShort(t *testing.T) {
	f := newFake("BenchmarkA", "BenchmarkB", "BenchmarkC")
	o := testOptions(t.TempDir())
	o.SuiteRuns = 10
	o.Stop.MinIterations = 1
	// An iteration takes 6 slices of 1ms: 10 suite runs of 3 benchmarks
	// take 180ms; the budget allows about half.
	o.Budget = 90 * time.Millisecond
	got, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	sum := got.res.Summary
	assert.NotEmpty(t, sum.BudgetCut)
	assert.Less(t, sum.Iterations, 30)
	assert.LessOrEqual(t, sum.End.Sub(sum.Start), o.Budget+6*time.Millisecond, "at most one iteration's overrun")
	run, _, err := record.ReadFile(o.Raw)
	require.NoError(t, err)
	cut := 0
	for _, e := range run.Events {
		if e.Event == record.EventBudget {
			cut++
		}
	}
	assert.Equal(t, len(sum.BudgetCut), cut, "every cut is recorded")
	var text bytes.Buffer
	got.res.WriteSummary(&text)
	assert.Contains(t, text.String(), "--budget 90ms cut")
}

func TestBaselinePairsStopTogether(t *testing.T) {
	f := newFake("BenchmarkSame", "BenchmarkSlow")
	f.nsPerOp = func(dir, name string, i int) float64 {
		if dir == "baseline" || name == "BenchmarkSame" {
			return jitter(1000, i)
		}
		return jitter(3000, i) // three times slower: far beyond noise
	}
	o := testOptions(t.TempDir())
	o.Stop = stopper.Default(stopper.CV)
	o.SuiteRuns = 20
	o.Baseline, o.EarlyVerdict = "main", true
	got, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	require.NotNil(t, got.res.Comparison)
	assert.True(t, got.res.Regressed, "BenchmarkSlow regressed:\n%s", got.log)

	run, _, err := record.ReadFile(o.Raw)
	require.NoError(t, err)
	stops := map[string]record.Event{}
	for _, e := range run.Events {
		if e.Event == record.EventStop {
			stops[e.Version+":"+e.Benchmark] = e
		}
	}
	for _, name := range []string{"BenchmarkSame", "BenchmarkSlow"} {
		head, base := stops[":"+name+suffix()], stops["baseline:"+name+suffix()]
		require.NotEmpty(t, head.Event, name)
		require.NotEmpty(t, base.Event, name)
		assert.Equal(t, head.SuiteRun, base.SuiteRun, "%s: both versions stop in the same suite run", name)
		assert.Less(t, head.SuiteRun, o.SuiteRuns, "%s stopped before the cap", name)
	}
	counts := measured(run)
	for _, name := range []string{"BenchmarkSame", "BenchmarkSlow"} {
		assert.Equal(t, counts[":"+name+suffix()], counts["baseline:"+name+suffix()], "%s: equal samples for both versions", name)
	}
}

// TestResumeCompletesAnInterruptedRun interrupts a run in the middle of an
// iteration, resumes it, and checks that the records hold what an
// uninterrupted run with the same seed measures.
func TestResumeCompletesAnInterruptedRun(t *testing.T) {
	full := newFake("BenchmarkA", "BenchmarkB")
	want := testOptions(t.TempDir())
	_, err := runFake(t, context.Background(), full, want)
	require.NoError(t, err)
	wantRun, _, err := record.ReadFile(want.Raw)
	require.NoError(t, err)

	f := newFake("BenchmarkA", "BenchmarkB")
	o := testOptions(t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.onSlice = func(n int) bool {
		if n == 15 { // in the third iteration
			cancel()
			return true
		}
		return false
	}
	got, err := runFake(t, ctx, f, o)
	require.NoError(t, err)
	require.True(t, got.res.Interrupted())
	assert.True(t, got.committed, "partial results are written")
	var text bytes.Buffer
	got.res.WriteSummary(&text)
	assert.Contains(t, text.String(), "gobench-dyn: interrupted:")
	assert.Contains(t, text.String(), "the results are partial; --resume "+o.Raw)
	assert.NotContains(t, text.String(), "saved")

	f.onSlice = nil
	o.Resume, o.SeedSet = o.Raw, false
	got, err = runFake(t, context.Background(), f, o)
	require.NoError(t, err, got.log)
	assert.Contains(t, got.log, "resuming")
	run, warns, err := record.ReadFile(o.Raw)
	require.NoError(t, err)
	assert.Empty(t, warns)
	assert.True(t, run.Complete)
	assert.Equal(t, measured(wantRun), measured(run))
	assert.Equal(t, order(wantRun), order(run), "the resumed run keeps the schedule")
}

// order lists the iterations of run in the order they were measured.
func order(run *record.Run) []string {
	var out []string
	for _, s := range run.Slices {
		if s.Slice == 1 {
			out = append(out, s.Benchmark)
		}
	}
	return out
}

func TestResumeRefusesOtherOptions(t *testing.T) {
	f := newFake("BenchmarkA")
	o := testOptions(t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	f.onSlice = func(n int) bool { cancel(); return true }
	_, err := runFake(t, ctx, f, o)
	require.NoError(t, err)
	o.Resume = o.Raw
	o.SuiteRuns = 4
	_, err = runFake(t, context.Background(), newFake("BenchmarkA"), o)
	var se *Error
	require.ErrorAs(t, err, &se)
	assert.Equal(t, Usage, se.Kind)
	assert.Regexp(t, regexp.MustCompile(`flags differ.*suite-runs was "3", now "4"`), se.Msg)
}

func TestNoBenchmarksNamesThePatterns(t *testing.T) {
	f := newFake("BenchmarkA")
	o := testOptions(t.TempDir())
	o.Bench = "Nothing"
	_, err := runFake(t, context.Background(), f, o)
	var se *Error
	require.ErrorAs(t, err, &se)
	assert.Equal(t, `no benchmarks match "Nothing" in ./...`, se.Msg)
}
