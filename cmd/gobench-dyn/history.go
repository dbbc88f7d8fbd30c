package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench-dyn/gobench-dyn/internal/history"
	"github.com/gobench-dyn/gobench-dyn/internal/progress"
	"github.com/gobench-dyn/gobench-dyn/internal/runfile"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// defaultStore is the history store of every history command and of
// run --history when no file is named.
const defaultStore = "history.db"

// HistoryOptions holds the flags and arguments of gobench-dyn history.
type HistoryOptions struct {
	IO *IOStreams

	Store     string
	Bench     string
	Since     string
	Machine   string
	Method    string
	PValue    float64
	MinChange float64
	Window    int
	MinSeg    int
	JSON      string
	Markdown  string
	HTML      string
	Fail      bool

	// Confirm measures new change points again; Dir is the repository
	// they are measured in.
	Confirm   bool
	Dir       string
	SliceTime time.Duration
	SuiteRuns int
	Timeout   time.Duration
	Tags      string

	// Measurer replaces the real paired runs of --confirm in tests.
	Measurer history.Measurer
	// Now tells the time of confirmations; nil is time.Now.
	Now func() time.Time
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
	q, hopts, err := opts.parse()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src, store, err := history.OpenSource(opts.Store)
	if err != nil {
		return usageErr("%v", err)
	}
	if store != nil {
		defer store.Close()
	}
	if opts.HTML != "" {
		q.KeepSeries, q.Plots = true, history.MaxPlots
	}
	a, err := history.Analyze(ctx, src, q, hopts)
	if err != nil {
		return historyErr(opts.Store, err)
	}
	a.WarnUnplaced(opts.IO.ErrOut, opts.Store)
	if store != nil {
		known, err := store.Confirmations(ctx)
		if err != nil {
			return failErr("%s: %v", opts.Store, err)
		}
		a.Attach(known)
	}
	var confirmErr error
	if opts.Confirm {
		confirmErr = opts.confirm(ctx, cancel, a, store)
	}
	if err := opts.write(a); err != nil {
		return err
	}
	if confirmErr != nil {
		return confirmErr
	}
	if opts.Fail {
		if n := a.Regressions(opts.Confirm); n > 0 {
			return failErr("%d regressions in the history", n)
		}
	}
	return nil
}

// parse checks the flags, naming the first bad one.
func (opts *HistoryOptions) parse() (history.Query, history.Options, error) {
	var q history.Query
	hopts := history.DefaultOptions()
	m, err := history.ParseMethod(opts.Method)
	if err != nil {
		return q, hopts, usageErr("--method: %v", err)
	}
	switch {
	case !(opts.PValue > 0 && opts.PValue < 1):
		return q, hopts, usageErr("--pvalue %v: want a probability between 0 and 1, such as 0.001", opts.PValue)
	case !(opts.MinChange >= 0 && opts.MinChange < 1):
		return q, hopts, usageErr("--min-change %v: want a relative change in [0, 1), such as 0.02", opts.MinChange)
	case opts.Window < 4:
		return q, hopts, usageErr("--window %d: want at least 4 points", opts.Window)
	case opts.MinSeg < 1:
		return q, hopts, usageErr("--min-segment %d: want at least 1", opts.MinSeg)
	case opts.Confirm && history.IsJSONL(opts.Store):
		return q, hopts, usageErr("--confirm: %s is a JSON Lines export; confirmations are kept in a store (history import it first)", opts.Store)
	}
	if err := checkReportFiles(reportFile{"--json", opts.JSON, nil}, reportFile{"--markdown", opts.Markdown, nil}, reportFile{"--html", opts.HTML, nil}); err != nil {
		return q, hopts, err
	}
	if opts.Bench != "" {
		if q.Bench, err = regexp.Compile(opts.Bench); err != nil {
			return q, hopts, usageErr("--bench %q: %v", opts.Bench, err)
		}
	}
	q.Since, q.Machine = opts.Since, opts.Machine
	hopts.Method, hopts.PValue, hopts.MinChange, hopts.Window, hopts.MinSegment = m, opts.PValue, opts.MinChange, opts.Window, opts.MinSeg
	return q, hopts, nil
}

// historyErr turns an error of the analysis into an exit status: a
// --since that names no commit is a bad flag.
func historyErr(store string, err error) error {
	var nc *history.NoCommitError
	if errors.As(err, &nc) {
		return usageErr("--since: %v", err)
	}
	return failErr("%s: %v", store, err)
}

// confirm measures the new change points of a again and keeps each
// outcome in the store as it comes. An interrupt cancels the run in
// progress; the outcomes already kept stay.
func (opts *HistoryOptions) confirm(ctx context.Context, cancel func(), a *history.Analysis, store *history.Store) error {
	m := opts.Measurer
	if m == nil {
		run, err := opts.runOptions()
		if err != nil {
			return err
		}
		env := session.Env{Cleanups: &session.Cleanups{}}
		defer env.Cleanups.Run()
		defer onInterrupt(cancel, opts.IO.ErrOut, env.Cleanups)()
		m = &session.CommitMeasurer{Dir: opts.Dir, Run: run, Env: env, Log: opts.IO.ErrOut}
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	made, err := history.Confirm(ctx, a, m, now)
	if serr := store.SaveConfirmations(ctx, made); serr != nil {
		return failErr("%s: %v", opts.Store, serr)
	}
	switch {
	case err != nil && (ctx.Err() != nil || errors.Is(err, context.Canceled)):
		return &exitError{code: 130, msg: fmt.Sprintf("interrupted: %d change points confirmed before, kept in %s", len(made), opts.Store)}
	case err != nil:
		return failErr("--confirm: %v", err)
	}
	return nil
}

// runOptions returns the options of the confirmation runs: those of run
// --baseline with its defaults, and the slice time, timeout, cap and tags
// of history's flags.
func (opts *HistoryOptions) runOptions() (session.Options, error) {
	run := session.BaselineOptions("HEAD")
	run.SliceTime, run.Timeout, run.Tags, run.Progress = opts.SliceTime, opts.Timeout, opts.Tags, progress.Off
	if opts.SuiteRuns > 0 {
		run.SuiteRuns = opts.SuiteRuns
	}
	run.Tool = "gobench-dyn " + toolVersion()
	return run, run.CheckLimits()
}

// write writes the table and the files the flags ask for.
func (opts *HistoryOptions) write(a *history.Analysis) error {
	return writeReports(opts.IO.Out, a.WriteText,
		reportFile{"--json", opts.JSON, a.WriteJSON},
		reportFile{"--markdown", opts.Markdown, a.WriteMarkdown},
		reportFile{"--html", opts.HTML, a.WriteHTML})
}

// HistoryAddOptions holds the flags and arguments of gobench-dyn history add.
type HistoryAddOptions struct {
	IO         *IOStreams
	Store      string
	Raw        []string
	Dir        string
	Commit     string
	CommitTime string
	Branch     string
	Machine    string
	Options    string
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
	meta, err := opts.meta(context.Background())
	if err != nil {
		return err
	}
	var entries []history.Entry
	for _, f := range files {
		es := history.FromRun(f.Run, meta.WithRunLabels(f.Run.Header))
		if len(es) == 0 {
			return usageErr("%s: no benchmark of the code under test to add", f.Path)
		}
		entries = append(entries, es...)
	}
	return addEntries(opts.IO.ErrOut, "--store", opts.Store, opts.Dir, entries)
}

// addEntries adds entries to the store at path, named by flag in errors.
func addEntries(log io.Writer, flag, path, dir string, entries []history.Entry) error {
	s, err := history.Open(path)
	if err != nil {
		return usageErr("%s: %v", flag, err)
	}
	defer s.Close()
	if err := s.AddPlaced(context.Background(), log, dir, entries); err != nil {
		return failErr("%s: %v", flag, err)
	}
	return nil
}

// meta returns the commit, time and labels of the entries to add, from
// the flags and, for what they leave out, git.
func (opts *HistoryAddOptions) meta(ctx context.Context) (history.Meta, error) {
	m := history.Meta{Commit: opts.Commit, Branch: opts.Branch, Machine: opts.Machine, Options: opts.Options}
	if opts.CommitTime != "" {
		t, err := time.Parse(time.RFC3339, opts.CommitTime)
		if err != nil {
			return m, usageErr("--commit-time %q: want RFC 3339, such as 2026-11-25T14:00:00Z", opts.CommitTime)
		}
		m.CommitTime = t
	}
	m, err := history.ResolveMeta(ctx, opts.IO.ErrOut, opts.Dir, m)
	switch {
	case err != nil && opts.Commit != "":
		return m, usageErr("--commit %s: %v (or give --commit-time)", opts.Commit, err)
	case err != nil:
		return m, usageErr("--dir %s: %v (or give --commit and --commit-time)", opts.Dir, err)
	}
	return m, nil
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
			s, err := history.Open(store)
			if err != nil {
				return usageErr("--store: %v", err)
			}
			defer s.Close()
			for _, path := range args {
				n, err := s.Import(context.Background(), path)
				var se *history.SyntaxError
				switch {
				case errors.As(err, &se), errors.Is(err, os.ErrNotExist):
					return usageErr("%v", err)
				case err != nil:
					return failErr("%s: importing %s: %v", store, path, err)
				}
				fmt.Fprintf(ios.ErrOut, "gobench-dyn: history %s: %d entries imported from %s\n", store, n, path)
			}
			return nil
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
			if _, err := os.Stat(store); err != nil {
				return usageErr("--store %s: %v", store, err)
			}
			s, err := history.Open(store)
			if err != nil {
				return usageErr("--store: %v", err)
			}
			defer s.Close()
			write := func(w io.Writer) error { return s.Export(context.Background(), w) }
			if out == "" || out == "-" {
				if err := write(ios.Out); err != nil {
					return failErr("export: %v", err)
				}
				return nil
			}
			return writeOutputFile("--out", out, write)
		},
	}
	cmd.Flags().StringVarP(&store, "store", "s", defaultStore, "the history store `FILE` (or give it as the argument)")
	cmd.Flags().StringVarP(&out, "out", "o", "", "write to `FILE` (default standard output)")
	return cmd
}

// runHistory is where run --history adds the run's summaries: the store
// and the commit checked out, both found before anything runs, so that a
// bad store or a directory outside git fails at once.
type runHistory struct {
	path string
	dir  string
	meta history.Meta
}

// openHistory checks run --history before the run.
func openHistory(ctx context.Context, opts *RunOptions) (*runHistory, error) {
	if opts.History == "" {
		return nil, nil
	}
	s, err := history.Open(opts.History)
	if err != nil {
		return nil, usageErr("--history: %v", err)
	}
	s.Close()
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	meta, err := history.ResolveMeta(ctx, opts.IO.ErrOut, dir, history.Meta{})
	if err != nil {
		return nil, usageErr("--history: %v (history add --commit records a run made outside git)", err)
	}
	return &runHistory{path: opts.History, dir: dir, meta: meta}, nil
}

// add adds the summaries of the run's records to the store.
func (h *runHistory) add(run *record.Run, log io.Writer) error {
	entries := history.FromRun(run, h.meta.WithRunLabels(run.Header))
	if len(entries) == 0 {
		return nil
	}
	return addEntries(log, "--history", h.path, h.dir, entries)
}
