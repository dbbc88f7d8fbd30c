package stats

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// A Trend is the within-process drift of one benchmark: whether its
// slices move in one direction inside the processes that measured it.
type Trend struct {
	// Z is the Mann-Kendall statistic summed over processes and
	// standardized: under no trend it is about standard normal, whatever
	// the distribution of the values.
	Z float64
	// Change is the mean, over processes, of the change from the mean of
	// the first half of a process's slices to that of its second half,
	// relative to the first: +0.05 means 5% slower by the end. Relative
	// to the first half, a speed-up never reads beyond −100%.
	Change float64
	// Processes is the number of processes with at least three slices,
	// the fewest that can show a trend.
	Processes int
}

// Drift thresholds: a benchmark drifts when its trend is significant at
// 0.1% (two-sided) and moves the mean by at least 1% between the halves
// of a process. Both must hold: with thousands of slices a trend of
// 0.01% is significant and harmless, and with few, a 3% change is noise.
const (
	DriftZ      = 3.29
	DriftChange = 0.01
)

// Drifts reports whether t shows a benchmark that does not settle inside
// a process: a significant trend, and halves that move apart by enough to
// matter in the trend's direction. Where the two disagree, a few wild
// slices moved the means against what the ranks say, and the slices do
// not drift one way.
func (t Trend) Drifts() bool {
	return t.Processes > 0 && math.Abs(t.Z) >= DriftZ && math.Abs(t.Change) >= DriftChange && t.Z*t.Change > 0
}

// TrendOf returns the within-process trend of a benchmark's processes,
// each the values of its measurement slices in order. It costs O(n²) in
// the slices of a process, a few hundred at most: cheap enough to run on
// every benchmark of every run.
//
// Each process contributes its Mann-Kendall S (the count of later slices
// above earlier ones less those below) with variance n(n−1)(2n+5)/18,
// corrected for ties; processes are independent, so the sums combine
// into one Z. Pooling across processes gives the test its power: five
// slices in each of ten processes hold as much evidence of a trend as
// fifty slices in one.
func TrendOf(processes [][]float64) Trend {
	var s, v, change float64
	var t Trend
	for _, xs := range processes {
		n := len(xs)
		if n < 3 {
			continue
		}
		t.Processes++
		for i := range n {
			for j := i + 1; j < n; j++ {
				switch {
				case xs[j] > xs[i]:
					s++
				case xs[j] < xs[i]:
					s--
				}
			}
		}
		v += mkVariance(xs)
		h := n / 2
		first, second := stat.Mean(xs[:h], nil), stat.Mean(xs[n-h:], nil)
		if first != 0 {
			change += second/first - 1
		}
	}
	if t.Processes == 0 {
		return t
	}
	t.Change = change / float64(t.Processes)
	if v > 0 {
		// The continuity correction moves S one step toward zero.
		switch {
		case s > 0:
			s--
		case s < 0:
			s++
		}
		t.Z = s / math.Sqrt(v)
	}
	return t
}

// mkVariance returns the variance of the Mann-Kendall S of xs under no
// trend, corrected for groups of tied values.
func mkVariance(xs []float64) float64 {
	n := float64(len(xs))
	v := n * (n - 1) * (2*n + 5)
	seen := make(map[float64]bool, len(xs))
	for i, x := range xs {
		if seen[x] {
			continue
		}
		seen[x] = true
		k := 0.0
		for _, y := range xs[i:] {
			if y == x {
				k++
			}
		}
		v -= k * (k - 1) * (2*k + 5)
	}
	return v / 18
}
