package session

import (
	"fmt"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"io"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/record"
	"github.com/gobench-dyn/gobench-dyn/internal/steady"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// A Result is the outcome of a run that measured.
type Result struct {
	Summary *rmit.Summary
	// PrepareFailures are the packages and benchmarks that could not be
	// prepared; the run went on without them.
	PrepareFailures []*rmit.PrepareFailure
	// Comparison compares the baseline with the code under test, when
	// there is a baseline and the run was not interrupted.
	Comparison *gate.Result
	// Regressed says whether Comparison holds a regression in a unit
	// Options.FailOn selects; Inconclusive, that it holds none but fails
	// a strict FailOn (one that lists gate.FailInconclusive) on an
	// inconclusive comparison.
	Regressed    bool
	Inconclusive bool
	// Drifting lists the benchmarks whose slices trend inside their
	// processes: not steady, whatever their stoppage criterion said.
	Drifting []steady.Drift
	// Head holds the records of the code under test, for what keeps a
	// summary of the run (run --history).
	Head *record.Run

	opts *Options
}

// Failed returns the number of benchmarks and packages that failed.
func (r *Result) Failed() int { return len(r.Summary.Failed) + len(r.PrepareFailures) }

// Interrupted reports whether the run was stopped before its end.
func (r *Result) Interrupted() bool { return r.Summary.Interrupted }

// WriteSummary writes the end-of-run summary to w. Its first line is the
// run's one final line: what was measured and in how long.
func (r *Result) WriteSummary(w io.Writer) {
	sum, o := r.Summary, r.opts
	wall := sum.Wall()
	state := "done"
	if sum.Interrupted {
		state = "interrupted"
	}
	fmt.Fprintf(w, "\ngobench-dyn: %s: %d benchmarks, %d iterations, %d measurement slices (%d warmup) in %s\n",
		state, sum.Benchmarks, sum.Iterations, sum.Slices, sum.Warmup, render.Duration(wall))
	fmt.Fprintf(w, "  harness efficiency %.0f%% (time inside slices / wall time); harness CPU %s (%.1f%% of wall)\n",
		100*sum.Efficiency(), render.Duration(sum.HarnessCPU), 100*float64(sum.HarnessCPU)/float64(max(wall, 1)))
	if o.Stop.Criterion != stopper.None {
		fmt.Fprintf(w, "  --stop %s: %d benchmarks stable early, %d ran to the cap before the criterion held; criteria took %s (%.2f%% of wall)\n",
			o.Stop.Criterion, sum.Stopped-sum.OutOfReach-sum.Settled-sum.NoVerdict, sum.CapHit, render.Duration(sum.Criterion), 100*float64(sum.Criterion)/float64(max(wall, 1)))
		if sum.OutOfReach > 0 {
			fmt.Fprintf(w, "  out of reach: %d stopped early, predicted to need over %d times the processes of the cap for the target\n", sum.OutOfReach, stopper.OutOfReach)
		}
		if sum.Settled > 0 {
			fmt.Fprintf(w, "  --sequential: %d benchmarks stopped with their baseline once their verdict was decided\n", sum.Settled)
		}
		if sum.NoVerdict > 0 {
			fmt.Fprintf(w, "  --sequential: %d benchmarks stopped with their baseline, inconclusive: a verdict within the cap was predicted at under %g%% chance\n", sum.NoVerdict, 100*gate.OutOfReach)
		}
		if !sum.Interrupted {
			// A partial run never reached the cap it would be measured
			// against: it saved nothing, it stopped.
			fmt.Fprintf(w, "  time %s against about %s for the cap configuration (%.0f%% saved)\n",
				render.Duration(wall), render.Duration(sum.CapEstimate), 100*(1-float64(wall)/float64(max(sum.CapEstimate, 1))))
		}
	}
	writePrecision(w, sum.Precision)
	if sum.Padded > 0 {
		fmt.Fprintf(w, "  %d padding iterations kept late suite runs interleaved\n", sum.Padded)
	}
	if len(sum.BudgetCut) > 0 {
		names := make([]string, len(sum.BudgetCut))
		for i, b := range sum.BudgetCut {
			names[i] = b.String()
		}
		fmt.Fprintf(w, "  --budget %s cut %d benchmarks short before they were stable: %s\n", o.Budget, len(names), strings.Join(names, ", "))
	}
	for _, d := range r.Drifting {
		fmt.Fprintf(w, "  NOT STEADY %s: its slices drift %+.1f%% inside each process (Mann-Kendall z = %.1f); gobench-dyn steady shows where it settles, if it does\n",
			d.Key.Bench.String(), 100*d.Trend.Change, d.Trend.Z)
	}
	for _, f := range r.PrepareFailures {
		fmt.Fprintf(w, "  FAILED %s\n", strings.ReplaceAll(f.Error(), "\n", "\n  "))
	}
	for _, f := range sum.Failed {
		fmt.Fprintf(w, "  FAILED %s\n%s\n", f.Error(), indentAll(tail(f.Detail, 20)))
	}
	switch {
	case sum.Interrupted && o.Raw != "":
		fmt.Fprintf(w, "  INTERRUPTED: the results are partial; --resume %s completes them\n", o.Raw)
	case sum.Interrupted:
		fmt.Fprintln(w, "  INTERRUPTED: the results are partial")
	}
}

// writePrecision writes how well each benchmark's mean is known: the 95%
// interval over its processes, and for a benchmark that missed its
// target, how many processes would reach it.
func writePrecision(w io.Writer, ps []rmit.BenchPrecision) {
	var known []rmit.BenchPrecision
	reached, width := 0, 0
	for _, p := range ps {
		if p.Precision.Known() {
			known = append(known, p)
			width = max(width, len(p.Bench.String()))
			if p.Precision.Width <= p.Precision.Target {
				reached++
			}
		}
	}
	if len(known) == 0 {
		return
	}
	p0 := known[0].Precision
	fmt.Fprintf(w, "  precision (%.0f%% interval of each mean over its processes): %d of %d benchmarks reached ±%.3g%%\n",
		100*p0.Confidence, reached, len(known), 100*p0.Target)
	for _, p := range known {
		fmt.Fprintf(w, "    %-*s  %s (%d processes)\n", width, p.Bench.String(), p.Precision, p.Iterations)
	}
}

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
