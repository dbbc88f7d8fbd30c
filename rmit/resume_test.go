package rmit

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper/policy"
)

// cancelAfter calls cancel once a run has seen n slices, or n measured
// slices if measured.
type cancelAfter struct {
	collect
	n        int
	measured bool
	cancel   func()
	seen     int
}

func (c *cancelAfter) Slice(b *Benchmark, s *record.Slice) {
	c.collect.Slice(b, s)
	if c.measured && s.Warmup {
		return
	}
	if c.seen++; c.seen == c.n {
		c.cancel()
	}
}

// stopAfter is a static policy that stops each benchmark after its
// stopAt-th completed iteration, so that the schedule depends on the
// policy's state.
type stopAfter struct {
	Static
	stopAt int
	seen   map[string]int
}

func (p *stopAfter) EndIteration(bench string, _ policy.Iteration) policy.Decision {
	p.seen[bench]++
	return policy.Decision{Stop: p.seen[bench] >= p.stopAt, Met: true, Criterion: "test"}
}

// resumeRun runs bs on raw, appending to it, with an optional resume and a
// cancellation after cancelAt slices (0: none).
func resumeRun(t *testing.T, bs []*Benchmark, policy Policy, raw *bytes.Buffer, resume *Resume, cancelAt int) (*cancelAfter, *Summary, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	obs := &cancelAfter{n: cancelAt, cancel: cancel}
	w := record.NewWriter(raw)
	if resume == nil {
		require.NoError(t, w.Write(&record.Header{Seed: 11}))
	} else {
		require.NoError(t, w.Write(&record.Event{Event: record.EventResumed}))
	}
	r := &Runner{Benchmarks: bs, Policy: policy, Seed: 11, Timeout: time.Minute, Raw: w, Observer: obs, Resume: resume}
	sum, err := r.Run(ctx)
	return obs, sum, err
}

// iterationOrder lists the iterations of run in the order they ran.
func iterationOrder(run *record.Run) []iterationKey {
	var out []iterationKey
	for _, s := range run.Slices {
		if s.Slice == 1 {
			out = append(out, iterationKey{s.Benchmark, s.SuiteRun, s.Iteration})
		}
	}
	return out
}

func readRaw(t *testing.T, raw *bytes.Buffer) *record.Run {
	t.Helper()
	run, _, err := record.Read(bytes.NewReader(raw.Bytes()), "raw")
	require.NoError(t, err)
	return run
}

func TestResumeContinuesTheSchedule(t *testing.T) {
	pkg := suite(t)
	bs := discover(t, pkg, "Fast|Prints|ReadsFile")
	require.Len(t, bs, 3)
	for _, tc := range []struct {
		name   string
		policy func() Policy
		// total is the slice count of the whole run.
		total int
	}{
		// 3 benchmarks × 3 suite runs × 2 iterations × (1 + 2) slices.
		{"static", func() Policy { return Static{Warmup: 1, Slices: 2} }, 54},
		// Each benchmark stops after its third iteration.
		{"stateful", func() Policy { return &stopAfter{Static{Warmup: 1, Slices: 2}, 3, map[string]int{}} }, 27},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, b := range bs {
				b.Config = Config{SuiteRuns: 3, Iterations: 2}
			}
			var full bytes.Buffer
			_, fullSum, err := resumeRun(t, bs, tc.policy(), &full, nil, 0)
			require.NoError(t, err)
			want := readRaw(t, &full)
			require.Len(t, want.Slices, tc.total)

			// Interrupt mid-iteration (slice 8 is the second of an
			// iteration of three), then at an iteration's end, then
			// resume to the end.
			var raw bytes.Buffer
			obs1, sum1, err := resumeRun(t, bs, tc.policy(), &raw, nil, 8)
			require.ErrorIs(t, err, ErrInterrupted)
			assert.True(t, sum1.Interrupted)
			assert.Len(t, obs1.slices, 8)
			first := readRaw(t, &raw)
			assert.False(t, first.Complete)
			for _, e := range first.Events {
				assert.NotEqual(t, record.EventStop, e.Event, "an interrupted run reached no configuration's end: %+v", e)
			}

			obs2, _, err := resumeRun(t, bs, tc.policy(), &raw, NewResume(first), 15)
			require.ErrorIs(t, err, ErrInterrupted)
			assert.Len(t, obs2.slices, 15, "the observer sees the replayed slices too")
			second := readRaw(t, &raw)

			obs3, sum3, err := resumeRun(t, bs, tc.policy(), &raw, NewResume(second), 0)
			require.NoError(t, err)
			got := readRaw(t, &raw)
			assert.True(t, got.Complete)
			assert.Len(t, got.Slices, tc.total, "no slice lost, none counted twice")
			assert.Equal(t, iterationOrder(want), iterationOrder(got))
			assert.Len(t, obs3.slices, tc.total, "-o output covers old and new slices")
			assert.Equal(t, fullSum.Stopped, sum3.Stopped)
			assert.Equal(t, fullSum.Slices, sum3.Slices)
			assert.Equal(t, fullSum.Iterations, sum3.Iterations)

			discarded := 0
			for _, e := range got.Events {
				if e.Event == record.EventDiscarded {
					discarded++
				}
			}
			assert.Equal(t, 1, discarded, "only the iteration cut short mid-way runs again")
			// Every (benchmark, suite run, iteration, slice) appears once.
			seen := map[[4]any]bool{}
			for _, s := range got.Slices {
				k := [4]any{s.Benchmark, s.SuiteRun, s.Iteration, s.Slice}
				assert.False(t, seen[k], "%v twice", k)
				seen[k] = true
			}
		})
	}
}

func TestResumeKeepsFailures(t *testing.T) {
	pkg := suite(t)
	bs := discover(t, pkg, "Fast|Faulty")
	for _, b := range bs {
		b.Config = Config{SuiteRuns: 2, Iterations: 2}
	}
	t.Setenv("SUITE_FAULT", "fatal")
	var raw bytes.Buffer
	// Four iterations of Fast and one failed one of Faulty hold at most
	// 2 + 1 slices each; stop after the first two iterations.
	_, _, err := resumeRun(t, bs, Static{Slices: 2}, &raw, nil, 2)
	require.ErrorIs(t, err, ErrInterrupted)
	first := readRaw(t, &raw)

	_, sum, err := resumeRun(t, bs, Static{Slices: 2}, &raw, NewResume(first), 0)
	require.NoError(t, err)
	require.Len(t, sum.Failed, 1, "the recorded failure counts, whether replayed or met anew")
	assert.Contains(t, sum.Failed[0].Reason, "fatal failure")
	got := readRaw(t, &raw)
	failures := 0
	for _, e := range got.Events {
		if e.Event == record.EventFailure {
			failures++
		}
	}
	assert.Equal(t, 1, failures, "a failed iteration is not run again")
	fast := got.Series(record.Key{Bench: bs[0].Bench()}, "ns/op")
	require.Len(t, fast, 4, "2 suite runs × 2 iterations")
	for _, it := range fast {
		assert.Len(t, it.Values, 2)
	}
	assert.True(t, got.Complete)
}

func TestNewResumeNil(t *testing.T) {
	var r *Resume
	assert.Zero(t, r.Len())
	assert.Nil(t, r.lookup(&Benchmark{ID: "x"}, 1, 1))
	r = NewResume(&record.Run{})
	assert.Zero(t, r.Len())
}

// A resumed baseline run settles its pairs where the uninterrupted run did:
// the pair policy's state is rebuilt from the recorded iterations, and no
// stop record is lost or written twice.
func TestResumePairedSettles(t *testing.T) {
	pkg := suite(t)
	head := discover(t, pkg, "Fast|Prints")
	require.Len(t, head, 2)
	base := baselineOf(head)
	bs := append(slices.Clone(head), base...)
	for _, b := range bs {
		b.Config = Config{SuiteRuns: 3, Iterations: 2}
	}
	policy := func() Policy {
		p := NewPaired(Static{Warmup: 1, Slices: 2}, base, head)
		p.Judge = func(b, h [][]float64) string {
			if len(b) >= 2 {
				return record.ReasonSettled
			}
			return ""
		}
		return p
	}
	stops := func(run *record.Run) []record.Event {
		var out []record.Event
		for _, e := range run.Events {
			if e.Event == record.EventStop {
				e.Time, e.CriterionNs = time.Time{}, 0
				out = append(out, e)
			}
		}
		return out
	}

	var full bytes.Buffer
	_, fullSum, err := resumeRun(t, bs, policy(), &full, nil, 0)
	require.NoError(t, err)
	want := readRaw(t, &full)
	assert.Equal(t, 4, fullSum.Settled)
	require.Len(t, stops(want), 4)

	var raw bytes.Buffer
	_, _, err = resumeRun(t, bs, policy(), &raw, nil, 8)
	require.ErrorIs(t, err, ErrInterrupted)
	_, _, err = resumeRun(t, bs, policy(), &raw, NewResume(readRaw(t, &raw)), 20)
	require.ErrorIs(t, err, ErrInterrupted)
	_, sum, err := resumeRun(t, bs, policy(), &raw, NewResume(readRaw(t, &raw)), 0)
	require.NoError(t, err)
	got := readRaw(t, &raw)
	assert.Equal(t, iterationOrder(want), iterationOrder(got))
	assert.ElementsMatch(t, stops(want), stops(got))
	assert.Equal(t, fullSum.Settled, sum.Settled)
}

// TestResumeKeepsWhyTheBudgetCut: a resumed run takes each budget cut
// from the records with its reason, so that a benchmark cut for the stops
// the budget funded stays out of reach within the budget.
func TestResumeKeepsWhyTheBudgetCut(t *testing.T) {
	pkg := &Package{ImportPath: "p"}
	beyond, cut, ran := NewBenchmark(pkg, "BenchmarkBeyond", 1, false), NewBenchmark(pkg, "BenchmarkCut", 1, false), NewBenchmark(pkg, "BenchmarkRan", 1, false)
	r := NewResume(&record.Run{Events: []record.Event{
		{Event: record.EventBudget, Package: "p", Benchmark: beyond.Name, Reason: record.ReasonBeyondBudget + ": --budget 1m0s has too little left after 4 iterations"},
		{Event: record.EventBudget, Package: "p", Benchmark: cut.Name, Reason: "--budget 1m0s spent after 4 iterations"},
	}})
	reason, ok := r.cutByBudget(beyond.ID)
	assert.True(t, ok)
	assert.True(t, strings.HasPrefix(reason, record.ReasonBeyondBudget))
	reason, ok = r.cutByBudget(cut.ID)
	assert.True(t, ok)
	assert.False(t, strings.HasPrefix(reason, record.ReasonBeyondBudget))
	_, ok = r.cutByBudget(ran.ID)
	assert.False(t, ok)
	var none *Resume
	_, ok = none.cutByBudget(beyond.ID)
	assert.False(t, ok)
}
