package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// Speeds splits a benchmark's processes in two at the widest gap between
// their means: the processes of a benchmark that runs at one of two
// speeds for a whole process (where its code or data landed, or the
// machine's moment) fall on either side of it.
type Speeds struct {
	// Fast and Slow are the process means on each side of the gap,
	// ascending; both are empty with fewer than MinSpeedProcesses.
	Fast, Slow []float64
	// Gap is the slowest fast process's mean to the fastest slow one's,
	// as a ratio: 1.5 means the slow ones read at least 1.5 times the
	// fast ones.
	Gap float64
	// Spread is how far the slices inside a process read apart: the
	// median, over processes of two slices or more, of their slowest
	// slice's value to their fastest's.
	Spread float64
}

// Two-speed thresholds: a gap of at least MinSpeedGap (MinSpeedGapOfThree
// between three processes, one on one side), at least SpeedSeparation
// times as wide as either side's own range and as the spread of one
// process's slices. Processes whose means spread 10% (log-normal), with
// slices 2% apart, pass that by chance in about one benchmark in a
// thousand; at a spread of 20%, in under one in a hundred at 3 processes
// and one in twenty at 4 (TestTwoSpeedsByChance). With MinSpeedGap for
// three processes too, one in ten did at 20%. A gap of a half between
// processes whose slices agree is what a reader should be told of: a go
// test pass, one process, reads one speed or the other.
const (
	MinSpeedProcesses  = 3
	MinSpeedGap        = 1.5
	MinSpeedGapOfThree = 2
	SpeedSeparation    = 3
)

// SpeedsOf splits processes, each the values of its measurement slices,
// at the widest gap between their means.
func SpeedsOf(processes [][]float64) Speeds {
	var means, spreads []float64
	for _, p := range processes {
		if len(p) == 0 {
			continue
		}
		means = append(means, stat.Mean(p, nil))
		if lo, hi := slices.Min(p), slices.Max(p); len(p) > 1 && lo > 0 {
			spreads = append(spreads, hi/lo)
		}
	}
	if len(means) < MinSpeedProcesses || slices.Min(means) <= 0 {
		return Speeds{}
	}
	slices.Sort(means)
	at := 0
	for i := 1; i < len(means)-1; i++ {
		if means[i+1]/means[i] > means[at+1]/means[at] {
			at = i
		}
	}
	s := Speeds{Fast: means[:at+1], Slow: means[at+1:], Gap: means[at+1] / means[at], Spread: 1}
	if len(spreads) > 0 {
		s.Spread = Median(spreads)
	}
	return s
}

// Two reports whether the processes ran at two speeds: a gap of at least
// MinSpeedGap (MinSpeedGapOfThree for three processes), and
// SpeedSeparation times as wide as the range of either side and as the
// spread of one process's slices.
func (s Speeds) Two() bool {
	least := MinSpeedGap
	if len(s.Fast)+len(s.Slow) == MinSpeedProcesses {
		least = MinSpeedGapOfThree
	}
	if len(s.Fast) == 0 || len(s.Slow) == 0 || s.Gap < least {
		return false
	}
	own := math.Max(rangeOf(s.Fast), rangeOf(s.Slow))
	return s.Gap-1 >= SpeedSeparation*(own-1) && s.Gap-1 >= SpeedSeparation*(s.Spread-1)
}

// rangeOf returns the largest of ascending positive xs to the smallest.
func rangeOf(xs []float64) float64 { return xs[len(xs)-1] / xs[0] }
