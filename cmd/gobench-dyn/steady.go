package main

import (
	"context"
	"io"
	"math"
	"math/rand/v2"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench-dyn/gobench-dyn/internal/changepoint"
	"github.com/gobench-dyn/gobench-dyn/internal/progress"
	"github.com/gobench-dyn/gobench-dyn/internal/runfile"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/internal/steady"
	"github.com/gobench-dyn/gobench-dyn/optime"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// SteadyOptions holds the flags and arguments of gobench-dyn steady.
type SteadyOptions struct {
	IO   *IOStreams
	Args []string

	JSON       string  // --json: per-process verdicts
	Out        string  // -o: configuration file with the learned warmup
	Config     string  // --config: configuration file whose entries -o updates
	Penalty    float64 // 0: CROPS elbow
	MinSegment int
	MinTail    float64 // share of a series its steady part must cover
	Tolerance  float64
	Resamples  int
	Seed       uint64
	// IterationTime is the time one value of a published series took,
	// for its outlier filter and its times.
	IterationTime time.Duration

	// RunSliceTime is the slice time of the runs that will obey -o: the
	// learned warmup is written in slices of it.
	RunSliceTime time.Duration

	// The probe.
	Bench     string
	Processes int
	Slices    int
	SliceTime time.Duration
	Timeout   time.Duration
	Raw       string
	Progress  progress.Mode
}

// NewCmdSteady returns the steady command. It binds flags to SteadyOptions
// and calls runF, or steadyRun when runF is nil.
func NewCmdSteady(ios *IOStreams, runF func(*SteadyOptions) error) *cobra.Command {
	opts := &SteadyOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "steady [flags] RAW|SERIES... | [packages]",
		Short: "Find where each benchmark reaches a steady state, and learn its warmup",
		Long: `Steady decides, for every process of every benchmark, whether and where its
slices settle, by the rules of Traini et al. (EMSE 2022): outliers out
(median ± 3·(p99 − p1) on 200-slice windows), PELT change points in mean and
variance with the penalty at the elbow of the CROPS path, trailing segments
merged while the 95% bootstrap interval of their mean ratio does not lie
wholly outside ±--tolerance, and steady if the steady part covers at least
--min-tail of the series. A benchmark is steady if all its processes are,
never steady if none is, inconsistent otherwise.

Its arguments are raw record files of gobench-dyn run, published time-series
files (a JSON array of forks, each an array of values, as Traini et al.
published theirs; gzip is read too), or packages: then it first probes each
benchmark with --processes processes of --slices slices of --slice-time each,
no warmup.

It prints a table per benchmark and per process, and the warmup estimation
error (WEE) of the dynamic warmup criteria (cv, rciw, kld, with the FSE'20
parameters) replayed on the same series against the steady-state starts.
--json writes the per-process verdicts; -o writes each benchmark's learned
warmup (the latest start among its steady processes) into a configuration
file that run --config obeys.

Exit status: 0 done; 1 if the probe failed; 2 on bad flags or runfile.`,
		Example: `  # Probe the examples and learn their warmup.
  gobench-dyn steady -o bench.conf ./examples/warmup
  gobench-dyn run --config bench.conf ./examples/warmup

  # Traini et al.'s published series.
  gobench-dyn steady --json verdicts.json bench1.json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			if runF != nil {
				return runF(opts)
			}
			return steadyRun(opts)
		},
	}
	bindSteadyFlags(cmd.Flags(), opts)
	return cmd
}

// bindSteadyFlags binds the flags of steady to opts.
func bindSteadyFlags(f *pflag.FlagSet, opts *SteadyOptions) {
	bindReportFlag(f, &opts.JSON, "json", "the per-process verdicts")
	f.StringVarP(&opts.Out, "out", "o", "", "write a configuration `file` with each benchmark's learned warmup")
	f.StringVar(&opts.Config, "config", "", "with -o, start from this configuration `file` and set the warmup of its entries")
	f.Float64Var(&opts.Penalty, "penalty", 0, "fixed PELT penalty (0: the elbow of the CROPS path over [4, 1e5]·log n)")
	f.IntVar(&opts.MinSegment, "min-segment", changepoint.DefaultMinSegment, "shortest PELT segment, in slices")
	f.Float64Var(&opts.MinTail, "min-tail", steady.DefaultMinTail, "share of a series its steady part must cover to be steady")
	f.Float64Var(&opts.Tolerance, "tolerance", steady.DefaultTolerance, "relative change in mean that still counts as the same steady state")
	f.IntVar(&opts.Resamples, "resamples", steady.DefaultResamples, "bootstrap resamples of the segment comparison")
	f.Uint64Var(&opts.Seed, "seed", 1, "seed of the bootstrap")
	f.DurationVar(&opts.RunSliceTime, "run-slice-time", defaultSliceTime, "with -o, the --slice-time of the runs that will use the configuration: the warmup is written in slices of it")
	f.DurationVar(&opts.IterationTime, "iteration-time", steady.DefaultIterationTime, "time one value of a published series took")
	f.StringVarP(&opts.Bench, "bench", "b", ".", "probe only benchmarks matching `regexp`")
	f.IntVar(&opts.Processes, "processes", session.DefaultProbeProcesses, "probe: processes per benchmark")
	f.IntVar(&opts.Slices, "slices", session.DefaultProbeSlices, "probe: slices per process")
	f.DurationVar(&opts.SliceTime, "slice-time", session.DefaultProbeSliceTime, "probe: target duration of one slice")
	f.DurationVar(&opts.Timeout, "timeout", defaultTimeout, "probe: kill a process that runs longer")
	f.StringVar(&opts.Raw, "raw", "", "probe: keep its per-slice records in `file`")
	f.Var(&opts.Progress, "progress", "probe: progress on stderr: auto, on or off")
}

// validate checks the flags, naming the first bad one, and returns the
// options of the analysis they ask for.
func (o *SteadyOptions) validate() (steady.Options, error) {
	sopts := steady.Options{
		Changepoint:     changepoint.Options{Penalty: o.Penalty, MinSegment: o.MinSegment},
		Tolerance:       o.Tolerance,
		Resamples:       o.Resamples,
		MinTailFraction: o.MinTail,
	}
	if err := sopts.Check(); err != nil {
		return sopts, exitUsage(err)
	}
	if err := steady.CheckFlags(o.RunSliceTime, o.IterationTime, o.Processes, o.Slices, o.SliceTime, o.Config, o.Out); err != nil {
		return sopts, exitUsage(err)
	}
	return sopts, nil
}

func steadyRun(opts *SteadyOptions) error {
	sopts, err := opts.validate()
	if err != nil {
		return err
	}
	var cf *optime.ConfigFile
	if opts.Config != "" {
		if cf, err = optime.ReadConfigFile(opts.Config); err != nil {
			return usageErr("--config: %w", err)
		}
	}
	inputs, err := opts.inputs()
	if err != nil {
		return err
	}
	results := steady.AnalyzeInputs(inputs, sopts, rand.New(rand.NewPCG(opts.Seed, 0x57ead)))
	table := func(w io.Writer) error { return steady.WriteTable(w, inputs, results) }
	verdicts := func(w io.Writer) error { return steady.WriteJSON(w, inputs, results) }
	if err := writeReports(opts.IO.Out, table, reportFile{"--json", opts.JSON, verdicts}); err != nil {
		return err
	}
	if opts.Out != "" {
		cf = steady.LearnedConfig(cf, inputs, results, steady.LearnOptions{
			RunSliceTime: opts.RunSliceTime, Created: time.Now().UTC(),
			New: optime.Entry{
				SuiteRuns: defaultSuiteRuns, Iterations: defaultIterations, Slices: stopper.Default(stopper.Precision).Measure,
				Metric: optime.RMAD, Threshold: optime.DefaultThreshold, Value: math.NaN(),
			},
		})
		return writeOutputFile("--out", opts.Out, cf.Write)
	}
	return nil
}

// inputs reads the files named by the arguments, or probes the packages
// they name.
func (o *SteadyOptions) inputs() ([]steady.Input, error) {
	files, pkgs, err := steady.SplitArgs(o.Args)
	if err != nil {
		return nil, exitUsage(err)
	}
	if len(files) == 0 {
		return o.probe(pkgs)
	}
	read, err := readInputs(files, o.IO.ErrOut, runfile.Raw, runfile.Series)
	if err != nil {
		return nil, err
	}
	ins, err := steady.FromFiles(read, o.IterationTime)
	if err != nil {
		return nil, exitUsage(err)
	}
	return ins, nil
}

// probe runs each benchmark of pkgs in --processes fresh processes of
// --slices slices, all of them recorded, and reads the records back.
func (o *SteadyOptions) probe(pkgs []string) ([]steady.Input, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cleanups := &session.Cleanups{}
	defer cleanups.Run()
	defer onInterrupt(cancel, o.IO.ErrOut, cleanups)()
	run, res, err := session.Probe(ctx, session.ProbeOptions{
		Patterns: pkgs, Bench: o.Bench, Processes: o.Processes, Slices: o.Slices,
		SliceTime: o.SliceTime, Timeout: o.Timeout, Raw: o.Raw, Progress: o.Progress,
		Tool: "gobench-dyn " + toolVersion(),
	}, o.IO.ErrOut, session.Env{Cleanups: cleanups})
	if err != nil {
		return nil, runExit(&RunOptions{}, res, err)
	}
	if res.Interrupted() {
		return nil, &exitError{code: 130, msg: "interrupted before the probe ended"}
	}
	ins := steady.Inputs(run)
	if len(ins) == 0 {
		return nil, failErr("the probe measured nothing")
	}
	return ins, nil
}
