package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench-dyn/gobench-dyn/progress"
	"github.com/gobench-dyn/gobench-dyn/record"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// runOptions holds the flags of gobench-dyn run.
type runOptions struct {
	Patterns   []string
	Bench      string
	Stop       stopper.Config
	SuiteRuns  int
	Iterations int
	SliceTime  time.Duration
	Timeout    time.Duration
	Budget     time.Duration
	Seed       uint64
	seedSet    bool
	Tags       string
	CPU        string
	Race       bool
	Overlay    string
	Out        string
	Raw        string
	Progress   progress.Mode
	KeepGoing  bool

	Stdout, Stderr io.Writer
	// Dir is the directory the packages are resolved in; "" is the
	// current one.
	Dir string
}

// Defaults of gobench-dyn run; README.md gives the evidence behind them.
const (
	defaultSuiteRuns  = 3
	defaultIterations = 1
	defaultSliceTime  = 100 * time.Millisecond
	defaultTimeout    = 10 * time.Minute
)

func newRunCmd() *cobra.Command {
	opts := &runOptions{Stop: stopper.Default(stopper.None)}
	cmd := &cobra.Command{
		Use:   "run [flags] [packages]",
		Short: "Run benchmarks in randomized multiple interleaved trials",
		Long: `Run builds each package's test binary once, discovers its leaf benchmarks,
calibrates b.N so that one slice lasts about --slice-time, and runs every
benchmark's iterations shuffled together with all others' in --suite-runs
suite runs. Each iteration is a fresh process running warmup and measurement
slices. Results go to stdout (or -o) in the format benchstat reads; every
slice goes to --raw as a JSON record as soon as it is measured.

Packages are resolved as go test resolves them; the default is ./...`,
		Example: `  gobench-dyn run ./...
  gobench-dyn run -b 'Parse|Encode' --slice-time 200ms -o new.txt --raw new.jsonl ./...
  gobench-dyn run --stop none --suite-runs 3 --iterations 5 --slices 5 ./pkg/...`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Patterns = args
			opts.seedSet = cmd.Flags().Changed("seed")
			opts.Stdout, opts.Stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			if err := opts.validate(cmd.Flags()); err != nil {
				return err
			}
			return runRun(opts)
		},
	}
	fs := cmd.Flags()
	fs.SortFlags = false
	fs.StringVarP(&opts.Bench, "bench", "b", ".", "run only benchmarks matching `regexp`, as go test -bench")
	bindStopFlags(fs, &opts.Stop)
	fs.IntVar(&opts.SuiteRuns, "suite-runs", defaultSuiteRuns, "s: maximum suite runs")
	fs.IntVar(&opts.Iterations, "iterations", defaultIterations, "i: iterations per benchmark per suite run")
	fs.DurationVar(&opts.SliceTime, "slice-time", defaultSliceTime, "target duration of one slice")
	fs.DurationVar(&opts.Budget, "budget", 0, "time budget for the whole run (0: none)")
	fs.Uint64Var(&opts.Seed, "seed", 0, "schedule seed (default: random, printed)")
	fs.DurationVar(&opts.Timeout, "timeout", defaultTimeout, "kill an iteration that runs longer")
	fs.StringVar(&opts.Tags, "tags", "", "build tags, passed to go test -c")
	fs.StringVar(&opts.CPU, "cpu", "", "comma-separated GOMAXPROCS values, as go test -cpu")
	fs.BoolVar(&opts.Race, "race", false, "build with the race detector")
	fs.StringVar(&opts.Overlay, "overlay", "", "build overlay file, passed to go test -c")
	fs.StringVarP(&opts.Out, "out", "o", "", "write benchstat-format results to `file` (default stdout)")
	fs.StringVar(&opts.Raw, "raw", "", "write per-slice JSON Lines records to `file`")
	fs.Var(&opts.Progress, "progress", "progress on stderr: auto, on or off")
	fs.BoolVar(&opts.KeepGoing, "keep-going", false, "exit 0 even when a benchmark failed")
	return cmd
}

// validate checks flag values, naming the flag of the first bad one.
func (o *runOptions) validate(fs *pflag.FlagSet) error {
	if err := validateStopFlags(fs, &o.Stop); err != nil {
		return err
	}
	switch {
	case o.Bench == "":
		return usageErr("--bench: empty pattern selects nothing")
	case o.SuiteRuns < 1:
		return usageErr("--suite-runs: must be at least 1, got %d", o.SuiteRuns)
	case o.Iterations < 1:
		return usageErr("--iterations: must be at least 1, got %d", o.Iterations)
	case o.SliceTime <= 0:
		return usageErr("--slice-time: must be positive, got %v", o.SliceTime)
	case o.Timeout < 0:
		return usageErr("--timeout: must not be negative, got %v", o.Timeout)
	case o.Budget < 0:
		return usageErr("--budget: must not be negative, got %v", o.Budget)
	}
	if _, err := parseCPU(o.CPU); err != nil {
		return usageErr("--cpu: %v", err)
	}
	if o.Out != "" && o.Out == o.Raw {
		return usageErr("--out and --raw name the same file %q", o.Out)
	}
	if o.Stop.Criterion != stopper.None && o.SuiteRuns*o.Iterations < o.Stop.MinIterations {
		return usageErr("--suite-runs × --iterations = %d is below --min-iterations %d", o.SuiteRuns*o.Iterations, o.Stop.MinIterations)
	}
	return nil
}

// parseCPU parses a go test -cpu list.
func parseCPU(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var cpus []int
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive integer", f)
		}
		cpus = append(cpus, n)
	}
	return cpus, nil
}

func (o *runOptions) buildFlags() []string {
	var f []string
	if o.Tags != "" {
		f = append(f, "-tags="+o.Tags)
	}
	if o.Race {
		f = append(f, "-race")
	}
	if o.Overlay != "" {
		f = append(f, "-overlay="+o.Overlay)
	}
	return f
}

// policy returns the stopping policy the flags ask for.
func (o *runOptions) policy() (rmit.Policy, error) {
	if o.Stop.Criterion == stopper.None {
		return rmit.Static{Warmup: o.Stop.WarmupMin, Slices: o.Stop.Measure}, nil
	}
	cfg := o.Stop
	cfg.Seed = o.Seed
	return stopper.NewPolicy(cfg)
}

// headerOptions returns the options that shape the results, for the raw
// file's header.
func (o *runOptions) headerOptions() map[string]string {
	return map[string]string{
		"bench":          o.Bench,
		"stop":           o.Stop.Criterion.String(),
		"threshold":      fmt.Sprint(o.Stop.Threshold),
		"window":         strconv.Itoa(o.Stop.Window),
		"warmup":         strconv.Itoa(o.Stop.WarmupMin),
		"warmup-max":     strconv.Itoa(o.Stop.WarmupMax),
		"slices":         strconv.Itoa(o.Stop.Measure),
		"min-iterations": strconv.Itoa(o.Stop.MinIterations),
		"suite-runs":     strconv.Itoa(o.SuiteRuns),
		"iterations":     strconv.Itoa(o.Iterations),
		"slice-time":     o.SliceTime.String(),
		"budget":         o.Budget.String(),
		"tags":           o.Tags,
		"cpu":            o.CPU,
		"race":           strconv.FormatBool(o.Race),
	}
}

func runRun(opts *runOptions) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopSignals := onInterrupt(cancel, opts.Stderr)
	defer stopSignals()

	if !opts.seedSet {
		var b [8]byte
		_, _ = rand.Read(b[:])
		opts.Seed = binary.LittleEndian.Uint64(b[:]) >> 1
	}
	policy, err := opts.policy()
	if err != nil {
		return usageErr("%v", err)
	}

	// Open every output before any benchmark runs, so that a bad path
	// fails at once rather than after an hour of measurements.
	out, err := openResults(opts.Out, opts.Stdout)
	if err != nil {
		return usageErr("--out: %v", err)
	}
	defer out.abandon()
	var raw *rawFile
	if opts.Raw != "" {
		if raw, err = createRaw(opts.Raw); err != nil {
			return usageErr("--raw: %v", err)
		}
		defer raw.Close()
	}

	tmp, err := os.MkdirTemp("", "gobench-dyn-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	cpus, _ := parseCPU(opts.CPU)
	suite, err := rmit.Prepare(ctx, rmit.PrepareOptions{
		Dir: opts.Dir, Patterns: opts.Patterns, BuildFlags: opts.buildFlags(), BinDir: tmp, Log: opts.Stderr,
		Discover: rmit.DiscoverOptions{Bench: opts.Bench, CPU: cpus, SliceTime: opts.SliceTime, Timeout: opts.Timeout},
	})
	if err != nil {
		if ctx.Err() != nil {
			return &exitError{code: 130, msg: "interrupted before any benchmark ran"}
		}
		return usageErr("%v", err)
	}
	if len(suite.Benchmarks) == 0 {
		for _, f := range suite.Failures {
			fmt.Fprintf(opts.Stderr, "gobench-dyn: FAILED %s\n", f)
		}
		if len(suite.Failures) > 0 {
			return failErr("no benchmark could be prepared")
		}
		return usageErr("no benchmarks match %q in %s", opts.Bench, strings.Join(opts.Patterns, " "))
	}
	for _, b := range suite.Benchmarks {
		b.Config = rmit.Config{SuiteRuns: opts.SuiteRuns, Iterations: opts.Iterations}
	}
	fmt.Fprintf(opts.Stderr, "gobench-dyn: %d benchmarks in %d packages, seed %d\n", len(suite.Benchmarks), len(suite.Packages), opts.Seed)

	header := newHeader(opts.Seed, suite.Packages)
	header.Options = opts.headerOptions()
	var rw *record.Writer
	if raw != nil {
		rw = record.NewWriter(raw)
		if err := rw.Write(header); err != nil {
			return fmt.Errorf("--raw: %v", err)
		}
		for _, f := range suite.Failures {
			_ = rw.Write(f.Event())
		}
	}

	obs := newRunObserver(opts, suite, out, header)
	runner := &rmit.Runner{
		Benchmarks:    suite.Benchmarks,
		Policy:        policy,
		Seed:          opts.Seed,
		SliceTime:     opts.SliceTime,
		Timeout:       opts.Timeout,
		Budget:        opts.Budget,
		MinIterations: opts.Stop.MinIterations,
		Raw:           rw,
		Observer:      obs,
	}
	sum, runErr := runner.Run(ctx)
	obs.finish(sum)
	if err := out.commit(); err != nil {
		return fmt.Errorf("--out: %v", err)
	}
	if raw != nil {
		if err := raw.Close(); err != nil {
			return fmt.Errorf("--raw: %v", err)
		}
	}
	printSummary(opts.Stderr, sum, suite, opts)

	switch {
	case errors.Is(runErr, rmit.ErrInterrupted):
		return &exitError{code: 130, msg: "interrupted: the results written are partial"}
	case runErr != nil:
		return runErr
	case (len(sum.Failed) > 0 || len(suite.Failures) > 0) && !opts.KeepGoing:
		return failErr("%d benchmarks or packages failed (--keep-going exits 0 anyway)", len(sum.Failed)+len(suite.Failures))
	}
	return nil
}

// newHeader returns the raw file header of a run on this machine.
func newHeader(seed uint64, pkgs []*rmit.Package) *record.Header {
	host, _ := os.Hostname()
	h := &record.Header{
		Tool:      "gobench-dyn " + toolVersion(),
		GoVersion: runtime.Version(),
		GOOS:      runtime.GOOS,
		GOARCH:    runtime.GOARCH,
		CPU:       cpuModel(),
		NumCPU:    runtime.NumCPU(),
		Host:      host,
		Seed:      seed,
		Start:     time.Now().UTC(),
		Binaries:  map[string]string{},
	}
	for _, p := range pkgs {
		h.Binaries[p.ImportPath] = p.Hash
	}
	return h
}

// onInterrupt cancels the run on the first SIGINT or SIGTERM, so that it
// stops the running child and writes what it has, and exits at once on
// the second.
func onInterrupt(cancel func(), stderr io.Writer) (stop func()) {
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-ch:
		case <-done:
			return
		}
		fmt.Fprintln(stderr, "\ngobench-dyn: interrupted; stopping the running benchmark and writing what was measured (interrupt again to abort at once)")
		cancel()
		select {
		case <-ch:
			fmt.Fprintln(stderr, "gobench-dyn: aborted")
			os.Exit(130)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
