package steady

import (
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
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
		med := stats.Quantile(win, 0.5)
		fence := 3 * (stats.Quantile(win, 0.99) - stats.Quantile(win, 0.01))
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
