package session

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/fakebin"
	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// runInTurns gates the benchmarks of f against themselves in duets of
// 1 ms turns, 2 of warmup and 10 measured, and returns what the run
// returned, its raw records and its options.
func runInTurns(t *testing.T, f *fakebin.Binaries) (outcome, *record.Run, Options) {
	t.Helper()
	o := testOptions(t.TempDir())
	o.Baseline, o.Pairing = "main", PairSlices
	o.TurnTime, o.Turns = time.Millisecond, rmit.TurnPlan{Warmup: 2, Turns: 10}
	got, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	run, _, err := record.ReadFile(o.Raw)
	require.NoError(t, err)
	return got, run, o
}

// TestCostlySetupGoesByProcessPairs compares b.N-loop benchmarks whose
// every call spends 10× and 100× its 1 ms body in setup, on the fake
// clock, with 1 ms turns (at most 64 ms). Either way the first duet stops
// after two turns of each worker, 3 setup calls. At 10×, a turn of 23 ms
// spends 70% inside the timer: the first duet starts again at that b.N,
// and every duet after it keeps it, with one warmup turn where 1 ms turns
// took two, 12 setup calls per worker. At 100× a
// turn would take 233 ms: the pair is measured by process pairs, each
// process a warmup slice and ⌈10 turns × 64 ms / 233 ms⌉ = 3 slices of
// 233 ms timed, 4 setup calls, one process of each version after the
// other. Every slice recorded spends 70% inside the timer.
func TestCostlySetupGoesByProcessPairs(t *testing.T) {
	for _, c := range []struct {
		setup      time.Duration
		byProcess  bool
		setupCalls int
		n          int64
	}{
		{10 * time.Millisecond, false, 2*(1+2) + 3*2*(1+1+10), 23333},
		{100 * time.Millisecond, true, 2*(1+2) + 3*2*(1+3), 233333},
	} {
		t.Run(c.setup.String(), func(t *testing.T) {
			f := newFake("BenchmarkSetup")
			f.NsPerOp = func(fakebin.Slice) float64 { return 1000 }
			f.Setup = map[string]time.Duration{"BenchmarkSetup": c.setup}
			got, run, o := runInTurns(t, f)

			assert.Equal(t, c.setupCalls, f.Setups("BenchmarkSetup"))
			var events []record.Event
			for _, ev := range run.Events {
				if ev.Event == record.EventProcessPairs {
					events = append(events, ev)
				}
			}
			comp := got.res.Comparison
			require.NotNil(t, comp)
			require.NotEmpty(t, comp.Comparisons)
			var text bytes.Buffer
			require.NoError(t, comp.WriteText(&text))
			if !c.byProcess {
				assert.Empty(t, events)
				for _, s := range run.Slices {
					assert.Equal(t, c.n, s.N, "suite run %d, slice %d", s.SuiteRun, s.Slice)
					if s.Slice > 1 {
						assert.Positive(t, s.Turn, "every slice after the first is a turn: suite run %d, slice %d", s.SuiteRun, s.Slice)
						assert.InDelta(t, rmit.TimerShare, share(&s), 0.001)
					}
				}
				assert.Empty(t, comp.Comparisons[0].Pairing)
				assert.NotContains(t, text.String(), "measured by process pairs")
				return
			}
			require.Len(t, events, 2, "one event for each version")
			for _, ev := range events {
				assert.Equal(t, "100ms outside the timer per call outweighs turns of at most 64ms", ev.Reason)
			}
			perProcess := map[[3]any]int{}
			for _, s := range run.Slices {
				assert.Zero(t, s.Turn, "the duet cut short left no records")
				assert.Equal(t, c.n, s.N, "a slice of 233 ms timed")
				if !s.Warmup {
					perProcess[[3]any{s.Version, s.SuiteRun, s.Iteration}]++
					assert.InDelta(t, rmit.TimerShare, share(&s), 0.001)
				}
			}
			assert.Len(t, perProcess, 2*o.SuiteRuns)
			for p, n := range perProcess {
				assert.Equal(t, 3, n, "%v", p)
			}
			for _, cmp := range comp.Comparisons {
				assert.Equal(t, gate.PairingProcess, cmp.Pairing, cmp.Unit)
				assert.Contains(t, cmp.Note, "measured by process pairs: 100ms outside the timer per call")
			}
			assert.Contains(t, text.String(), "measured by process pairs")
			var js bytes.Buffer
			require.NoError(t, comp.WriteJSON(&js, gate.JSONOptions{}))
			assert.Contains(t, js.String(), `"pairing": "process"`)
		})
	}
}

// A benchmark that runs b.RunParallel is measured by process pairs, one
// version at a time, from its first pair's check on: in turns, the
// partner that has just handed over takes CPUs from its goroutines. Its
// processes hold the time its duet's turns would have timed.
func TestParallelBenchmarkGoesByProcessPairs(t *testing.T) {
	f := newFake("BenchmarkPar", "BenchmarkSerial")
	f.NsPerOp = func(fakebin.Slice) float64 { return 1000 }
	f.Parallel = map[string]bool{"BenchmarkPar": true}
	got, run, _ := runInTurns(t, f)
	byProcess := map[string]string{}
	for _, ev := range run.Events {
		if ev.Event == record.EventProcessPairs {
			byProcess[strings.Split(ev.Benchmark, "-")[0]] = ev.Reason
		}
	}
	require.Contains(t, byProcess, "BenchmarkPar")
	assert.Contains(t, byProcess["BenchmarkPar"], "b.RunParallel")
	// Its duet's 10 turns would have timed about 10 ms: each process
	// takes the fewest slices, not as many as turns of 64 ms would hold.
	for _, k := range run.Keys() {
		if !strings.HasPrefix(k.Benchmark, "BenchmarkPar") {
			continue
		}
		for _, it := range run.Series(k, "ns/op") {
			assert.Len(t, it.Values, 3, "%s suite run %d", k, it.SuiteRun)
		}
	}
	assert.NotContains(t, byProcess, "BenchmarkSerial", "a serial benchmark takes turns")
	for _, c := range got.res.Comparison.Comparisons {
		want := ""
		if strings.HasPrefix(c.Benchmark, "BenchmarkPar") {
			want = gate.PairingProcess
		}
		assert.Equal(t, want, c.Pairing, "%s %s", c.Benchmark, c.Unit)
	}
}

// TestProcessPairsShortenWhereProcessesDiffer gates a benchmark whose
// every call spends 100 ms in setup against itself, its processes each
// 20% apart at random and its slices within a process alike. Its pairs
// are sized for 100 turns of 64 ms: 28 slices of 233 ms timed per process.
// Once two pairs show that the processes differ far more than their
// slices, the pair takes the fewest slices the plan allows, 8: more,
// shorter processes narrow its interval faster.
func TestProcessPairsShortenWhereProcessesDiffer(t *testing.T) {
	f := newFake("BenchmarkSetup")
	f.NsPerOp = func(s fakebin.Slice) float64 {
		// The slices printed before this process tell it apart.
		process := uint64(s.Index - s.InProcess)
		u := float64((process*2654435761)%1000) / 1000
		return 1000 * (0.9 + 0.2*u) * (1 + 0.001*float64(s.InProcess%3))
	}
	f.Setup = map[string]time.Duration{"BenchmarkSetup": 100 * time.Millisecond}
	o := testOptions(t.TempDir())
	o.Baseline, o.Pairing, o.Sequential = "main", PairSlices, true
	o.Stop = stopper.Default(stopper.Interval)
	o.SuiteRuns = 8
	o.TurnTime, o.Turns = time.Millisecond, rmit.TurnPlan{Warmup: 2, Turns: 100}
	_, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	run, _, err := record.ReadFile(o.Raw)
	require.NoError(t, err)
	perProcess := map[int][]int{}
	for _, k := range run.Keys() {
		for _, it := range run.Series(k, "ns/op") {
			perProcess[it.SuiteRun] = append(perProcess[it.SuiteRun], len(it.Values))
		}
	}
	require.GreaterOrEqual(t, len(perProcess), 3)
	for k := 1; k <= len(perProcess); k++ {
		want := 8
		if k <= 2 {
			want = 28
		}
		assert.Equal(t, []int{want, want}, perProcess[k], "suite run %d", k)
	}
}

// A benchmark whose process fails beside the other version's, as one
// whose init rewrites a fixed file the other reads, fails its first duet.
// The duet leaves no records, and the pair goes on by process pairs, one
// version after the other, as go test runs one process at a time: the
// gate measures it rather than failing it. A benchmark that fails that way
// too fails as its own.
func TestFailureBesideTheOtherVersionGoesByProcessPairs(t *testing.T) {
	for _, alsoAlone := range []bool{false, true} {
		t.Run(map[bool]string{false: "beside only", true: "alone too"}[alsoAlone], func(t *testing.T) {
			f := newFake("BenchmarkShared", "BenchmarkOwn")
			f.NsPerOp = func(fakebin.Slice) float64 { return 1000 }
			f.FailsBeside = map[string]bool{"BenchmarkShared": true}
			if alsoAlone {
				f.Fails = map[string]int{"BenchmarkShared": 2}
			}
			got, run, o := runInTurns(t, f)
			var reasons []string
			for _, ev := range run.Events {
				if ev.Event == record.EventProcessPairs {
					assert.True(t, strings.HasPrefix(ev.Benchmark, "BenchmarkShared"), ev.Benchmark)
					reasons = append(reasons, ev.Reason)
				}
			}
			require.Len(t, reasons, 2, "one event for each version")
			assert.Contains(t, reasons[0], "it failed beside the other version's process (x_test.go:12: testdata.json: unexpected end of JSON input)")
			for _, s := range run.Slices {
				if strings.HasPrefix(s.Benchmark, "BenchmarkShared") {
					assert.Zero(t, s.Turn, "the duet that failed left no records")
				}
			}
			failed := got.res.Summary.Failed
			if alsoAlone {
				require.NotEmpty(t, failed, "a benchmark that fails alone too fails")
				assert.Contains(t, failed[0].Reason, "boom")
				return
			}
			assert.Empty(t, failed)
			for _, c := range got.res.Comparison.Comparisons {
				want := ""
				if strings.HasPrefix(c.Benchmark, "BenchmarkShared") {
					want = gate.PairingProcess
					assert.Contains(t, c.Note, "measured by process pairs: it failed beside the other version's process")
				}
				assert.Equal(t, want, c.Pairing, "%s %s", c.Benchmark, c.Unit)
			}
			assert.Equal(t, 2*o.SuiteRuns, measuredProcesses(run, "BenchmarkShared"))
		})
	}
}

// measuredProcesses counts the processes of run that measured a slice of
// the benchmark named name, of either version.
func measuredProcesses(run *record.Run, name string) int {
	type process struct {
		version string
		p       record.Process
	}
	procs := map[process]bool{}
	for _, s := range run.Slices {
		if !s.Warmup && strings.HasPrefix(s.Benchmark, name) {
			procs[process{s.Version, s.Process()}] = true
		}
	}
	return len(procs)
}
