package history

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// A Measurer measures benches at commit after against commit before,
// paired (the gate of run --baseline), with the given threshold, and
// returns the gate's comparison. benches holds one entry per series that
// changed, so a benchmark appears once per unit. session.CommitMeasurer
// is the one that runs them.
type Measurer interface {
	Measure(ctx context.Context, before, after string, benches []record.Bench, threshold float64) (*gate.Result, error)
}

// Attach sets the Confirmation of every change point of a that known
// holds a confirmation of (same series, same two commits).
func (a *Analysis) Attach(known []Confirmation) {
	byKey := map[confKey]*Confirmation{}
	for i := range known {
		c := &known[i]
		byKey[confKey{c.Key, c.Before, c.After}] = c
	}
	for _, c := range a.ChangePoints() {
		if k, ok := byKey[confKey{c.Key, c.Prev, c.Commit}]; ok {
			c.Confirmation = k
		}
	}
}

type confKey struct {
	key           Key
	before, after string
}

// minThreshold bounds the threshold of a confirmation from below: the
// gate cannot call a change below it anyway in a run of reasonable
// length.
const minThreshold = 0.005

// Confirm measures again each change point of a without a confirmation:
// one paired run per pair of commits, all the benchmarks that changed
// there together. The gate's threshold is half the smallest change of
// the pair (at most gate.DefaultThreshold), so that a change of the size
// the history saw can be told from none. A change point is confirmed
// when the gate finds a change in the same direction, refuted when it
// finds none or one the other way, and inconclusive otherwise. It
// returns the confirmations made, in order; measured ones are attached
// as they come, so that an error leaves those already made in place.
func Confirm(ctx context.Context, a *Analysis, m Measurer, now func() time.Time) ([]Confirmation, error) {
	type pair struct{ before, after string }
	groups := map[pair][]*ChangePoint{}
	var order []pair
	for _, c := range a.ChangePoints() {
		if c.Confirmation != nil {
			continue
		}
		p := pair{c.Prev, c.Commit}
		if _, ok := groups[p]; !ok {
			order = append(order, p)
		}
		groups[p] = append(groups[p], c)
	}
	var out []Confirmation
	for _, p := range order {
		cps := groups[p]
		threshold := gate.DefaultThreshold
		var keys []Key
		for _, c := range cps {
			threshold = min(threshold, math.Abs(math.Log1p(c.Change))/2)
			if !slices.Contains(keys, c.Key) {
				keys = append(keys, c.Key)
			}
		}
		threshold = max(threshold, minThreshold)
		benches := make([]record.Bench, len(keys))
		for i, k := range keys {
			benches[i] = record.Bench{Package: k.Package, Benchmark: k.Benchmark}
		}
		res, err := m.Measure(ctx, p.before, p.after, benches, threshold)
		if err != nil {
			return out, fmt.Errorf("measuring %s against %s: %w", short(p.after), short(p.before), err)
		}
		for _, c := range cps {
			cf := judge(c, res, now())
			c.Confirmation = &cf
			out = append(out, cf)
		}
	}
	return out, nil
}

// judge turns the gate's comparison of c's benchmark into a
// confirmation.
func judge(c *ChangePoint, res *gate.Result, at time.Time) Confirmation {
	cf := Confirmation{Key: c.Key, Before: c.Prev, After: c.Commit, Status: StatusInconclusive, Verdict: "not measured",
		Change: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Confidence: math.NaN(), Time: at}
	cmp := find(res, c.Key)
	if cmp == nil {
		return cf
	}
	cf.Verdict = string(cmp.Verdict)
	cf.Change, cf.Lo, cf.Hi, cf.Confidence = cmp.Ratio.Center-1, cmp.Ratio.Lo-1, cmp.Ratio.Hi-1, cmp.Ratio.Confidence
	switch cmp.Verdict {
	case gate.Regression, gate.Improvement, gate.Changed:
		if (cmp.Ratio.Center > 1) == (c.Change > 0) {
			cf.Status = StatusConfirmed
		} else {
			cf.Status = StatusRefuted
		}
	case gate.NoChange:
		cf.Status = StatusRefuted
	}
	return cf
}

// find returns the comparison of k in res: by its name as recorded, or
// by its name without the GOMAXPROCS suffix when the two machines'
// differ.
func find(res *gate.Result, k Key) *gate.Comparison {
	if res == nil {
		return nil
	}
	var loose *gate.Comparison
	for i := range res.Comparisons {
		c := &res.Comparisons[i]
		if c.Package != k.Package || c.Unit != k.Unit {
			continue
		}
		if c.Benchmark == k.Benchmark {
			return c
		}
		if stripProcs(c.Benchmark) == stripProcs(k.Benchmark) {
			loose = c
		}
	}
	return loose
}

var procsSuffix = regexp.MustCompile(`-[0-9]+$`)

func stripProcs(name string) string { return procsSuffix.ReplaceAllString(name, "") }
