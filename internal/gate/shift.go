package gate

import (
	"fmt"
	"io"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// A Shift is a change of time per operation that most benchmarks of two
// separately measured runs share. A shared machine's speed moves between
// runs, alike for every benchmark (docs/EVALUATION.md, "examples/ with
// --min-iterations 6 in the same schedule"), and an interval
// computed inside each run cannot contain that; a change of the code that
// slows or speeds everything looks the same. A Shift says which it might
// be, so that a reader does not take the machine for the code.
type Shift struct {
	// Change is the median relative change of the benchmarks' time.
	Change float64 `json:"median_change"`
	// Same is how many benchmarks changed in Change's direction, of
	// Benchmarks compared.
	Same       int `json:"same_direction"`
	Benchmarks int `json:"benchmarks"`
	// P is the two-sided sign-test probability of as many or more
	// benchmarks moving one way if each were as likely to move either way.
	P float64 `json:"p"`
}

// Shift thresholds: at least ShiftMinBenchmarks timed benchmarks, a sign
// test below ShiftAlpha, and a median change of at least half the
// threshold, below which a shared shift cannot turn a verdict.
const (
	ShiftMinBenchmarks = 5
	ShiftAlpha         = 0.05
)

// suiteShift returns the shift of time per operation the comparisons cs
// share, or nil when they are paired (the pairing cancels it), too few,
// or do not move together.
func suiteShift(cs []Comparison, paired bool, threshold float64) *Shift {
	if paired {
		return nil
	}
	var logs []float64
	for _, c := range cs {
		if c.Unit == "ns/op" && c.Ratio.Center > 0 {
			logs = append(logs, math.Log(c.Ratio.Center))
		}
	}
	if len(logs) < ShiftMinBenchmarks {
		return nil
	}
	slices.Sort(logs)
	n := len(logs)
	med := (logs[(n-1)/2] + logs[n/2]) / 2
	same := 0
	for _, l := range logs {
		if l != 0 && (l > 0) == (med > 0) {
			same++
		}
	}
	// Two-sided sign test: P(X ≥ same) doubled, X ~ Binomial(n, ½).
	p := min(1, 2*(1-distuv.Binomial{N: float64(n), P: 0.5}.CDF(float64(same-1))))
	change := math.Expm1(med)
	if p >= ShiftAlpha || math.Abs(change) < threshold/2 {
		return nil
	}
	return &Shift{Change: change, Same: same, Benchmarks: n, P: p}
}

// writeShift writes the note of a shared shift, if r has one.
func (r *Result) writeShift(w io.Writer) {
	s := r.Shift
	if s == nil {
		return
	}
	dir := "slower"
	if s.Change < 0 {
		dir = "faster"
	}
	fmt.Fprintf(w, "\nnote: the benchmarks moved together: the median time per op changed by %s, %d of %d %s (sign test p = %.2g).\n"+
		"  The machine's speed may have changed between the two runs, which neither run's intervals contain;\n"+
		"  changes near %s may be the machine's, not the code's. Measure both versions in one run with run --baseline.\n",
		pctChange(s.Change), s.Same, s.Benchmarks, dir, s.P, pctChange(s.Change))
}
