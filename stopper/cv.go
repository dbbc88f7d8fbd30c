package stopper

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// CV is the coefficient of variation (sample sd / mean) of the slices.
// Stable when the values in the window lie within t of each other
// (t = 0.01).
var CV = Criterion{&cvDef}

var cvDef = definition{
	name:      "cv",
	help:      "coefficient of variation",
	threshold: 0.01,
	relative:  true,
	minWindow: 2,
	value:     func(_ *evaluator, xs []float64) float64 { return CVOf(xs) },
	next:      func(st *benchState, _, _ int) (float64, bool) { return CVOf(st.all), true },
	stable:    StableVar,
}

// CVOf returns the coefficient of variation of xs: the sample standard
// deviation over the absolute mean. It is NaN for fewer than two values or
// any NaN, 0 for constant data (zeros included), and +Inf for data with a
// zero mean that vary.
func CVOf(xs []float64) float64 {
	if len(xs) < 2 {
		return math.NaN()
	}
	mean, sd := stat.MeanStdDev(xs, nil)
	switch {
	case math.IsNaN(sd):
		return math.NaN()
	case sd == 0:
		return 0
	}
	return sd / math.Abs(mean)
}
