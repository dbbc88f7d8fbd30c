package main

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchmath"
)

// benchstatVerdict judges two samples as benchstat does: the Mann–Whitney
// U test at α = 0.05 (benchmath.AssumeNothing); "~" when it does not
// reject, otherwise "regression" or "improvement" by the medians.
func benchstatVerdict(base, head []float64) string {
	th := benchmath.DefaultThresholds
	b, h := benchmath.NewSample(base, &th), benchmath.NewSample(head, &th)
	c := benchmath.AssumeNothing.Compare(b, h)
	if c.FormatDelta(1, 2) == "~" {
		return "~"
	}
	bm := benchmath.AssumeNothing.Summary(b, 0.95).Center
	hm := benchmath.AssumeNothing.Summary(h, 0.95).Center
	switch {
	case hm > bm:
		return "regression"
	case hm < bm:
		return "improvement"
	}
	return "~"
}

// parseFactors reads -factors: comma-separated slowdowns in [0, 10).
func parseFactors(s string) ([]float64, error) {
	var fs []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(v >= 0 && v < 10) {
			return nil, fmt.Errorf("slowdown %q: want a number in [0, 10)", f)
		}
		fs = append(fs, v)
	}
	return fs, nil
}

// An injectKey is a slowed function of a suite and its factor.
type injectKey struct {
	suite, name string
	v           float64
}

// A verdictCell gathers the verdicts one workflow gave under one key, on
// the benchmarks the function dominates (affected) or on the others.
type verdictCell struct {
	key      injectKey
	workflow string
	affected bool
}

// injectTally counts verdicts, wall time and unit spreads of each workflow
// by slowed function and factor.
type injectTally struct {
	verdicts map[verdictCell]map[string]int
	wall     map[injectKey]map[string]time.Duration
	runs     map[injectKey]map[string]int
	spreads  map[injectKey]map[string][]float64
	pairs    map[injectKey]map[string]int
	factors  []float64
}

func newInjectTally() *injectTally {
	return &injectTally{verdicts: map[verdictCell]map[string]int{}, wall: map[injectKey]map[string]time.Duration{},
		runs: map[injectKey]map[string]int{}, spreads: map[injectKey]map[string][]float64{}, pairs: map[injectKey]map[string]int{}}
}

// add records one benchmark's verdict; affected says whether the slowed
// function dominates the benchmark (false for the controls).
func (t *injectTally) add(k injectKey, workflow string, affected bool, verdict string) {
	c := verdictCell{k, workflow, affected}
	if t.verdicts[c] == nil {
		t.verdicts[c] = map[string]int{}
	}
	t.verdicts[c][verdict]++
	t.verdicts[c][""]++
	if !slices.Contains(t.factors, k.v) {
		t.factors = append(t.factors, k.v)
	}
}

// addPairs adds the process pairs one benchmark's comparison ran.
func (t *injectTally) addPairs(k injectKey, workflow string, n int) {
	if t.pairs[k] == nil {
		t.pairs[k] = map[string]int{}
	}
	t.pairs[k][workflow] += n
}

// addTime adds the wall time of one run of a workflow.
func (t *injectTally) addTime(k injectKey, workflow string, d time.Duration) {
	if t.wall[k] == nil {
		t.wall[k], t.runs[k] = map[string]time.Duration{}, map[string]int{}
	}
	t.wall[k][workflow] += d
	t.runs[k][workflow]++
}

// addSpread records the spread of the units of one affected benchmark's
// comparison.
func (t *injectTally) addSpread(k injectKey, workflow string, sd float64) {
	if math.IsNaN(sd) {
		return
	}
	if t.spreads[k] == nil {
		t.spreads[k] = map[string][]float64{}
	}
	t.spreads[k][workflow] = append(t.spreads[k][workflow], sd)
}

// perRun returns the mean wall time of one run of a workflow under k.
func (t *injectTally) perRun(k injectKey, workflow string) time.Duration {
	if n := t.runs[k][workflow]; n > 0 {
		return t.wall[k][workflow] / time.Duration(n)
	}
	return 0
}

// falseAlarms counts any change claimed where none was injected, and an
// improvement where a slowdown was.
func falseAlarms(m map[string]int, v float64) int {
	if v == 0 {
		return m["regression"] + m["improvement"]
	}
	return m["improvement"]
}

func frac(k, n int) string {
	if n == 0 {
		return "—"
	}
	return fmt.Sprintf("%d/%d", k, n)
}

// gateCell formats a gate workflow's verdicts: found (regressions, "—"
// for A/A), false alarms, no change, inconclusive.
func gateCell(m map[string]int, v float64) string {
	found := "—"
	if v != 0 {
		found = frac(m["regression"], m[""])
	}
	return fmt.Sprintf("%s · %s · %s · %s", found, frac(falseAlarms(m, v), m[""]), frac(m["no change"], m[""]), frac(m["inconclusive"], m[""]))
}

// table formats the tally as a Markdown table: a row per suite, target
// and factor on the benchmarks it dominates, then a row of each suite's
// controls (the benchmarks a slowed function does not dominate).
func (t *injectTally) table(suites []injectSuite) string {
	var b strings.Builder
	b.WriteString("| suite | function | v | slice-paired: found · false alarm · no change · inconclusive | the same before confirmation | process-paired: the same | go test + benchstat: found · false alarm · ~ | unit sd, slice / process (median) | wall per run: slice / process / go test | slice : go test |\n")
	b.WriteString("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	bsCell := func(m map[string]int, v float64) string {
		found := "—"
		if v != 0 {
			found = frac(m["regression"], m[""])
		}
		return fmt.Sprintf("%s · %s · %s", found, frac(falseAlarms(m, v), m[""]), frac(m["~"], m[""]))
	}
	for _, su := range suites {
		controls := map[string]map[string]int{wfSlice: {}, wfDiscovery: {}, wfProcess: {}, wfBenchstat: {}}
		for _, tg := range su.targets {
			for _, v := range t.factors {
				k := injectKey{su.key, tg.name, v}
				if t.verdicts[verdictCell{k, wfSlice, true}] == nil && t.verdicts[verdictCell{k, wfBenchstat, true}] == nil {
					continue
				}
				for _, w := range injectWorkflows {
					for verdict, n := range t.verdicts[verdictCell{k, w, false}] {
						controls[w][verdict] += n
					}
				}
				ratio := "—"
				if g := t.perRun(k, wfBenchstat); g > 0 {
					ratio = fmt.Sprintf("%.2f×", t.perRun(k, wfSlice).Seconds()/g.Seconds())
				}
				fmt.Fprintf(&b, "| %s | %s (%s) | %+.0f%% | %s | %s | %s | %s | %s / %s | %.1f / %.1f / %.1f s | %s |\n",
					su.key, tg.name, tg.kind, 100*v,
					gateCell(t.verdicts[verdictCell{k, wfSlice, true}], v), gateCell(t.verdicts[verdictCell{k, wfDiscovery, true}], v),
					gateCell(t.verdicts[verdictCell{k, wfProcess, true}], v),
					bsCell(t.verdicts[verdictCell{k, wfBenchstat, true}], v),
					pctOrDash(medianOf(t.spreads[k][wfSlice])), pctOrDash(medianOf(t.spreads[k][wfProcess])),
					t.perRun(k, wfSlice).Seconds(), t.perRun(k, wfProcess).Seconds(), t.perRun(k, wfBenchstat).Seconds(), ratio)
			}
		}
		if controls[wfSlice][""]+controls[wfBenchstat][""] > 0 {
			fmt.Fprintf(&b, "| %s | controls (unchanged benchmarks beside a slowed function) | 0%% | %s | %s | %s | %s | | | |\n",
				su.key, gateCell(controls[wfSlice], 0), gateCell(controls[wfDiscovery], 0), gateCell(controls[wfProcess], 0), bsCell(controls[wfBenchstat], 0))
		}
	}
	return b.String()
}

// goals sums the tally against the goals of the gate: detection of +10%
// (CPU-bound, allocating) and +5% (CPU-bound), "no change" and false
// alarms on every unchanged benchmark (A/A and controls), and the wall
// time of the slice-paired gate against go test + benchstat over the
// runs both made.
func (t *injectTally) goals(suites []injectSuite) string {
	type count struct{ k, n int }
	found := map[string]*count{}  // by workflow and cell
	same := map[string]*count{}   // unchanged: no change, by workflow and "aa" or "controls"
	alarms := map[string]*count{} // unchanged: false alarms, the same
	var slice, process, gotest time.Duration
	pairs := map[string]int{}
	get := func(m map[string]*count, k string) *count {
		if m[k] == nil {
			m[k] = &count{}
		}
		return m[k]
	}
	for _, su := range suites {
		for _, tg := range su.targets {
			for _, v := range t.factors {
				k := injectKey{su.key, tg.name, v}
				for _, w := range injectWorkflows {
					pairs[w] += t.pairs[k][w]
					aff, ctl := t.verdicts[verdictCell{k, w, true}], t.verdicts[verdictCell{k, w, false}]
					// Without a slowdown both sides are the same code: an
					// A/A; beside one, the unaffected benchmarks run the
					// same source in a rebuilt binary.
					unchanged := map[string]map[string]int{"controls": ctl}
					if v == 0 {
						unchanged["aa"] = mergeCounts(aff, ctl)
						delete(unchanged, "controls")
					} else if v == 0.05 || v == 0.10 {
						c := get(found, fmt.Sprintf("%s +%.0f%% %s", w, 100*v, tg.kind))
						c.k, c.n = c.k+aff["regression"], c.n+aff[""]
					}
					for kind, m := range unchanged {
						s, a := get(same, w+" "+kind), get(alarms, w+" "+kind)
						s.k, s.n = s.k+m["no change"], s.n+m[""]
						a.k, a.n = a.k+falseAlarms(m, 0), a.n+m[""]
					}
				}
				if n := t.runs[k][wfBenchstat]; n > 0 {
					slice += time.Duration(n) * t.perRun(k, wfSlice)
					process += time.Duration(n) * t.perRun(k, wfProcess)
					gotest += t.wall[k][wfBenchstat]
				}
			}
		}
	}
	var b strings.Builder
	b.WriteString("| goal | slice-paired | the same before confirmation | process-paired | go test + benchstat |\n|---|--:|--:|--:|--:|\n")
	row := func(name string, m map[string]*count, key func(w string) string) {
		fmt.Fprintf(&b, "| %s", name)
		for _, w := range injectWorkflows {
			c := m[key(w)]
			if c == nil || c.n == 0 {
				b.WriteString(" | —")
				continue
			}
			fmt.Fprintf(&b, " | %d/%d = %.0f%%", c.k, c.n, 100*float64(c.k)/float64(c.n))
		}
		b.WriteString(" |\n")
	}
	for _, g := range []struct{ name, cell string }{
		{"+10% found, CPU-bound (≥ 98%)", "+10% CPU-bound"},
		{"+10% found, allocating (≥ 95%)", "+10% allocating"},
		{"+5% found, CPU-bound (≥ 90%)", "+5% CPU-bound"},
		{"+5% found, allocating", "+5% allocating"},
	} {
		row(g.name, found, func(w string) string { return w + " " + g.cell })
	}
	row("A/A (the same code): called no change at ±3% (≥ 90%)", same, func(w string) string { return w + " aa" })
	row("A/A: called a change (≤ 1%)", alarms, func(w string) string { return w + " aa" })
	row("controls (the same source in a rebuilt binary): no change", same, func(w string) string { return w + " controls" })
	row("controls: called a change", alarms, func(w string) string { return w + " controls" })
	if gotest > 0 {
		fmt.Fprintf(&b, "| wall time against go test + benchstat (≤ 0.3×) | %.2f× (%.0f s : %.0f s) | | %.2f× (%.0f s) | 1× |\n",
			slice.Seconds()/gotest.Seconds(), slice.Seconds(), gotest.Seconds(), process.Seconds()/gotest.Seconds(), process.Seconds())
	}
	if d := pairs[wfDiscovery]; d > 0 {
		// The confirmation's price: its fresh pairs, against the pairs
		// the looks ran, which are all a run without it runs.
		fmt.Fprintf(&b, "| process pairs, every benchmark (confirmation: ≤ 1.15×) | %d (%.2f×) | %d | %d | |\n",
			pairs[wfSlice], float64(pairs[wfSlice])/float64(d), d, pairs[wfProcess])
	}
	return b.String()
}

// injectWorkflows are the workflows of the tally, in the order of the
// tables' columns.
var injectWorkflows = []string{wfSlice, wfDiscovery, wfProcess, wfBenchstat}

// mergeCounts returns the verdict counts of a and b together.
func mergeCounts(a, b map[string]int) map[string]int {
	m := maps.Clone(a)
	if m == nil {
		m = map[string]int{}
	}
	for k, n := range b {
		m[k] += n
	}
	return m
}

func medianOf(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func pctOrDash(x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}
