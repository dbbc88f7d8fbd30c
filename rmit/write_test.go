package rmit

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// fullDisk accepts writes until it holds max bytes, as a disk that fills
// up: the write that crosses the limit lands in part and fails.
type fullDisk struct {
	bytes.Buffer
	max int
}

var errFull = errors.New("no space left on device")

func (d *fullDisk) Write(p []byte) (int, error) {
	if room := d.max - d.Len(); len(p) > room {
		d.Buffer.Write(p[:max(room, 0)])
		return max(room, 0), errFull
	}
	return d.Buffer.Write(p)
}

// TestRecordWriteFailureStopsTheRun checks that the first record that
// cannot be written stops the run at once, with the write's error, rather
// than measuring on into nothing.
func TestRecordWriteFailureStopsTheRun(t *testing.T) {
	pkg := suite(t)
	bs := discover(t, pkg, "Fast")
	for _, b := range bs {
		b.Config = Config{SuiteRuns: 20, Iterations: 1}
	}
	disk := &fullDisk{max: 4096}
	w := record.NewWriter(disk)
	require.NoError(t, w.Write(&record.Header{Seed: 3}))
	obs := &collect{}
	r := &Runner{Benchmarks: bs, Policy: Static{Warmup: 1, Slices: 3}, Seed: 3, SliceTime: 2 * time.Millisecond, Timeout: time.Minute, Raw: w, Observer: obs}
	sum, err := r.Run(context.Background())
	require.ErrorIs(t, err, errFull)
	assert.True(t, sum.Interrupted, "the results are partial")
	assert.Less(t, sum.Iterations, 20, "measuring stopped")
	// The slice whose record failed, and any its process printed before
	// it was killed, still reach the observer: nothing measured is lost.
	written := bytes.Count(disk.Bytes(), []byte(`{"type":"slice"`))
	assert.GreaterOrEqual(t, len(obs.slices), written-1)
	assert.LessOrEqual(t, len(obs.slices), written+4, "at most the rest of one iteration after the failure")
}

// TestHaltCauseIsReturned checks that a run cancelled with a cause, such
// as a results file that failed, returns that cause and records why it
// stopped.
func TestHaltCauseIsReturned(t *testing.T) {
	pkg := suite(t)
	bs := discover(t, pkg, "Fast")
	for _, b := range bs {
		b.Config = Config{SuiteRuns: 20, Iterations: 1}
	}
	var raw bytes.Buffer
	w := record.NewWriter(&raw)
	require.NoError(t, w.Write(&record.Header{Seed: 3}))
	ctx, halt := context.WithCancelCause(context.Background())
	cause := errors.New("writing --out out.txt: no space left on device")
	obs := &cancelAfter{n: 3, cancel: func() { halt(cause) }}
	r := &Runner{Benchmarks: bs, Policy: Static{Warmup: 1, Slices: 3}, Seed: 3, SliceTime: 2 * time.Millisecond, Timeout: time.Minute, Raw: w, Observer: obs}
	sum, err := r.Run(ctx)
	require.ErrorIs(t, err, cause)
	assert.True(t, sum.Interrupted)
	run, _, err := record.Read(&raw, "raw")
	require.NoError(t, err)
	assert.False(t, run.Complete)
	last := run.Events[len(run.Events)-1]
	assert.Equal(t, record.EventInterrupt, last.Event)
	assert.Equal(t, "stopped: writing --out out.txt: no space left on device; results are partial", last.Reason)
}
