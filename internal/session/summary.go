package session

import (
	"fmt"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"io"
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// A Result is the outcome of a run that measured.
type Result struct {
	Summary *rmit.Summary
	// PrepareFailures are the packages and benchmarks that could not be
	// prepared; the run went on without them.
	PrepareFailures []*rmit.PrepareFailure
	// Comparison compares the baseline with the code under test, when
	// there is a baseline; for an interrupted run, on what it measured.
	Comparison *gate.Result
	// Regressed says whether Comparison holds a regression in a unit
	// Options.FailOn selects; Inconclusive, that it holds none but fails
	// a strict FailOn (one that lists gate.FailInconclusive) on an
	// inconclusive comparison.
	Regressed    bool
	Inconclusive bool
	// GoTest is about how long one go test -bench pass of the benchmarks
	// measured would have taken (rmit.GoTestTime of their calibration);
	// 0 in a comparison, which go test does not make.
	GoTest time.Duration
	// Amortized lists the benchmarks whose ns/op fell as b.N grew
	// between their processes.
	Amortized []Amortized
	// Unsettled holds the stop events of the benchmarks whose warmup
	// ran to its cap still getting faster.
	Unsettled []record.Event
	// Drifting lists the benchmarks whose slices trend inside their
	// processes: not steady, whatever their stoppage criterion said.
	Drifting []Drift
	// Head holds the records of the code under test, for what keeps a
	// summary of the run (run --history).
	Head *record.Run
	// NonFinite lists the units that reported NaN or an infinity.
	NonFinite []NonFinite
	// Stopped is the output failure that stopped the run early, or nil.
	Stopped error
	// Unaffected counts the benchmarks of a baseline run the change
	// cannot reach, which were not measured.
	Unaffected int
	// Explained are the explanations of decided changes (Options.Explain),
	// and ExplainTime what profiling them took.
	Explained   []*Explained
	ExplainTime time.Duration
	// ExplainHTML is the page of their differential flame graphs, or "".
	ExplainHTML string
	// PastCap counts the pairs of a baseline run that ran past
	// Options.ExtendPast suite runs.
	PastCap int

	// Options are the options the run went by: those given, with the
	// seed and, for a resumed run, the raw file resolved.
	Options *Options
	// Order lists the benchmarks of Head in the order they were found in
	// the source, which the results files and the table of results keep.
	Order []record.Key

	// minimumBudget estimates, before the run, the budget that gives
	// every benchmark render.FewestProcesses processes, preparation
	// included; prepTime is the preparation.
	minimumBudget, prepTime time.Duration
}

// Failed returns the number of benchmarks and packages that failed.
func (r *Result) Failed() int { return len(r.Summary.Failed) + len(r.PrepareFailures) }

// FailedText says what failed, as "1 benchmark and 2 packages".
func (r *Result) FailedText() string {
	benches, pkgs := len(r.Summary.Failed), 0
	for _, f := range r.PrepareFailures {
		if f.Bench == "" {
			pkgs++
		} else {
			benches++
		}
	}
	switch {
	case pkgs == 0:
		return plural(benches, "benchmark")
	case benches == 0:
		return plural(pkgs, "package")
	}
	return plural(benches, "benchmark") + " and " + plural(pkgs, "package")
}

// Interrupted reports whether the run was stopped before its end.
func (r *Result) Interrupted() bool { return r.Summary.Interrupted }

// NeededBudget estimates the budget that gives every benchmark
// render.FewestProcesses processes: from the time its iterations took in
// this run, which counts the processes' start and calibration that the
// estimate made before the run, from slice times alone, leaves out.
func (r *Result) NeededBudget() time.Duration {
	need := r.minimumBudget
	if sum := r.Summary; sum.Iterations > 0 {
		per := (sum.Wall() - r.prepTime) / time.Duration(sum.Iterations)
		need = max(need, r.prepTime+per*time.Duration(sum.Benchmarks*render.FewestProcesses))
	}
	return need
}

// WriteSummary writes the end-of-run summary to w. Its first line is the
// run's one final line: what was measured and in how long.
func (r *Result) WriteSummary(w io.Writer) {
	sum, o := r.Summary, r.Options
	wall := sum.Wall()
	state := "done"
	switch {
	case r.Stopped != nil:
		state = "stopped"
	case sum.Interrupted:
		state = "interrupted"
	}
	fmt.Fprintf(w, "\ngobench-dyn: %s: %s, %s, %s (%d warmup) in %s\n",
		state, plural(sum.Benchmarks, "benchmark"), plural(sum.Iterations, "iteration"), plural(sum.Slices, "measurement slice"), sum.Warmup, render.Duration(wall))
	// Time inside a slice holds the setup each call of the benchmark
	// pays, so only the time inside the timer says what measuring got.
	fmt.Fprintf(w, "  time inside the timer %.0f%% of the measuring phase (%s of %s); inside slices, setup included, %.0f%% of wall; harness CPU %s (%.1f%% of wall)\n",
		100*sum.TimerShare(), render.Duration(sum.InTimer), render.Duration(sum.Measuring()),
		100*sum.Efficiency(), render.Duration(sum.HarnessCPU), 100*float64(sum.HarnessCPU)/float64(max(wall, 1)))
	if r.GoTest > 0 && sum.Iterations > 0 {
		fmt.Fprintf(w, "  %s of %s each on average, against about %s for one go test -bench pass of these benchmarks (its ramp from the calibration, without setup): %.2f×\n",
			plural(sum.Iterations, "process"), render.Duration(wall/time.Duration(sum.Iterations)), render.Duration(r.GoTest), float64(wall)/float64(r.GoTest))
	}
	if r.Unaffected > 0 {
		fmt.Fprintf(w, "  unaffected: %s not measured: %s no code and %s no file that differs from --baseline %s\n",
			plural(r.Unaffected, "benchmark"), pick(r.Unaffected == 1, "it executes", "they execute"), pick(r.Unaffected == 1, "reads", "read"), o.Baseline)
	}
	if o.Stop.Criterion != stopper.None {
		fmt.Fprintf(w, "  --stop %s: %s stable early, %d ran to the cap before the criterion held; criteria took %s (%.2f%% of wall)\n",
			o.Stop.Criterion, plural(sum.Stopped-sum.OutOfReach-sum.Settled-sum.NoVerdict-sum.AtCap, "benchmark"), sum.CapHit, render.Duration(sum.Criterion), 100*float64(sum.Criterion)/float64(max(wall, 1)))
		if sum.OutOfReach > 0 {
			fmt.Fprintf(w, "  out of reach: %d stopped early, predicted to need over %d times the processes of the cap for the target\n", sum.OutOfReach, stopper.OutOfReach)
		}
		if sum.Settled > 0 {
			fmt.Fprintf(w, "  --sequential: %s stopped with their baseline once their verdict was decided\n", plural(sum.Settled, "benchmark"))
		}
		if sum.NoVerdict > 0 {
			fmt.Fprintf(w, "  --sequential: %s stopped with their baseline, inconclusive: a verdict within the cap was predicted at under %g%% chance\n", plural(sum.NoVerdict, "benchmark"), 100*gate.OutOfReach)
		}
		if o.ExtendPast > 0 && r.PastCap+sum.AtCap > 0 {
			fmt.Fprintf(w, "  --budget: %s ran past %d process pairs, up to %d, because their interval excluded zero: the change was shown, not yet its size against ±%.3g%%; %d stopped undecided at %d\n",
				plural(r.PastCap, "pair"), o.ExtendPast, o.SuiteRuns, 100*o.Compare.Threshold, sum.AtCap/2, o.ExtendPast)
		}
		if !sum.Interrupted && len(sum.BudgetCut) == 0 {
			// A partial run never reached the cap it would be measured
			// against: it saved nothing, it stopped. So with a budget
			// that cut benchmarks short.
			fmt.Fprintf(w, "  time %s against about %s for the cap configuration (%.0f%% saved)\n",
				render.Duration(wall), render.Duration(sum.CapEstimate), 100*(1-float64(wall)/float64(max(sum.CapEstimate, 1))))
		}
	}
	if sum.Padded > 0 {
		fmt.Fprintf(w, "  %d padding iterations kept late suite runs interleaved\n", sum.Padded)
	}
	if len(sum.BudgetCut) > 0 {
		fmt.Fprintf(w, "  --budget %s cut %s short before %s stable\n", o.Budget, plural(len(sum.BudgetCut), "benchmark"), pick(len(sum.BudgetCut) == 1, "it was", "they were"))
	}
	writeTogether(w, sum.Together)
	for i, e := range r.Unsettled {
		if i == listed {
			fmt.Fprintf(w, "  NOT STEADY: %d more still getting faster at the end of their warmup\n", len(r.Unsettled)-listed)
			break
		}
		fmt.Fprintf(w, "  NOT STEADY %s: %s; its mean holds part of that transient, which go test's ramp runs before the b.N it reports (--warmup-max %d warms it longer)\n",
			e.Key().Bench.String(), e.Unsettled, 2*e.Unsettled.Slices)
	}
	for i, a := range r.Amortized {
		if i == listed {
			fmt.Fprintf(w, "  NOT STEADY: %d more whose time per op falls as b.N grows\n", len(r.Amortized)-listed)
			break
		}
		fmt.Fprintf(w, "  NOT STEADY %s: its time per op falls as b.N grows, %s at b.N = %d and %s at b.N = %d: each call of the benchmark function costs time that b.N spreads, so go test's larger b.N reports less\n",
			a.Key.Bench.String(), render.NewScale("ns/op", a.LowNs).Value(a.LowNs), a.LowN, render.NewScale("ns/op", a.HighNs).Value(a.HighNs), a.HighN)
	}
	for i, d := range r.Drifting {
		if i == listed {
			fmt.Fprintf(w, "  NOT STEADY: %d more\n", len(r.Drifting)-listed)
			break
		}
		fmt.Fprintf(w, "  NOT STEADY %s: its slices drift %+.1f%% inside each process (Mann-Kendall z = %.1f); gobench-dyn steady shows where it settles, if it does\n",
			d.Key.Bench.String(), 100*d.Trend.Change, d.Trend.Z)
	}
	writeNonFinite(w, r.NonFinite)
	failed := 0
	for _, f := range r.PrepareFailures {
		if failed++; failed <= listed {
			fmt.Fprintf(w, "  FAILED %s\n", strings.ReplaceAll(f.Error(), "\n", "\n  "))
		}
	}
	for _, f := range sum.Failed {
		if failed++; failed <= listed {
			fmt.Fprintf(w, "  FAILED %s\n", f.Error())
			if d := strings.TrimSpace(f.Detail); d != "" {
				fmt.Fprintln(w, indentAll(tail(d, 20)))
			}
		}
	}
	if failed > listed {
		fmt.Fprintf(w, "  FAILED: %d more; --raw keeps each failure's output\n", failed-listed)
	}
	switch {
	case r.Stopped != nil && sum.Interrupted && o.Raw != "":
		fmt.Fprintf(w, "  STOPPED: an output failed; the results are partial; --resume %s completes them\n", o.Raw)
	case r.Stopped != nil && sum.Interrupted:
		fmt.Fprintln(w, "  STOPPED: an output failed; the results are partial")
	case r.Stopped != nil:
	case sum.Interrupted && o.Raw != "":
		fmt.Fprintf(w, "  INTERRUPTED: the results are partial; --resume %s completes them\n", o.Raw)
	case sum.Interrupted:
		fmt.Fprintln(w, "  INTERRUPTED: the results are partial")
	}
	r.writeTable(w)
}

// listed is the most drifting benchmarks and failures the summary names
// one by one; the rest are counted.
const listed = 10

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

// goTestTime returns about how long one go test -bench pass of the
// benchmarks of p would take, or 0 for a comparison of two versions.
func goTestTime(p *prepared) time.Duration {
	if p.base != nil {
		return 0
	}
	var d time.Duration
	for _, b := range p.head.Benchmarks {
		d += rmit.GoTestTime(b.Probed, rmit.DefaultBenchtime)
	}
	return d
}
