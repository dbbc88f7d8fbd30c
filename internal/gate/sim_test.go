package gate

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// verdicts simulates reps comparisons of a benchmark against itself scaled
// by 1+shift under the variance components model (sdB between processes,
// sdE within, n processes of m slices per version) and counts the
// verdicts. Paired runs give each suite run one process per version.
func verdicts(t *testing.T, seed uint64, reps int, shift float64, n, m int, sdB, sdE float64, opts Options) map[Verdict]int {
	rng := rand.New(rand.NewPCG(seed, 1))
	out := map[Verdict]int{}
	for range reps {
		a := components(rng, 1000, n, m, sdB, sdE)
		b := components(rng, 1000*(1+shift), n, m, sdB, sdE)
		old, new := runOf("BenchmarkX", a), runOf("BenchmarkX", b)
		if opts.Paired {
			old, new = pairedRuns(a, b)
		}
		res, err := Runs(old, new, opts)
		require.NoError(t, err)
		out[res.Comparisons[0].Verdict]++
	}
	return out
}

// TestSimulatedVerdicts holds the gate's three promises in simulation with
// fixed seeds, paired and unpaired, from no spread between processes to
// 15% (allocating benchmarks), 5 processes of 5 slices per version:
//   - A/A false alarms (regression or improvement) stay ≤ 1%;
//   - a real change of twice the threshold is never called "no change";
//   - a change well beyond the noise is found.
func TestSimulatedVerdicts(t *testing.T) {
	reps := 400
	if testing.Short() {
		reps = 150
	}
	type noise struct{ sdB, sdE float64 }
	for _, paired := range []bool{false, true} {
		opts := DefaultOptions()
		opts.Paired = paired
		for i, nz := range []noise{{0, 0.01}, {0.02, 0.01}, {0.02, 0.05}, {0.15, 0.05}} {
			name := fmt.Sprintf("paired=%v b=%.0f%% e=%.0f%%", paired, 100*nz.sdB, 100*nz.sdE)
			aa := verdicts(t, uint64(10+i), reps, 0, 5, 5, nz.sdB, nz.sdE, opts)
			off := verdicts(t, uint64(20+i), reps, 2*opts.Threshold, 5, 5, nz.sdB, nz.sdE, opts)
			big := verdicts(t, uint64(30+i), reps, 0.25, 5, 5, nz.sdB, nz.sdE, opts)
			t.Logf("%s: A/A %v; +6%% %v; +25%% %v", name, aa, off, big)
			assert.LessOrEqual(t, float64(aa[Regression]+aa[Improvement])/float64(reps), 0.01, name)
			assert.LessOrEqual(t, float64(off[NoChange])/float64(reps), 0.01, name)
			if nz.sdB <= 0.02 {
				assert.GreaterOrEqual(t, float64(big[Regression])/float64(reps), 0.95, name)
			}
			assert.Zero(t, big[Improvement], name)
		}
	}
}

// TestSimulatedCoverage checks that the ratio intervals cover the true
// ratio at about their nominal 99% under the variance components model,
// where a bootstrap of slices covered far less.
func TestSimulatedCoverage(t *testing.T) {
	const reps = 600
	for _, paired := range []bool{false, true} {
		for i, sdB := range []float64{0.02, 0.15} {
			rng := rand.New(rand.NewPCG(uint64(40+i), 2))
			opts := DefaultOptions()
			opts.Paired = paired
			covered := 0
			for range reps {
				a := components(rng, 1000, 5, 5, sdB, 0.03)
				b := components(rng, 1100, 5, 5, sdB, 0.03)
				old, new := runOf("BenchmarkX", a), runOf("BenchmarkX", b)
				if paired {
					old, new = pairedRuns(a, b)
				}
				c := one(t, old, new, opts)
				if c.Ratio.Contains(1.1) {
					covered++
				}
			}
			share := float64(covered) / reps
			t.Logf("paired=%v sdB=%.0f%%: coverage %.1f%%", paired, 100*sdB, 100*share)
			assert.GreaterOrEqual(t, share, 0.975)
		}
	}
}
