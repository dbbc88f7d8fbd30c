package runreport

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper"
	"github.com/gobench-dyn/gobench-dyn/stopper/policy"
)

// TestSummarySaysWhichPairsRanPastTheCap: with looks past the cap, the
// summary counts the pairs that ran past it and those that stopped there
// undecided, and says nothing when none did.
func TestSummarySaysWhichPairsRanPastTheCap(t *testing.T) {
	o := &session.Options{Baseline: "HEAD~1", SuiteRuns: gate.ExtendedLastLook, ExtendPast: gate.DefaultLastLook, Budget: 6 * time.Minute}
	o.Stop.Criterion = stopper.Interval
	o.Compare = gate.DefaultOptions()
	start := time.Date(2026, 11, 27, 5, 0, 0, 0, time.UTC)
	sum := rmit.Summary{Start: start, End: start.Add(time.Minute), Benchmarks: 8, Stopped: 8, AtCap: 2}
	var text bytes.Buffer
	WriteSummary(&text, &session.Result{Summary: &sum, Options: o, PastCap: 3, Head: &record.Run{}})
	assert.Contains(t, text.String(), "  --budget: 3 pairs ran past 40 process pairs, up to 90, because their interval excluded zero: the change was shown, not yet its size against ±3%; 1 stopped undecided at 40\n")

	text.Reset()
	sum.AtCap = 0
	WriteSummary(&text, &session.Result{Summary: &sum, Options: o, Head: &record.Run{}})
	assert.NotContains(t, text.String(), "ran past")
}

// TestSummarySaysWhatLinksCost: the links made while measuring are given
// with their share of the measuring phase, and not mentioned when none
// were made.
func TestSummarySaysWhatLinksCost(t *testing.T) {
	start := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	sum := rmit.Summary{Start: start, End: start.Add(time.Minute), FirstSlice: start, LastSlice: start.Add(40 * time.Second), Linked: 20, Linking: 10 * time.Second}
	var text strings.Builder
	WriteSummary(&text, &session.Result{Summary: &sum, Options: &session.Options{}, Head: &record.Run{}})
	assert.Contains(t, text.String(), "  links: 20 links of randomised layouts made while measuring took 10s (25% of the measuring phase)\n")

	text.Reset()
	sum.Linked, sum.Linking = 0, 0
	WriteSummary(&text, &session.Result{Summary: &sum, Options: &session.Options{}, Head: &record.Run{}})
	assert.NotContains(t, text.String(), "links:")
}

// TestSummaryPutsTheRunBesideAGoTestPass: the pass a run is put beside
// builds its test binaries as the run did, so a run of many packages and
// few benchmarks is not charged with a build that go test pays too.
func TestSummaryPutsTheRunBesideAGoTestPass(t *testing.T) {
	start := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	sum := rmit.Summary{Start: start, End: start.Add(30 * time.Second), Processes: 60}
	var text strings.Builder
	WriteSummary(&text, &session.Result{Summary: &sum, Options: &session.Options{}, Head: &record.Run{}, GoTest: 22 * time.Second, Building: 3 * time.Second})
	assert.Contains(t, text.String(), "  60 processes of 500ms each on average, against about 25s for one go test -bench pass of these benchmarks (its build as long as this run's, 3s; its ramp from the calibration, its setups from the slices): 1.20×\n")

	text.Reset()
	WriteSummary(&text, &session.Result{Summary: &sum, Options: &session.Options{}, Head: &record.Run{}})
	assert.NotContains(t, text.String(), "go test -bench pass", "no price: a comparison, which go test does not make")
}

// A benchmark whose time per op fell as b.N grew between its processes is
// said to be not steady, with its time per op at each b.N.
func TestSummarySaysWhenTimePerOpFallsAsBNGrows(t *testing.T) {
	citm := session.Amortized{Key: record.Key{Bench: record.Bench{Package: "p", Benchmark: "BenchmarkCitm-2"}},
		LowN: 6, HighN: 58, LowNs: 3.5e6, HighNs: 4.5e5}
	var text strings.Builder
	WriteSummary(&text, &session.Result{Summary: &rmit.Summary{}, Options: &session.Options{}, Head: &record.Run{}, Amortized: []session.Amortized{citm}})
	assert.Contains(t, text.String(), "NOT STEADY p.BenchmarkCitm-2: its time per op falls as b.N grows, 3.500ms at b.N = 6 and 450.0µs at b.N = 58")
}

// A benchmark whose processes read at two speeds is named with both and
// the processes at each.
func TestSummarySaysWhenProcessesReadAtTwoSpeeds(t *testing.T) {
	equal := session.TwoSpeed{Key: record.Key{Bench: record.Bench{Package: "p", Benchmark: "BenchmarkEqual-2"}},
		Speeds: stats.SpeedsOf([][]float64{{440, 445}, {463, 460}, {450}, {1372, 1380}})}
	require.True(t, equal.Speeds.Two())
	var text strings.Builder
	WriteSummary(&text, &session.Result{Summary: &rmit.Summary{}, Options: &session.Options{}, Head: &record.Run{}, TwoSpeeds: []session.TwoSpeed{equal}})
	assert.Contains(t, text.String(), "TWO SPEEDS p.BenchmarkEqual-2: 3 processes at 442.5ns–461.5ns and 1 at 1.376µs, 3.0× apart, each steady inside; a go test pass is one process and reads one of them")
}

// TestCutAtTheTargetSaysSo: a benchmark the budget cut while its interval
// was already at the target, but before it held there at the consecutive
// processes a stop asks for, is not reported as cut short of it; one cut
// with too few processes to tell stays cut.
func TestCutAtTheTargetSaysSo(t *testing.T) {
	pkg := &rmit.Package{ImportPath: "p"}
	at, short, few := rmit.NewBenchmark(pkg, "BenchmarkAt", 1, false), rmit.NewBenchmark(pkg, "BenchmarkShort", 1, false), rmit.NewBenchmark(pkg, "BenchmarkFew", 1, false)
	prec := func(b *rmit.Benchmark, n int, width float64) rmit.BenchPrecision {
		return rmit.BenchPrecision{Bench: b, Iterations: n, Precision: policy.Precision{Width: width, Confidence: 0.95, Target: 0.03, Processes: 8, Next: 0.03}}
	}
	sum := &rmit.Summary{BudgetCut: []*rmit.Benchmark{at, short, few},
		Precision: []rmit.BenchPrecision{prec(at, 3, 0.018), prec(short, 3, 0.05), prec(few, 2, 0.01)}}
	res := &session.Result{Summary: sum, Options: &session.Options{}, Head: &record.Run{},
		Order: []record.Key{at.Key(), short.Key(), few.Key()}}
	status := map[string]string{}
	for _, row := range resultRows(res) {
		status[row.name] = row.status
	}
	assert.Equal(t, map[string]string{"BenchmarkAt": statusCutAtTarget, "BenchmarkShort": statusCut, "BenchmarkFew": statusCut}, status)
}

// TestSummarySaysWhereTheSpreadLies: a run of one version whose
// benchmarks fell short of the target says when their process means
// spread between processes, with the median share, and says nothing when
// the spread lies within processes or the run compares two versions.
func TestSummarySaysWhereTheSpreadLies(t *testing.T) {
	pkg := &rmit.Package{ImportPath: "p"}
	b := rmit.NewBenchmark(pkg, "BenchmarkParse", 1, false)
	// Process means 10.1, 14.1 and 9.1, each of two slices 0.2 apart:
	// S₁² = 0.02 against S₂² = 7.
	procs := func(slices [][]float64) *record.Run {
		run := &record.Run{}
		for i, p := range slices {
			for j, v := range p {
				run.Slices = append(run.Slices, record.Slice{Package: "p", Benchmark: b.Name, SuiteRun: i + 1, Iteration: 1, Slice: j + 1, Values: map[string]float64{"ns/op": v}})
			}
		}
		return run
	}
	short := rmit.BenchPrecision{Bench: b, Iterations: 3, Precision: policy.Precision{Width: 0.3, Confidence: 0.95, Target: 0.03, Processes: 40, Next: 0.25}}
	result := func(run *record.Run, baseline string) *session.Result {
		return &session.Result{Summary: &rmit.Summary{Precision: []rmit.BenchPrecision{short}}, Options: &session.Options{Baseline: baseline},
			Head: run, Order: []record.Key{b.Key()}}
	}
	between := procs([][]float64{{10, 10.2}, {14, 14.2}, {9, 9.2}})
	var text strings.Builder
	WriteSummary(&text, result(between, ""))
	assert.Contains(t, text.String(), "  the spread is between processes: for the median of the 1 benchmark short of the target, 100% of a process mean's variance lies between processes")
	assert.Contains(t, text.String(), "more processes narrow its interval (a longer --budget)")

	text.Reset()
	WriteSummary(&text, result(between, "HEAD~1"))
	assert.NotContains(t, text.String(), "the spread is between processes", "a comparison pairs its versions already")

	text.Reset()
	WriteSummary(&text, result(procs([][]float64{{8, 12}, {12, 8}, {9, 11}}), ""))
	assert.NotContains(t, text.String(), "the spread is between processes", "the spread lies within processes")
}

// TestBudgetSaysWhatMoreTimeWouldBuy: of the benchmarks a budget cut
// short, those predicted to need over OutOfReach times the cap for the
// target are counted apart, since lifting the budget would stop them as
// out of reach a process later; the others are the ones it would run to
// their criterion.
func TestBudgetSaysWhatMoreTimeWouldBuy(t *testing.T) {
	pkg := &rmit.Package{ImportPath: "p"}
	near, far, farther := rmit.NewBenchmark(pkg, "BenchmarkNear", 1, false), rmit.NewBenchmark(pkg, "BenchmarkFar", 1, false), rmit.NewBenchmark(pkg, "BenchmarkFarther", 1, false)
	prec := func(b *rmit.Benchmark, processes int) rmit.BenchPrecision {
		return rmit.BenchPrecision{Bench: b, Iterations: 3, Precision: policy.Precision{Width: 0.2, Confidence: 0.95, Target: 0.03, Processes: processes, Next: 0.15}}
	}
	o := &session.Options{SuiteRuns: 10, Iterations: 1}
	o.Stop.Criterion = stopper.Interval
	auto := time.Minute
	summary := func(precs ...rmit.BenchPrecision) string {
		sum := &rmit.Summary{Precision: precs}
		for _, p := range precs {
			sum.BudgetCut = append(sum.BudgetCut, p.Bench)
		}
		var text strings.Builder
		WriteSummary(&text, &session.Result{Summary: sum, Options: o, Head: &record.Run{}, AutoBudget: auto})
		return text.String()
	}
	assert.Contains(t, summary(prec(near, 8), prec(far, 31), prec(farther, 2000)),
		"cut 3 benchmarks short before they were stable, each after at least 1 process; 2 of them are predicted to need over 30 processes for ±3%, 3 times the cap, and --budget 0 would stop them as out of reach; it runs the other one to its criterion\n")
	assert.Contains(t, summary(prec(far, 31), prec(farther, 2000)),
		"; each is predicted to need over 30 processes for ±3%, 3 times the cap, and --budget 0 would stop them as out of reach\n")
	assert.Contains(t, summary(prec(near, 30)), "; --budget 0 runs each to its criterion\n", "30 is the cap's limit, not past it")

	o.Stop.Criterion = stopper.CV
	assert.Contains(t, summary(prec(far, 2000)), "; --budget 0 runs each to its criterion\n", "only the interval criterion stops a benchmark out of reach")

	// A budget the user chose says so only of those out of reach.
	o.Stop.Criterion, o.Budget, auto = stopper.Interval, time.Minute, 0
	assert.Contains(t, summary(prec(near, 8), prec(far, 31)), "--budget 1m0s cut 2 benchmarks short before they were stable; 1 of them is predicted to need over 30 processes for ±3%, 3 times the cap, and --budget 0 would stop it as out of reach; it runs the other one to its criterion\n")
	assert.Contains(t, summary(prec(near, 8)), "--budget 1m0s cut 1 benchmark short before it was stable\n")
}

// TestBeyondTheBudgetSaysSo: a benchmark the budget cut where its stop
// was predicted beyond what was left of it reads as out of reach within
// the budget, in the table and the summary; one the budget's end cut
// stays cut by it.
func TestBeyondTheBudgetSaysSo(t *testing.T) {
	pkg := &rmit.Package{ImportPath: "p"}
	beyond, cut := rmit.NewBenchmark(pkg, "BenchmarkBeyond", 1, false), rmit.NewBenchmark(pkg, "BenchmarkCut", 1, false)
	prec := func(b *rmit.Benchmark) rmit.BenchPrecision {
		return rmit.BenchPrecision{Bench: b, Iterations: 4, Precision: policy.Precision{Width: 0.08, Confidence: 0.95, Target: 0.03, Processes: 20, Next: 0.07}}
	}
	sum := &rmit.Summary{BudgetCut: []*rmit.Benchmark{beyond, cut}, BeyondBudget: 1, Precision: []rmit.BenchPrecision{prec(beyond), prec(cut)}}
	head := &record.Run{Events: []record.Event{
		{Event: record.EventStop, Package: "p", Benchmark: beyond.Name, Reason: record.ReasonBeyondBudget},
		{Event: record.EventStop, Package: "p", Benchmark: cut.Name, Reason: "budget spent before the criterion held"},
	}}
	res := &session.Result{Summary: sum, Options: &session.Options{SuiteRuns: 10, Iterations: 1}, Head: head, Order: []record.Key{beyond.Key(), cut.Key()}, AutoBudget: time.Minute}
	status := map[string]string{}
	for _, row := range resultRows(res) {
		status[row.name] = row.status
	}
	assert.Equal(t, map[string]string{"BenchmarkBeyond": statusBeyondBudget, "BenchmarkCut": statusCut}, status)
	var text strings.Builder
	WriteSummary(&text, res)
	assert.Contains(t, text.String(), "  out of reach within the budget: 1 of them, each predicted to stop")
}
