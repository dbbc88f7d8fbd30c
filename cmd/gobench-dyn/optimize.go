package main

import (
	"io"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench-dyn/gobench-dyn/internal/replay"
	"github.com/gobench-dyn/gobench-dyn/optime"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// OptimizeOptions holds the flags and arguments of gobench-dyn optimize.
type OptimizeOptions struct {
	Files     []string
	Metric    string
	Threshold float64
	Instances string
	Strategy  string
	Resamples int
	Seed      uint64
	Out       string // the configuration file; empty: none written

	Stdout io.Writer
	Stderr io.Writer
	// Now stamps the configuration file's header; nil means time.Now.
	Now func() time.Time
}

// NewCmdOptimize returns the optimize command. It binds flags to OptimizeOptions and calls
// runF, or optimizeRun when runF is nil, so that tests can check what the flags
// bind without running anything.
func NewCmdOptimize(ios *IOStreams, runF func(*OptimizeOptions) error) *cobra.Command {
	opts := &OptimizeOptions{}
	cmd := &cobra.Command{
		Use:   "optimize [flags] RAW...",
		Short: "Find each benchmark's minimal configuration from a full run (µOpTime)",
		Long: `Optimize reads one or more recorded full runs (raw record files of gobench-dyn
run, or µOpTime Go measurement CSV files) and finds, for every benchmark, the
cheapest configuration (s, i, d) — suite runs, iterations per suite run,
measurement slices per iteration — whose stability metric stays strictly
below --threshold.

Each smaller configuration with s·i ≥ 3 is simulated on the prefix subset of
the recorded samples: the first s suite runs, the first i iterations of each,
the first d slices of each iteration. Ties in time go to the lower metric. A
benchmark with no stable configuration keeps the full one.

Metrics: cv (coefficient of variation), rmad (relative median absolute
deviation), rciw-mean (99% percentile bootstrap interval of the mean over the
mean), rciw-mean-t (studentized bootstrap), rciw-median (percentile bootstrap
interval of the median over the median). The µOpTime study recommends cv or
rmad for Go.

--strategy minimum or random gives every benchmark the published baselines'
configuration instead — (1, 3, 1), or a random smaller one — to measure what
the search gains over them; their metric is reported but not required.

Instances are never optimized away; by default only the first instance is
searched, as in the published study (--instances all pools every instance).

The table shows each benchmark's chosen configuration, its time against the
full configuration, its metric, and the predicted change rate: the chosen
configuration's mean (median for rmad and rciw-median) against the full
configuration's. With -o, the configurations are written to a file that
"gobench-dyn run --config" obeys.

Exit status: 0 done; 1 if writing the output fails; 2 on bad flags or input.`,
		Example: `  # Learn minimal configurations from last night's full run.
  gobench-dyn run --suite-runs 3 --iterations 5 --slices 5 --raw full.jsonl ./...
  gobench-dyn optimize -o bench.conf full.jsonl
  gobench-dyn run --config bench.conf ./...

  # What the search gains over the published minimum baseline.
  gobench-dyn optimize --strategy minimum full.jsonl

  # The published µOpTime data, with the coefficient of variation.
  gobench-dyn optimize --metric cv toml-v2.0.2.csv`,
		Args: atLeastOneArg("optimize needs at least one recorded run"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Files = args
			opts.Stdout, opts.Stderr = ios.Out, ios.ErrOut
			if runF != nil {
				return runF(opts)
			}
			return optimizeRun(opts)
		},
	}
	bindOptimizeFlags(cmd.Flags(), opts)
	return cmd
}

// bindOptimizeFlags binds the flags of optimize to opts.
func bindOptimizeFlags(f *pflag.FlagSet, opts *OptimizeOptions) {
	f.StringVar(&opts.Metric, "metric", optime.RMAD.String(), "stability metric: cv, rmad, rciw-mean, rciw-mean-t or rciw-median")
	f.Float64Var(&opts.Threshold, "threshold", optime.DefaultThreshold, "a configuration is stable if its metric is below this")
	f.StringVar(&opts.Instances, "instances", optime.FirstInstance.String(), "instances to search: first (as published) or all (pooled)")
	f.StringVar(&opts.Strategy, "strategy", string(optime.StrategySearch), "how configurations are chosen: search (µOpTime), minimum or random (the published baselines)")
	f.IntVar(&opts.Resamples, "resamples", optime.DefaultResamples, "bootstrap resamples of the rciw metrics")
	f.Uint64Var(&opts.Seed, "seed", 1, "seed of the bootstrap resampling")
	f.StringVarP(&opts.Out, "out", "o", "", "write the configuration file here")
}

func optimizeRun(opts *OptimizeOptions) error {
	strategy, oopts, err := replay.OptimizeOptions(opts.Metric, opts.Threshold, opts.Instances, opts.Strategy, opts.Resamples, opts.Seed)
	if err != nil {
		return exitUsage(err)
	}
	files, err := readInputs(opts.Files, opts.Stderr, recordedFormats...)
	if err != nil {
		return err
	}
	var (
		runs    []*record.Run
		ids     []int
		sources []optime.Source
	)
	for k, f := range files {
		src := optime.Source{ID: k + 1, File: f.Path}
		if h := f.Run.Header; h != nil {
			src.Seed, src.Start = h.Seed, h.Start
		}
		runs = append(runs, f.Run)
		ids = append(ids, src.ID)
		sources = append(sources, src)
	}
	benches := optime.Benchmarks(runs, ids)
	if len(benches) == 0 {
		return usageErr("%s: no ns/op measurements", opts.Files[0])
	}
	res, err := strategy.Choose(benches, oopts)
	if err != nil {
		return usageErr("%w", err)
	}
	if err := res.WriteTable(opts.Stdout); err != nil {
		return err
	}
	if opts.Out == "" {
		return nil
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	cf := optime.NewConfigFile(res, sources, now())
	return writeOutputFile("--out", opts.Out, cf.Write)
}
