package optime

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/gobench-dyn/gobench-dyn/internal/choice"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// Defaults of Options, as published.
const (
	DefaultThreshold  = 0.01
	DefaultResamples  = 10000
	DefaultConfidence = 0.99
)

// Instances says which instances (machines) of a run the search looks at.
// Instances are never optimized away: they run in parallel, so they cost
// no time.
type Instances int

const (
	// FirstInstance uses only the first instance of each benchmark, as
	// the published µOpTime did (instance 1 of 3).
	FirstInstance Instances = iota
	// AllInstances pools the prefix subsets of every instance: a
	// configuration (s, i, d) is judged on the first s suite runs, i
	// iterations and d slices of each instance together.
	AllInstances
)

// String returns "first" or "all".
func (in Instances) String() string {
	switch in {
	case FirstInstance:
		return "first"
	case AllInstances:
		return "all"
	}
	return fmt.Sprintf("Instances(%d)", int(in))
}

// ParseInstances returns the Instances named s, "first" or "all".
func ParseInstances(s string) (Instances, error) {
	return choice.ParseFunc("instances", s, Instances.String, FirstInstance, AllInstances)
}

// A Strategy is how each benchmark's configuration is chosen: by the
// µOpTime search, or by one of the two baselines it was published against.
type Strategy string

const (
	// StrategySearch is Optimize: the cheapest stable configuration.
	StrategySearch Strategy = "search"
	// StrategyMinimum is MinimumBaseline: (1, 3, 1) for every benchmark.
	StrategyMinimum Strategy = "minimum"
	// StrategyRandom is RandomBaseline: a random smaller configuration.
	StrategyRandom Strategy = "random"
)

// ParseStrategy returns the Strategy named s.
func ParseStrategy(s string) (Strategy, error) {
	return choice.Parse("strategy", s, StrategySearch, StrategyMinimum, StrategyRandom)
}

// Choose gives every benchmark a configuration by strategy st.
func (st Strategy) Choose(benches []Benchmark, opts Options) (*Result, error) {
	switch st {
	case StrategySearch, "":
		return Optimize(benches, opts)
	case StrategyMinimum:
		return MinimumBaseline(benches, opts)
	case StrategyRandom:
		return RandomBaseline(benches, opts)
	}
	return nil, fmt.Errorf("unknown strategy %q", st)
}

// Options configure the search for minimal configurations.
type Options struct {
	Metric Metric
	// Threshold is the metric value a configuration must stay strictly
	// below to count as stable; 0 means DefaultThreshold.
	Threshold float64
	Instances Instances
	// Resamples is the number of bootstrap resamples of the bootstrap
	// metrics; 0 means DefaultResamples.
	Resamples int
	// Confidence is the level of the bootstrap intervals; 0 means
	// DefaultConfidence.
	Confidence float64
	// Rand is the random source of the bootstrap metrics and of
	// RandomBaseline. Each benchmark draws its own generator from it in
	// input order, so results do not depend on scheduling. Nil means a
	// generator seeded with 0.
	Rand *rand.Rand
}

func (o Options) withDefaults() (Options, error) {
	if !o.Metric.valid() {
		return o, fmt.Errorf("optime: unknown metric %d", int(o.Metric))
	}
	if o.Threshold == 0 {
		o.Threshold = DefaultThreshold
	}
	if !(o.Threshold > 0) || math.IsInf(o.Threshold, 0) {
		return o, fmt.Errorf("optime: threshold %v is not a positive number", o.Threshold)
	}
	if o.Instances != FirstInstance && o.Instances != AllInstances {
		return o, fmt.Errorf("optime: unknown instances %d", int(o.Instances))
	}
	if o.Resamples == 0 {
		o.Resamples = DefaultResamples
	}
	if o.Resamples < 1 {
		return o, fmt.Errorf("optime: %d resamples", o.Resamples)
	}
	if o.Confidence == 0 {
		o.Confidence = DefaultConfidence
	}
	if !(o.Confidence > 0 && o.Confidence < 1) {
		return o, fmt.Errorf("optime: confidence %v is not between 0 and 1", o.Confidence)
	}
	if o.Rand == nil {
		o.Rand = rand.New(rand.NewPCG(0, 0))
	}
	return o, nil
}

// A Benchmark is the recorded full run of one benchmark.
type Benchmark struct {
	Package string
	Name    string
	// Warmup is the number of warmup slices each iteration ran before
	// its measurement slices; a configuration keeps it.
	Warmup int
	// Series holds the ns/op measurements of every iteration, grouped by
	// instance, suite runs and iterations in order within an instance.
	// The first instance is the instance of Series[0].
	Series []record.IterationSample
	// Sources are the IDs of the source runs the series came from.
	Sources []int
}

// A Config is the number of suite runs, iterations per suite run and
// measurement slices per iteration of one benchmark: µOpTime's (s, i, d).
type Config struct {
	SuiteRuns  int
	Iterations int
	Slices     int
}

// Time returns the measurement slices the configuration runs per
// instance, s·i·d: its cost in units of one slice.
func (c Config) Time() int { return c.SuiteRuns * c.Iterations * c.Slices }

// String formats c as "(s, i, d)", as the published results do.
func (c Config) String() string {
	return fmt.Sprintf("(%d, %d, %d)", c.SuiteRuns, c.Iterations, c.Slices)
}

// A Choice is the configuration chosen for one benchmark.
type Choice struct {
	Package string
	Name    string
	Config  Config // the chosen configuration
	Full    Config // the configuration of the recorded run
	Warmup  int    // warmup slices per iteration, as recorded
	// Value is the metric of the chosen configuration's sample.
	Value float64
	// Stable reports whether Value is below the threshold. A benchmark
	// with no stable configuration keeps the full one.
	Stable bool
	// Samples is the number of values in the chosen configuration's
	// sample, over the instances searched.
	Samples int
	// Average and FullAverage summarize the chosen and the full
	// configuration's samples: the median for median-based metrics,
	// else the mean.
	Average, FullAverage float64
	Sources              []int
}

// Change returns the predicted change rate: the relative difference of the
// chosen configuration's average from the full configuration's.
func (c Choice) Change() float64 { return (c.Average - c.FullAverage) / c.FullAverage }

// A Result is the outcome of a search over a suite.
type Result struct {
	Strategy  Strategy
	Metric    Metric
	Threshold float64
	Instances Instances
	Choices   []Choice // in input order
}

// Time returns the slices per instance of the chosen configurations and of
// the full ones, summed over the suite.
func (r *Result) Time() (chosen, full int) {
	for _, c := range r.Choices {
		chosen += c.Config.Time()
		full += c.Full.Time()
	}
	return chosen, full
}

// Saved returns the share of the full configurations' time that the chosen
// configurations save.
func (r *Result) Saved() float64 {
	chosen, full := r.Time()
	if full == 0 {
		return 0
	}
	return 1 - float64(chosen)/float64(full)
}

// Within returns the share of benchmarks whose predicted change rate is at
// most tol in absolute value (for example 0.03).
func (r *Result) Within(tol float64) float64 {
	if len(r.Choices) == 0 {
		return 0
	}
	n := 0
	for _, c := range r.Choices {
		if math.Abs(c.Change()) <= tol {
			n++
		}
	}
	return float64(n) / float64(len(r.Choices))
}

// Optimize finds for every benchmark the configuration (s, i, d) with the
// least time s·i·d whose metric, computed on the prefix subset of the
// recorded samples (suite runs ≤ s, iterations ≤ i, slices ≤ d), is
// strictly below the threshold. It skips configurations with s·i < 3,
// which leave too few iterations to judge variability. Ties in time go to
// the lower metric, and then to the first in the order s, i, d. A
// benchmark without any stable configuration keeps the full one.
//
// This is Algorithm 1 of Japke et al., µOpTime, with the published
// simulation rules.
func Optimize(benches []Benchmark, opts Options) (*Result, error) {
	return search(benches, opts, StrategySearch, func(b *bench, _ *rand.Rand) []Config { return b.candidates() })
}

// MinimumBaseline gives every benchmark the smallest configuration µOpTime
// considers, (1, 3, 1), or the full one if that does not fit in it: the
// published minimum baseline.
func MinimumBaseline(benches []Benchmark, opts Options) (*Result, error) {
	return search(benches, opts, StrategyMinimum, func(b *bench, _ *rand.Rand) []Config {
		c := Config{1, 3, 1}
		if c.SuiteRuns > b.full.SuiteRuns || c.Iterations > b.full.Iterations || c.Slices > b.full.Slices {
			return []Config{b.full}
		}
		return []Config{c, b.full}
	})
}

// RandomBaseline gives every benchmark a random smaller configuration, as
// the published random baseline did: s, i and d are drawn uniformly below
// the full configuration's (1 ≤ s < S, and so on) until s·i·d ≥ 3, and a
// draw with s·i < 3 keeps the full configuration.
func RandomBaseline(benches []Benchmark, opts Options) (*Result, error) {
	return search(benches, opts, StrategyRandom, func(b *bench, rng *rand.Rand) []Config {
		f := b.full
		below := func(n int) int { return 1 + rng.IntN(max(n-1, 1)) }
		if max(f.SuiteRuns-1, 1)*max(f.Iterations-1, 1)*max(f.Slices-1, 1) < 3 {
			return []Config{f}
		}
		for {
			c := Config{below(f.SuiteRuns), below(f.Iterations), below(f.Slices)}
			if c.Time() < 3 {
				continue
			}
			if c.SuiteRuns*c.Iterations < 3 {
				return []Config{f}
			}
			return []Config{c, f}
		}
	})
}

// search evaluates the configurations that configs proposes for each
// benchmark and keeps the best, in parallel over benchmarks. With anyValue,
// every configuration qualifies whatever its metric, as in the baselines;
// Choice.Stable still compares it with the threshold.
func search(benches []Benchmark, opts Options, st Strategy, configs func(*bench, *rand.Rand) []Config) (*Result, error) {
	// A baseline takes its configuration whatever its metric.
	anyValue := st != StrategySearch
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	prepared := make([]*bench, len(benches))
	for i := range benches {
		b, err := prepare(&benches[i], opts.Instances)
		if err != nil {
			return nil, err
		}
		prepared[i] = b
	}
	// One generator per benchmark, drawn in input order: the outcome does
	// not depend on how the workers interleave.
	seeds := make([][2]uint64, len(benches))
	for i := range seeds {
		seeds[i] = [2]uint64{opts.Rand.Uint64(), opts.Rand.Uint64()}
	}
	res := &Result{Strategy: st, Metric: opts.Metric, Threshold: opts.Threshold, Instances: opts.Instances, Choices: make([]Choice, len(benches))}
	var wg sync.WaitGroup
	work := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(benches)) {
		wg.Go(func() {
			for i := range work {
				rng := rand.New(rand.NewPCG(seeds[i][0], seeds[i][1]))
				b := prepared[i]
				res.Choices[i] = b.choose(configs(b, rng), opts, anyValue, rng)
			}
		})
	}
	for i := range benches {
		work <- i
	}
	close(work)
	wg.Wait()
	return res, nil
}

// bench is a Benchmark ready for the search: the iterations of the
// instances searched and the full configuration they span.
type bench struct {
	src   *Benchmark
	iters []record.IterationSample
	full  Config
}

func prepare(b *Benchmark, in Instances) (*bench, error) {
	if len(b.Series) == 0 {
		return nil, fmt.Errorf("optime: %s %s has no measurements", b.Package, b.Name)
	}
	p := &bench{src: b}
	for _, it := range b.Series {
		if in == FirstInstance && it.Instance != b.Series[0].Instance {
			continue
		}
		if it.SuiteRun < 1 || it.Iteration < 1 {
			return nil, fmt.Errorf("optime: %s %s: suite run %d, iteration %d: positions start at 1", b.Package, b.Name, it.SuiteRun, it.Iteration)
		}
		for _, v := range it.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("optime: %s %s: value %v", b.Package, b.Name, v)
			}
		}
		p.iters = append(p.iters, it)
		p.full.SuiteRuns = max(p.full.SuiteRuns, it.SuiteRun)
		p.full.Iterations = max(p.full.Iterations, it.Iteration)
		p.full.Slices = max(p.full.Slices, len(it.Values))
	}
	if p.full.Slices == 0 {
		return nil, errors.New("optime: " + b.Package + " " + b.Name + " has no measurement slices")
	}
	return p, nil
}

// candidates lists every configuration up to the full one with s·i ≥ 3, in
// the order s, i, d, the full one last.
func (b *bench) candidates() []Config {
	var out []Config
	for s := 1; s <= b.full.SuiteRuns; s++ {
		for i := 1; i <= b.full.Iterations; i++ {
			if s*i < 3 {
				continue
			}
			for d := 1; d <= b.full.Slices; d++ {
				out = append(out, Config{s, i, d})
			}
		}
	}
	return out
}

// sample returns the prefix subset of c.
func (b *bench) sample(c Config, dst []float64) []float64 {
	for _, it := range b.iters {
		if it.SuiteRun <= c.SuiteRuns && it.Iteration <= c.Iterations {
			dst = append(dst, it.Values[:min(c.Slices, len(it.Values))]...)
		}
	}
	return dst
}

func (b *bench) choose(configs []Config, opts Options, anyValue bool, rng *rand.Rand) Choice {
	best, bestVal, found := b.full, math.NaN(), false
	fullVal, haveFull := math.NaN(), false
	var buf []float64
	for _, c := range configs {
		buf = b.sample(c, buf[:0])
		if len(buf) == 0 {
			continue
		}
		v := Instability(opts.Metric, buf, opts.Resamples, opts.Confidence, rng)
		if c == b.full {
			fullVal, haveFull = v, true
		}
		if !anyValue && !(v < opts.Threshold) {
			continue
		}
		if !found || c.Time() < best.Time() || c.Time() == best.Time() && v < bestVal {
			best, bestVal, found = c, v, true
		}
	}
	full := b.sample(b.full, nil)
	ch := Choice{
		Package:     b.src.Package,
		Name:        b.src.Name,
		Config:      best,
		Full:        b.full,
		Warmup:      b.src.Warmup,
		Value:       bestVal,
		FullAverage: opts.Metric.Average(full),
		Sources:     b.src.Sources,
	}
	if !found {
		if !haveFull {
			fullVal = Instability(opts.Metric, full, opts.Resamples, opts.Confidence, rng)
		}
		ch.Value = fullVal
	}
	ch.Stable = ch.Value < opts.Threshold
	chosen := b.sample(best, nil)
	ch.Samples = len(chosen)
	ch.Average = opts.Metric.Average(chosen)
	return ch
}
