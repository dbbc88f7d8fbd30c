package runreport

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// WriteSummary writes the end-of-run summary of r to w, ending with the
// table of results. Its first line is the run's one final line: what was
// measured and in how long.
func WriteSummary(w io.Writer, r *session.Result) {
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
		state, render.Plural(sum.Benchmarks, "benchmark"), render.Plural(sum.Iterations, "iteration"), render.Plural(sum.Slices, "measurement slice"), sum.Warmup, render.Duration(wall))
	// Time inside a slice holds the setup each call of the benchmark
	// pays, so only the time inside the timer says what measuring got.
	fmt.Fprintf(w, "  time inside the timer %.0f%% of the measuring phase (%s of %s); inside slices, setup included, %.0f%% of wall; harness CPU %s (%.1f%% of wall)\n",
		100*sum.TimerShare(), render.Duration(sum.InTimer), render.Duration(sum.Measuring()),
		100*sum.Efficiency(), render.Duration(sum.HarnessCPU), 100*float64(sum.HarnessCPU)/float64(max(wall, 1)))
	if sum.Linked > 0 {
		// A gate of a package with few benchmarks can spend more on
		// these links than on its processes (docs/GATE.md, "Where a
		// gate's time goes").
		fmt.Fprintf(w, "  links: %s of randomised layouts made while measuring took %s (%.0f%% of the measuring phase)\n",
			render.Plural(sum.Linked, "link"), render.Duration(sum.Linking), 100*float64(sum.Linking)/float64(max(sum.Measuring(), 1)))
	}
	if r.GoTest > 0 && sum.Processes > 0 {
		// The run's wall holds its build, and so does a go test pass's:
		// without it, a suite of many packages and few benchmarks read
		// as costing half a pass more than it did.
		pass := r.GoTest + r.Building
		fmt.Fprintf(w, "  %s of %s each on average, against about %s for one go test -bench pass of these benchmarks (its build as long as this run's, %s; its ramp from the calibration, its setups from the slices): %.2f×\n",
			render.Plural(sum.Processes, "process"), render.Duration(wall/time.Duration(sum.Processes)), render.Duration(pass), render.Duration(r.Building), float64(wall)/float64(pass))
	}
	if r.Unaffected > 0 {
		fmt.Fprintf(w, "  unaffected: %s not measured: %s no code and %s no file that differs from --baseline %s\n",
			render.Plural(r.Unaffected, "benchmark"), pick(r.Unaffected == 1, "it executes", "they execute"), pick(r.Unaffected == 1, "reads", "read"), o.Baseline)
	}
	if o.Stop.Criterion != stopper.None {
		fmt.Fprintf(w, "  --stop %s: %s stable early, %d ran to the cap before the criterion held; criteria took %s (%.2f%% of wall)\n",
			o.Stop.Criterion, render.Plural(sum.Stopped-sum.OutOfReach-sum.Settled-sum.NoVerdict-sum.AtCap, "benchmark"), sum.CapHit, render.Duration(sum.Criterion), 100*float64(sum.Criterion)/float64(max(wall, 1)))
		if sum.OutOfReach > 0 {
			fmt.Fprintf(w, "  out of reach: %d stopped early, predicted to need over %d times the processes of the cap for the target\n", sum.OutOfReach, stopper.OutOfReach)
		}
		if sum.Settled > 0 {
			fmt.Fprintf(w, "  --sequential: %s stopped with their baseline once their verdict was decided\n", render.Plural(sum.Settled, "benchmark"))
		}
		if sum.NoVerdict > 0 {
			fmt.Fprintf(w, "  --sequential: %s stopped with their baseline, inconclusive: a verdict within the cap was predicted at under %g%% chance\n", render.Plural(sum.NoVerdict, "benchmark"), 100*gate.OutOfReach)
		}
		if o.ExtendPast > 0 && r.PastCap+sum.AtCap > 0 {
			fmt.Fprintf(w, "  --budget: %s ran past %d process pairs, up to %d, because their interval excluded zero: the change was shown, not yet its size against ±%.3g%%; %d stopped undecided at %d\n",
				render.Plural(r.PastCap, "pair"), o.ExtendPast, o.SuiteRuns, 100*o.Compare.Threshold, sum.AtCap/2, o.ExtendPast)
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
	beyond, target := beyondCap(r)
	switch cut := len(sum.BudgetCut); {
	case cut > 0 && r.AutoBudget > 0:
		fmt.Fprintf(w, "  --budget auto: about one go test -bench pass as the calibration priced it, %s, cut %s short before %s stable, each after at least %s; %s\n",
			render.Duration(r.AutoBudget), render.Plural(cut, "benchmark"), pick(cut == 1, "it was", "they were"), render.Plural(max(1, o.Stop.MinIterations), "process"), pastBudget(r, beyond, target))
	case cut > 0:
		past := ""
		if beyond > 0 {
			past = "; " + pastBudget(r, beyond, target)
		}
		fmt.Fprintf(w, "  --budget %s cut %s short before %s stable%s\n", o.Budget, render.Plural(cut, "benchmark"), pick(cut == 1, "it was", "they were"), past)
	}
	if sum.BeyondBudget > 0 {
		fmt.Fprintf(w, "  out of reach within the budget: %d of them, each predicted to stop, at its target or as out of reach of it, only after more processes than the budget had left once the benchmarks predicted to stop sooner had theirs\n", sum.BeyondBudget)
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
	for i, ts := range r.TwoSpeeds {
		if i == listed {
			fmt.Fprintf(w, "  TWO SPEEDS: %d more\n", len(r.TwoSpeeds)-listed)
			break
		}
		s := ts.Speeds
		fmt.Fprintf(w, "  TWO SPEEDS %s: %s, each steady inside; a go test pass is one process and reads one of them, and the mean lies between\n",
			ts.Key.Bench.String(), render.TwoSpeeds(s.Fast, s.Slow, s.Gap))
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
	writeTable(w, r)
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

// pastBudget says what lifting the budget would buy the benchmarks it cut
// short, beyond of them past the cap for target (beyondCap). Under the
// interval criterion, one predicted to need over stopper.OutOfReach times
// the cap for its target stops as out of reach a process later whatever
// the budget: on a machine whose processes spread far, that is most of a
// suite, and a longer budget is not what they lack.
func pastBudget(r *session.Result, beyond int, target float64) string {
	if beyond == 0 {
		return "--budget 0 runs each to its criterion"
	}
	reach := fmt.Sprintf("over %d processes for %s, %d times the cap", outOfReachLimit(r.Options), render.Precision(target, 0, 0), stopper.OutOfReach)
	if n := len(r.Summary.BudgetCut); beyond < n {
		others := pick(n-beyond == 1, "the other one to its criterion", fmt.Sprintf("the other %d to their criterion", n-beyond))
		return fmt.Sprintf("%d of them %s predicted to need %s, and --budget 0 would stop %s as out of reach; it runs %s", beyond, pick(beyond == 1, "is", "are"), reach, pick(beyond == 1, "it", "them"), others)
	}
	return fmt.Sprintf("%s predicted to need %s, and --budget 0 would stop %s as out of reach", pick(beyond == 1, "it is", "each is"), reach, pick(beyond == 1, "it", "them"))
}

// outOfReachLimit is the processes past which the interval criterion
// stops a benchmark as out of reach of its target.
func outOfReachLimit(o *session.Options) int { return stopper.OutOfReach * o.SuiteRuns * o.Iterations }

// beyondCap counts the benchmarks the budget cut short that are predicted
// to need more than outOfReachLimit processes for their target, and
// returns that target.
func beyondCap(r *session.Result) (n int, target float64) {
	sum, o := r.Summary, r.Options
	if o.Stop.Criterion != stopper.Interval || outOfReachLimit(o) <= 0 {
		return 0, 0
	}
	cut := map[record.Key]bool{}
	for _, b := range sum.BudgetCut {
		cut[b.Key()] = true
	}
	for _, p := range sum.Precision {
		if pr := p.Precision; cut[p.Bench.Key()] && pr.Known() && pr.Target > 0 && pr.Width > pr.Target && pr.Processes > outOfReachLimit(o) {
			n, target = n+1, pr.Target
		}
	}
	return n, target
}
