package stopper

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
)

// Two-sided 99% quantiles of Student's t, t(0.995; ν) for ν = 1…8, from
// a printed table (three decimals).
var tTable = map[int]float64{1: 63.657, 2: 9.925, 3: 5.841, 4: 4.604, 5: 4.032, 6: 3.707, 7: 3.499, 8: 3.355}

func TestPrecisionCIKnownAnswers(t *testing.T) {
	src := func() *rand.PCG { return rand.NewPCG(3, 4) }

	// Two iterations of constant slices, means 99 and 101: the bootstrap
	// stays within [99, 101], the t interval is 100 ± t(0.995; 1)·√2/√2.
	two := stats.Node(stats.Leaf([]float64{99, 99, 99}), stats.Leaf([]float64{101, 101, 101}))
	iv := precisionCIOf(two, 1000, src())
	assert.InDelta(t, 100, iv.Center, 1e-12)
	assert.InDelta(t, 100-tTable[1], iv.Lo, 1e-3)
	assert.InDelta(t, 100+tTable[1], iv.Hi, 1e-3)
	assert.InDelta(t, 2*tTable[1]/100, precisionWidthOf(two, 1000, src()), 1e-5)
	assert.Equal(t, Confidence, iv.Confidence)

	// Suite runs nest: the t interval is over the iterations (leaves), not
	// over the two suite runs. Means 98, 100, 102: sd 2, h = t(.995; 2)·2/√3.
	nested := stats.Node(
		stats.Node(stats.Leaf([]float64{98, 98}), stats.Leaf([]float64{100, 100})),
		stats.Node(stats.Leaf([]float64{102, 102})),
	)
	h := tTable[2] * 2 / math.Sqrt(3)
	iv = precisionCIOf(nested, 1000, src())
	assert.InDelta(t, 100-h, iv.Lo, 1e-3)
	assert.InDelta(t, 100+h, iv.Hi, 1e-3)

	// Many iterations: the t interval is narrower than the range, and the
	// union is never narrower than the bootstrap interval alone.
	r := rand.New(src())
	var leaves []*stats.Tree
	for range 40 {
		mu := 100 + r.NormFloat64()
		leaves = append(leaves, stats.Leaf([]float64{mu + r.NormFloat64(), mu + r.NormFloat64(), mu + r.NormFloat64()}))
	}
	many := stats.Node(leaves...)
	var res resampler
	boot := ciOf(&res, many, src())
	union := precisionCIOf(many, 1000, src())
	assert.LessOrEqual(t, union.Lo, boot.Lo)
	assert.GreaterOrEqual(t, union.Hi, boot.Hi)
	assert.InEpsilon(t, boot.RelWidth(), union.RelWidth(), 0.25, "at 40 iterations the two agree closely")

	assert.Equal(t, 0.0, precisionWidthOf(stats.Node(stats.Leaf([]float64{5, 5}), stats.Leaf([]float64{5})), 100, src()), "constant")
	assert.Equal(t, 0.0, precisionWidthOf(stats.Node(stats.Leaf([]float64{0, 0}), stats.Leaf([]float64{0})), 100, src()), "zeros")
	assert.True(t, math.IsNaN(precisionWidthOf(stats.Leaf([]float64{1, 2, 3}), 100, src())), "one iteration")
	assert.True(t, math.IsNaN(precisionWidthOf(stats.Node(stats.Leaf([]float64{1, 2}), stats.Leaf(nil)), 100, src())), "one non-empty iteration")
	assert.True(t, math.IsNaN(precisionWidthOf(nil, 100, src())), "no tree")
	assert.True(t, math.IsNaN(precisionWidthOf(stats.Node(stats.Leaf([]float64{1, math.NaN()}), stats.Leaf([]float64{1})), 100, src())), "NaN")
	assert.Equal(t, precisionWidthOf(many, 1000, src()), precisionWidthOf(many, 1000, src()), "same seed, same value")
}

// Coverage on nested normal data, as a benchmark with 2 to 6 iterations
// of 5 slices looks: iteration means with sd 2% around the true mean,
// slices with sd 1% around their iteration's mean. 600 trials per
// iteration count, 3000 in all: the standard error of a 99% coverage is
// 0.18 points. The percentile bootstrap alone falls far short of its
// nominal level there; precisionCIOf must not.
func TestPrecisionCoverage(t *testing.T) {
	const trials, slices, mu = 600, 5, 100.0
	var res resampler
	covered, bootCovered, total := 0, 0, 0
	for n := 2; n <= 6; n++ {
		src := rand.NewPCG(11, uint64(n))
		rng := rand.New(rand.NewPCG(12, uint64(n)))
		c, bc := 0, 0
		for range trials {
			root := &stats.Tree{}
			for range n {
				m := mu * (1 + 0.02*rng.NormFloat64())
				vs := make([]float64, slices)
				for j := range vs {
					vs[j] = m + 0.01*mu*rng.NormFloat64()
				}
				root.Children = append(root.Children, stats.Leaf(vs))
			}
			if res.precisionCI(root, 1000, src).Contains(mu) {
				c++
			}
			if ciOf(&res, root, src).Contains(mu) {
				bc++
			}
		}
		t.Logf("%d iterations: coverage %.1f%%, percentile bootstrap alone %.1f%%", n, 100*float64(c)/trials, 100*float64(bc)/trials)
		assert.GreaterOrEqual(t, float64(c)/trials, 0.975, "%d iterations", n)
		covered += c
		bootCovered += bc
		total += trials
	}
	cov := float64(covered) / float64(total)
	t.Logf("all: coverage %.2f%%, percentile bootstrap alone %.2f%%", 100*cov, 100*float64(bootCovered)/float64(total))
	assert.InDelta(t, 0.99, cov, 0.006)
	assert.Less(t, float64(bootCovered)/float64(total), 0.92, "the percentile bootstrap alone is anti-conservative here")
}

func precisionConfig() Config {
	return Config{Criterion: Precision, WarmupMin: 1, WarmupMax: 10, Measure: 3, MinIterations: 2, Resamples: 1000, Seed: 1}
}

// Iterations of constant slices at 101, 99, 101, …: the t interval over
// the iteration means is wider than their range, so wider than the
// bootstrap's, and its relative width is 2·t(.995; n−1)·sd/(√n·mean):
// 1.273, 0.132, 0.0674, 0.0450, 0.0361, 0.0299, 0.0264, 0.0236 for 2 to 9
// iterations. At threshold 0.025 the benchmark stops at the 9th.
func TestPrecisionStopsWhereWidthCrossesThreshold(t *testing.T) {
	cfg := precisionConfig()
	cfg.Threshold = 0.025
	p := newPolicy(t, cfg)
	stopAt := 0
	var means []float64
	for i := 1; i <= 15; i++ {
		m := 101.0
		if i%2 == 0 {
			m = 99
		}
		means = append(means, m)
		if end(p, "b", i, []float64{m, m, m}) {
			stopAt = i
			break
		}
	}
	assert.Equal(t, 9, stopAt)
	f := p.Vector("b")
	require.Len(t, f, 9)
	assert.True(t, math.IsNaN(f[0]), "no interval from one iteration")
	for n := 2; n <= 9; n++ {
		m, sd := stat.MeanStdDev(means[:n], nil)
		want := 2 * tTable[n-1] * sd / (math.Sqrt(float64(n)) * m)
		assert.InEpsilon(t, want, f[n-1], 3e-4, "n = %d", n)
		assert.Equal(t, n == 9, f[n-1] <= 0.025, "n = %d", n)
	}
	met := metOf(p, "b")
	assert.True(t, met)
}

func TestPrecisionNeverBeforeMinIterations(t *testing.T) {
	cfg := precisionConfig()
	cfg.MinIterations = 4
	p := newPolicy(t, cfg)
	for i := 1; i <= 3; i++ {
		assert.False(t, end(p, "b", i, []float64{7, 7, 7}), "iteration %d: width 0 from the 2nd, but fmin is 4", i)
		met := metOf(p, "b")
		assert.False(t, met)
	}
	assert.True(t, end(p, "b", 4, []float64{7, 7, 7}))
	assert.Equal(t, []float64{0, 0, 0}, p.Vector("b")[1:])

	// One iteration gives no interval: MinIterations 1 cannot stop there.
	cfg.MinIterations = 1
	p = newPolicy(t, cfg)
	assert.False(t, end(p, "b", 1, []float64{7, 7, 7}))
	assert.True(t, math.IsNaN(p.Vector("b")[0]))
	assert.True(t, end(p, "b", 2, []float64{7, 7, 7}))
}

func TestPrecisionIgnoresSteadyButWideIntervals(t *testing.T) {
	// Iteration means that keep alternating by ±20% give an RCIW that
	// settles (RCIW stops) while the interval stays wide (Precision goes on).
	rciw := newPolicy(t, Config{Criterion: RCIW, Window: 3, WarmupMin: 1, WarmupMax: 10, Measure: 3, MinIterations: 2, Resamples: 1000})
	prec := newPolicy(t, precisionConfig())
	rciwStop, precStop := 0, 0
	for i := 1; i <= 15; i++ {
		m := 120.0
		if i%2 == 0 {
			m = 80
		}
		vals := []float64{m, m * 1.01, m * 0.99}
		if rciwStop == 0 && end(rciw, "b", i, vals) {
			rciwStop = i
		}
		if precStop == 0 && end(prec, "b", i, vals) {
			precStop = i
		}
	}
	assert.NotZero(t, rciwStop, "RCIW calls a steady wide interval stable")
	assert.Zero(t, precStop, "Precision does not")
	met := metOf(prec, "b")
	assert.False(t, met)
}

func TestWarmupSettled(t *testing.T) {
	assert.True(t, WarmupSettled([]float64{100, 100}, 0.05), "constant")
	assert.True(t, WarmupSettled([]float64{0, 0}, 0.05), "zeros")
	assert.True(t, WarmupSettled([]float64{100, 95}, 0.05), "a drop of exactly tol")
	assert.False(t, WarmupSettled([]float64{100, 94.9}, 0.05))
	assert.True(t, WarmupSettled([]float64{100, 130}, 0.05), "slower is no warmup")
	assert.False(t, WarmupSettled([]float64{100}, 0.05), "one value")
	assert.False(t, WarmupSettled(nil, 0.05))
	assert.False(t, WarmupSettled([]float64{100, math.NaN()}, 0.05))
	assert.False(t, WarmupSettled([]float64{math.NaN(), 100}, 0.05))
}

func TestPrecisionWarmup(t *testing.T) {
	tail := []float64{100, 101, 99, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100}
	for _, tc := range []struct {
		name   string
		vals   []float64
		warmup int
		met    bool
	}{
		// The decision needs two slices; the first fast one is still
		// compared with the slow one before it.
		{"slow first slice", append([]float64{200}, tail...), 3, true},
		{"slow first three slices", append([]float64{400, 300, 200}, tail...), 5, true},
		{"steady from the start", tail, 2, true},
		{"constant", []float64{5, 5, 5, 5, 5, 5, 5, 5}, 2, true},
		{"zeros", []float64{0, 0, 0, 0, 0, 0, 0, 0}, 2, true},
		{"faster by 10% every slice", []float64{100, 90, 81, 72.9, 65.6, 59, 53.1, 47.8, 43, 38.7, 34.9, 31.4, 28.2, 25.4}, 10, false},
		// Known limit: a rule on two values cannot see a later drop.
		{"slow plateau", append([]float64{300, 300, 300}, tail...), 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPolicy(t, precisionConfig())
			warmup, measured := runIteration(p, "b", tc.vals)
			assert.Len(t, warmup, tc.warmup)
			assert.Equal(t, tc.vals[:tc.warmup], warmup)
			assert.Equal(t, tc.vals[tc.warmup:tc.warmup+3], measured)
			n, met := p.WarmupSlices("b")
			assert.Equal(t, tc.warmup, n)
			assert.Equal(t, tc.met, met)
		})
	}

	cfg := precisionConfig()
	cfg.WarmupMin = 4
	p := newPolicy(t, cfg)
	warmup, _ := runIteration(p, "b", []float64{5, 5, 5, 5, 5, 5, 5, 5})
	assert.Len(t, warmup, 4, "settled at once, but at least WarmupMin")

	cfg.WarmupMin, cfg.WarmupMax = 1, 1
	p = newPolicy(t, cfg)
	warmup, _ = runIteration(p, "b", []float64{9, 5, 5, 5, 5})
	assert.Len(t, warmup, 1, "a fixed warmup of 1")
}

func TestPrecisionCriterion(t *testing.T) {
	var c Criterion
	require.NoError(t, c.Set("precision"))
	assert.Equal(t, Precision, c)
	require.NoError(t, c.Set("PRECISION"))
	assert.Equal(t, "precision", Precision.String())
	assert.Equal(t, 0.03, Precision.DefaultThreshold())
	assert.Contains(t, c.Type(), "precision")
	_, err := ParseCriterion("precise")
	assert.ErrorContains(t, err, "precision")

	cfg := precisionConfig()
	cfg.Window = 0
	assert.NoError(t, cfg.Validate(), "Precision has no window")
	cfg.Resamples = 10
	var ce *ConfigError
	require.ErrorAs(t, cfg.Validate(), &ce)
	assert.Equal(t, "Resamples", ce.Field)
	p, err := NewPolicy(Config{Criterion: Precision, Measure: 5, MinIterations: 2, WarmupMax: 4, WarmupMin: 1})
	require.NoError(t, err)
	assert.Equal(t, 0.03, p.Config().Threshold)
	assert.Equal(t, 1000, p.Config().Resamples)
}

// A benchmark that missed its target is never told that the processes it
// already ran would reach it: the model predicts from the planned slices
// per process, which can make fewer processes look enough.
func TestPrecisionProcessesBeyondThoseRun(t *testing.T) {
	procs := [][]float64{{90, 100, 110}, {94, 104, 114}, {86, 96, 106}}
	est := stats.FitComponents(procs)
	raw := est.ProcessesFor(0.03, IntervalConfidence, 100, maxPredicted)
	require.LessOrEqual(t, raw, 3, "the case: the model alone predicts no more than the 3 processes run")
	pr := precisionOf(est, 0.03, 100)
	require.Greater(t, pr.Width, 0.03, "the target was missed")
	assert.Equal(t, 4, pr.Processes)
}
