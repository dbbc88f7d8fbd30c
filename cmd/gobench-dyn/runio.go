package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/gobench-dyn/gobench-dyn/atomicfile"
	"github.com/gobench-dyn/gobench-dyn/benchout"
	"github.com/gobench-dyn/gobench-dyn/progress"
	"github.com/gobench-dyn/gobench-dyn/record"
	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// resultsFile is where benchstat-format results go: stdout, or a file
// written in place of the old one once the run ends (interrupted or not).
// Lines are written as slices finish in both cases; a file is then written
// once more grouped by package and benchmark in source order, for reading.
type resultsFile struct {
	w    io.Writer
	file *atomicfile.File
}

func openResults(path string, stdout io.Writer) (*resultsFile, error) {
	if path == "" || path == "-" {
		return &resultsFile{w: stdout}, nil
	}
	// The file is only renamed into place at the end: find out now,
	// not after the run, that a directory stands in the way.
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory", path)
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, err
	}
	return &resultsFile{w: f, file: f}, nil
}

// commit puts the file in place, written anew from run in the order of
// the benchmarks in order, and reports whether it was. The new content
// goes into the same temporary file, so that a second interrupt, which
// abandons that file, leaves nothing behind. If the file cannot be
// rewound, the results as written during the run go in place instead.
// Stdout is never written anew.
func (r *resultsFile) commit(run *record.Run, order []record.Key) (rewritten bool, err error) {
	if r.file == nil {
		return false, nil
	}
	if _, err := r.file.Seek(0, io.SeekStart); err != nil {
		return false, r.file.Commit()
	}
	if err := r.file.Truncate(0); err != nil {
		return false, r.file.Commit()
	}
	bw := bufio.NewWriterSize(r.file, 1<<16)
	if err := benchout.WriteInOrder(bw, run, order); err != nil {
		return false, err
	}
	if err := bw.Flush(); err != nil {
		return false, err
	}
	return true, r.file.Commit()
}

func (r *resultsFile) abandon() {
	if r.file != nil {
		r.file.Abandon()
	}
}

// rawFile is the --raw output: appended to and flushed record by record,
// and locked so that two runs cannot write one file.
type rawFile struct {
	*os.File
	closed bool
}

// openLocked opens path with flag and takes an exclusive lock on it, or
// fails at once if another run holds one.
func openLocked(path string, flag int) (*os.File, error) {
	f, err := os.OpenFile(path, flag, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s is being written by another gobench-dyn run", path)
		}
		return nil, err
	}
	return f, nil
}

func createRaw(path string) (*rawFile, error) {
	f, err := openLocked(path, os.O_WRONLY|os.O_CREATE)
	if err != nil {
		return nil, err
	}
	// Truncate only once the lock is ours, so that a refused run leaves
	// the other run's file alone.
	if err := f.Truncate(0); err != nil {
		f.Close()
		return nil, err
	}
	return &rawFile{File: f}, nil
}

func (r *rawFile) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	return r.File.Close()
}

// runObserver writes results as they come and reports progress. With a
// baseline, it writes each version's results to its own file. It keeps
// both versions' slices in memory, for the comparison and the final,
// ordered results files.
type runObserver struct {
	out      *benchout.Writer
	baseOut  *benchout.Writer
	head     *record.Run
	baseline *record.Run
	header   *record.Header
	progress *progress.Reporter
	done     map[*rmit.Benchmark]int // completed iterations
	order    []record.Key            // the benchmarks as found
	outErr   error                   // the first failed write of each output
	baseErr  error
}

func newRunObserver(opts *runOptions, suite *rmit.Suite, header *record.Header, out, baseOut *resultsFile) *runObserver {
	total := 0
	for _, b := range suite.Benchmarks {
		total += b.Config.SuiteRuns * b.Config.Iterations
	}
	maxRuns := 0
	for _, b := range suite.Benchmarks {
		maxRuns = max(maxRuns, b.Config.SuiteRuns)
	}
	o := &runObserver{
		out:      benchout.NewWriter(out.w),
		header:   header,
		progress: progress.New(opts.Stderr, opts.Progress, progress.Plan{SuiteRuns: maxRuns, Iterations: total, Benchmarks: len(suite.Benchmarks)}),
		done:     map[*rmit.Benchmark]int{},
		head:     &record.Run{Header: header},
		baseline: &record.Run{Header: header},
	}
	for _, b := range suite.Benchmarks {
		o.order = append(o.order, record.Key{Package: b.Package.ImportPath, Benchmark: b.Name})
	}
	if baseOut != nil {
		o.baseOut = benchout.NewWriter(baseOut.w)
	}
	return o
}

// commit puts the results files in place, each version's results grouped
// by package and benchmark in the order they were found. A write that
// failed during the run is an error, unless its output was written anew
// from memory since.
func (o *runObserver) commit(out, baseOut *resultsFile) error {
	for _, f := range []struct {
		file    *resultsFile
		run     *record.Run
		lastErr error
	}{{out, o.head, o.outErr}, {baseOut, o.baseline, o.baseErr}} {
		if f.file == nil {
			continue
		}
		rewritten, err := f.file.commit(f.run, o.order)
		if err != nil {
			return err
		}
		if !rewritten && f.lastErr != nil {
			return f.lastErr
		}
	}
	return nil
}

func (o *runObserver) SuiteRunStarted(k, iterations int) { o.progress.SuiteRunStarted(k, iterations) }

func (o *runObserver) Slice(b *rmit.Benchmark, s *record.Slice) {
	w, run, failed := o.out, o.head, &o.outErr
	if s.Version == record.VersionBaseline {
		w, run, failed = o.baseOut, o.baseline, &o.baseErr
	}
	run.Slices = append(run.Slices, *s)
	if err := w.WriteSlice(benchout.PackageOf(o.header, b.Package.ImportPath), s); err != nil && *failed == nil {
		*failed = err
	}
}

func (o *runObserver) IterationDone(b *rmit.Benchmark, f *rmit.Failure) {
	o.done[b]++
	o.progress.IterationDone(b.String(), f == nil)
}

func (o *runObserver) BenchmarkDone(b *rmit.Benchmark, ev *record.Event) {
	if left := b.Config.SuiteRuns*b.Config.Iterations - o.done[b]; left > 0 {
		o.progress.SkippedIterations(left)
	}
	switch ev.Event {
	case record.EventFailure:
		o.progress.BenchmarkFailed(b.String(), ev.Reason)
	default:
		o.progress.BenchmarkStopped(b.String(), ev.Met)
	}
}

func (o *runObserver) finish(sum *rmit.Summary) {
	o.progress.Finish(fmt.Sprintf("%d iterations, %d slices in %s", sum.Iterations, sum.Slices, sum.Wall().Round(time.Millisecond)))
}

// printSummary writes the end-of-run summary to w.
func printSummary(w io.Writer, sum *rmit.Summary, suite *rmit.Suite, opts *runOptions) {
	wall := sum.Wall()
	fmt.Fprintf(w, "\ngobench-dyn: %d benchmarks, %d measurement slices (%d warmup) in %d iterations, wall %s\n",
		sum.Benchmarks, sum.Slices, sum.Warmup, sum.Iterations, wall.Round(time.Millisecond))
	fmt.Fprintf(w, "  harness efficiency %.0f%% (time inside slices / wall time); harness CPU %s (%.1f%% of wall)\n",
		100*sum.Efficiency(), sum.HarnessCPU.Round(time.Millisecond), 100*float64(sum.HarnessCPU)/float64(max(wall, 1)))
	if opts.Stop.Criterion.String() != "none" {
		fmt.Fprintf(w, "  --stop %s: %d benchmarks stable early, %d ran to the cap before the criterion held; criteria took %s (%.2f%% of wall)\n",
			opts.Stop.Criterion, sum.Stopped, sum.CapHit, sum.Criterion.Round(time.Microsecond), 100*float64(sum.Criterion)/float64(max(wall, 1)))
		if sum.Settled > 0 {
			fmt.Fprintf(w, "  --early-verdict: %d benchmarks stopped with their baseline once the change was certain\n", sum.Settled)
		}
		fmt.Fprintf(w, "  time %s against about %s for the cap configuration (%.0f%% saved)\n",
			wall.Round(time.Second), sum.CapEstimate.Round(time.Second), 100*(1-float64(wall)/float64(max(sum.CapEstimate, 1))))
	}
	if sum.Padded > 0 {
		fmt.Fprintf(w, "  %d padding iterations kept late suite runs interleaved\n", sum.Padded)
	}
	if len(sum.BudgetCut) > 0 {
		names := make([]string, len(sum.BudgetCut))
		for i, b := range sum.BudgetCut {
			names[i] = b.String()
		}
		fmt.Fprintf(w, "  --budget %s cut %d benchmarks short before they were stable: %s\n", opts.Budget, len(names), strings.Join(names, ", "))
	}
	for _, f := range suite.Failures {
		fmt.Fprintf(w, "  FAILED %s\n", indentAfterFirst(f.Error()))
	}
	for _, f := range sum.Failed {
		fmt.Fprintf(w, "  FAILED %s\n%s\n", f.Error(), indentAll(tail(f.Detail, 20)))
	}
	if sum.Interrupted {
		fmt.Fprintln(w, "  INTERRUPTED: the results are partial")
	}
}

func indentAfterFirst(s string) string { return strings.ReplaceAll(s, "\n", "\n  ") }

func indentAll(s string) string {
	if s == "" {
		return ""
	}
	return "      " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n      ")
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// cpuModel returns the CPU model name as go test prints it, or "".
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
