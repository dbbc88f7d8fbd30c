package session

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/fakebin"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// endTimeUse returns the time use the raw file's end record holds.
func endTimeUse(t *testing.T, run *record.Run) *record.TimeUse {
	t.Helper()
	for _, e := range run.Events {
		if e.Event == record.EventEnd {
			require.NotNil(t, e.TimeUse, "the end record says how the time was spent")
			return e.TimeUse
		}
	}
	t.Fatal("no end record")
	return nil
}

// share returns the share of slice s's wall time inside the timer.
func share(s *record.Slice) float64 { return float64(s.Timed()) / float64(s.WallNs) }

// TestSlicesOutlastTheirSetup runs benchmarks whose every call spends 1×,
// 10× and 100× its 1 ms slice in setup, on the fake clock. The first process
// measures that cost, and the later ones run slices long enough to spend
// 70% inside the timer, up to 30 times the slice time. A stretch that
// would take a slice past go test's 1 s -benchtime, were the setup to
// grow with b.N, goes in steps: the slices of 101 ms grow to 1 s of wall
// at most, 9.9 ms inside the timer, and only then to 30 ms. The summary
// and the end record count the setup out of the time inside the timer.
func TestSlicesOutlastTheirSetup(t *testing.T) {
	for _, c := range []struct {
		setup time.Duration
		// The share inside the timer of the second process's slices,
		// and of the later ones'.
		second, later float64
	}{
		{time.Millisecond, rmit.TimerShare, rmit.TimerShare},
		{10 * time.Millisecond, rmit.TimerShare, rmit.TimerShare},
		{100 * time.Millisecond, (1000.0 / 101) / (1000.0/101 + 100), 30.0 / (30 + 100)},
	} {
		t.Run(c.setup.String(), func(t *testing.T) {
			f := newFake("BenchmarkSetup")
			f.NsPerOp = func(fakebin.Slice) float64 { return 1000 }
			f.Setup = map[string]time.Duration{"BenchmarkSetup": c.setup}
			o := testOptions(t.TempDir())
			got, err := runFake(t, context.Background(), f, o)
			require.NoError(t, err)
			run, _, err := record.ReadFile(o.Raw)
			require.NoError(t, err)

			var timed time.Duration
			for _, s := range run.Slices {
				if s.Warmup {
					continue
				}
				timed += s.Timed()
				want := c.later
				switch s.SuiteRun {
				case 1:
					want = float64(time.Millisecond) / float64(time.Millisecond+c.setup)
				case 2:
					want = c.second
				}
				assert.InDelta(t, want, share(&s), 0.005, "suite run %d, slice %d", s.SuiteRun, s.Slice)
			}
			sum := got.res.Summary
			assert.Equal(t, timed, sum.InTimer)
			use := endTimeUse(t, run)
			assert.Equal(t, int64(timed), use.InTimerNs)
			assert.Equal(t, int64(sum.InSlices), use.InSlicesNs)
			assert.Equal(t, int64(sum.Measuring()), use.MeasuringNs)
			assert.Less(t, sum.InTimer, sum.InSlices, "setup is inside slices, not inside the timer")

			var text bytes.Buffer
			WriteSummary(&text, got.res)
			assert.Regexp(t, `time inside the timer \d+% of the measuring phase \(\S+ of \S+\); inside slices, setup included, \d+% of wall`, text.String())
		})
	}
}

// TestTurnsOfALoopPaySetupOnce compares a b.Loop benchmark whose setup is
// 400 ms with a 10 ms body, pair by pair in turns. The loop hook lets each
// worker run its setup once, so a pair of workers costs under 3 s, not
// 2 × 100 setups, and the measuring phase is mostly inside the timer.
// The fake clock runs the two workers' setups one after the other, where
// two CPUs would run them at once: a start of 2 × 410 ms and 2 warmup
// turns of 10 ms. With 100 turns a duet, the turns outlast that start;
// with 10, the duets after the first take enough turns to amortise it:
// 0.7/0.3 × 840 ms / (2 × 10 ms), 98, at most 8 times the 10 planned.
// How much of the other worker's setup a worker's start takes in depends
// on which first slice the harness reads first, so the start it measures
// is 410 to 840 ms, and the turns 48 to 80; the fewer turns, the lower
// the timer's share on a clock that runs the setups one after the other
// (one CPU), down to about half.
func TestTurnsOfALoopPaySetupOnce(t *testing.T) {
	for _, c := range []struct {
		plan            rmit.TurnPlan
		fewest, most    int     // turns of the duets after the first
		timerShareLeast float64 // of the measuring phase
	}{
		{rmit.TurnPlan{Warmup: 2, Turns: 100}, 100, 100, 0.6},
		{rmit.TurnPlan{Warmup: 2, Turns: 10}, 48, 80, 0.45},
	} {
		t.Run(fmt.Sprint(c.plan.Turns), func(t *testing.T) {
			f := newFake("BenchmarkLoop")
			f.NsPerOp = func(fakebin.Slice) float64 { return 10e6 }
			f.Setup = map[string]time.Duration{"BenchmarkLoop": 400 * time.Millisecond}
			f.Loops = map[string]bool{"BenchmarkLoop": true}
			o := testOptions(t.TempDir())
			o.Baseline, o.Pairing = "main", PairSlices
			o.TurnTime, o.Turns = time.Millisecond, c.plan
			o.SuiteRuns = 5
			got, err := runFake(t, context.Background(), f, o)
			require.NoError(t, err)
			run, _, err := record.ReadFile(o.Raw)
			require.NoError(t, err)

			type pair struct{ sr, it int }
			begin, end, turns := map[pair]time.Time{}, map[pair]time.Time{}, map[pair]int{}
			for _, s := range run.Slices {
				p := pair{s.SuiteRun, s.Iteration}
				if b, ok := begin[p]; !ok || s.Start.Before(b) {
					begin[p] = s.Start
				}
				if e := s.Start.Add(time.Duration(s.WallNs)); e.After(end[p]) {
					end[p] = e
				}
				if !s.Warmup && s.Version == record.VersionHead {
					turns[p]++
				}
			}
			require.Len(t, begin, o.SuiteRuns)
			for p := range begin {
				assert.LessOrEqual(t, end[p].Sub(begin[p]), 3*time.Second, "suite run %d", p.sr)
				if p.sr > 1 {
					assert.GreaterOrEqual(t, turns[p], c.fewest, "suite run %d", p.sr)
					assert.LessOrEqual(t, turns[p], c.most, "suite run %d", p.sr)
				}
			}
			assert.Equal(t, 2*o.SuiteRuns, f.Setups("BenchmarkLoop"), "one setup per worker")
			assert.GreaterOrEqual(t, got.res.Summary.TimerShare(), c.timerShareLeast)
		})
	}
}

// TestSetupPerOpIsNotStretched runs a benchmark that builds an input for
// every op outside the timer (10µs per 1µs op), beside one whose setup is
// one cost per call (10ms). Both are stretched after their first process;
// the first one's setup grows with b.N, so its slices go back to the
// slice time, where stretching them again and again would have run ever
// more ops, and held ever more inputs, for no more time inside the timer.
//
// BenchmarkBigInputs builds inputs of 1 ms per op, so that its slices
// take a second of wall time each: its stretch goes by a step of 3, and a
// single stretch to 30 slice times would have cost a process 30 s a
// slice before the setup was seen to grow.
func TestSetupPerOpIsNotStretched(t *testing.T) {
	f := newFake("BenchmarkInputs", "BenchmarkSetup", "BenchmarkBigInputs")
	f.NsPerOp = func(fakebin.Slice) float64 { return 1000 }
	f.SetupPerOp = map[string]time.Duration{"BenchmarkInputs": 10 * time.Microsecond, "BenchmarkBigInputs": time.Millisecond}
	f.Setup = map[string]time.Duration{"BenchmarkSetup": 10 * time.Millisecond}
	o := testOptions(t.TempDir())
	_, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	n := nBySuiteRun(t, o.Raw)
	// 1ms of 1µs ops; then TimerShare of the slice at 10ms outside.
	share := rmit.TimerShare
	stretched := rmit.NForSlice(1000, time.Duration(float64(10*time.Millisecond)*share/(1-share)))
	assert.Equal(t, map[int]int64{1: 1000, 2: stretched, 3: 1000}, n["BenchmarkInputs"])
	assert.Equal(t, map[int]int64{1: 1000, 2: stretched, 3: stretched}, n["BenchmarkSetup"])
	assert.Equal(t, map[int]int64{1: 1000, 2: 3000, 3: 1000}, n["BenchmarkBigInputs"])
}

// TestFewOpsTriedAtALargerN runs two benchmarks of about two ops per
// slice. BenchmarkPerCall pays 1.5ms inside its timer once per call of
// its function, over ops of 0.5ms: at b.N = 2 it reads 1.25ms/op, where
// go test's ramp, over the ops of a second, reads about 0.5. Its second
// process is tried at FewOpsStep times its b.N, reads 0.69ms/op there,
// and keeps that b.N; the run names it NOT STEADY with both. BenchmarkFlat
// costs 1.25ms an op at any b.N: its try reads the same, and it goes back.
func TestFewOpsTriedAtALargerN(t *testing.T) {
	f := newFake("BenchmarkPerCall", "BenchmarkFlat")
	f.NsPerOp = func(s fakebin.Slice) float64 {
		if s.Name == "BenchmarkPerCall" {
			return 500e3 + 1.5e6/float64(max(s.N, 1))
		}
		return 1.25e6
	}
	o := testOptions(t.TempDir())
	got, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	n := nBySuiteRun(t, o.Raw)
	assert.Equal(t, map[int]int64{1: 2, 2: 2 * rmit.FewOpsStep, 3: 2 * rmit.FewOpsStep}, n["BenchmarkPerCall"])
	assert.Equal(t, map[int]int64{1: 1, 2: rmit.FewOpsStep, 3: 1}, n["BenchmarkFlat"])
	require.Len(t, got.res.Amortized, 1)
	a := got.res.Amortized[0]
	assert.Equal(t, "BenchmarkPerCall"+suffix(), a.Key.Benchmark)
	assert.Equal(t, [2]int64{2, 2 * rmit.FewOpsStep}, [2]int64{a.LowN, a.HighN})
	assert.InDelta(t, 1.25e6, a.LowNs, 1)
	assert.InDelta(t, 500e3+1.5e6/8, a.HighNs, 1)
}

// nBySuiteRun returns the b.N of each benchmark's slices in each suite
// run of the raw file at path, by name without the GOMAXPROCS suffix.
func nBySuiteRun(t *testing.T, path string) map[string]map[int]int64 {
	t.Helper()
	run, _, err := record.ReadFile(path)
	require.NoError(t, err)
	n := map[string]map[int]int64{}
	for _, s := range run.Slices {
		name := strings.TrimSuffix(s.Benchmark, suffix())
		if n[name] == nil {
			n[name] = map[int]int64{}
		}
		n[name][s.SuiteRun] = s.N
	}
	return n
}
