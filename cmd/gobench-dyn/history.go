package main

import (
	"context"
	"errors"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench-dyn/gobench-dyn/internal/history"
	"github.com/gobench-dyn/gobench-dyn/internal/runfile"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
)

// defaultStore is the history store of every history command and of
// run --history when no file is named.
const defaultStore = "history.db"

// HistoryOptions holds the flags and arguments of gobench-dyn history.
type HistoryOptions struct {
	IO *IOStreams

	history.Request

	// Dir is the repository --confirm measures in; SliceTime, SuiteRuns,
	// Timeout and Tags shape its runs.
	Dir       string
	SliceTime time.Duration
	SuiteRuns int
	Timeout   time.Duration
	Tags      string
}

// historyLong is the help text of history, which tells how the history
// is read and ordered as well as what the flags do.
const historyLong = `History reads the history store FILE (the argument or --store; default
` + defaultStore + `; a .jsonl file from "history export" is read as well) and finds,
per benchmark, unit, machine label and options, the commits where the level
changed: E-divisive means in sliding windows with the merge of weak change
points, as Apache Otava does, with every point weighted by its own interval
and by the commit-to-commit noise that no interval holds (--method otava runs
Otava's analysis as is). Points of different machine labels or options are
never one series.

A series follows the first-parent line of the commit graph, as
"git rev-list --first-parent" lists it: each entry records its commit's
parents and first-parent position, so that commits made in one second (a
rebase), skewed clocks or a merged branch's older dates do not reorder it. A
side branch's commits are left out; its merge commit stands for them. Commit
time orders only what the graph cannot (commits of one position, and those
recorded by a version that did not record their place), and the output
says so. docs/HISTORY.md defines the order.

Each change point gets its commit, the change with its interval, and its
p-value. The table goes to standard output; --json, --markdown (for a CI job
summary) and --html (one plot per benchmark over commits) write the same.

--confirm measures each change point that has no confirmation yet again:
the commit after it is checked out as the code under test and the commit
before it as the baseline, interleaved as run --baseline does, in the git
repository of --dir. The gate's verdict confirms or refutes it, and the
store keeps the outcome, so that the next analysis only measures new ones.

The store is written by "run --history FILE" and "history add RAW...";
"history export" and "history import" carry it as JSON Lines, to keep it in a
git branch or a CI cache. Every history command takes the store as
--store FILE; history and history export take it as their argument too.

Exit status: 0 done; 1 with --fail when a regression is found (with
--confirm: only one that confirmation did not refute), or if a confirmation
run or a write fails; 2 on bad flags or input.`

// NewCmdHistory returns the history command and its subcommands add,
// import and export.
func NewCmdHistory(ios *IOStreams, runF func(*HistoryOptions) error) *cobra.Command {
	opts := &HistoryOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "history [flags] [FILE]",
		Short: "Find the commits where benchmarks changed, across a history of runs",
		Long:  historyLong,
		Example: `  gobench-dyn run --history history.db ./...
  gobench-dyn history history.db
  gobench-dyn history --store history.db --machine ci
  gobench-dyn history --bench 'Parse' --since v1.4.0 --markdown - history.db >> "$GITHUB_STEP_SUMMARY"
  gobench-dyn history --confirm --fail --html history.html history.db`,
		Args: storeArg("history"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := storeFromArgs(cmd, &opts.Store, args); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return historyRun(opts)
		},
	}
	f := cmd.Flags()
	f.SortFlags = false
	bindHistoryFlags(f, opts)
	bindHistoryConfirmFlags(f, opts)
	cmd.AddCommand(newCmdHistoryAdd(ios), newCmdHistoryImport(ios), newCmdHistoryExport(ios))
	return cmd
}

// bindHistoryFlags binds the flags of what history analyses and writes.
func bindHistoryFlags(f *pflag.FlagSet, opts *HistoryOptions) {
	d := history.DefaultOptions()
	f.StringVarP(&opts.Store, "store", "s", defaultStore, "the history store `FILE` (or give it as the argument)")
	f.StringVarP(&opts.Bench, "bench", "b", "", "only benchmarks matching `regexp` (against pkg.BenchmarkX and the name alone)")
	f.StringVar(&opts.Since, "since", "", "only change points after the commit `rev` (a hash or prefix in the history)")
	f.StringVar(&opts.Machine, "machine", "", "only the series of this machine `label`")
	f.StringVar(&opts.Method, "method", string(d.Method), "weighted (each point by its interval) or otava (Otava's analysis as is)")
	f.Float64Var(&opts.PValue, "pvalue", d.PValue, "largest p-value of a change point")
	f.Float64Var(&opts.MinChange, "min-change", 0, "smallest relative change that counts (0.02 = 2%)")
	f.IntVar(&opts.Window, "window", d.Window, "points per sliding window of the first pass")
	f.IntVar(&opts.MinSeg, "min-segment", d.MinSegment, "fewest points of a level on either side of a change point (weighted)")
	bindReportFlag(f, &opts.JSON, "json", "the change points")
	bindReportFlag(f, &opts.Markdown, "markdown", "the change points")
	bindReportFlag(f, &opts.HTML, "html", "one plot per benchmark over commits")
	f.BoolVar(&opts.Fail, "fail", false, "exit 1 when a regression is found (with --confirm: one not refuted)")
}

// bindHistoryConfirmFlags binds --confirm and the flags of its runs.
func bindHistoryConfirmFlags(f *pflag.FlagSet, opts *HistoryOptions) {
	f.BoolVar(&opts.Confirm, "confirm", false, "measure each change point without a confirmation again, paired, and keep the outcome")
	f.StringVar(&opts.Dir, "dir", ".", "with --confirm, a `directory` of the git repository to measure in")
	f.DurationVar(&opts.SliceTime, "slice-time", defaultSliceTime, "with --confirm, the slice time of the runs")
	f.IntVar(&opts.SuiteRuns, "suite-runs", 0, "with --confirm, the suite-run cap of the runs (default that of run --baseline)")
	f.DurationVar(&opts.Timeout, "timeout", defaultTimeout, "with --confirm, kill an iteration that runs longer")
	f.StringVar(&opts.Tags, "tags", "", "with --confirm, build tags")
}

// storeArg accepts at most one argument, the store of command cmd.
func storeArg(cmd string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) > 1 {
			return usageErr("%s takes one store file, got %d arguments", cmd, len(args))
		}
		return nil
	}
}

// storeFromArgs sets store from the argument, when there is one; naming
// another store with --store as well is an error.
func storeFromArgs(cmd *cobra.Command, store *string, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if cmd.Flags().Changed("store") && *store != args[0] {
		return usageErr("--store %s and the argument %s name two stores; give one", *store, args[0])
	}
	*store = args[0]
	return nil
}

// historyRun analyses the store, confirms, and writes the outputs.
func historyRun(opts *HistoryOptions) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req := opts.Request
	req.Out, req.Log = opts.IO.Out, opts.IO.ErrOut
	req.NewMeasurer = func() (history.Measurer, func(), error) { return opts.measurer(cancel) }
	return historyExit(history.Run(ctx, &req))
}

// historyExit gives the error of a history command its exit status: 130
// for an interrupted confirmation, else as exitStatus does.
func historyExit(err error) error {
	var ie *history.InterruptedError
	if errors.As(err, &ie) {
		return &exitError{code: 130, msg: err.Error(), err: err}
	}
	return exitStatus(err)
}

// measurer returns the paired runs of --confirm, which the first
// interrupt cancels, and what ends them.
func (opts *HistoryOptions) measurer(cancel func()) (history.Measurer, func(), error) {
	run, err := session.ConfirmOptions(opts.SliceTime, opts.Timeout, opts.SuiteRuns, opts.Tags, "gobench-dyn "+toolVersion())
	if err != nil {
		return nil, nil, err
	}
	env := session.Env{Cleanups: &session.Cleanups{}}
	stop := onInterrupt(cancel, opts.IO.ErrOut, env.Cleanups)
	m := &session.CommitMeasurer{Dir: opts.Dir, Run: run, Env: env, Log: opts.IO.ErrOut}
	return m, func() { stop(); env.Cleanups.Run() }, nil
}

// HistoryAddOptions holds the flags and arguments of gobench-dyn history add.
type HistoryAddOptions struct {
	IO  *IOStreams
	Raw []string
	history.AddRequest
}

func newCmdHistoryAdd(ios *IOStreams) *cobra.Command {
	opts := &HistoryAddOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "add [flags] RAW...",
		Short: "Add the per-benchmark summaries of raw record files to the history store",
		Long: `Add reads raw record files (--raw of gobench-dyn run) and adds to the store, for
every benchmark of the code under test and every unit, the mean over its
processes with its 95% interval, the processes, and the allocations and bytes
per op. Each entry carries the commit (default: the HEAD of the git repository
of --dir), its commit time, the branch, the machine label (default: the run's
--instance, else the OS, architecture and CPU model) and the options that
shape results. The store is created when missing; adding the same file twice
adds nothing new.

Exit status: 0 added; 1 if the store cannot be written; 2 on bad flags or input.`,
		Example: `  gobench-dyn run --raw run.jsonl ./... && gobench-dyn history add --store history.db run.jsonl
  gobench-dyn history add --commit "$GITHUB_SHA" --machine ubuntu-latest run.jsonl`,
		Args: atLeastOneArg("history add needs at least one raw file"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Raw = args
			return historyAddRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Store, "store", "s", defaultStore, "the history store `FILE`")
	f.StringVar(&opts.Dir, "dir", ".", "the git repository the commit is read from")
	f.StringVar(&opts.Commit, "commit", "", "the commit measured (default: HEAD of --dir)")
	f.StringVar(&opts.CommitTime, "commit-time", "", "its commit time, RFC 3339 (default: from git)")
	f.StringVar(&opts.Branch, "branch", "", "the branch (default: the branch checked out in --dir)")
	f.StringVar(&opts.Machine, "machine", "", "machine label (default: the run's instance, else OS/arch and CPU model)")
	f.StringVar(&opts.Options, "options", "", "options label (default: the run's result-shaping options)")
	return cmd
}

func historyAddRun(opts *HistoryAddOptions) error {
	files, err := readInputs(opts.Raw, opts.IO.ErrOut, runfile.Raw)
	if err != nil {
		return err
	}
	req := opts.AddRequest
	req.Log = opts.IO.ErrOut
	return historyExit(history.AddRuns(context.Background(), &req, files))
}

func newCmdHistoryImport(ios *IOStreams) *cobra.Command {
	var store string
	cmd := &cobra.Command{
		Use:   "import [flags] JSONL...",
		Short: "Add the entries of JSON Lines files (from history export) to the store",
		Long: `Import checks each JSON Lines file whole, then adds its entries to the store.
An entry already in the store is not added twice, so importing a file again,
or an export of the same store, adds nothing; an import cut short is
completed by running it again.

Exit status: 0 imported; 1 if the store cannot be written; 2 on bad flags
or a bad line, named as file:line.`,
		Example: `  git show history:history.jsonl > history.jsonl && gobench-dyn history import --store history.db history.jsonl`,
		Args:    atLeastOneArg("history import needs at least one JSON Lines file"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return historyExit(history.ImportFiles(context.Background(), store, args, ios.ErrOut))
		},
	}
	cmd.Flags().StringVarP(&store, "store", "s", defaultStore, "the history store `FILE`")
	return cmd
}

func newCmdHistoryExport(ios *IOStreams) *cobra.Command {
	var store, out string
	cmd := &cobra.Command{
		Use:   "export [flags] [FILE]",
		Short: "Write every entry of the store as JSON Lines",
		Long: `Export writes every entry of the store FILE (the argument or --store) as JSON
Lines, one entry a line, series by series by first-parent position: a text
file that a git branch or a CI cache keeps and "history import" reads back.
Each entry carries its commit's parents and first-parent position, so that
what is read back is ordered as the store orders it.

Exit status: 0 written; 1 if writing fails; 2 on bad flags or store.`,
		Example: `  gobench-dyn history export -o history.jsonl history.db
  gobench-dyn history export --store history.db -o history.jsonl`,
		Args: storeArg("history export"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := storeFromArgs(cmd, &store, args); err != nil {
				return err
			}
			return historyExit(history.ExportFile(context.Background(), store, out, ios.Out))
		},
	}
	cmd.Flags().StringVarP(&store, "store", "s", defaultStore, "the history store `FILE` (or give it as the argument)")
	cmd.Flags().StringVarP(&out, "out", "o", "", "write to `FILE` (default standard output)")
	return cmd
}
