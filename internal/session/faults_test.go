package session

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/fakebin"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// failingOutput is a results file on a disk that fills up after ok
// writes.
type failingOutput struct {
	buffer
	ok, writes int
}

var errDiskFull = errors.New("writing --out out.txt: no space left on device")

func (f *failingOutput) Write(p []byte) (int, error) {
	f.writes++
	if f.writes > f.ok {
		return 0, errDiskFull
	}
	return f.buffer.Write(p)
}

func (f *failingOutput) Commit(*record.Run, []record.Key) error {
	f.committed = true
	if f.writes > f.ok {
		return errDiskFull
	}
	return nil
}

// interrupted runs o on f and interrupts it after the nth slice.
func interrupted(t *testing.T, f *fakebin.Binaries, o Options, nth int) outcome {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.OnSlice = func(n int) bool {
		if n == nth {
			cancel()
			return true
		}
		return false
	}
	// The count goes on across runs of f: nth comes once, and onSlice
	// stays, read by the fake's goroutines.
	got, err := runFake(t, ctx, f, o)
	require.NoError(t, err)
	require.True(t, got.res.Interrupted())
	return got
}

// TestResultsWriteFailureStopsTheRun checks that a results file that
// fails stops the run at once, with that error, and that the raw file
// says why the run stopped and stays resumable.
func TestResultsWriteFailureStopsTheRun(t *testing.T) {
	f := newFake("BenchmarkA", "BenchmarkB")
	o := testOptions(t.TempDir())
	out := &failingOutput{ok: 5}
	var log bytes.Buffer
	res, err := Run(context.Background(), o, Outputs{Results: out, Log: &log}, fakeEnv(f))
	require.ErrorIs(t, err, errDiskFull)
	require.NotNil(t, res)
	assert.Equal(t, errDiskFull, res.Stopped)
	assert.True(t, res.Interrupted(), "the results are partial")
	assert.Less(t, res.Summary.Slices, 2*3*4, "measuring stopped")
	assert.Less(t, out.writes, 10, "no write after the failure but the partial note")
	var text bytes.Buffer
	WriteSummary(&text, res)
	assert.Contains(t, text.String(), "gobench-dyn: stopped:")
	assert.Contains(t, text.String(), "STOPPED: an output failed; the results are partial; --resume "+o.Raw)

	run, _, err := record.ReadFile(o.Raw)
	require.NoError(t, err)
	last := run.Events[len(run.Events)-1]
	assert.Equal(t, record.EventInterrupt, last.Event)
	assert.Contains(t, last.Reason, "stopped: writing --out out.txt: no space left on device")

	o.Resume, o.SeedSet = o.Raw, false
	got, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err, got.log)
	run, _, err = record.ReadFile(o.Raw)
	require.NoError(t, err)
	assert.True(t, run.Complete, "the run resumes")
}

// TestPartialResultsSayTheyArePartial checks that an interrupted run's
// results end with a line, which benchstat skips, saying they are
// partial, and the results of its in-memory run say it too.
func TestPartialResultsSayTheyArePartial(t *testing.T) {
	o := testOptions(t.TempDir())
	got := interrupted(t, newFake("BenchmarkA"), o, 3)
	lines := strings.Split(strings.TrimSpace(got.out), "\n")
	assert.Equal(t, "# gobench-dyn: interrupted; the results are partial; --resume "+o.Raw+" completes them", lines[len(lines)-1])
}

// TestRunThatMeasuresNothingLeavesRawAlone checks that a run that fails
// before it measures leaves an existing raw file as it was, and creates
// none where there was none.
func TestRunThatMeasuresNothingLeavesRawAlone(t *testing.T) {
	dir := t.TempDir()
	for _, old := range []string{"", "not a raw file\n"} {
		o := testOptions(dir)
		o.Bench = "Nothing"
		os.Remove(o.Raw)
		if old != "" {
			require.NoError(t, os.WriteFile(o.Raw, []byte(old), 0o644))
		}
		_, err := runFake(t, context.Background(), newFake("BenchmarkA"), o)
		require.NotNil(t, usage.As(err), "%v", err)
		got, err := os.ReadFile(o.Raw)
		if old == "" {
			assert.True(t, os.IsNotExist(err), "no raw file was created")
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, old, string(got))
	}
}

// TestUnfinishedRawIsNotReplaced checks that --raw refuses a file that
// holds a run --resume could continue, naming --resume and --force, and
// replaces it with Force.
func TestUnfinishedRawIsNotReplaced(t *testing.T) {
	o := testOptions(t.TempDir())
	interrupted(t, newFake("BenchmarkA"), o, 1)
	before, err := os.ReadFile(o.Raw)
	require.NoError(t, err)

	_, err = runFake(t, context.Background(), newFake("BenchmarkA"), o)
	require.ErrorIs(t, err, ErrUnfinished)
	u := usage.As(err)
	require.NotNil(t, u)
	assert.Equal(t, "raw", u.Flag)
	assert.Contains(t, err.Error(), "holds an unfinished run (it was interrupted)")
	after, err := os.ReadFile(o.Raw)
	require.NoError(t, err)
	assert.Equal(t, before, after)

	// A record cut short, as by a crash, is unfinished too.
	require.NoError(t, os.WriteFile(o.Raw, before[:len(before)-10], 0o644))
	_, err = runFake(t, context.Background(), newFake("BenchmarkA"), o)
	require.ErrorIs(t, err, ErrUnfinished)
	assert.Contains(t, err.Error(), "its last record is cut short")

	o.Force = true
	_, err = runFake(t, context.Background(), newFake("BenchmarkA"), o)
	require.NoError(t, err)
	run, _, err := record.ReadFile(o.Raw)
	require.NoError(t, err)
	assert.True(t, run.Complete)

	// A complete run is replaced without Force.
	o.Force = false
	_, err = runFake(t, context.Background(), newFake("BenchmarkA"), o)
	require.NoError(t, err)
}

// TestRawWriteErrorNamesTheLastRecord checks the message of a raw file
// that failed: the file, the cause, the last complete record and its line.
func TestRawWriteErrorNamesTheLastRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "raw.jsonl")
	r, err := createRaw(path, false)
	require.NoError(t, err)
	w := record.NewWriter(r)
	require.NoError(t, w.Write(&record.Header{Seed: 1}))
	require.NoError(t, w.Write(&record.Slice{Package: "p", Benchmark: "BenchmarkA-2", SuiteRun: 2, Iteration: 1, Slice: 3, N: 1, Values: map[string]float64{"ns/op": 1}}))
	r.f.Close() // the next write fails
	err = w.Write(&record.Slice{Package: "p", Benchmark: "BenchmarkA-2", SuiteRun: 2, Iteration: 1, Slice: 4, N: 1, Values: map[string]float64{"ns/op": 1}})
	require.Error(t, err)
	assert.Regexp(t, `^writing the raw file .*raw\.jsonl failed: .*; it is readable up to line 2, its last complete record \(slice 3 of p\.BenchmarkA-2, suite run 2, iteration 1\), and a resumed run continues it$`, err.Error())
}

// TestInterruptedBaselineRunCompares checks that an interrupted baseline
// run still compares what it measured, for the verdicts it had reached.
func TestInterruptedBaselineRunCompares(t *testing.T) {
	nsPerOp := func(s fakebin.Slice) float64 {
		dir, name, i := s.Dir, s.Name, s.Index
		if dir == "baseline" || name == "BenchmarkSame" {
			return jitter(1000, i)
		}
		return jitter(3000, i)
	}
	f := newFake("BenchmarkSame", "BenchmarkSlow")
	f.NsPerOp = nsPerOp
	o := testOptions(t.TempDir())
	o.SuiteRuns = 10
	o.Baseline = "main"
	o.Pairing = PairProcesses
	got := interrupted(t, f, o, 6*4*6) // in the seventh of ten suite runs
	require.NotNil(t, got.res.Comparison, "the verdicts reached are compared")
	verdicts := map[string]string{}
	for _, c := range got.res.Comparison.Comparisons {
		if c.Unit == "ns/op" {
			verdicts[strings.TrimSuffix(c.Benchmark, suffix())] = string(c.Verdict)
		}
	}
	assert.Equal(t, "regression", verdicts["BenchmarkSlow"], "%v", verdicts)
}
