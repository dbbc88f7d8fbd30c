package stopper

import (
	"math"
	"math/rand/v2"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
)

// StableVar is the paper's stable function of variability criteria (CV,
// RCIW): the values lie within t of each other, max − min ≤ t. It is false
// for fewer than two values or any NaN.
func StableVar(values []float64, t float64) bool {
	if len(values) < 2 {
		return false
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if math.IsNaN(v) {
			return false
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	return hi-lo <= t
}

// StableProb is the paper's stable function of the KLD criterion: the mean
// of the probabilities exceeds t. It is false for no values or any NaN.
func StableProb(values []float64, t float64) bool {
	if len(values) == 0 {
		return false
	}
	s := 0.0
	for _, v := range values {
		s += v
	}
	// A NaN sum compares false.
	return s/float64(len(values)) > t
}

// An evaluator computes criterion values with reusable buffers.
type evaluator struct {
	def *definition
	res resampler
	kde kde
	rng *rand.PCG
	n   int // bootstrap resamples
	one stats.Tree
}

// WarmupWindow appends to dst the stability values of the warmup window
// after the last of xs, and returns it: Eq. (1) of the paper over the last
// w values of xs. Element x of the window is the criterion's value over
// the window's values up to x; elements too small for the criterion (fewer
// values than its least window: one for CV and RCIW, a d1 of one value
// for KLD) are left out, so the window yields w−1 values for CV and RCIW
// and w−2 for KLD. With fewer than w values in xs it returns dst
// unchanged.
func (e *evaluator) warmupWindow(dst, xs []float64, w int) []float64 {
	if len(xs) < w {
		return dst
	}
	win := xs[len(xs)-w:]
	for x := e.def.minWindow; x <= len(win); x++ {
		dst = append(dst, e.def.value(e, win[:x]))
	}
	return dst
}
