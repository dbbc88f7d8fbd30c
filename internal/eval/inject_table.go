package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchmath"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
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

// An injectKey is a slowed function and its factor.
type injectKey struct {
	name string
	v    float64
}

// A verdictCell gathers the verdicts one workflow gave under one key, on
// the benchmarks the function dominates (affected) or on the others.
type verdictCell struct {
	key      injectKey
	workflow string
	affected bool
}

// injectTally counts verdicts and wall time of the gate ("gate") and the
// usual workflow ("benchstat") by slowed function and factor.
type injectTally struct {
	verdicts map[verdictCell]map[string]int
	wall     map[injectKey]map[string]time.Duration
	factors  []float64
}

func newInjectTally() *injectTally {
	return &injectTally{verdicts: map[verdictCell]map[string]int{}, wall: map[injectKey]map[string]time.Duration{}}
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
	for _, f := range t.factors {
		if f == k.v {
			return
		}
	}
	t.factors = append(t.factors, k.v)
}

// addTime adds the wall time one workflow took to its verdicts.
func (t *injectTally) addTime(k injectKey, workflow string, d time.Duration) {
	if t.wall[k] == nil {
		t.wall[k] = map[string]time.Duration{}
	}
	t.wall[k][workflow] += d
}

// table formats the tally as a Markdown table: a row per target and
// factor on the benchmarks it dominates, then a row of the controls (the
// benchmarks a slowed function does not dominate).
func (t *injectTally) table(targets []injectTarget) string {
	var b strings.Builder
	b.WriteString("| function | v | n | gate: regression | gate: false alarm | gate: inconclusive | gate: no change | benchstat: regression | benchstat: false alarm | benchstat: ~ | gate wall | go test + benchstat wall | ratio |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	frac := func(k, n int) string {
		if n == 0 {
			return "—"
		}
		return fmt.Sprintf("%d/%d", k, n)
	}
	// A false alarm is any change claimed where none was injected, and an
	// improvement where a slowdown was.
	falseAlarms := func(m map[string]int, v float64) int {
		if v == 0 {
			return m["regression"] + m["improvement"]
		}
		return m["improvement"]
	}
	found := func(m map[string]int, v float64) string {
		if v == 0 {
			return "—"
		}
		return frac(m["regression"], m[""])
	}
	controls := map[string]map[string]int{"gate": {}, "benchstat": {}}
	for _, tg := range targets {
		for _, v := range t.factors {
			k := injectKey{tg.name, v}
			g := t.verdicts[verdictCell{k, "gate", true}]
			s := t.verdicts[verdictCell{k, "benchstat", true}]
			if g == nil && s == nil {
				continue
			}
			for _, w := range []string{"gate", "benchstat"} {
				for verdict, n := range t.verdicts[verdictCell{k, w, false}] {
					controls[w][verdict] += n
				}
			}
			gw, sw := t.wall[k]["gate"], t.wall[k]["benchstat"]
			ratio := "—"
			if sw > 0 {
				ratio = fmt.Sprintf("%.2f×", gw.Seconds()/sw.Seconds())
			}
			fmt.Fprintf(&b, "| %s (%s) | %+.0f%% | %d | %s | %s | %s | %s | %s | %s | %s | %.1f s | %.1f s | %s |\n",
				tg.name, tg.kind, 100*v, g[""], found(g, v), frac(falseAlarms(g, v), g[""]), frac(g["inconclusive"], g[""]), frac(g["no change"], g[""]),
				found(s, v), frac(falseAlarms(s, v), s[""]), frac(s["~"], s[""]), gw.Seconds(), sw.Seconds(), ratio)
		}
	}
	g, s := controls["gate"], controls["benchstat"]
	if g[""]+s[""] > 0 {
		fmt.Fprintf(&b, "| controls (benchmarks the slowed function does not dominate) | 0%% | %d | — | %s | %s | %s | — | %s | %s | | | |\n",
			g[""], frac(falseAlarms(g, 0), g[""]), frac(g["inconclusive"], g[""]), frac(g["no change"], g[""]),
			frac(falseAlarms(s, 0), s[""]), frac(s["~"], s[""]))
	}
	return b.String()
}

// capTable formats the gate's verdicts beside those of the same pairs
// judged with the former cap ("gate20"), a row per target and factor on
// the benchmarks it dominates and a row of the controls.
func (t *injectTally) capTable(targets []injectTarget) string {
	var b strings.Builder
	fmt.Fprintf(&b, "| function | v | n | cap %d: regression / inconclusive / no change / false alarm | cap %d: the same | wall, cap %d | wall, cap %d (at most) |\n",
		gate.DefaultLastLook, formerCap, gate.DefaultLastLook, formerCap)
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|\n")
	// Each column counts its own pairs: the former cap's leaves out those
	// the gate stopped out of reach before it.
	counts := func(m map[string]int, v float64) string {
		fa := m["improvement"]
		if v == 0 {
			fa += m["regression"]
			return fmt.Sprintf("— / %d / %d / %d of %d", m["inconclusive"], m["no change"], fa, m[""])
		}
		return fmt.Sprintf("%d / %d / %d / %d of %d", m["regression"], m["inconclusive"], m["no change"], fa, m[""])
	}
	controls := map[string]map[string]int{"gate": {}, "gate20": {}}
	for _, tg := range targets {
		for _, v := range t.factors {
			k := injectKey{tg.name, v}
			g, g20 := t.verdicts[verdictCell{k, "gate", true}], t.verdicts[verdictCell{k, "gate20", true}]
			if g == nil {
				continue
			}
			for _, w := range []string{"gate", "gate20"} {
				for verdict, n := range t.verdicts[verdictCell{k, w, false}] {
					controls[w][verdict] += n
				}
			}
			wall20 := "—"
			if g20[""] > 0 {
				wall20 = fmt.Sprintf("%.1f s", t.wall[k]["gate20"].Seconds())
			}
			fmt.Fprintf(&b, "| %s (%s) | %+.0f%% | %d | %s | %s | %.1f s | %s |\n", tg.name, tg.kind, 100*v, g[""],
				counts(g, v), counts(g20, v), t.wall[k]["gate"].Seconds(), wall20)
		}
	}
	if n := controls["gate"][""]; n > 0 {
		fmt.Fprintf(&b, "| controls | 0%% | %d | %s | %s | | |\n", n, counts(controls["gate"], 0), counts(controls["gate20"], 0))
	}
	return b.String()
}
