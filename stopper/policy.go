package stopper

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"time"

	"github.com/gobench-dyn/gobench-dyn/bootstrap"
)

// A Policy applies a Config to the benchmarks of a run, one state per
// benchmark ID. It has the methods of the runner's Policy, Explainer and
// Widther interfaces. A Policy is not safe for concurrent use.
//
// Inside an iteration, slices are warmup until the criterion holds on the
// window of the last Window warmup slices (WarmupWindow) and at least
// WarmupMin have run, or WarmupMax have run; then Measure measurement
// slices follow.
//
// After each completed iteration the policy appends one value to the
// iteration vector F (Eq. 2 of the paper): the criterion over the
// measurement slices of all iterations so far, nested suite run →
// iteration → slice for RCIW; for KLD, the probability that the slices
// without the newest iteration and with it are alike. Once MinIterations
// are complete, the benchmark stops when the stable function holds on the
// last Window values of F (all of F while it is shorter).
//
// Precision differs in both stages: warmup ends when the newest warmup
// slice is no more than WarmupTolerance faster than the one before it
// (WarmupSettled), and the benchmark stops when the newest value of F,
// the relative width of PrecisionCI over the cumulative slices, is at
// most the threshold. Window does not apply to it.
//
// Why the paper's F vector and not the last 2 values, as the public JMH
// fork has: every value of F is computed over the cumulative slices, so
// each new iteration moves it less than the one before. Two neighbours
// agree ever more easily as data pile up, whether or not the iterations
// agree with each other, and a single lucky iteration is enough to stop.
// Requiring the whole vector to agree asks that every recent prefix of the
// run gave the same answer. With the paper's fmax of 5 and window of 5
// the rule is exactly the paper's; the window only bounds it for long
// runs, so that one early outlier iteration does not hold a benchmark to
// its cap forever.
//
// The JMH fork also drops values outside [median/10, 10·median] of an
// iteration before every criterion. The Policy does not: there, the values
// are single invocations, thousands per iteration, and the filter drops GC
// pauses whose weight in the mean is small. A slice is already a mean
// over b.N operations, so a slice ten times off its neighbours is a real
// event that stays in the result; hiding it from the criterion would let
// the benchmark stop on a mean that the criterion never saw.
type Policy struct {
	cfg    Config
	benchs map[string]*benchState
}

// benchState is the policy's memory of one benchmark.
type benchState struct {
	ev evaluator

	// Current iteration.
	warmupDone bool // the warmup decision of this iteration was taken
	decided    int  // len(warmup) at that decision

	// Completed iterations.
	iterations int
	runs       []*bootstrap.Tree // suite runs, each with iteration leaves
	runIDs     []int
	all        []float64 // every measurement value, in order
	f          []float64 // the iteration vector F
	width      float64   // 99% RCIW of all, NaN until computed
	widthAt    int       // iterations when width was computed

	met       bool // the criterion held at the last decision
	criterion time.Duration
	window    []float64
}

// NewPolicy returns a Policy for cfg, with a zero threshold and resample
// count filled in with the defaults. It returns an error naming the first
// invalid field.
func NewPolicy(cfg Config) (*Policy, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Policy{cfg: cfg, benchs: map[string]*benchState{}}, nil
}

// Config returns the configuration p applies, defaults filled in.
func (p *Policy) Config() Config { return p.cfg }

func (p *Policy) state(bench string) *benchState {
	st := p.benchs[bench]
	if st == nil {
		h := fnv.New64a()
		h.Write([]byte(bench))
		st = &benchState{
			ev: evaluator{
				c:   p.cfg.Criterion,
				n:   p.cfg.Resamples,
				rng: rand.NewPCG(p.cfg.Seed, h.Sum64()),
			},
			width: math.NaN(),
		}
		p.benchs[bench] = st
	}
	return st
}

// MaxSlices returns the most slices an iteration may run: WarmupMax plus
// Measure, or WarmupMin plus Measure for a static configuration.
func (p *Policy) MaxSlices(string) int {
	if p.cfg.Criterion == None {
		return p.cfg.WarmupMin + p.cfg.Measure
	}
	return p.cfg.WarmupMax + p.cfg.Measure
}

// NextSlice says whether the next slice of bench's current iteration is a
// warmup slice, or that the iteration is done. An empty warmup and
// measured start a new iteration.
func (p *Policy) NextSlice(bench string, warmup, measured []float64) (nextWarmup, done bool) {
	st := p.state(bench)
	if len(warmup) == 0 && len(measured) == 0 {
		st.warmupDone = false
	}
	if len(measured) > 0 || st.warmupDone {
		return false, len(measured) >= p.cfg.Measure
	}
	if p.cfg.Criterion == None || p.cfg.WarmupMax <= p.cfg.WarmupMin {
		// A fixed warmup: there is no criterion to meet.
		if len(warmup) < p.cfg.WarmupMin {
			return true, false
		}
		st.warmupDone, st.decided, st.met = true, len(warmup), true
		return false, false
	}
	window := p.cfg.Window
	if p.cfg.Criterion == Precision {
		window = 2
	}
	if len(warmup) < p.cfg.WarmupMin || len(warmup) < window && len(warmup) < p.cfg.WarmupMax {
		return true, false
	}
	start := time.Now()
	var stable bool
	if p.cfg.Criterion == Precision {
		stable = WarmupSettled(warmup, WarmupTolerance)
	} else {
		st.window = st.ev.warmupWindow(st.window[:0], warmup, p.cfg.Window)
		stable = len(st.window) > 0 && p.cfg.Criterion.stable(st.window, p.cfg.Threshold)
	}
	st.criterion += time.Since(start)
	if stable || len(warmup) >= p.cfg.WarmupMax {
		st.warmupDone, st.decided, st.met = true, len(warmup), stable
		return false, false
	}
	return true, false
}

// EndIteration records a completed iteration of bench with its
// measurement values and says whether bench is done: at least
// MinIterations are complete and the criterion holds on the iteration
// vector. Iterations must come in suite-run order.
func (p *Policy) EndIteration(bench string, suiteRun int, measured []float64) (stop bool) {
	st := p.state(bench)
	st.warmupDone = false
	if len(measured) == 0 {
		st.met = false
		return false
	}
	start := time.Now()
	defer func() { st.criterion += time.Since(start) }()

	if n := len(st.runIDs); n == 0 || st.runIDs[n-1] != suiteRun {
		st.runIDs = append(st.runIDs, suiteRun)
		st.runs = append(st.runs, &bootstrap.Tree{})
	}
	run := st.runs[len(st.runs)-1]
	run.Children = append(run.Children, bootstrap.Leaf(append([]float64(nil), measured...)))
	prev := len(st.all)
	st.all = append(st.all, measured...)
	st.iterations++

	c := p.cfg.Criterion
	switch c {
	case None:
		st.met = false
		return false
	case CV:
		st.f = append(st.f, CVOf(st.all))
	case RCIW, Precision:
		st.f = append(st.f, st.rciw(p.cfg.Resamples))
	case KLD:
		if prev >= 2 {
			st.f = append(st.f, st.ev.kde.probability(st.all[:prev], st.all))
		}
	}
	if st.iterations < p.cfg.MinIterations {
		st.met = false
		return false
	}
	if c == Precision {
		st.met = StablePrecision(st.f, p.cfg.Threshold)
		return st.met
	}
	window := st.f[max(0, len(st.f)-p.cfg.Window):]
	st.met = c.stable(window, p.cfg.Threshold)
	return st.met
}

// rciw returns the 99% RCIW of all measurement values so far, nested
// suite run → iteration → slice, computing it at most once per completed
// iteration. Under Precision it is the relative width of PrecisionCI.
func (st *benchState) rciw(resamples int) float64 {
	if st.widthAt != st.iterations {
		root := &bootstrap.Tree{Children: st.runs}
		if st.ev.c == Precision {
			st.width = st.ev.res.precisionCI(root, resamples, st.ev.rng).RelWidth()
		} else {
			st.width = st.ev.res.rciw(root, resamples, st.ev.rng)
		}
		st.widthAt = st.iterations
	}
	return st.width
}

// RelWidth returns the relative width of the 99% bootstrap confidence
// interval of bench's mean over its completed iterations (under Precision,
// of PrecisionCI), +Inf before any (an unmeasured benchmark is the least
// stable), and NaN for a single value. The runner spends a time budget on the widest first.
func (p *Policy) RelWidth(bench string) float64 {
	st := p.state(bench)
	if st.iterations == 0 {
		return math.Inf(1)
	}
	start := time.Now()
	w := st.rciw(p.cfg.Resamples)
	st.criterion += time.Since(start)
	return w
}

// Explain reports whether the criterion held at the last decision about
// bench (the end of warmup, or the stop after an iteration), and the time
// spent computing criteria for bench so far.
func (p *Policy) Explain(bench string) (met bool, criterion time.Duration) {
	st := p.state(bench)
	return st.met, st.criterion
}

// WarmupSlices returns the number of warmup slices at which the last
// warmup decision of bench was taken, and whether the criterion held then.
func (p *Policy) WarmupSlices(bench string) (n int, met bool) {
	st := p.state(bench)
	return st.decided, st.met
}

// Vector returns a copy of bench's iteration vector F.
func (p *Policy) Vector(bench string) []float64 {
	return append([]float64(nil), p.state(bench).f...)
}
