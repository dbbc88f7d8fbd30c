package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/gobench-dyn/gobench-dyn/dataset"
	"github.com/gobench-dyn/gobench-dyn/record"
	"github.com/gobench-dyn/gobench-dyn/replay"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// jmhFullWarmup is the warmup of the static JMH baseline in the FSE'20
// study: JMH 1.21's 5 warmup iterations of 10 s, as 50 of 1 s.
const jmhFullWarmup = 50

// ReplayOptions holds the flags and arguments of gobench-dyn replay.
type ReplayOptions struct {
	Files         []string
	Stop          stopper.Config
	FullWarmup    int
	fullWarmupSet bool
	MaxIterations int
	Resamples     int
	Seed          uint64
	JSON          bool

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

Exit status: 0 done; 1 if writing the output fails; 2 on bad flags or input.`,
		Example: `  # Which thresholds would have stopped where on last night's run?
  gobench-dyn replay --stop cv --threshold 0.02 nightly.jsonl

  # The FSE'20 configuration on the published JMH data.
  gobench-dyn replay --stop kld --window 5 --warmup 5 --warmup-max 50 --slices 10 \
      --min-iterations 2 laaber_protostuff.csv`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErr("replay needs at least one recorded run")
			}
			return nil
		},
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
	fs.IntVar(&opts.Resamples, "resamples", 10000, "bootstrap resamples of the A/A test")
	fs.Uint64Var(&opts.Seed, "seed", 0, "seed of the bootstrap")
	fs.BoolVar(&opts.JSON, "json", false, "print JSON instead of a table")
	return cmd
}

func replayRun(opts *ReplayOptions) error {
	switch {
	case opts.MaxIterations < 0:
		return usageErr("--max-iterations: must not be negative, got %d", opts.MaxIterations)
	case opts.Resamples < 100:
		return usageErr("--resamples: must be at least 100, got %d", opts.Resamples)
	case opts.fullWarmupSet && opts.FullWarmup < 0:
		return usageErr("--full-warmup: must not be negative, got %d", opts.FullWarmup)
	}
	run := &record.Run{}
	sawJMH := false
	for _, f := range opts.Files {
		r, kind, err := readRecorded(f, opts.ErrOut)
		if err != nil {
			return usageErr("%v", err)
		}
		if kind == formatJMH {
			sawJMH = true
		}
		if run.Header == nil {
			run.Header = r.Header
		}
		run.Slices = append(run.Slices, r.Slices...)
	}
	fullWarmup := opts.FullWarmup
	switch {
	case opts.fullWarmupSet:
	case sawJMH:
		fullWarmup = jmhFullWarmup
	default:
		fullWarmup = -1 // as recorded
	}
	res, err := replay.Run(run, replay.Options{
		Now:           time.Now,
		Config:        opts.Stop,
		FullWarmup:    fullWarmup,
		MaxIterations: opts.MaxIterations,
		Resamples:     opts.Resamples,
		Seed:          opts.Seed,
	})
	if err != nil {
		return usageErr("%v", err)
	}
	if opts.JSON {
		return writeReplayJSON(opts.Out, res)
	}
	return writeReplayTable(opts.Out, res, fullWarmup)
}

// Recorded-run formats, told apart by content.
const (
	formatRaw = iota
	formatJMH
	formatUOpTime
)

var errUnknownFormat = errors.New("not a raw record file, µOpTime CSV or JMH CSV")

// readRecorded reads a raw record file, a µOpTime Go CSV file or a JMH
// CSV file, by its first line.
func readRecorded(path string, warn io.Writer) (*record.Run, int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	first, _, _ := bytes.Cut(data, []byte("\n"))
	first = bytes.TrimPrefix(bytes.TrimSpace(first), []byte("\ufeff"))
	switch {
	case bytes.HasPrefix(first, []byte("{")):
		run, warns, err := record.Read(bytes.NewReader(data), path)
		for _, w := range warns {
			if warn != nil {
				fmt.Fprintf(warn, "gobench-dyn: warning: %s\n", w)
			}
		}
		return run, formatRaw, err
	case bytes.Equal(first, []byte(strings.Join(dataset.JMHColumns, ","))):
		run, err := dataset.ParseJMH(bytes.NewReader(data), path)
		return run, formatJMH, err
	case bytes.Equal(first, []byte(strings.Join(dataset.UOpTimeColumns, ","))):
		run, err := dataset.ParseUOpTime(bytes.NewReader(data), path)
		return run, formatUOpTime, err
	}
	return nil, 0, &record.SyntaxError{File: path, Line: 1, Msg: errUnknownFormat.Error()}
}

func pct(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}

func writeReplayTable(w io.Writer, res *replay.Result, fullWarmup int) error {
	bw := bufio.NewWriter(w)
	c := res.Config
	threshold := "--threshold"
	if c.Criterion == stopper.Interval {
		threshold = "--target"
	}
	fmt.Fprintf(bw, "replay: --stop %s %s %g --window %d --warmup %d --warmup-max %d --slices %d --min-iterations %d",
		c.Criterion, threshold, c.Threshold, c.Window, c.WarmupMin, c.WarmupMax, c.Measure, c.MinIterations)
	if fullWarmup >= 0 {
		fmt.Fprintf(bw, "; full result without the first %d slices of each iteration", fullWarmup)
	}
	fmt.Fprintln(bw)
	fmt.Fprintln(bw)
	multi := false
	for _, b := range res.Benchmarks {
		multi = multi || b.Instance != res.Benchmarks[0].Instance
	}
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	head := "benchmark\t"
	if multi {
		head += "instance\t"
	}
	fmt.Fprintln(tw, head+"iterations\twarmup\tmet\tsaved\tchange\tA/A\tprecision (95%)\t")
	for _, b := range res.Benchmarks {
		name := b.Key.Benchmark
		if b.Key.Version != "" {
			name += " (" + b.Key.Version + ")"
		}
		row := name + "\t"
		if multi {
			row += b.Instance + "\t"
		}
		warm := 0.0
		for _, it := range b.Iterations {
			warm += float64(it.Warmup)
		}
		met := "no"
		if b.Met {
			met = "yes"
		}
		aa := "differs"
		if b.Same {
			aa = "same"
		}
		if math.IsNaN(b.Change) {
			aa = "–"
		}
		prec := b.Precision.String()
		if prec == "" {
			prec = "–"
		}
		fmt.Fprintf(tw, "%s%d/%d\t%.1f\t%s\t%s\t%s\t%s\t%s\t\n", row, len(b.Iterations), b.Recorded,
			warm/float64(max(1, len(b.Iterations))), met, pct(b.TimeSaved), pct(b.Change), aa, prec)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	s := res.Summary
	fmt.Fprintf(bw, "\nsuite: %d benchmarks, %d of %d slices, time saved %s\n", len(res.Benchmarks), s.DynSlices, s.FullSlices, pct(s.TimeSaved))
	fmt.Fprintf(bw, "A/A not different %s; change rate %s ± %s; below 1%% %s, 2%% %s, 3%% %s\n",
		pct(s.Same), pct(s.MeanChange), pct(s.SDChange), pct(s.Below1), pct(s.Below2), pct(s.Below3))
	fmt.Fprintf(bw, "warmup %.1f ± %.1f slices (cap hit in %s of iterations); iterations %.1f ± %.1f (criterion unmet in %s of benchmarks)\n",
		s.WarmupMean, s.WarmupSD, pct(s.WarmupUnmet), s.IterationsMean, s.IterationsSD, pct(s.Unmet))
	if s.Short > 0 {
		fmt.Fprintf(bw, "%d iterations were recorded shorter than the policy wanted; they count as they were recorded\n", s.Short)
	}
	return bw.Flush()
}

// jsonFloat writes NaN and infinities, which JSON lacks, as null.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
}

// replayJSONIteration is one replayed iteration in the JSON output.
type replayJSONIteration struct {
	SuiteRun  int  `json:"suite_run"`
	Iteration int  `json:"iteration"`
	Warmup    int  `json:"warmup"`
	WarmupMet bool `json:"warmup_met"`
	Measured  int  `json:"measured"`
	Short     bool `json:"short,omitempty"`
}

// replayJSONBench is one replayed benchmark in the JSON output.
type replayJSONBench struct {
	Package     string                `json:"pkg"`
	Benchmark   string                `json:"bench"`
	Version     string                `json:"version,omitempty"`
	Instance    string                `json:"instance,omitempty"`
	Iterations  []replayJSONIteration `json:"iterations"`
	Recorded    int                   `json:"recorded_iterations"`
	Stopped     bool                  `json:"stopped"`
	Met         bool                  `json:"met"`
	FullSlices  int                   `json:"full_slices"`
	DynSlices   int                   `json:"slices"`
	TimeSaved   jsonFloat             `json:"time_saved"`
	FullMean    jsonFloat             `json:"full_mean"`
	Mean        jsonFloat             `json:"mean"`
	Change      jsonFloat             `json:"change"`
	RatioLo     jsonFloat             `json:"ratio_lo"`
	RatioHi     jsonFloat             `json:"ratio_hi"`
	Same        bool                  `json:"aa_same"`
	CriterionNs int64                 `json:"criterion_ns"`
	// RelHalfWidth is the relative half-width of the 95% interval of
	// the mean over the replayed processes; Processes those predicted
	// to reach the target.
	RelHalfWidth jsonFloat `json:"rel_half_width"`
	Processes    int       `json:"processes_for_target,omitempty"`
}

// replayJSON is the JSON output of replay.
type replayJSON struct {
	Stop          string            `json:"stop"`
	Threshold     float64           `json:"threshold"`
	Window        int               `json:"window"`
	Warmup        int               `json:"warmup"`
	WarmupMax     int               `json:"warmup_max"`
	Slices        int               `json:"slices"`
	MinIterations int               `json:"min_iterations"`
	Benchmarks    []replayJSONBench `json:"benchmarks"`
	FullSlices    int               `json:"full_slices"`
	DynSlices     int               `json:"slices_used"`
	TimeSaved     jsonFloat         `json:"time_saved"`
	Same          jsonFloat         `json:"aa_same"`
	MeanChange    jsonFloat         `json:"change_mean"`
	SDChange      jsonFloat         `json:"change_sd"`
	Below1        jsonFloat         `json:"below_1pct"`
	Below2        jsonFloat         `json:"below_2pct"`
	Below3        jsonFloat         `json:"below_3pct"`
	WarmupMean    jsonFloat         `json:"warmup_mean"`
	WarmupUnmet   jsonFloat         `json:"warmup_unmet"`
	IterMean      jsonFloat         `json:"iterations_mean"`
	Unmet         jsonFloat         `json:"unmet"`
}

func writeReplayJSON(w io.Writer, res *replay.Result) error {
	s := res.Summary
	out := replayJSON{
		Stop: res.Config.Criterion.String(), Threshold: res.Config.Threshold, Window: res.Config.Window,
		Warmup: res.Config.WarmupMin, WarmupMax: res.Config.WarmupMax, Slices: res.Config.Measure,
		MinIterations: res.Config.MinIterations,
		FullSlices:    s.FullSlices, DynSlices: s.DynSlices, TimeSaved: jsonFloat(s.TimeSaved),
		Same: jsonFloat(s.Same), MeanChange: jsonFloat(s.MeanChange), SDChange: jsonFloat(s.SDChange),
		Below1: jsonFloat(s.Below1), Below2: jsonFloat(s.Below2), Below3: jsonFloat(s.Below3),
		WarmupMean: jsonFloat(s.WarmupMean), WarmupUnmet: jsonFloat(s.WarmupUnmet),
		IterMean: jsonFloat(s.IterationsMean), Unmet: jsonFloat(s.Unmet),
	}
	for _, b := range res.Benchmarks {
		out.Benchmarks = append(out.Benchmarks, replayJSONBenchOf(b))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// replayJSONBenchOf returns the JSON output of b.
func replayJSONBenchOf(b *replay.Benchmark) replayJSONBench {
	jb := replayJSONBench{
		Package: b.Key.Package, Benchmark: b.Key.Benchmark, Version: b.Key.Version, Instance: b.Instance,
		Recorded: b.Recorded, Stopped: b.Stopped, Met: b.Met,
		FullSlices: b.FullSlices, DynSlices: b.DynSlices, TimeSaved: jsonFloat(b.TimeSaved),
		FullMean: jsonFloat(b.FullMean), Mean: jsonFloat(b.DynMean), Change: jsonFloat(b.Change),
		RatioLo: jsonFloat(b.Ratio.Lo), RatioHi: jsonFloat(b.Ratio.Hi), Same: b.Same,
		CriterionNs: int64(b.Criterion),
		Processes:   b.Precision.Processes,
	}
	jb.RelHalfWidth = jsonFloat(math.NaN())
	if b.Precision.Known() {
		jb.RelHalfWidth = jsonFloat(b.Precision.Width)
	}
	for _, it := range b.Iterations {
		jb.Iterations = append(jb.Iterations, replayJSONIteration(it))
	}
	return jb
}
