package stopper

import (
	"math"
	"strings"
	"testing"

	"github.com/gobench-dyn/gobench-dyn/stopper/policy"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runIteration feeds vals to p slice by slice as the runner does, and
// returns the warmup and measurement values it took.
func runIteration(p *Policy, bench string, vals []float64) (warmup, measured []float64) {
	i := 0
	for {
		step := p.NextSlice(bench, warmup, measured)
		if step.Done || i == len(vals) {
			return warmup, measured
		}
		if step.Warmup {
			warmup = append(warmup, vals[i])
		} else {
			measured = append(measured, vals[i])
		}
		i++
	}
}

// end ends an iteration of bench with measured values and no costs, and
// returns whether the policy stopped bench.
func end(p *Policy, bench string, suiteRun int, measured []float64) bool {
	return p.EndIteration(bench, policy.Iteration{SuiteRun: suiteRun, Measured: measured}).Stop
}

// met says whether the criterion held at the last decision about bench.
func metOf(p *Policy, bench string) bool {
	_, m := p.WarmupSlices(bench)
	return m
}

func newPolicy(t *testing.T, cfg Config) *Policy {
	t.Helper()
	p, err := NewPolicy(cfg)
	require.NoError(t, err)
	return p
}

func cvConfig() Config {
	return Config{Criterion: CV, Window: 3, WarmupMin: 1, WarmupMax: 10, Measure: 4, MinIterations: 2}
}

func TestWarmupEndsWhereWindowStable(t *testing.T) {
	p := newPolicy(t, cvConfig())
	// Window of 3: [200 100 100] varies, [100 100 100] is stable.
	vals := []float64{200, 100, 100, 100, 100, 100, 100, 100, 100, 100}
	warmup, measured := runIteration(p, "b", vals)
	assert.Equal(t, []float64{200, 100, 100, 100}, warmup)
	assert.Equal(t, []float64{100, 100, 100, 100}, measured, "exactly Measure slices")
	n, met := p.WarmupSlices("b")
	assert.Equal(t, 4, n)
	assert.True(t, met)
	m := metOf(p, "b")
	assert.True(t, m)
}

func TestWarmupMinAndWindow(t *testing.T) {
	cfg := cvConfig()
	cfg.WarmupMin = 5
	p := newPolicy(t, cfg)
	flat := []float64{7, 7, 7, 7, 7, 7, 7, 7, 7, 7}
	warmup, _ := runIteration(p, "b", flat)
	assert.Len(t, warmup, 5, "stable at once, but at least WarmupMin")

	cfg.WarmupMin = 0
	p = newPolicy(t, cfg)
	warmup, _ = runIteration(p, "b", flat)
	assert.Len(t, warmup, 3, "no decision before a full window")
}

func TestWarmupMaxCap(t *testing.T) {
	cfg := cvConfig()
	cfg.WarmupMax = 6
	p := newPolicy(t, cfg)
	// Doubling values: every window has the same shape, but the CV of its
	// prefixes differs by 0.19. (Noise without a trend can be "stable":
	// the criterion asks that variability settle, not that it be small.)
	var growing []float64
	for i := range 12 {
		growing = append(growing, 100*math.Pow(2, float64(i)))
	}
	warmup, measured := runIteration(p, "b", growing)
	assert.Len(t, warmup, 6)
	assert.Len(t, measured, 4)
	n, met := p.WarmupSlices("b")
	assert.Equal(t, 6, n)
	assert.False(t, met, "the cap forced the end of warmup")
	m := metOf(p, "b")
	assert.False(t, m)
	assert.Equal(t, 10, p.MaxSlices("b"))
}

func TestFixedWarmup(t *testing.T) {
	for _, cfg := range []Config{
		{Criterion: None, WarmupMin: 2, Measure: 3, MinIterations: 1},
		{Criterion: CV, Window: 3, WarmupMin: 2, WarmupMax: 2, Measure: 3, MinIterations: 1},
	} {
		p := newPolicy(t, cfg)
		warmup, measured := runIteration(p, "b", []float64{9, 1, 5, 2, 8, 3, 3})
		assert.Equal(t, []float64{9, 1}, warmup, "%s", cfg.Criterion)
		assert.Equal(t, []float64{5, 2, 8}, measured)
		_, met := p.WarmupSlices("b")
		assert.True(t, met, "a fixed warmup has nothing to meet")
	}
	p := newPolicy(t, Config{Criterion: None, WarmupMin: 2, Measure: 3, MinIterations: 1})
	assert.Equal(t, 5, p.MaxSlices("b"))
	for range 10 {
		assert.False(t, end(p, "b", 1, []float64{1, 1, 1}), "a static configuration never stops early")
	}
}

func TestIterationStop(t *testing.T) {
	p := newPolicy(t, cvConfig())
	same := []float64{100, 100.5, 99.5, 100}
	assert.False(t, end(p, "b", 1, same), "fewer than MinIterations")
	assert.True(t, end(p, "b", 1, same), "F = [cv, cv]: stable at MinIterations")
	met := metOf(p, "b")
	assert.True(t, met)

	cfg := cvConfig()
	cfg.MinIterations = 3
	p = newPolicy(t, cfg)
	assert.False(t, end(p, "b", 1, same))
	assert.False(t, end(p, "b", 1, same))
	assert.True(t, end(p, "b", 2, same))
	assert.Len(t, p.Vector("b"), 3)
}

func TestIterationStopWindow(t *testing.T) {
	p := newPolicy(t, cvConfig())
	// The second iteration moves the CV far, the next ones little: F holds
	// [cv1, far, …]. With a window of 3, the early value leaves the window
	// after three more iterations.
	end(p, "b", 1, []float64{100, 100, 100, 100})
	stops := []bool{}
	for range 40 {
		stops = append(stops, end(p, "b", 1, []float64{200, 200, 200, 200}))
	}
	f := p.Vector("b")
	require.Len(t, f, 41)
	assert.False(t, stops[0])
	// The first stop is where the last 3 values of F lie within 0.01.
	first := -1
	for i := 2; i < len(f); i++ {
		w := f[i-2 : i+1]
		if StableVar(w, 0.01) {
			first = i
			break
		}
	}
	require.Positive(t, first, "the sequence must stabilise")
	for i, s := range stops {
		assert.Equal(t, i+1 >= first, s, "iteration %d", i+2)
	}
}

func TestIterationNeverStableNoStop(t *testing.T) {
	for _, c := range []Criterion{CV, RCIW, KLD} {
		cfg := Paper(c)
		p := newPolicy(t, cfg)
		for i := range 8 {
			v := 100.0
			if i%2 == 1 {
				v = 300
			}
			assert.False(t, end(p, "b", 1, []float64{v, v + 1, v - 1, v + 2, v - 2}), "%s iteration %d", c, i+1)
		}
	}
}

func TestKLDAndRCIWStopOnSteadyData(t *testing.T) {
	for _, c := range []Criterion{RCIW, KLD} {
		p := newPolicy(t, Paper(c))
		// The same ten values in every iteration: the cumulative sample's
		// shape and precision barely move.
		it := []float64{100, 101, 99, 100.5, 99.5, 100.2, 99.8, 100.1, 99.9, 100}
		stopped := 0
		for i := range 8 {
			if end(p, "b", 1, it) {
				stopped = i + 1
				break
			}
		}
		want := 2
		if c == KLD {
			// The bandwidth shrinks as n^(−1/5) while the data double, so
			// the density estimates differ a little at first: F = [0.978,
			// 0.999, 0.999, …], whose mean first exceeds 0.99 over three values.
			want = 4
		}
		assert.Equal(t, want, stopped, "%s", c)
	}
}

func TestDecisionCarriesPrecision(t *testing.T) {
	p := newPolicy(t, Paper(CV))
	d := p.EndIteration("b", policy.Iteration{SuiteRun: 1, Measured: []float64{100, 102, 98, 101, 99}})
	assert.False(t, d.Precision.Known(), "one process has no interval")
	d = p.EndIteration("b", policy.Iteration{SuiteRun: 2, Measured: []float64{104, 106, 102, 105, 103}})
	// Process means 100 and 104: ±t(0.975, 1)·sd/√2 = 12.706·2 = 25.41 around 102.
	assert.InDelta(t, 12.706205*2/102, d.Precision.Width, 1e-6)
	assert.Equal(t, IntervalTarget, d.Precision.Target, "the default target under another criterion")
	assert.Greater(t, d.Precision.Processes, 2)
	assert.Less(t, d.Precision.Next, d.Precision.Width)
	assert.Equal(t, "cv", d.Criterion)
}

func TestSeedReproducible(t *testing.T) {
	vec := func(seed uint64, bench string) []float64 {
		cfg := Paper(RCIW)
		cfg.Seed = seed
		p := newPolicy(t, cfg)
		for i := range 4 {
			end(p, bench, 1+i/2, []float64{100, 103, 97, 101, 99, 102})
		}
		return p.Vector(bench)
	}
	assert.Equal(t, vec(1, "a"), vec(1, "a"))
	assert.NotEqual(t, vec(1, "a"), vec(2, "a"))
	assert.NotEqual(t, vec(1, "a"), vec(1, "b"), "each benchmark has its own stream")
}

func TestParseCriterion(t *testing.T) {
	for _, c := range Criteria() {
		got, err := ParseCriterion(c.String())
		require.NoError(t, err)
		assert.Equal(t, c, got)
	}
	got, err := ParseCriterion("RCIW")
	require.NoError(t, err)
	assert.Equal(t, RCIW, got)
	_, err = ParseCriterion("median")
	assert.ErrorContains(t, err, `unknown stoppage criterion "median" (want none, cv, rciw, kld, precision`)
	var c Criterion
	require.NoError(t, c.Set("kld"))
	assert.Equal(t, KLD, c)
	assert.Error(t, c.Set(""))
}

// Every criterion is one definition in the list: named, explained, and
// valid in the paper's and the Go defaults' configurations. A definition
// left out of the list is refused.
func TestCriteria(t *testing.T) {
	all := Criteria()
	assert.Equal(t, []Criterion{None, CV, RCIW, KLD, Precision, Interval}, all[:6])
	assert.Equal(t, None, Criterion{}, "the zero Criterion is None")
	var c Criterion
	assert.True(t, strings.HasPrefix(c.Type(), "none|cv|rciw|kld|precision|interval"), c.Type())
	seen := map[string]bool{}
	for _, c := range all {
		assert.NotEmpty(t, c.String())
		assert.NotEmpty(t, c.Help(), "%s", c)
		assert.False(t, seen[c.String()], "%s named twice", c)
		seen[c.String()] = true
		if c != None {
			assert.Positive(t, c.DefaultThreshold(), "%s", c)
		}
	}
	var windowed []Criterion
	for _, c := range all[:6] {
		if c.WindowWarmup() {
			windowed = append(windowed, c)
		}
	}
	assert.Equal(t, []Criterion{CV, RCIW, KLD}, windowed, "the paper's warmup stoppage")

	stray := Criterion{&definition{name: "stray", help: "not in the list", threshold: 0.1}}
	_, err := NewPolicy(Config{Criterion: stray, Window: 3, Measure: 3, MinIterations: 3})
	var ce *ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "Criterion", ce.Field)
}

func TestConfigValidate(t *testing.T) {
	for _, c := range Criteria() {
		assert.NoError(t, Paper(c).Validate())
		assert.NoError(t, Default(c).Validate())
	}
	bad := map[string]func(*Config){
		"Threshold":     func(c *Config) { c.Threshold = -1 },
		"Window":        func(c *Config) { c.Window = 1 },
		"WarmupMin":     func(c *Config) { c.WarmupMin = -1 },
		"WarmupMax":     func(c *Config) { c.WarmupMax = 2 },
		"Measure":       func(c *Config) { c.Measure = 0 },
		"MinIterations": func(c *Config) { c.MinIterations = 0 },
		"Resamples":     func(c *Config) { c.Resamples = 10 },
	}
	for field, mutate := range bad {
		cfg := Paper(RCIW)
		mutate(&cfg)
		err := cfg.Validate()
		var ce *ConfigError
		require.ErrorAs(t, err, &ce, field)
		assert.Equal(t, field, ce.Field)
	}
	kld := Paper(KLD)
	kld.Window = 2
	assert.Error(t, kld.Validate(), "KLD needs a window of 3")
	kld.Window, kld.Threshold = 5, 1
	assert.Error(t, kld.Validate())
	_, err := NewPolicy(kld)
	assert.Error(t, err)
}
