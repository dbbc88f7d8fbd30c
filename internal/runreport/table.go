package runreport

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/progress"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper/policy"
)

// The statuses of a benchmark at the end of a run, worst first: the order
// in which a large suite's table shows its few worst cases.
const (
	statusFailed = "failed"
	statusUnrun  = "never run: the budget ran out first"
	statusCut    = "cut by the budget"
	// A benchmark cut while its interval was at the target had not yet
	// held there at the consecutive processes a stop asks for.
	statusCutAtTarget = "at the target once, then cut by the budget"
	statusOutOfReach  = "out of reach"
	// A benchmark cut by the budget where its stop was predicted
	// beyond what was left of it (rmit.Runner's fitBudget).
	statusBeyondBudget = "out of reach within the budget"
	statusCap          = "unstable at the cap"
	statusPartial      = "interrupted"
	statusNotRun       = "not run"
	statusDone         = "done"
	statusDecided      = "verdict decided"
	statusNoVerdict    = "verdict out of reach"
	statusStable       = "stable"
)

var statusRank = map[string]int{
	statusFailed: 0, statusUnrun: 1, statusCut: 2, statusBeyondBudget: 3, statusOutOfReach: 4, statusCap: 5, statusPartial: 6, statusNotRun: 7,
	statusNoVerdict: 8, statusDone: 9, statusDecided: 10, statusCutAtTarget: 11, statusStable: 12,
}

// tableRows is the most rows the table shows: a suite with more gets its
// counts and its worstRows worst cases, so that the summary fits a
// screen, and every benchmark stays in the results files and the raw
// records.
const (
	tableRows = progress.QuietAbove
	worstRows = 10
)

// A resultRow is one benchmark of the code under test as the run left it.
type resultRow struct {
	pkg, name string
	mean      float64 // of its process means, in unit; NaN when unknown
	unit      string  // the unit it was judged by, as reported: "ns/op"
	precision policy.Precision
	processes int
	status    string
	// between is the share of a process mean's variance that lies
	// between its processes; NaN when unknown.
	between float64
}

// tooFew reports whether the row's interval rests on too few processes
// to say anything.
func (r *resultRow) tooFew() bool { return r.processes < render.FewestProcesses }

// resultRows returns a row per benchmark of the code under test, in the
// order they were found in the source.
func resultRows(r *session.Result) []*resultRow {
	sum := r.Summary
	means := processMeans(r.Head)
	prec := map[record.Key]rmit.BenchPrecision{}
	for _, p := range sum.Precision {
		prec[p.Bench.Key()] = p
	}
	failed := map[record.Key]*rmit.Failure{}
	for _, f := range sum.Failed {
		failed[f.Bench.Key()] = f
	}
	cut := map[record.Key]bool{}
	for _, b := range sum.BudgetCut {
		cut[b.Key()] = true
	}
	stops := map[record.Key]*record.Event{}
	for i := range r.Head.Events {
		if ev := &r.Head.Events[i]; ev.Event == record.EventStop {
			stops[ev.Key()] = ev
		}
	}
	var rows []*resultRow
	for _, k := range r.Order {
		row := &resultRow{pkg: k.Package, name: k.Benchmark, mean: math.NaN(), precision: policy.Precision{Width: math.NaN()}, between: math.NaN()}
		if m, ok := means[k]; ok {
			row.mean, row.unit, row.between = m.mean, m.unit, m.between
		}
		if p, ok := prec[k]; ok {
			row.precision, row.processes = p.Precision, p.Iterations
		}
		row.status = status(failed[k], cut[k], stops[k], sum.Interrupted)
		switch pr := row.precision; {
		case row.status == statusCut && row.processes == 0:
			row.status = statusUnrun
		case row.status == statusCut && !row.tooFew() && pr.Known() && pr.Target > 0 && pr.Width <= pr.Target:
			row.status = statusCutAtTarget
		}
		rows = append(rows, row)
	}
	return rows
}

// status says what became of a benchmark: whether it failed, the budget
// cut it short, and why it stopped.
func status(f *rmit.Failure, cut bool, stop *record.Event, interrupted bool) string {
	switch {
	case f != nil:
		// The summary's FAILED lines above give the reason.
		return statusFailed
	case cut && stop != nil && stop.Reason == record.ReasonBeyondBudget:
		return statusBeyondBudget
	case cut:
		return statusCut
	case stop == nil && interrupted:
		return statusPartial
	case stop == nil:
		return statusNotRun
	case stop.Met:
		return statusStable
	case stop.Reason == record.ReasonOutOfReach:
		return statusOutOfReach
	case stop.Reason == record.ReasonSettled:
		return statusDecided
	case stop.Reason == record.ReasonNoVerdict:
		return statusNoVerdict
	case stop.Reason == "configuration done":
		return statusDone
	}
	return statusCap
}

// procMean is a benchmark's mean over its process means in unit, and the
// share of their variance that lies between processes (NaN when unknown).
type procMean struct {
	mean    float64
	unit    string
	between float64
}

// processMeans returns the mean of the process means of every benchmark
// of run, in the unit it was judged by (rmit.PrimaryUnit): each process
// weighs the same, as in the interval the policy gives.
func processMeans(run *record.Run) map[record.Key]procMean {
	type acc struct {
		unit  string
		procs map[record.Process][]float64
		order []record.Process
	}
	accs := map[record.Key]*acc{}
	for i := range run.Slices {
		s := &run.Slices[i]
		if s.Warmup {
			continue
		}
		a := accs[s.Key()]
		if a == nil {
			a = &acc{unit: rmit.PrimaryUnit(s.Values), procs: map[record.Process][]float64{}}
			accs[s.Key()] = a
		}
		v, ok := s.Values[a.unit]
		if !ok {
			continue
		}
		p := s.Process()
		if _, seen := a.procs[p]; !seen {
			a.order = append(a.order, p)
		}
		a.procs[p] = append(a.procs[p], v)
	}
	out := map[record.Key]procMean{}
	for k, a := range accs {
		procs := make([][]float64, len(a.order))
		for i, p := range a.order {
			procs[i] = a.procs[p]
		}
		if c := stats.FitComponents(procs); c.Processes > 0 {
			out[k] = procMean{mean: c.Mean, unit: a.unit, between: c.BetweenShare()}
		}
	}
	return out
}

// cells formats the row for the table: benchmark, mean, ±, processes and
// status.
func (r *resultRow) cells() [5]string {
	mean := "—"
	if !math.IsNaN(r.mean) {
		sc := render.NewScale(r.unit, r.mean)
		mean = sc.Format(r.mean) + " " + sc.Unit()
	}
	pm, note := "—", ""
	switch {
	case r.processes == 0 || r.status == statusFailed:
	case r.tooFew():
		note = join(note, "too few processes to tell")
	case r.precision.Known():
		s := r.precision.String()
		head, projection, _ := strings.Cut(s, "; ")
		pm = head
		if r.status != statusStable {
			note = join(note, projection)
		}
	}
	procs := "0"
	if r.processes > 0 {
		procs = fmt.Sprint(r.processes)
	}
	return [5]string{r.name, mean, pm, procs, join(r.status, note)}
}

func join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// worse orders rows worst first: by status, then the widest interval,
// then the fewest processes.
func worse(a, b *resultRow) int {
	wa, wb := a.precision.Width, b.precision.Width
	if a.tooFew() || math.IsNaN(wa) {
		wa = math.Inf(1)
	}
	if b.tooFew() || math.IsNaN(wb) {
		wb = math.Inf(1)
	}
	return cmp.Or(
		cmp.Compare(statusRank[a.status], statusRank[b.status]),
		-cmp.Compare(wa, wb),
		cmp.Compare(a.processes, b.processes),
	)
}

// writeTable writes the results of the code under test as an aligned
// table: benchmark, mean in benchstat's units, the ± of its interval over
// processes, processes and status, grouped by package in source order.
// A suite of more than tableRows benchmarks gets its counts and the
// worstRows worst cases instead; the results files, the raw records and
// gobench-dyn report hold every benchmark.
func writeTable(w io.Writer, r *session.Result) {
	rows := resultRows(r)
	if len(rows) == 0 {
		return
	}
	shown := rows
	if len(rows) > tableRows {
		shown = slices.Clone(rows)
		slices.SortStableFunc(shown, worse)
		n := 0
		for n < len(shown) && n < worstRows && shown[n].status != statusStable {
			n++
		}
		shown = shown[:n]
		// Back in source order, for reading.
		rank := map[*resultRow]int{}
		for i, row := range rows {
			rank[row] = i
		}
		slices.SortFunc(shown, func(a, b *resultRow) int { return cmp.Compare(rank[a], rank[b]) })
	}
	conf := 0.95
	for _, row := range rows {
		if row.precision.Known() {
			conf = row.precision.Confidence
			break
		}
	}
	fmt.Fprintf(w, "\n  %s\n", counts(rows))
	writeTooFew(w, r, rows)
	writeSpread(w, r, rows)
	if len(shown) < len(rows) {
		fmt.Fprintf(w, "  the %d worst, ties in source order (every benchmark is in the results%s):\n", len(shown), whereAll(r))
	}
	if len(shown) > 0 {
		writeAligned(w, shown, "±"+render.Confidence(conf))
	}
}

// writeAligned writes rows under a header, each package's name on a line
// of its own above its benchmarks, columns aligned across packages.
func writeAligned(w io.Writer, rows []*resultRow, pmHeader string) {
	head := [5]string{"benchmark", "mean", pmHeader, "processes", "status"}
	cells := make([][5]string, len(rows))
	var width [5]int
	for i := range head {
		width[i] = len([]rune(head[i]))
	}
	for i, row := range rows {
		cells[i] = row.cells()
		cells[i][0] = "  " + cells[i][0]
		for j, c := range cells[i] {
			width[j] = max(width[j], len([]rune(c)))
		}
	}
	line := func(c [5]string) {
		var b strings.Builder
		b.WriteString("  ")
		for j, s := range c {
			if j == len(c)-1 {
				b.WriteString(s)
				break
			}
			pad := width[j] - len([]rune(s))
			if j == 2 || j == 3 { // numbers right-aligned
				b.WriteString(strings.Repeat(" ", pad) + s)
			} else {
				b.WriteString(s + strings.Repeat(" ", pad))
			}
			b.WriteString("  ")
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	line(head)
	pkg := ""
	for i, row := range rows {
		if row.pkg != pkg {
			pkg = row.pkg
			fmt.Fprintf(w, "  %s\n", pkg)
		}
		line(cells[i])
	}
}

// counts says how many benchmarks ended in each status, and the target.
func counts(rows []*resultRow) string {
	n := map[string]int{}
	for _, row := range rows {
		n[row.status]++
	}
	statuses := make([]string, 0, len(n))
	for s := range n {
		statuses = append(statuses, s)
	}
	slices.SortFunc(statuses, func(a, b string) int { return cmp.Compare(statusRank[b], statusRank[a]) })
	parts := make([]string, len(statuses))
	for i, s := range statuses {
		parts[i] = fmt.Sprintf("%d %s", n[s], s)
	}
	out := fmt.Sprintf("%s: %s", render.Plural(len(rows), "benchmark"), strings.Join(parts, ", "))
	for _, row := range rows {
		if row.precision.Known() && row.precision.Target > 0 {
			out += fmt.Sprintf(" (target %s, %s interval of each mean over its processes)", render.Precision(row.precision.Target, 0, 0), render.Confidence(row.precision.Confidence))
			break
		}
	}
	return out
}

// whereAll names the files that hold every benchmark of a large suite.
func whereAll(r *session.Result) string {
	if r.Options.Raw != "" {
		return " and in --raw " + r.Options.Raw
	}
	return ""
}

// writeTooFew says what to do about the benchmarks whose processes were
// too few to tell how precise their means are.
func writeTooFew(w io.Writer, r *session.Result, rows []*resultRow) {
	few := 0
	for _, row := range rows {
		if row.processes > 0 && row.tooFew() && row.status != statusFailed {
			few++
		}
	}
	if few == 0 {
		return
	}
	what := fmt.Sprintf("  %s ran fewer than %d processes, too few to tell how precise %s",
		render.Plural(few, "benchmark"), render.FewestProcesses, pick(few == 1, "its mean is", "their means are"))
	switch {
	case r.Options.Budget > 0 && r.NeededBudget() > r.Options.Budget:
		what += fmt.Sprintf(": --budget %s would give each %d", render.DurationUp(r.NeededBudget()), render.FewestProcesses)
	case r.Options.Budget > 0:
		what += ": a longer --budget gives them more"
	default:
		what += fmt.Sprintf(": --suite-runs × --iterations of at least %d gives them enough", render.FewestProcesses)
	}
	fmt.Fprintln(w, what)
}

// writeSpread says, for a run of one version whose benchmarks fell short
// of the target, where the spread of their process means lies when it
// lies mostly between processes: that is the machine's state and the
// process's own layout at each start, which longer processes cannot
// average out (docs/EVALUATION.md, "Where the noise goes").
func writeSpread(w io.Writer, r *session.Result, rows []*resultRow) {
	if r.Options.Baseline != "" {
		return
	}
	var shares []float64
	for _, row := range rows {
		pr := row.precision
		if pr.Known() && pr.Target > 0 && pr.Width > pr.Target && !row.tooFew() && !math.IsNaN(row.between) {
			shares = append(shares, row.between)
		}
	}
	if len(shares) == 0 {
		return
	}
	median := stats.MedianInPlace(shares)
	if median < 0.5 {
		return
	}
	fmt.Fprintf(w, "  the spread is between processes: for the median of the %s short of the target, %.0f%% of a process mean's variance lies between processes, which slices inside one do not average out; more processes narrow %s (a longer --budget), and --baseline, pairing two versions in each suite run, cancels what they share\n",
		render.Plural(len(shares), "benchmark"), 100*median, pick(len(shares) == 1, "its interval", "their intervals"))
}

func pick(one bool, a, b string) string {
	if one {
		return a
	}
	return b
}
