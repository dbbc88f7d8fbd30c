package session

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/leftover"
	"github.com/gobench-dyn/gobench-dyn/internal/progress"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// ProbeOptions say how to probe benchmarks for where they settle: every
// benchmark runs in Processes fresh processes of Slices slices each, all
// of them measured, none of them warmup, so that the whole series from
// the first slice is on record.
type ProbeOptions struct {
	Patterns  []string // packages
	Bench     string   // regexp of the benchmarks
	Processes int
	Slices    int
	SliceTime time.Duration
	Timeout   time.Duration
	// Raw keeps the records in this file; "" keeps them in a temporary
	// file removed once they are read.
	Raw      string
	Progress progress.Mode
	Tool     string // the tool and version recorded in the header
}

// Defaults of the probe: 200 slices of 10 ms are 2 s per process, four
// times the warmup of examples/warmup (about 0.5 s in a fresh process),
// so that the steady part can cover the last sixth of the series; three
// processes tell a benchmark that settles everywhere from one that settles
// in some processes only. About 7 s per benchmark with process start.
const (
	DefaultProbeProcesses = 3
	DefaultProbeSlices    = 200
	DefaultProbeSliceTime = 10 * time.Millisecond
)

// probePrefix starts the name of a probe's temporary directory.
const probePrefix = "gobench-dyn-steady-"

// Probe runs the probe o describes and returns its records, read back
// from the raw file. The Result and error are those of Run; when the
// probe was interrupted, the records are nil and res says so.
func Probe(ctx context.Context, o ProbeOptions, log io.Writer, env Env) (*record.Run, *Result, error) {
	if env.Cleanups == nil {
		env.Cleanups = &Cleanups{}
		defer env.Cleanups.Run()
	}
	raw := o.Raw
	if raw == "" {
		undo, err := env.Cleanups.Create(func() (func(), error) {
			leftover.Sweep(os.TempDir(), probePrefix, nil)
			dir, err := leftover.MkdirTemp(probePrefix)
			raw = filepath.Join(dir, "probe.jsonl")
			return func() { os.RemoveAll(dir) }, err
		})
		if err != nil {
			return nil, nil, err
		}
		defer undo()
	}
	opts := Options{
		Patterns:   o.Patterns,
		Bench:      o.Bench,
		Stop:       stopper.Config{Criterion: stopper.None, Measure: o.Slices, MinIterations: 1},
		SuiteRuns:  o.Processes,
		Iterations: 1,
		SliceTime:  o.SliceTime,
		Timeout:    o.Timeout,
		Raw:        raw,
		Progress:   o.Progress,
		Tool:       o.Tool,
	}
	// The benchstat-format results go nowhere: the records are what a
	// probe is for.
	res, err := Run(ctx, opts, Outputs{Log: log}, env)
	if err != nil || res.Interrupted() {
		return nil, res, err
	}
	run, _, err := record.ReadFile(raw)
	return run, res, err
}
