package main

import (
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/gobench-dyn/gobench-dyn/internal/replay"
	"github.com/gobench-dyn/gobench-dyn/internal/runfile"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// recordedFormats are the files of full runs that replay and optimize
// read.
var recordedFormats = []runfile.Format{runfile.Raw, runfile.UOpTime, runfile.JMH}

// ReplayOptions holds the flags and arguments of gobench-dyn replay.
type ReplayOptions struct {
	Files         []string
	Stop          stopper.Config
	FullWarmup    int
	fullWarmupSet bool
	MaxIterations int
	Resamples     int
	Seed          uint64
	ProcessCost   float64
	// JSON is the file the result is written to as JSON; "-" is
	// standard output, instead of the table.
	JSON string

	Out    io.Writer
	ErrOut io.Writer
}

// NewCmdReplay returns the replay command. It binds flags to ReplayOptions and calls
// runF, or replayRun when runF is nil, so that tests can check what the flags
// bind without running anything.
func NewCmdReplay(ios *IOStreams, runF func(*ReplayOptions) error) *cobra.Command {
	opts := &ReplayOptions{Stop: stopper.Default(stopper.Interval)}
	cmd := &cobra.Command{
		Use:   "replay [flags] RAW...",
		Short: "Replay dynamic reconfiguration on a recorded full run",
		Long: `Replay runs a stopping policy post hoc on recorded full runs: raw record
files of gobench-dyn run (JSON Lines), µOpTime Go measurement CSV files, or
the preprocessed JMH CSV files of the dynamic-reconfiguration study (FSE'20).
The format is told by content.

Each recorded iteration is fed to the policy slice by slice, warmup and
measurement alike, until the policy ends it; the policy then decides whether
the benchmark stops. For each benchmark (and instance) it prints the
iterations used, the mean warmup, whether the criterion was met, the time
saved against the full run (slices consumed, warmup included), the change
rate of the mean against the full result, and the A/A test: whether the 99%
bootstrap interval of the ratio of means contains 1. Suite totals follow.

The full result leaves out the recorded warmup slices, or the first
--full-warmup slices of each iteration (default for JMH files: 50, the
static baseline of the study).

Exit status: 0 done; 1 if writing the output fails; 2 on bad flags or runfile.`,
		Example: `  # Which thresholds would have stopped where on last night's run?
  gobench-dyn replay --stop cv --threshold 0.02 nightly.jsonl

  # The FSE'20 configuration on the published JMH data.
  gobench-dyn replay --stop kld --window 5 --warmup 5 --warmup-max 50 --slices 10 \
      --min-iterations 2 laaber_protostuff.csv`,
		Args: atLeastOneArg("replay needs at least one recorded run"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Files = args
			opts.fullWarmupSet = cmd.Flags().Changed("full-warmup")
			opts.Out, opts.ErrOut = ios.Out, ios.ErrOut
			if err := validateStopFlags(cmd.Flags(), &opts.Stop); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return replayRun(opts)
		},
	}
	fs := cmd.Flags()
	fs.SortFlags = false
	bindStopFlags(fs, &opts.Stop)
	// Zero, not the -1 that means "as recorded", so that help shows one
	// default, the one the usage names.
	fs.IntVar(&opts.FullWarmup, "full-warmup", 0, "leading slices of each iteration the full result leaves out (default: the recorded warmup)")
	fs.IntVar(&opts.MaxIterations, "max-iterations", 0, "cap the replayed iterations per benchmark (0: all recorded)")
	fs.IntVar(&opts.Resamples, "resamples", replay.DefaultResamples, "bootstrap resamples of the A/A test")
	fs.Float64Var(&opts.ProcessCost, "process-cost", 0, "for recordings without slice times (CSV, JMH): the cost of starting and ending one process, in slice times, counted in the time saved and seen by --stop interval (0: slices alone, as the FSE'20 paper counts); a raw file's recorded times are used instead")
	fs.Uint64Var(&opts.Seed, "seed", 0, "seed of the bootstrap")
	bindBareReportFlag(fs, &opts.JSON, "json", "the result")
	return cmd
}

func replayRun(opts *ReplayOptions) error {
	if err := replay.CheckFlags(opts.MaxIterations, opts.Resamples, opts.FullWarmup, opts.fullWarmupSet, opts.ProcessCost); err != nil {
		return exitUsage(err)
	}
	files, err := readInputs(opts.Files, opts.ErrOut, recordedFormats...)
	if err != nil {
		return err
	}
	run, fullWarmup := replay.Pool(files, opts.FullWarmup, opts.fullWarmupSet)
	res, err := replay.Run(run, replay.Options{
		Now:           time.Now,
		Config:        opts.Stop,
		FullWarmup:    fullWarmup,
		MaxIterations: opts.MaxIterations,
		Resamples:     opts.Resamples,
		Seed:          opts.Seed,
		ProcessCost:   opts.ProcessCost,
	})
	if err != nil {
		return usageErr("%w", err)
	}
	table := func(w io.Writer) error { return replay.WriteTable(w, res, fullWarmup) }
	return writeReports(opts.Out, table, reportFile{"--json", opts.JSON, func(w io.Writer) error { return replay.WriteJSON(w, res) }})
}
