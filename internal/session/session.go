package session

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"github.com/gobench-dyn/gobench-dyn/internal/worktree"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// run is one run in progress.
type run struct {
	// repoModules are the directories of the repository's modules,
	// relative to its top level, once AllModules needs them.
	repoModules []string
	opts        *Options
	outs        Outputs
	env         Env
	log         io.Writer
	now         func() time.Time
	start       time.Time
	cleanups    *Cleanups
	undo        []func() // this run's cleanups, run when it returns

	past   *record.Run // the records of the run resumed, or nil
	resume *rmit.Resume
	raw    *rawFile
	// headName names the code under test in a comparison: HEAD, or the
	// working tree when it has uncommitted changes.
	headName string
	// baseName names the baseline in a comparison, and baseRev is the
	// commit checked out for it.
	baseName, baseRev string
}

// Run plans, prepares and runs the benchmarks opts selects, writing
// results to outs as they are measured, and compares the two versions of
// a baseline run. ctx stops the run: it then ends the running iteration,
// writes what was measured and returns a Result that says it was
// interrupted.
//
// A run is a pipeline: plan (options in, what the run goes by out),
// prepare (the suites), assemble (the runner), measure (the Result),
// write (the results files) and judge (the comparison and its
// explanations), each taking what the earlier ones returned.
//
// The error is an *Error when the run could not start or measure, and
// any other error when writing its records failed.
func Run(ctx context.Context, opts Options, outs Outputs, env Env) (*Result, error) {
	planned, err := plan(opts, logOf(outs))
	if err != nil {
		return nil, err
	}
	r := newRun(&planned.opts, outs, env)
	r.past, r.resume = planned.past, planned.resume
	defer r.cleanup()
	if err := r.open(); err != nil {
		return nil, err
	}
	tmp, err := r.workDir()
	if err != nil {
		return nil, err
	}
	p, err := r.prepare(ctx, tmp)
	if err != nil {
		return nil, err
	}
	a, err := r.assemble(&planned, p)
	if err != nil {
		return nil, err
	}
	res := r.measure(ctx, p, a)
	if err := r.write(a.obs, res); err != nil {
		return res, err
	}
	return res, r.judge(ctx, p, a, res)
}

func newRun(o *Options, outs Outputs, env Env) *run {
	r := &run{opts: o, outs: outs, env: env, log: logOf(outs), now: env.Clock, cleanups: env.Cleanups}
	if r.now == nil {
		r.now = time.Now
	}
	if r.cleanups == nil {
		r.cleanups = &Cleanups{}
	}
	if r.outs.Results == nil {
		r.outs.Results = discard{}
	}
	if r.env.Prepare == nil {
		r.env.Prepare = rmit.Prepare
	}
	r.start = r.now()
	return r
}

// atExit registers fn to run when Run returns, or on an abort.
func (r *run) atExit(fn func()) { r.undo = append(r.undo, r.cleanups.Add(fn)) }

func (r *run) cleanup() {
	for _, fn := range slices.Backward(r.undo) {
		fn()
	}
}

// logOf returns where outs log to.
func logOf(outs Outputs) io.Writer {
	if outs.Log == nil {
		return io.Discard
	}
	return outs.Log
}

// open checks what the run needs from outside before preparing anything:
// a way to check out the baseline, and the raw file.
func (r *run) open() error {
	o := r.opts
	var err error
	if o.Baseline != "" && r.env.Checkout == nil {
		if err := worktree.Available(); err != nil {
			return usage.Errorf("baseline", "%w", err)
		}
	}
	if o.Raw == "" {
		return nil
	}
	if r.past != nil {
		r.raw, err = appendRaw(o.Raw)
	} else {
		r.raw, err = createRaw(o.Raw, o.Force)
	}
	if errors.Is(err, ErrUnfinished) {
		return usage.ValueErrorf("raw", o.Raw, "%w", err)
	}
	if err != nil {
		return usage.Errorf("raw", "%w", err)
	}
	// commit closes the file and returns its error; this close is for
	// runs that end before the commit, whose first error is returned, so
	// that this one is only logged.
	r.atExit(func() {
		if err := r.raw.Close(); err != nil {
			fmt.Fprintf(r.log, "gobench-dyn: raw records %s: %v\n", o.Raw, err)
		}
	})
	return nil
}

// discard is an Output that keeps nothing.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func (discard) Commit(*record.Run, []record.Key) error { return nil }

// RandomSeed draws the seed of a run, or of abs, that names none: 63
// random bits, the same draw for every command that prints its seed.
func RandomSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:]) >> 1
}
