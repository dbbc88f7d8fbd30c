package session

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/fakebin"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/progress"
	"github.com/gobench-dyn/gobench-dyn/internal/shard"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
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

func newFake(names ...string) *fakebin.Binaries {
	return &fakebin.Binaries{
		Clock:   fakebin.NewClock(),
		Names:   names,
		Suffix:  suffix(),
		NsPerOp: func(s fakebin.Slice) float64 { return jitter(1000, s.Index) },
	}
}

// testOptions is a static run of 3 suite runs of 2 warmup and 4
// measurement slices of 1ms each.
func testOptions(dir string) Options {
	stop := stopper.Default(stopper.None)
	stop.WarmupMin, stop.Measure = 2, 4
	return Options{
		Bench: ".", Stop: stop, SuiteRuns: 3, Iterations: 1, SliceTime: time.Millisecond, Timeout: time.Minute,
		Seed: 5, SeedSet: true, Raw: filepath.Join(dir, "raw.jsonl"), Compare: gate.DefaultOptions(),
		FailOn: gate.FailOn{gate.FailTime}, Progress: progress.Off, Tool: "gobench-dyn test",
	}
}

type outcome struct {
	res       *Result
	out, log  string
	committed bool
}

func runFake(t *testing.T, ctx context.Context, f *fakebin.Binaries, o Options) (outcome, error) {
	t.Helper()
	var out buffer
	var log bytes.Buffer
	res, err := Run(ctx, o, Outputs{Results: &out, Log: &log}, fakeEnv(f))
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
	// Each benchmark's results end with the interval of its mean, as it
	// ran to the cap.
	for _, b := range []string{"BenchmarkA", "BenchmarkB"} {
		assert.Regexp(t, `(?m)^# `+b+suffix()+`: mean over 3 processes ±[0-9.]+% \(95%\)$`, got.out)
	}
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
	WriteSummary(&sum, got.res)
	text := sum.String()
	// 3 iterations of 6 slices of 1000 × 1µs, plus the calibration probe.
	assert.Regexp(t, `(?m)^gobench-dyn: done: 1 benchmark, 3 iterations, 12 measurement slices \(6 warmup\) in \d+ms$`, text)
	assert.Equal(t, 1, strings.Count(text+got.log, "done:"), "one final line:\n%s%s", got.log, text)
	assert.NotRegexp(t, `\d+\.\d{3}s|\d\.\d+ms`, text, "no fractional milliseconds beside rounded durations")
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
	assert.Equal(t, len(sum.BudgetCut), countEvents(run, record.EventBudget), "every cut is recorded")
	var text bytes.Buffer
	WriteSummary(&text, got.res)
	assert.Contains(t, text.String(), "--budget 90ms cut")
}

func TestBaselinePairsStopTogether(t *testing.T) {
	f := newFake("BenchmarkSame", "BenchmarkSlow")
	f.NsPerOp = func(s fakebin.Slice) float64 {
		dir, name, i := s.Dir, s.Name, s.Index
		if dir == "baseline" || name == "BenchmarkSame" {
			return jitter(1000, i)
		}
		return jitter(3000, i) // three times slower: far beyond noise
	}
	o := testOptions(t.TempDir())
	o.Stop = stopper.Default(stopper.CV)
	o.SuiteRuns = 20
	o.Baseline, o.Sequential, o.Pairing = "main", true, PairProcesses
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

// TestBaselinePairOutOfReachStops: a pair whose ns/op jumps by up to
// ±30% every 6 slices, in both versions, cannot show ±3% within 40 paired
// suite runs; from the third look it stops with its baseline,
// inconclusive, and the summary says why.
func TestBaselinePairOutOfReachStops(t *testing.T) {
	f := newFake("BenchmarkNoisy")
	f.NsPerOp = func(s fakebin.Slice) float64 {
		dir, i := s.Dir, s.Index
		if dir == "baseline" {
			i += 3
		}
		return 1000 * (1 + 0.3*float64((i/2*7919)%17-8)/8)
	}
	o := testOptions(t.TempDir())
	o.Stop = stopper.Default(stopper.Interval)
	// The values follow the slice index: a fixed warmup keeps them where
	// the pattern was built for.
	o.Stop.WarmupMax = o.Stop.WarmupMin
	o.SuiteRuns = gate.DefaultLastLook
	o.Baseline, o.Sequential, o.Pairing = "main", true, PairProcesses
	got, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	require.NotNil(t, got.res.Comparison)
	run, _, err := record.ReadFile(o.Raw)
	require.NoError(t, err)
	var stops []record.Event
	for _, e := range run.Events {
		if e.Event == record.EventStop {
			stops = append(stops, e)
		}
	}
	require.Len(t, stops, 2, "both versions stop")
	for _, e := range stops {
		assert.Equal(t, record.ReasonNoVerdict, e.Reason)
		assert.Less(t, e.SuiteRun, o.SuiteRuns, "stopped before the cap")
	}
	c := got.res.Comparison.Comparisons[0]
	require.Equal(t, "ns/op", c.Unit)
	assert.Equal(t, gate.Inconclusive, c.Verdict)
	var text strings.Builder
	WriteSummary(&text, got.res)
	assert.Contains(t, text.String(), "2 benchmarks stopped with their baseline, inconclusive", text.String())
	assert.Contains(t, text.String(), "--stop interval: 0 benchmarks stable early", "a pair's stop is not stability")
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
	got := interrupted(t, f, o, 15) // in the third iteration
	assert.True(t, got.committed, "partial results are written")
	var text bytes.Buffer
	WriteSummary(&text, got.res)
	assert.Contains(t, text.String(), "gobench-dyn: interrupted:")
	assert.Contains(t, text.String(), "the results are partial; --resume "+o.Raw)
	assert.NotContains(t, text.String(), "saved")

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

// countEvents counts the events of kind in run.
func countEvents(run *record.Run, kind string) int {
	n := 0
	for _, e := range run.Events {
		if e.Event == kind {
			n++
		}
	}
	return n
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
	f.OnSlice = func(n int) bool { cancel(); return true }
	_, err := runFake(t, ctx, f, o)
	require.NoError(t, err)
	o.Resume = o.Raw
	o.SuiteRuns = 4
	_, err = runFake(t, context.Background(), newFake("BenchmarkA"), o)
	var se *usage.Error
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "resume", se.Flag)
	assert.Regexp(t, regexp.MustCompile(`flags differ.*suite-runs was "3", now "4"`), se.Error())
}

func TestNoBenchmarksNamesThePatterns(t *testing.T) {
	f := newFake("BenchmarkA")
	o := testOptions(t.TempDir())
	o.Bench = "Nothing"
	_, err := runFake(t, context.Background(), f, o)
	var se *usage.Error
	require.ErrorAs(t, err, &se)
	assert.Equal(t, `no benchmarks match "Nothing" in ./...`, se.Error())
}

func TestFailingBenchmarkFailsAlone(t *testing.T) {
	f := newFake("BenchmarkA", "BenchmarkBad")
	f.Fails = map[string]int{"BenchmarkBad": 1}
	o := testOptions(t.TempDir())
	got, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	assert.Equal(t, 1, got.res.Failed())
	require.Len(t, got.res.Summary.Failed, 1)
	assert.Equal(t, "x_test.go:9: boom", got.res.Summary.Failed[0].Reason)
	run, _, err := record.ReadFile(o.Raw)
	require.NoError(t, err)
	assert.Equal(t, 12, measured(run)[":BenchmarkA"+suffix()], "the healthy benchmark runs its whole configuration")
	var text bytes.Buffer
	WriteSummary(&text, got.res)
	assert.Contains(t, text.String(), "FAILED example.com/p.BenchmarkBad")
	assert.Contains(t, text.String(), "boom")
}

func TestShardKeepsBothVersionsOfABenchmarkTogether(t *testing.T) {
	names := []string{"BenchmarkA", "BenchmarkB", "BenchmarkC", "BenchmarkD", "BenchmarkE"}
	seen := map[string]int{}
	for k := 1; k <= 2; k++ {
		f := newFake(names...)
		o := testOptions(t.TempDir())
		o.Baseline, o.Pairing = "main", PairProcesses
		o.Shard = shard.Spec{K: k, N: 2}
		_, err := runFake(t, context.Background(), f, o)
		require.NoError(t, err)
		run, _, err := record.ReadFile(o.Raw)
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprintf("%d/2", k), run.Header.Shard)
		counts := measured(run)
		for _, n := range names {
			head, base := counts[":"+n+suffix()], counts["baseline:"+n+suffix()]
			assert.Equal(t, head, base, "shard %d: %s runs in both versions or neither", k, n)
			if head > 0 {
				seen[n]++
			}
		}
	}
	for _, n := range names {
		assert.Equal(t, 1, seen[n], "%s runs in exactly one shard", n)
	}
}

func TestConfigFileSetsEachBenchmarksConfiguration(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "bench.conf")
	require.NoError(t, os.WriteFile(cfg, []byte("gobench-dyn-config schema=1\n"+
		"source id=1 file=full.jsonl seed=1 start=2026-02-28T10:00:00Z\n"+
		"bench pkg=example.com/p name=BenchmarkA"+suffix()+" s=2 i=1 d=3 warmup=1 metric=cv threshold=0.01 value=0.001 stable=true source=1\n"+
		"bench pkg=example.com/p name=BenchmarkGone s=2 i=1 d=3 warmup=1 metric=cv threshold=0.01 value=0.001 stable=true source=1\n"), 0o600))
	f := newFake("BenchmarkA", "BenchmarkB")
	o := testOptions(dir)
	o.ConfigFile = cfg
	got, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	run, _, err := record.ReadFile(o.Raw)
	require.NoError(t, err)
	assert.Equal(t, map[string]int{
		":BenchmarkA" + suffix(): 2 * 1 * 3, // from the file
		":BenchmarkB" + suffix(): 3 * 1 * 4, // from the options
	}, measured(run))
	assert.Contains(t, got.log, "NEW example.com/p.BenchmarkB"+suffix()+" is not in --config")
	assert.Contains(t, got.log, "example.com/p.BenchmarkGone matches no benchmark")
}

// TestIntervalDefaultStopsStableAndSaysHowFarTheRestIs runs the default
// criterion on fake binaries: a benchmark steady to ±1% stops after 4
// processes (3, then the criterion holding at two consecutive ones), one
// whose slices scatter by ±30% stops there too as out of reach, and the
// summary and its stop record say how precisely each mean is known.
func TestIntervalDefaultStopsStableAndSaysHowFarTheRestIs(t *testing.T) {
	f := newFake("BenchmarkSteady", "BenchmarkNoisy")
	f.NsPerOp = func(s fakebin.Slice) float64 {
		name, i := s.Name, s.Index
		if strings.HasPrefix(name, "BenchmarkNoisy") {
			return 1000 * (1 + 0.3*float64(i*7%11-5)/5)
		}
		return jitter(1000, i)
	}
	o := testOptions(t.TempDir())
	o.Stop = stopper.Default(stopper.Interval)
	o.SuiteRuns = 5
	got, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	stops := stopsOf(t, o.Raw)
	steady, noisy := stops["BenchmarkSteady"], stops["BenchmarkNoisy"]
	assert.Equal(t, record.ReasonCriterionMet, steady.Reason)
	assert.True(t, steady.Met)
	assert.Equal(t, 4, steady.SuiteRun, "3 processes, then held at two consecutive ones")
	require.NotNil(t, steady.Precision)
	assert.LessOrEqual(t, steady.Precision.RelHalfWidth, 0.03)
	assert.Equal(t, 0.95, steady.Precision.Confidence)
	// The noisy one needs about 37 processes for ±3%, over
	// stopper.OutOfReach times the cap of 5, so it stops at the 4th too,
	// unmet, saying why.
	assert.False(t, noisy.Met)
	assert.Equal(t, record.ReasonOutOfReach, noisy.Reason)
	assert.Equal(t, 4, noisy.SuiteRun)
	require.NotNil(t, noisy.Precision)
	assert.Greater(t, noisy.Precision.RelHalfWidth, 0.03)
	assert.Greater(t, noisy.Precision.Processes, stopper.OutOfReach*5)

	var text bytes.Buffer
	WriteSummary(&text, got.res)
	// The run ends with a table: benchmark, mean, ±, processes, status.
	assert.Contains(t, text.String(), "2 benchmarks: 1 stable, 1 out of reach (target ±3%, 95% interval of each mean over its processes)")
	assert.Regexp(t, `(?m)^\s+benchmark\s+mean\s+±95%\s+processes\s+status$`, text.String())
	assert.Regexp(t, `BenchmarkNoisy\S*\s+(1\.\d+µ|9\d\d\.\dn) sec/op\s+±\d+(\.\d)?%\s+4\s+out of reach; (about \d+|over 100) processes for ±3%`, text.String())
	assert.Contains(t, text.String(), "out of reach: 1 stopped early, predicted to need over 3 times the processes of the cap")
	assert.Regexp(t, `BenchmarkSteady\S*\s+(1\.00\dµ|99\d\.\dn) sec/op\s+±\d(\.\d+)?%\s+4\s+stable\n`, text.String())
}

// TestResumeUnderIntervalKeepsItsSlices: the interval criterion chooses
// each process's slices from the costs of the ones before, and a resumed
// run, which knows them only from the records, chooses the same, so it
// discards no recorded iteration but the one cut short. (The fake values
// depend on how many slices were printed before, so the rerun of that
// iteration measures other values than the uninterrupted run did.)
func TestResumeUnderIntervalKeepsItsSlices(t *testing.T) {
	ns := func(s fakebin.Slice) float64 {
		name, i := s.Name, s.Index
		if strings.HasPrefix(name, "BenchmarkB") {
			return 1000 * (1 + 0.1*float64(i*7%11-5)/5)
		}
		return jitter(1000, i)
	}
	opts := func() Options {
		o := testOptions(t.TempDir())
		o.Stop = stopper.Default(stopper.Interval)
		o.SuiteRuns = 6
		return o
	}
	f := newFake("BenchmarkA", "BenchmarkB")
	f.NsPerOp = ns
	o := opts()
	interrupted(t, f, o, 33) // past the pilot, in the fourth suite run

	o.Resume, o.SeedSet = o.Raw, false
	_, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	run, _, err := record.ReadFile(o.Raw)
	require.NoError(t, err)
	discarded := countEvents(run, record.EventDiscarded)
	// The interrupt may land before the runner has read any slice of the
	// iteration it cuts short; then nothing of it was recorded and
	// nothing is discarded. Either way no finished iteration is.
	assert.LessOrEqual(t, discarded, 1, "only the iteration the interrupt cut short")
	assert.True(t, run.Complete)
	assert.Equal(t, 2, countEvents(run, record.EventStop), "both benchmarks stopped or reached the cap")
}

// A probe measures every slice of every process, warmup none, and keeps
// no temporary file once its records are read.
func TestProbeRecordsWholeSeries(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	f := newFake("BenchmarkA", "BenchmarkB")
	env := fakeEnv(f)
	run, res, err := Probe(context.Background(), ProbeOptions{
		Bench: ".", Processes: 2, Slices: 10, SliceTime: time.Millisecond, Timeout: time.Minute,
		Progress: progress.Off, Tool: "gobench-dyn test",
	}, &bytes.Buffer{}, env)
	require.NoError(t, err)
	require.False(t, res.Interrupted())
	assert.Equal(t, map[string]int{":BenchmarkA" + suffix(): 20, ":BenchmarkB" + suffix(): 20}, measured(run))
	for _, s := range run.Slices {
		assert.False(t, s.Warmup)
	}
	left, err := filepath.Glob(filepath.Join(tmp, "gobench-dyn-*"))
	require.NoError(t, err)
	assert.Empty(t, left)
}

// A baseline run pairs by default slice by slice: each pair of processes
// runs as a duet, the gate decides on the slice pairs, a pair stops once
// decided, and the results file gets one line per process, not per turn.
func TestBaselineDuets(t *testing.T) {
	f := newFake("BenchmarkSame", "BenchmarkSlow")
	f.NsPerOp = func(s fakebin.Slice) float64 {
		dir, name, i := s.Dir, s.Name, s.Index
		if dir == "baseline" || name == "BenchmarkSame" {
			return jitter(1000, i)
		}
		return jitter(1200, i) // 20% slower
	}
	o := testOptions(t.TempDir())
	o.Stop = stopper.Default(stopper.Interval)
	o.SuiteRuns = gate.DefaultLastLook
	o.Baseline, o.Sequential = "main", true
	o.TurnTime, o.Turns = time.Millisecond, rmit.TurnPlan{Warmup: 2, Turns: 10}
	got, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	require.NotNil(t, got.res.Comparison)
	assert.True(t, got.res.Regressed, got.log)
	verdicts := map[string]gate.Verdict{}
	for _, c := range got.res.Comparison.Comparisons {
		if c.Unit == "ns/op" || c.Unit == "sec/op" {
			verdicts[c.Benchmark] = c.Verdict
			assert.Equal(t, gate.MethodSlicePaired, c.Method)
		}
	}
	assert.Equal(t, gate.Regression, verdicts["BenchmarkSlow"+suffix()], "%v", verdicts)
	assert.Equal(t, gate.NoChange, verdicts["BenchmarkSame"+suffix()])
	assert.True(t, got.res.Comparison.SlicePaired)

	run, _, err := record.ReadFile(o.Raw)
	require.NoError(t, err)
	assert.Equal(t, "slice", run.Header.Options["pairing"])
	assert.Equal(t, string(gate.DefaultSpending), run.Header.Options["spending"])
	processes := map[record.Process]bool{}
	stopped := 0
	for _, s := range run.Slices {
		if s.Version == record.VersionHead && !s.Warmup && s.Benchmark == "BenchmarkSlow"+suffix() {
			processes[s.Process()] = true
			assert.Positive(t, s.Turn)
		}
	}
	for _, e := range run.Events {
		if e.Event == record.EventStop && e.Reason == record.ReasonSettled {
			stopped++
		}
	}
	assert.Equal(t, 4, stopped, "both pairs decided, both versions stop")
	assert.Less(t, len(processes), gate.DefaultLastLook, "decided before the cap")
	lines := 0
	for l := range strings.Lines(got.out) {
		if strings.HasPrefix(l, "BenchmarkSlow") {
			lines++
		}
	}
	assert.Equal(t, len(processes), lines, "one results line per process:\n%s", got.out)
}

// A suite too large for a line per benchmark, cut short by its budget:
// the log has counts rather than a line per stop or cut, and the summary
// fits a screen: counts, the few worst cases, and what to do about
// intervals from too few processes, never an interval from two.
func TestLargeSuiteCutByBudgetSummaryFitsAScreen(t *testing.T) {
	var names []string
	for i := range 40 {
		names = append(names, fmt.Sprintf("Benchmark%02d", i))
	}
	f := newFake(names...)
	f.NsPerOp = func(s fakebin.Slice) float64 { return jitter(1000, 7*s.Index) }
	o := testOptions(t.TempDir())
	o.SuiteRuns = 10
	// An iteration takes 6 slices of 1ms: the budget gives each
	// benchmark one or two processes of the three a minimum needs.
	o.Budget = 400 * time.Millisecond
	got, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	require.Len(t, got.res.Summary.BudgetCut, 40)
	assert.NotContains(t, got.log, "stopped ", "no line per stop or cut:\n%s", got.log)

	var text bytes.Buffer
	WriteSummary(&text, got.res)
	summary := text.String()
	lines := strings.Split(strings.TrimSpace(summary), "\n")
	assert.LessOrEqual(t, len(lines), 30, "fits a screen:\n%s", summary)
	assert.Contains(t, summary, "--budget 400ms cut 40 benchmarks short before they were stable\n")
	assert.Regexp(t, `40 benchmarks: (\d+ cut by the budget, \d+ never run: the budget ran out first|40 cut by the budget)`, summary)
	assert.Contains(t, summary, "the 10 worst, ties in source order (every benchmark is in the results and in --raw")
	assert.Regexp(t, `40 benchmarks ran fewer than 3 processes, too few to tell how precise their means are: --budget \d+s would give each 3`, summary)
	assert.Equal(t, 10, strings.Count(summary, "cut by the budget; too few processes to tell"), summary)
	assert.NotRegexp(t, `±\d{3}%`, summary, "no interval from two processes")
	assert.NotContains(t, summary, "saved", "a budget that cut benchmarks short saved nothing")
	// Every benchmark stays in the results.
	for _, n := range names {
		assert.Contains(t, got.out, n+suffix()+"\t")
	}
}

// A budget that runs out before every benchmark ran once says so of those
// it never ran, apart from those it cut short, and shows them first.
func TestBudgetTooShortForOneProcessEach(t *testing.T) {
	var names []string
	for i := range 30 {
		names = append(names, fmt.Sprintf("Benchmark%02d", i))
	}
	f := newFake(names...)
	o := testOptions(t.TempDir())
	// An iteration takes 6 slices of 1ms: room for about 10 of 30.
	o.Budget = 60 * time.Millisecond
	got, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	var text bytes.Buffer
	WriteSummary(&text, got.res)
	summary := text.String()
	m := regexp.MustCompile(`30 benchmarks: (\d+) cut by the budget, (\d+) never run: the budget ran out first`).FindStringSubmatch(summary)
	require.NotNil(t, m, summary)
	_, rows, _ := strings.Cut(summary, "status\n")
	first := strings.Split(rows, "\n")[1]
	assert.Contains(t, first, "0  never run: the budget ran out first", "the benchmarks never run come first:\n%s", summary)
}

// TestWarmupLearnedAndUnsettledFlagged: under the default Interval, a
// benchmark's first process learns its warmup, and one whose slices still
// get faster at the cap is said to be not steady, in the summary and in
// the results' line after its slices.
func TestWarmupLearnedAndUnsettledFlagged(t *testing.T) {
	f := newFake("BenchmarkSteady", "BenchmarkHeap")
	f.NsPerOp = func(s fakebin.Slice) float64 {
		name, i := s.Name, s.Index
		if strings.HasPrefix(name, "BenchmarkHeap") {
			// Each of the first slices about 7% faster than the one before.
			return 1000 * (1 + 3*math.Pow(0.85, float64(min(i, 12))))
		}
		return jitter(1000, i)
	}
	o := testOptions(t.TempDir())
	o.Stop = stopper.Default(stopper.Interval)
	o.SuiteRuns = 4
	got, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	warmups := warmupsOf(t, o.Raw)
	assert.Equal(t, []int{2, 1, 1, 1}, warmups["BenchmarkSteady"], "settled at once: one slice, learned in the first process")
	assert.Equal(t, []int{10, 10, 10, 10}, warmups["BenchmarkHeap"], "the cap, in every process")

	var text strings.Builder
	WriteSummary(&text, got.res)
	assert.Regexp(t, `NOT STEADY example.com/p.BenchmarkHeap-\d+: not steady after \d+ ops: the first ops cost 2.\d+× the last`, text.String())
	assert.NotContains(t, text.String(), "BenchmarkSteady-2: not steady")
	assert.Regexp(t, `(?m)^# BenchmarkHeap-\d+: mean over 4 processes .*; not steady after \d+ ops: the first ops cost 2.\d+× the last$`, got.out)
}

// TestSlowOpWarmsOnceAndMeasuresOneSlice: a benchmark whose op fills a
// slice at b.N = 1 warms up for one slice in every process, without
// looking for the steady state in its first, and measures one slice in
// each process after the first; one whose op takes a second or more is
// measured from its first run, as go test measures it; so is one of
// short ops whose every call spends a slice and more in setup, which its
// probe shows; a benchmark of short ops keeps the pilot of two.
func TestSlowOpWarmsOnceAndMeasuresOneSlice(t *testing.T) {
	f := newFake("BenchmarkSlow", "BenchmarkCold", "BenchmarkSetupHeavy", "BenchmarkFast")
	f.NsPerOp = func(s fakebin.Slice) float64 {
		if strings.HasPrefix(s.Name, "BenchmarkCold") {
			return 2e9 // two seconds: go test reports its first run
		}
		// Each slice faster than the one before: learned, this would
		// warm the first process to the cap.
		falling := 1 + 3*math.Pow(0.85, float64(min(s.Index, 12)))
		if strings.HasPrefix(s.Name, "BenchmarkSlow") {
			return 3e6 * falling // 3 ms, a slice time and more
		}
		if strings.HasPrefix(s.Name, "BenchmarkSetupHeavy") {
			return 1000 * falling
		}
		return jitter(1000, s.Index)
	}
	f.Setup = map[string]time.Duration{"BenchmarkSetupHeavy": 5 * time.Millisecond}
	o := testOptions(t.TempDir())
	o.Stop = stopper.Default(stopper.Interval)
	o.SuiteRuns = 3
	_, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	warmups, slices := slicesOf(t, o.Raw)
	assert.Equal(t, []int{1, 1, 1}, warmups["BenchmarkSlow"])
	assert.Equal(t, []int{2, 1, 1}, slices["BenchmarkSlow"])
	assert.Equal(t, []int{0, 0, 0}, warmups["BenchmarkCold"], "measured cold, as go test measures it")
	assert.Equal(t, []int{2, 1, 1}, slices["BenchmarkCold"])
	assert.Equal(t, []int{0, 0, 0}, warmups["BenchmarkSetupHeavy"], "its setup runs before every timed call")
	assert.Equal(t, []int{2, 1, 1}, slices["BenchmarkSetupHeavy"])
	assert.Equal(t, []int{2, 2, 2}, slices["BenchmarkFast"])
}

// warmupsOf returns the warmup slices of each process of the run recorded
// in raw, by benchmark name without its GOMAXPROCS suffix.
// stopsOf returns the stop event of each benchmark in the raw file, by
// name without its GOMAXPROCS suffix.
func stopsOf(t *testing.T, raw string) map[string]record.Event {
	t.Helper()
	run, _, err := record.ReadFile(raw)
	require.NoError(t, err)
	stops := map[string]record.Event{}
	for _, e := range run.Events {
		if e.Event == record.EventStop {
			stops[strings.TrimSuffix(e.Benchmark, suffix())] = e
		}
	}
	return stops
}

func warmupsOf(t *testing.T, raw string) map[string][]int {
	t.Helper()
	warmups, _ := slicesOf(t, raw)
	return warmups
}

// slicesOf returns the warmup and the measurement slices of each process
// of the run recorded in raw, by benchmark name without its GOMAXPROCS
// suffix.
func slicesOf(t *testing.T, raw string) (warmups, measured map[string][]int) {
	t.Helper()
	run, _, err := record.ReadFile(raw)
	require.NoError(t, err)
	warmups, measured = map[string][]int{}, map[string][]int{}
	for _, k := range run.Keys() {
		for _, s := range run.Series(k, "ns/op") {
			name := strings.TrimSuffix(k.Benchmark, suffix())
			warmups[name] = append(warmups[name], len(s.Warmup))
			measured[name] = append(measured[name], len(s.Values))
		}
	}
	return warmups, measured
}

// TestConfigCarriesTheLearnedWarmup runs Interval with a configuration
// file that carries a warmup: the benchmark does not learn it again in its
// first process, which warms up as long as the others, while a benchmark
// the file does not know learns its own.
func TestConfigCarriesTheLearnedWarmup(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "bench.conf")
	require.NoError(t, os.WriteFile(cfg, []byte("gobench-dyn-config schema=1\n"+
		"source id=1 file=full.jsonl seed=1 start=2026-02-28T10:00:00Z\n"+
		"bench pkg=example.com/p name=BenchmarkHeap"+suffix()+" s=4 i=1 d=2 warmup=3 metric=cv threshold=0.01 value=0.001 stable=true source=1\n"), 0o600))
	f := newFake("BenchmarkHeap", "BenchmarkNew")
	f.NsPerOp = func(s fakebin.Slice) float64 {
		// Each of the first slices about 7% faster than the one before:
		// learned, this would warm the first process to the cap.
		return 1000 * (1 + 3*math.Pow(0.85, float64(min(s.Index, 12))))
	}
	o := testOptions(dir)
	o.Stop = stopper.Default(stopper.Interval)
	o.SuiteRuns = 4
	o.ConfigFile = cfg
	_, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	warmups := warmupsOf(t, o.Raw)
	assert.Equal(t, []int{3, 3, 3, 3}, warmups["BenchmarkHeap"], "the file's warmup, from the first process on")
	require.NotEmpty(t, warmups["BenchmarkNew"])
	assert.Equal(t, stopper.LearnedWarmupMax, warmups["BenchmarkNew"][0], "not in the file: learned, to the cap")
}

// TestAmortizedWhenNsFallsWithN: a benchmark whose processes ran at b.N
// values 3 or more apart, slower at the smallest by a quarter or more, is
// found to depend on b.N; one whose b.N stayed, whose means agree across
// b.N, or whose b.N shrank, is not.
func TestAmortizedWhenNsFallsWithN(t *testing.T) {
	run := &record.Run{}
	add := func(bench string, suiteRun int, n int64, ns ...float64) {
		for i, v := range ns {
			run.Slices = append(run.Slices, record.Slice{Package: "p", Benchmark: bench, SuiteRun: suiteRun, Iteration: 1, Slice: i + 1,
				N: n, Values: map[string]float64{"ns/op": v}})
		}
	}
	add("BenchmarkCitm-2", 1, 6, 4e6, 3e6)
	add("BenchmarkCitm-2", 2, 58, 5e5, 6e5)
	add("BenchmarkCitm-2", 3, 58, 4e5, 3e5)
	add("BenchmarkNoisy-2", 1, 100, 1000, 1100)
	add("BenchmarkNoisy-2", 2, 400, 950, 1000)
	add("BenchmarkSame-2", 1, 100, 2000, 2000)
	add("BenchmarkSame-2", 2, 100, 1000, 1000)
	// b.N shrank after a fast process: the slower processes at the
	// smaller b.N measured a busier machine.
	add("BenchmarkBusy-2", 1, 1800, 16, 16)
	add("BenchmarkBusy-2", 2, 300, 23, 24)
	got := amortized(run)
	require.Len(t, got, 1)
	assert.Equal(t, "BenchmarkCitm-2", got[0].Key.Benchmark)
	assert.Equal(t, int64(6), got[0].LowN)
	assert.Equal(t, int64(58), got[0].HighN)
	assert.InDelta(t, 3.5e6, got[0].LowNs, 1)
	assert.InDelta(t, 4.5e5, got[0].HighNs, 1)
}

// TestAutoBudgetIsAboutOneGoTestPass: a run of one version under --budget
// auto costs about what go test -bench would, its build as long as the
// run's and its benchmarks' time from the calibration: the
// benchmarks that would run on towards the cap are cut short once every
// one has its minimum processes, and the summary says so and how to lift
// it.
func TestAutoBudgetIsAboutOneGoTestPass(t *testing.T) {
	run := func(auto bool) outcome {
		f := newFake("BenchmarkA", "BenchmarkB", "BenchmarkC")
		f.NsPerOp = func(s fakebin.Slice) float64 { return 1000 * (1 + 0.1*float64(s.Index*7%11-5)/5) }
		o := testOptions(t.TempDir())
		o.Stop, o.SuiteRuns, o.SliceTime, o.AutoBudget = stopper.Default(stopper.Interval), 10, 100*time.Millisecond, auto
		got, err := runFake(t, context.Background(), f, o)
		require.NoError(t, err)
		return got
	}
	free, auto := run(false), run(true)
	require.Zero(t, free.res.AutoBudget)
	require.Positive(t, auto.res.AutoBudget)
	assert.Equal(t, free.res.GoTest, auto.res.GoTest, "one calibration, one estimate")
	assert.Greater(t, free.res.Summary.Wall(), auto.res.AutoBudget, "without a budget the run goes past one go test pass")
	assert.Less(t, auto.res.Summary.Iterations, free.res.Summary.Iterations)
	for _, p := range auto.res.Summary.Precision {
		assert.GreaterOrEqual(t, p.Iterations, 3, "%s: every benchmark keeps its minimum processes", p.Bench)
	}
	assert.NotEmpty(t, auto.res.Summary.BudgetCut)
	assert.Contains(t, auto.log, "about one go test -bench pass of these benchmarks (2s of building, as this run's, and ")
	assert.Equal(t, fakeBuilding, auto.res.Building, "the pass builds as the run did")

	var text bytes.Buffer
	WriteSummary(&text, auto.res)
	assert.Regexp(t, `--budget auto: about one go test -bench pass as the calibration priced it, \S+, cut \d benchmarks? short before (it was|they were) stable, each after at least 3 processes; --budget 0 runs each to its criterion`, text.String())
	assert.Regexp(t, `(cut by the budget; about \d+ processes for ±3%|at the target once, then cut by the budget)\n`, text.String())

	// A shard's price is its own benchmarks' pass: the whole suite's
	// would let every shard run as long as all of them together.
	f := newFake("BenchmarkA", "BenchmarkB", "BenchmarkC", "BenchmarkD")
	o := testOptions(t.TempDir())
	o.Stop, o.SuiteRuns, o.AutoBudget, o.Shard = stopper.Default(stopper.Interval), 10, true, shard.Spec{K: 1, N: 2}
	one, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	o.Shard, o.Raw = shard.Spec{}, filepath.Join(t.TempDir(), "raw.jsonl")
	all, err := runFake(t, context.Background(), newFake("BenchmarkA", "BenchmarkB", "BenchmarkC", "BenchmarkD"), o)
	require.NoError(t, err)
	assert.Less(t, one.res.GoTest, all.res.GoTest, "the shard's go test pass is part of the suite's")
	assert.Less(t, one.res.Summary.Benchmarks, all.res.Summary.Benchmarks)
}

// TestBudgetFundsTheStopsItCanReach: under a budget too short for every
// benchmark to stop, the processes go first to the benchmarks whose stop,
// at the target or as out of reach, is predicted soonest. Those whose
// stop lies beyond what is left are cut as out of reach within the budget,
// with a stop record saying so, while the ones near their target reach it.
func TestBudgetFundsTheStopsItCanReach(t *testing.T) {
	spread := map[string]float64{"BenchmarkNear": 0.045, "BenchmarkAlsoNear": 0.045,
		"BenchmarkWide1": 0.1, "BenchmarkWide2": 0.1, "BenchmarkWide3": 0.1, "BenchmarkWide4": 0.1}
	var names []string
	for n := range spread {
		names = append(names, n)
	}
	slices.Sort(names)
	f := newFake(names...)
	f.NsPerOp = func(s fakebin.Slice) float64 {
		// One effect per process: the slices of Name printed before it.
		h := fnv.New64a()
		fmt.Fprintf(h, "%s/%d", s.Name, s.Index-s.InProcess)
		u := float64(h.Sum64()%2001)/1000 - 1
		return 1000 * (1 + spread[s.Name]*u) * (1 + 0.002*float64(s.InProcess%3-1))
	}
	o := testOptions(t.TempDir())
	o.Stop, o.SuiteRuns, o.SliceTime, o.Budget = stopper.Default(stopper.Interval), 10, 100*time.Millisecond, 9*time.Second
	got, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	stops := stopsOf(t, o.Raw)
	assert.True(t, stops["BenchmarkNear"].Met, "%+v", stops["BenchmarkNear"])
	assert.True(t, stops["BenchmarkAlsoNear"].Met, "%+v", stops["BenchmarkAlsoNear"])
	assert.Positive(t, got.res.Summary.BeyondBudget)
	beyond := 0
	for _, n := range names {
		if stops[n].Reason == record.ReasonBeyondBudget {
			beyond++
		}
	}
	assert.Equal(t, got.res.Summary.BeyondBudget, beyond)
	var text bytes.Buffer
	WriteSummary(&text, got.res)
	assert.Contains(t, text.String(), "out of reach within the budget: ")
}

// TestWarmupCarriedToTheNextRun: a run keeps the warmup each benchmark
// learned in its first process for the next run of the same code,
// whose first process then warms up as its later ones, without looking
// again; a benchmark still getting faster at the cap keeps none and is
// looked at again, and a binary of other content learns again.
func TestWarmupCarriedToTheNextRun(t *testing.T) {
	fake := func() *fakebin.Binaries {
		f := newFake("BenchmarkWarm", "BenchmarkHeap")
		f.NsPerOp = func(s fakebin.Slice) float64 {
			if strings.HasPrefix(s.Name, "BenchmarkHeap") {
				return 1000 * (1 + 3*math.Pow(0.85, float64(min(s.Index, 12))))
			}
			// Each process's first slices slower, then steady.
			return jitter(1000, s.Index) * []float64{1.8, 1.3, 1.12, 1}[min(s.InProcess, 3)]
		}
		return f
	}
	o := testOptions(t.TempDir())
	o.Stop = stopper.Default(stopper.Interval)
	o.SuiteRuns, o.WarmupCache = 4, t.TempDir()
	first, err := runFake(t, context.Background(), fake(), o)
	require.NoError(t, err)
	learned := warmupsOf(t, o.Raw)
	require.Greater(t, learned["BenchmarkWarm"][0], learned["BenchmarkWarm"][1], "the first process looked for the warmup: %v", learned)
	assert.NotContains(t, first.log, "warm up as an earlier run learned")

	o.Raw = filepath.Join(t.TempDir(), "raw.jsonl")
	second, err := runFake(t, context.Background(), fake(), o)
	require.NoError(t, err)
	carried := warmupsOf(t, o.Raw)
	assert.Equal(t, learned["BenchmarkWarm"][1], carried["BenchmarkWarm"][0], "the first process warms up as the later ones did: %v", carried)
	assert.Equal(t, learned["BenchmarkHeap"], carried["BenchmarkHeap"], "unsettled: learned again")
	assert.Contains(t, second.log, "gobench-dyn: warmup: 1 of 2 benchmarks warm up as an earlier run learned on the same code (--warmup-cache off learns it again)")

	// Other code, another file: learned again.
	o.Raw, o.Dir = filepath.Join(t.TempDir(), "raw.jsonl"), t.TempDir()
	_, err = runFake(t, context.Background(), fake(), o)
	require.NoError(t, err)
	assert.Equal(t, learned["BenchmarkWarm"][0], warmupsOf(t, o.Raw)["BenchmarkWarm"][0])

	// A cache that does not read is said, and learned again over.
	entries, err := os.ReadDir(o.WarmupCache)
	require.NoError(t, err)
	for _, e := range entries {
		require.NoError(t, os.WriteFile(filepath.Join(o.WarmupCache, e.Name()), []byte("{"), 0o644))
	}
	o.Raw, o.Dir = filepath.Join(t.TempDir(), "raw.jsonl"), ""
	bad, err := runFake(t, context.Background(), fake(), o)
	require.NoError(t, err)
	assert.Contains(t, bad.log, "gobench-dyn: warning: the warmup cache: ")
	assert.Equal(t, learned["BenchmarkWarm"][0], warmupsOf(t, o.Raw)["BenchmarkWarm"][0])
}
