package steady

import (
	"math"
	"slices"
)

// Filter returns the indexes of the values of xs that are not outliers,
// in order. A value is an outlier if it lies outside median ± 3·(p99 − p1)
// of any window of width consecutive values that holds it (Tukey's fences
// on a sliding window, as Barrett et al. and Traini et al. used them),
// quantiles interpolated linearly as NumPy does. The first skip values
// are never windowed, hence never dropped; a series shorter than skip +
// width loses nothing.
func Filter(xs []float64, width, skip int) []int {
	n := len(xs)
	out := make([]bool, n)
	win := make([]float64, width)
	for lo := max(skip, 0); lo+width <= n; lo++ {
		copy(win, xs[lo:lo+width])
		slices.Sort(win)
		med := quantile(win, 0.5)
		fence := 3 * (quantile(win, 0.99) - quantile(win, 0.01))
		for i := lo; i < lo+width; i++ {
			if xs[i] > med+fence || xs[i] < med-fence {
				out[i] = true
			}
		}
	}
	kept := make([]int, 0, n)
	for i, o := range out {
		if !o {
			kept = append(kept, i)
		}
	}
	return kept
}

// quantile reads the p-quantile of sorted xs, interpolating linearly
// between order statistics (R type 7, NumPy's default).
func quantile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 1 {
		return sorted[0]
	}
	h := p * float64(n-1)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}
