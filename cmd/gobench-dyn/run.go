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
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench-dyn/gobench-dyn/compare"
	"github.com/gobench-dyn/gobench-dyn/optime"
	"github.com/gobench-dyn/gobench-dyn/progress"
	"github.com/gobench-dyn/gobench-dyn/record"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/shard"
	"github.com/gobench-dyn/gobench-dyn/stopper"
	"github.com/gobench-dyn/gobench-dyn/worktree"
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
	// Resume is the raw file of an interrupted run to continue.
	Resume    string
	Progress  progress.Mode
	KeepGoing bool
	// Baseline is a git revision built and interleaved with the code under test.
	Baseline    string
	BaselineOut string
	// Sequential stops each pair of a baseline run once its comparison
	// is decided (compare.PairDecided) and runs the undecided on to the
	// cap. EarlyVerdict is its deprecated former name.
	Sequential   bool
	EarlyVerdict bool
	Compare      CompareOptions
	Shard        ShardOptions
	ShardTimes   string // an earlier raw run whose times balance the shards
	ConfigFile   string
	MinDistinct  int

	Stdout, Stderr io.Writer
	// Dir is the directory the packages are resolved in; "" is the
	// current one.
	Dir string
}

// Defaults of gobench-dyn run; README.md gives the evidence behind them.
const (
	defaultSuiteRuns  = 5
	defaultIterations = 1
	defaultSliceTime  = 100 * time.Millisecond
	defaultTimeout    = 10 * time.Minute
	// defaultBaselineSuiteRuns is the cap of a sequential baseline run:
	// decided pairs stop at one of the looks 5, 8, 12 or 18, and the
	// undecided get up to 20 paired suite runs (docs/COMPARE.md).
	defaultBaselineSuiteRuns = 20
)

func newRunCmd() *cobra.Command {
	opts := &runOptions{Stop: stopper.Default(stopper.Precision)}
	cmd := &cobra.Command{
		Use:   "run [flags] [packages]",
		Short: "Run benchmarks in randomized multiple interleaved trials",
		Long: `Run builds each package's test binary once, discovers its leaf benchmarks,
calibrates b.N so that one slice lasts about --slice-time, and runs every
benchmark's iterations shuffled together with all others' in --suite-runs
suite runs. Each iteration is a fresh process running warmup and measurement
slices. Results go to stdout (or -o) in the format benchstat reads; every
slice goes to --raw as a JSON record as soon as it is measured.

Packages are resolved as go test resolves them; the default is ./...

Exit status: 0 ok; 1 if a benchmark or package failed (unless --keep-going),
a regression against --baseline was found, or the run itself failed (a
build, a write); 2 on bad flags or input files, before anything runs; 130
when interrupted, after writing the results measured so far.`,
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
	fs.StringVar(&opts.ConfigFile, "config", "", "per-benchmark configurations from gobench-dyn optimize (with --stop: caps)")
	fs.IntVar(&opts.MinDistinct, "min-distinct", 3, "with --config, pad suite runs holding fewer distinct benchmarks with extra iterations")
	fs.DurationVar(&opts.Budget, "budget", 0, "time budget for the whole run (0: none)")
	fs.Uint64Var(&opts.Seed, "seed", 0, "schedule seed (default: random, printed)")
	fs.DurationVar(&opts.Timeout, "timeout", defaultTimeout, "kill an iteration that runs longer")
	fs.StringVar(&opts.Tags, "tags", "", "build tags, passed to go test -c")
	fs.StringVar(&opts.CPU, "cpu", "", "comma-separated GOMAXPROCS values, as go test -cpu")
	fs.BoolVar(&opts.Race, "race", false, "build with the race detector")
	fs.StringVar(&opts.Overlay, "overlay", "", "build overlay file, passed to go test -c")
	fs.StringVarP(&opts.Out, "out", "o", "", "write benchstat-format results to `file` (default stdout)")
	fs.StringVar(&opts.Raw, "raw", "", "write per-slice JSON Lines records to `file`")
	fs.StringVar(&opts.Resume, "resume", "", "continue the interrupted run recorded in raw `file`, with its seed and the same flags, appending to it")
	fs.Var(&opts.Progress, "progress", "progress on stderr: auto, on or off")
	fs.BoolVar(&opts.KeepGoing, "keep-going", false, "exit 0 even when a benchmark failed")
	fs.StringVar(&opts.Baseline, "baseline", "", "build the same packages at git `revision` and interleave both versions; exit 1 on a regression")
	fs.StringVar(&opts.BaselineOut, "baseline-out", "", "write the baseline's benchstat-format results to `file`")
	fs.BoolVar(&opts.Sequential, "sequential", true, "with --baseline and a --stop criterion, stop each pair once its verdict is decided and run the undecided on (suite-run cap 20 unless --suite-runs is set)")
	fs.BoolVar(&opts.EarlyVerdict, "early-verdict", true, "deprecated name of --sequential")
	_ = fs.MarkDeprecated("early-verdict", "use --sequential")
	bindCompareFlags(fs, &opts.Compare, "min-change")
	bindShardFlags(fs, &opts.Shard)
	fs.StringVar(&opts.ShardTimes, "shard-times", "", "balance --shard by the benchmark times of this earlier raw `file`")
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
	case o.MinDistinct < 0:
		return usageErr("--min-distinct: must not be negative, got %d", o.MinDistinct)
	case o.Budget < 0:
		return usageErr("--budget: must not be negative, got %v", o.Budget)
	}
	if err := o.Shard.resolve(os.Getenv); err != nil {
		return err
	}
	if o.ShardTimes != "" && o.Shard.Shard.IsZero() {
		return usageErr("--shard-times: only meaningful with --shard")
	}
	if _, err := parseCPU(o.CPU); err != nil {
		return usageErr("--cpu: %v", err)
	}
	if o.BaselineOut != "" && o.Baseline == "" {
		return usageErr("--baseline-out: only meaningful with --baseline")
	}
	flag := "--sequential"
	if fs.Changed("early-verdict") {
		flag, o.Sequential = "--early-verdict", o.EarlyVerdict
	}
	if (fs.Changed("sequential") || fs.Changed("early-verdict")) && o.Sequential && (o.Baseline == "" || o.Stop.Criterion == stopper.None) {
		// On by default; asking for it where it cannot act is a mistake
		// worth naming, turning it off never is.
		return usageErr("%s: only acts with --baseline and a --stop criterion", flag)
	}
	o.Sequential = o.Sequential && o.Baseline != "" && o.Stop.Criterion != stopper.None
	if o.Sequential && !fs.Changed("suite-runs") {
		o.SuiteRuns = defaultBaselineSuiteRuns
	}
	if o.Resume != "" {
		if o.Raw != "" && o.Raw != o.Resume {
			return usageErr("--raw %s: --resume appends to %s", o.Raw, o.Resume)
		}
		o.Raw = o.Resume
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
		"config":         o.ConfigFile,
		"baseline":       o.Baseline,
		"sequential":     strconv.FormatBool(o.Sequential),
		"min-change":     fmt.Sprint(o.Compare.Threshold),
		"rule":           o.Compare.Rule,
		"correction":     o.Compare.Correction,
		"fail-on":        o.Compare.FailOn,
		"confidence":     fmt.Sprint(o.Compare.Confidence),
		"tags":           o.Tags,
		"cpu":            o.CPU,
		"race":           strconv.FormatBool(o.Race),
	}
}

func runRun(opts *runOptions) error {
	start := time.Now()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopSignals := onInterrupt(cancel, opts.Stderr)
	defer stopSignals()

	past, err := opts.readResume()
	if err != nil {
		return err
	}
	if !opts.seedSet && past == nil {
		var b [8]byte
		_, _ = rand.Read(b[:])
		opts.Seed = binary.LittleEndian.Uint64(b[:]) >> 1
	}
	policy, err := opts.policy()
	if err != nil {
		return usageErr("%v", err)
	}
	var paired *rmit.Paired
	copts, failOn, err := opts.Compare.parse()
	if err != nil {
		return err
	}
	var cf *optime.ConfigFile
	if opts.ConfigFile != "" {
		if cf, err = optime.ReadConfigFile(opts.ConfigFile); err != nil {
			return usageErr("--config: %v", err)
		}
	}

	// Open every output before any benchmark runs, so that a bad path
	// fails at once rather than after an hour of measurements.
	out, err := openResults(opts.Out, opts.Stdout)
	if err != nil {
		return usageErr("--out: %v", err)
	}
	// A second interrupt exits at once: it removes the unfinished file.
	defer atExit(out.abandon)()
	var baseOut *resultsFile
	if opts.Baseline != "" {
		if baseOut, err = openResults(opts.BaselineOut, io.Discard); err != nil {
			return usageErr("--baseline-out: %v", err)
		}
		defer atExit(baseOut.abandon)()
	}
	var raw *rawFile
	if opts.Raw != "" {
		open := createRaw
		if past != nil {
			open = appendRaw
		}
		if raw, err = open(opts.Raw); err != nil {
			return usageErr("--raw: %v", err)
		}
		defer raw.Close()
	}

	tmp, err := os.MkdirTemp("", "gobench-dyn-")
	if err != nil {
		return err
	}
	cleanup := atExit(func() { os.RemoveAll(tmp) })
	defer cleanup()

	suite, err := opts.prepare(ctx, opts.Dir, tmp, record.VersionHead)
	if err != nil {
		return err
	}
	if opts.Baseline != "" {
		base, removeWorktree, err := opts.prepareBaseline(ctx, tmp)
		if err != nil {
			return err
		}
		defer removeWorktree()
		reportUnpaired(opts.Stderr, base, suite)
		rmit.ShareN(base.Benchmarks, suite.Benchmarks)
		paired = rmit.NewPaired(nil, base.Benchmarks, suite.Benchmarks)
		suite.Packages = append(suite.Packages, base.Packages...)
		suite.Benchmarks = append(suite.Benchmarks, base.Benchmarks...)
		suite.Failures = append(suite.Failures, base.Failures...)
	}
	minDistinct := 0
	if cf != nil {
		policy = applyConfig(opts, cf, suite.Benchmarks, policy)
		minDistinct = opts.MinDistinct
	}
	if paired != nil {
		// Both versions run in the same suite runs, each pair back to
		// back: compare them suite run by suite run.
		copts.Paired = true
		if opts.Sequential {
			copts.Plan = compare.NewPlan(compare.DefaultFirstLook, maxSuiteRuns(opts, cf))
			paired.Decided = func(base, head [][]float64) bool {
				return compare.PairDecided(base, head, copts.Threshold, copts.Confidence, copts.Plan)
			}
		}
		if opts.Stop.Criterion != stopper.None {
			// Outermost, so that the runner sees why a pair stopped.
			paired.Policy = policy
			policy = paired
		}
	}
	if !opts.Shard.Shard.IsZero() {
		// Shard after both versions are known, so that a benchmark and
		// its baseline land in the same shard.
		if suite.Benchmarks, err = selectShard(suite.Benchmarks, opts); err != nil {
			return err
		}
		fmt.Fprintf(opts.Stderr, "gobench-dyn: shard %s: %d benchmarks\n", opts.Shard.Shard, len(suite.Benchmarks))
	}
	fmt.Fprintf(opts.Stderr, "gobench-dyn: %d benchmarks in %d packages, seed %d\n", len(suite.Benchmarks), len(suite.Packages), opts.Seed)

	header := newHeader(opts.Seed, suite.Packages)
	header.Options = opts.headerOptions()
	if copts.Plan.Sequential() {
		header.Options["looks"] = copts.Plan.String()
	}
	header.Instance = opts.Shard.Instance
	if !opts.Shard.Shard.IsZero() {
		header.Shard = opts.Shard.Shard.String()
	}
	var rw *record.Writer
	recorded := map[string]bool{}
	if past != nil {
		if err := checkResumeCode(opts.Resume, past.Header, header); err != nil {
			return err
		}
		recorded = recordedPrepareEvents(past)
		fmt.Fprintf(opts.Stderr, "gobench-dyn: resuming %s: %d iterations recorded\n", opts.Resume, rmit.NewResume(past).Len())
	}
	if raw != nil {
		rw = record.NewWriter(raw)
		first := any(header)
		if past != nil {
			// A resumed run appends: the file keeps its one header.
			first = &record.Event{Event: record.EventResumed, Reason: fmt.Sprintf("resumed with seed %d", opts.Seed), Time: time.Now()}
		}
		if err := rw.Write(first); err != nil {
			return fmt.Errorf("--raw: %v", err)
		}
		writePrepareEvents(rw, suite, recorded)
	}

	obs := newRunObserver(opts, suite, header, out, baseOut)
	runner := &rmit.Runner{
		Benchmarks:    suite.Benchmarks,
		Policy:        policy,
		Seed:          opts.Seed,
		SliceTime:     opts.SliceTime,
		Timeout:       opts.Timeout,
		Budget:        opts.Budget,
		Start:         start,
		MinIterations: opts.Stop.MinIterations,
		MinDistinct:   minDistinct,
		FixedN:        opts.Baseline != "",
		Pairs:         pairing(paired),
		Instance:      opts.Shard.Instance,
		Raw:           rw,
		Observer:      obs,
	}
	if past != nil {
		runner.Resume = rmit.NewResume(past)
	}
	if opts.Budget > 0 {
		left := opts.Budget - time.Since(start)
		if need := runner.MinimumTime(); need > left {
			fmt.Fprintf(opts.Stderr, "gobench-dyn: warning: --budget %s leaves %s after building and calibrating, and the minimum of %d iterations per benchmark needs about %s: some benchmarks will get fewer than their minimum samples\n",
				opts.Budget, left.Round(time.Second), max(1, opts.Stop.MinIterations), need.Round(time.Second))
		}
	}
	sum, runErr := runner.Run(ctx)
	obs.finish(sum)
	if err := obs.commit(out, baseOut); err != nil {
		return fmt.Errorf("writing results: %v", err)
	}
	if raw != nil {
		if err := raw.Close(); err != nil {
			return fmt.Errorf("--raw: %v", err)
		}
	}
	printSummary(opts.Stderr, sum, suite, opts)

	regressed, strictFail := false, false
	if opts.Baseline != "" && runErr == nil {
		res, err := compare.Runs(obs.baseline, obs.head, copts)
		if err != nil {
			return err
		}
		res.OldName, res.NewName = opts.Baseline, "HEAD"
		fmt.Fprintln(opts.Stderr)
		if err := res.WriteText(opts.Stderr); err != nil {
			return err
		}
		regressed = len(res.Regressions(failOn)) > 0
		strictFail = res.Failed(failOn)
	}

	switch {
	case errors.Is(runErr, rmit.ErrInterrupted):
		return &exitError{code: 130, msg: "interrupted: the results written are partial"}
	case runErr != nil:
		return runErr
	case regressed:
		return failErr("regression against --baseline %s in %s", opts.Baseline, opts.Compare.FailOn)
	case strictFail:
		return failErr("inconclusive against --baseline %s in %s", opts.Baseline, opts.Compare.FailOn)
	case (len(sum.Failed) > 0 || len(suite.Failures) > 0) && !opts.KeepGoing:
		return failErr("%d benchmarks or packages failed (--keep-going exits 0 anyway)", len(sum.Failed)+len(suite.Failures))
	}
	return nil
}

// prepare builds, discovers and calibrates the benchmarks of one version
// of the code, resolving packages in dir, and applies the configuration
// and the shard the flags ask for.
func (opts *runOptions) prepare(ctx context.Context, dir, tmp, version string) (*rmit.Suite, error) {
	cpus, _ := parseCPU(opts.CPU)
	binDir := filepath.Join(tmp, "bin-head")
	if version != record.VersionHead {
		binDir = filepath.Join(tmp, "bin-"+version)
	}
	if err := os.Mkdir(binDir, 0o700); err != nil {
		return nil, err
	}
	suite, err := rmit.Prepare(ctx, rmit.PrepareOptions{
		Dir: dir, Patterns: opts.Patterns, BuildFlags: opts.buildFlags(), BinDir: binDir, Version: version, Log: opts.Stderr,
		Discover: rmit.DiscoverOptions{Bench: opts.Bench, CPU: cpus, SliceTime: opts.SliceTime, Timeout: opts.Timeout},
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, &exitError{code: 130, msg: "interrupted before any benchmark ran"}
		}
		return nil, usageErr("%v", err)
	}
	if len(suite.Benchmarks) == 0 {
		for _, f := range suite.Failures {
			fmt.Fprintf(opts.Stderr, "gobench-dyn: FAILED %s\n", f)
		}
		if len(suite.Failures) > 0 {
			return nil, failErr("no benchmark could be prepared")
		}
		patterns := opts.Patterns
		if len(patterns) == 0 {
			patterns = []string{"./..."} // as go test and rmit.List default
		}
		return nil, usageErr("no benchmarks match %q in %s", opts.Bench, strings.Join(patterns, " "))
	}
	for _, b := range suite.Benchmarks {
		b.Config = rmit.Config{SuiteRuns: opts.SuiteRuns, Iterations: opts.Iterations}
	}
	return suite, nil
}

// prepareBaseline checks out --baseline into a temporary worktree and
// prepares the same packages there. The caller must call remove when the
// run ends: benchmarks that read files run in the checkout.
func (opts *runOptions) prepareBaseline(ctx context.Context, tmp string) (suite *rmit.Suite, remove func(), err error) {
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	wt, err := worktree.Add(ctx, dir, opts.Baseline, tmp)
	if err != nil {
		return nil, nil, usageErr("--baseline: %v", err)
	}
	remove = atExit(func() { _ = wt.Remove() })
	baseDir, err := wt.Path(dir)
	if err != nil {
		remove()
		return nil, nil, usageErr("--baseline: %v", err)
	}
	fmt.Fprintf(opts.Stderr, "gobench-dyn: baseline %s (%.12s) checked out in a temporary worktree\n", opts.Baseline, wt.Rev)
	suite, err = opts.prepare(ctx, baseDir, tmp, record.VersionBaseline)
	if err != nil {
		remove()
		return nil, nil, err
	}
	return suite, remove, nil
}

// reportUnpaired lists the benchmarks present in only one version.
func reportUnpaired(w io.Writer, base, head *rmit.Suite) {
	names := func(s *rmit.Suite) map[string]bool {
		m := map[string]bool{}
		for _, b := range s.Benchmarks {
			m[b.Package.ImportPath+"."+b.Name] = true
		}
		return m
	}
	hb, bb := names(head), names(base)
	for _, n := range sortedKeys(hb) {
		if !bb[n] {
			fmt.Fprintf(w, "gobench-dyn: %s is new: not in the baseline\n", n)
		}
	}
	for _, n := range sortedKeys(bb) {
		if !hb[n] {
			fmt.Fprintf(w, "gobench-dyn: %s is gone: only in the baseline\n", n)
		}
	}
}

// applyConfig gives each benchmark its configuration from cf and returns
// the policy that obeys it. It names the benchmarks cf does not know, which
// run with the flags' configuration, and the entries that match nothing.
func applyConfig(opts *runOptions, cf *optime.ConfigFile, bs []*rmit.Benchmark, policy rmit.Policy) rmit.Policy {
	perBench := map[string]rmit.SliceConfig{}
	caps := map[string]int{}
	matched := map[[2]string]bool{}
	var fresh []string
	for _, b := range bs {
		e, ok := cf.Lookup(b.Package.ImportPath, b.Name)
		if !ok {
			fresh = append(fresh, b.String())
			continue
		}
		matched[[2]string{e.Package, e.Benchmark}] = true
		b.Config = rmit.Config{SuiteRuns: e.SuiteRuns, Iterations: e.Iterations}
		perBench[b.ID] = rmit.SliceConfig{Warmup: e.Warmup, Slices: e.Slices}
		caps[b.ID] = e.Slices
	}
	for _, n := range fresh {
		fmt.Fprintf(opts.Stderr, "gobench-dyn: NEW %s is not in --config %s: it runs with the default configuration\n", n, opts.ConfigFile)
	}
	for _, e := range cf.Entries {
		if !matched[[2]string{e.Package, e.Benchmark}] {
			fmt.Fprintf(opts.Stderr, "gobench-dyn: --config %s: %s.%s matches no benchmark of this run\n", opts.ConfigFile, e.Package, e.Benchmark)
		}
	}
	if static, ok := policy.(rmit.Static); ok {
		static.PerBenchmark = perBench
		return static
	}
	return &rmit.Capped{Policy: policy, Slices: caps}
}

// maxSuiteRuns returns the most suite runs any benchmark of the run can
// take: the last look of a sequential comparison.
func maxSuiteRuns(opts *runOptions, cf *optime.ConfigFile) int {
	n := opts.SuiteRuns
	if cf != nil {
		for _, e := range cf.Entries {
			n = max(n, e.SuiteRuns)
		}
	}
	return n
}

// pairing returns the pairs of a baseline run for the schedule, or nil.
func pairing(p *rmit.Paired) *rmit.Pairing {
	if p == nil {
		return nil
	}
	return &p.Pairing
}

// selectShard keeps the benchmarks of the shard the flags name.
func selectShard(bs []*rmit.Benchmark, opts *runOptions) ([]*rmit.Benchmark, error) {
	var expected map[shard.Benchmark]time.Duration
	if opts.ShardTimes != "" {
		run, warns, err := record.ReadFile(opts.ShardTimes)
		if err != nil {
			return nil, usageErr("--shard-times: %v", err)
		}
		for _, w := range warns {
			fmt.Fprintf(opts.Stderr, "gobench-dyn: warning: %s\n", w)
		}
		expected = shard.ExpectedTimes(run)
	}
	// Both versions of a benchmark share one identity.
	byID := map[shard.Benchmark][]*rmit.Benchmark{}
	ids := make([]shard.Benchmark, len(bs))
	for i, b := range bs {
		ids[i] = shard.Benchmark{Package: b.Package.ImportPath, Name: b.Name}
		byID[ids[i]] = append(byID[ids[i]], b)
	}
	var kept []*rmit.Benchmark
	for _, id := range shard.Select(ids, opts.Shard.Shard, expected) {
		kept = append(kept, byID[id]...)
	}
	return kept, nil
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
		key := p.ImportPath
		if p.Version != record.VersionHead {
			key = p.Version + ":" + key
		}
		h.Binaries[key] = p.Hash
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
			rmit.KillRunning()
			runCleanups()
			os.Exit(130)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

// cleanups are what must be undone even when a second interrupt aborts
// the run at once: temporary directories and worktrees.
var cleanups struct {
	sync.Mutex
	fns map[int]func()
	n   int
}

// atExit registers fn to run at the end of the run or on abort, and
// returns a function that runs it once and unregisters it.
func atExit(fn func()) (run func()) {
	cleanups.Lock()
	defer cleanups.Unlock()
	if cleanups.fns == nil {
		cleanups.fns = map[int]func(){}
	}
	id := cleanups.n
	cleanups.n++
	once := sync.OnceFunc(fn)
	cleanups.fns[id] = once
	return func() {
		cleanups.Lock()
		delete(cleanups.fns, id)
		cleanups.Unlock()
		once()
	}
}

// runCleanups runs every registered cleanup, newest first.
func runCleanups() {
	cleanups.Lock()
	ids := make([]int, 0, len(cleanups.fns))
	for id := range cleanups.fns {
		ids = append(ids, id)
	}
	fns := cleanups.fns
	cleanups.fns = nil
	cleanups.Unlock()
	slices.Sort(ids)
	slices.Reverse(ids)
	for _, id := range ids {
		fns[id]()
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
