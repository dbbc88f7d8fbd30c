package session

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/fakebin"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// interruptedRaw runs o on f until its nth slice, and returns the raw
// file's content.
func interruptedRaw(t *testing.T, f *fakebin.Binaries, o Options, nth int) []byte {
	t.Helper()
	interrupted(t, f, o, nth)
	raw, err := os.ReadFile(o.Raw)
	require.NoError(t, err)
	return raw
}

// TestResumeOfASequentialBaselineRun checks that a --baseline run with a
// sequential comparison, whose looks the run plans itself, resumes.
func TestResumeOfASequentialBaselineRun(t *testing.T) {
	for _, pairing := range []Pairing{PairProcesses, PairSlices} {
		t.Run(string(pairing), func(t *testing.T) { testResumeOfASequentialBaselineRun(t, pairing) })
	}
}

func testResumeOfASequentialBaselineRun(t *testing.T, pairing Pairing) {
	f := newFake("BenchmarkA")
	o := testOptions(t.TempDir())
	o.Stop = stopper.Default(stopper.CV)
	o.SuiteRuns = 20
	o.Baseline, o.Sequential, o.Pairing = "main", true, pairing
	o.TurnTime, o.Turns = time.Millisecond, rmit.TurnPlan{Warmup: 2, Turns: 10}
	raw := interruptedRaw(t, f, o, 30)
	assert.Contains(t, string(raw), `"looks":"`, "the header records the looks")
	assert.Contains(t, string(raw), `"baseline:example.com/p":"commit 0123456789abcdef"`, "the baseline's code is named by its commit")

	o.Resume, o.SeedSet = o.Raw, false
	got, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err, got.log)
	assert.Contains(t, got.log, "resuming")
	require.NotNil(t, got.res.Comparison)
	run, _, err := record.ReadFile(o.Raw)
	require.NoError(t, err)
	assert.True(t, run.Complete)
}

// TestResumeRefusesAnEditedHeaderOrAnotherMachine checks that a header
// whose seed, options or machine were changed after the run wrote it is
// refused, and that a header of another machine is refused unless forced.
func TestResumeRefusesAnEditedHeaderOrAnotherMachine(t *testing.T) {
	f := newFake("BenchmarkA", "BenchmarkB")
	o := testOptions(t.TempDir())
	raw := interruptedRaw(t, f, o, 7)
	header, rest, _ := bytes.Cut(raw, []byte("\n"))
	o.Resume, o.SeedSet = o.Raw, false
	resume := func(header []byte, force bool) (outcome, error) {
		require.NoError(t, os.WriteFile(o.Raw, append(append(bytes.Clone(header), '\n'), rest...), 0o644))
		o := o
		o.Force = force
		return runFake(t, context.Background(), f, o)
	}
	for from, to := range map[string]string{`"seed":5`: `"seed":6`, `"slices":"4"`: `"slices":"5"`} {
		edited := bytes.Replace(header, []byte(from), []byte(to), 1)
		require.NotEqual(t, header, edited)
		_, err := resume(edited, true)
		require.NotNil(t, usage.As(err), "%s → %s: %v", from, to, err)
		assert.Contains(t, err.Error(), "the header was edited since the run wrote it")
	}

	var h record.Header
	run, _, err := record.Read(bytes.NewReader(raw), "raw")
	require.NoError(t, err)
	h = *run.Header
	h.GOARCH, h.CPU, h.NumCPU = "riscv64", "Another CPU", h.NumCPU+6
	var other bytes.Buffer
	require.NoError(t, record.NewWriter(&other).Write(&h))
	otherHeader := bytes.TrimSuffix(other.Bytes(), []byte("\n"))
	_, err = resume(otherHeader, false)
	require.ErrorIs(t, err, ErrOtherMachine)
	require.NotNil(t, usage.As(err))
	for _, want := range []string{"recorded on another machine", "/riscv64, this one", `cpu "Another CPU"`, "CPUs, this one"} {
		assert.Contains(t, err.Error(), want)
	}
	got, err := resume(otherHeader, true)
	require.NoError(t, err)
	assert.Contains(t, got.log, "warning: "+o.Raw+": the run was recorded on another machine")
}

// TestResumedRunEfficiencyIsItsOwn checks that the slices a resumed run
// replays from the records do not count as time it spent in slices: its
// time inside slices stays a share of its own wall time.
func TestResumedRunEfficiencyIsItsOwn(t *testing.T) {
	f := newFake("BenchmarkA", "BenchmarkB")
	o := testOptions(t.TempDir())
	o.SuiteRuns = 6
	interrupted(t, f, o, 40)
	o.Resume, o.SeedSet = o.Raw, false
	got, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	sum := got.res.Summary
	assert.LessOrEqual(t, sum.Efficiency(), 1.0)
	assert.LessOrEqual(t, sum.InSlices, sum.Wall())
	var text strings.Builder
	WriteSummary(&text, got.res)
	assert.NotRegexp(t, `setup included, (1\d\d|[2-9]\d\d)% of wall`, text.String())
}
