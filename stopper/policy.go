package stopper

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/stopper/policy"
)

// A Policy applies a Config to the benchmarks of a run, one state per
// benchmark ID; it implements policy.Policy. A Policy is not safe for
// concurrent use.
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
// Interval decides on the variance components of the processes so far
// (package varcomp): the benchmark stops once the Student-t interval of
// the mean over process means, at IntervalConfidence, has a relative
// half-width at most the threshold at HoldProcesses consecutive processes,
// each with at least MinIterations (and never fewer than MinProcesses)
// processes complete. Its warmup is learned in a benchmark's first
// iteration, by the rule of Precision below, up to WarmupMax, and every
// later iteration warms up as long (learnedWarmup); its measurement
// slices per iteration adapt: Measure in the pilot, then
// after each iteration the m* of the estimate and of the costs the caller
// measured, within [MinSlices, MeasureMax] (from PlannedMinSlices for a
// slow op, SetSlowOp). Every decision, under every
// criterion, carries that interval and the processes predicted to reach
// the target.
//
// Precision differs in both stages: warmup ends when the newest warmup
// slice is no more than WarmupTolerance faster than the one before it
// (WarmupSettled), and the benchmark stops when the newest value of F,
// the relative width of precisionCIOf over the cumulative slices, is at
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
	runs       []*stats.Tree // suite runs, each with iteration leaves
	runIDs     []int
	all        []float64 // every measurement value, in order
	f          []float64 // the iteration vector F
	width      float64   // cumulativeWidth of all, NaN until computed
	widthAt    int       // iterations when width was computed

	met    bool // the criterion held at the last decision
	window []float64

	procs   [][]float64   // measurement values per iteration, for varcomp
	measure int           // measurement slices per iteration, adapted under Interval
	learned int           // warmup slices of every iteration after the first, once learned
	settled bool          // the first iteration's warmup settled before WarmupMax
	drop    float64       // the first iteration's first warmup ns/op over its last
	c1, c2  time.Duration // summed slice and process costs of the iterations that had them
	costed  int           // iterations with costs
	held    int           // consecutive decisions at which the interval met its target
	slowOp  bool          // each slice is one op that fills it (SetSlowOp)
	coldOp  bool          // a slow op measured without warmup (SetSlowOp)
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
				def: p.cfg.Criterion.spec(),
				n:   p.cfg.Resamples,
				rng: rand.NewPCG(p.cfg.Seed, h.Sum64()),
			},
			width:   math.NaN(),
			measure: p.cfg.Measure,
		}
		p.benchs[bench] = st
	}
	return st
}

// MaxSlices returns the most slices an iteration may run: WarmupMax plus
// Measure, or WarmupMin plus Measure for a static configuration.
func (p *Policy) MaxSlices(bench string) int {
	if p.cfg.Criterion == None {
		return p.cfg.WarmupMin + p.cfg.Measure
	}
	st := p.state(bench)
	if st.learned > 0 || st.coldOp {
		return st.learned + st.measure
	}
	return p.cfg.WarmupMax + st.measure
}

// NextSlice says whether the next slice of bench's current iteration is a
// warmup slice, or that the iteration is done. An empty warmup and
// measured start a new iteration.
func (p *Policy) NextSlice(bench string, warmup, measured []float64) policy.Step {
	nextWarmup, done := p.nextSlice(bench, warmup, measured)
	return policy.Step{Warmup: nextWarmup, Done: done, Met: p.state(bench).met}
}

func (p *Policy) nextSlice(bench string, warmup, measured []float64) (nextWarmup, done bool) {
	st := p.state(bench)
	if len(warmup) == 0 && len(measured) == 0 {
		st.warmupDone = false
	}
	if len(measured) > 0 || st.warmupDone {
		return false, len(measured) >= st.measure
	}
	def := p.cfg.Criterion.spec()
	if st.coldOp {
		st.warmupDone, st.decided, st.met = true, len(warmup), true
		return false, false
	}
	if st.learned > 0 {
		// The warmup the first iteration needed.
		if len(warmup) < st.learned {
			return true, false
		}
		st.warmupDone, st.decided, st.met = true, len(warmup), st.settled
		return false, false
	}
	if def.value == nil && def.settled == nil || p.cfg.WarmupMax <= p.cfg.WarmupMin {
		// A fixed warmup: there is no criterion to meet.
		if len(warmup) < p.cfg.WarmupMin {
			return true, false
		}
		st.warmupDone, st.decided, st.met = true, len(warmup), true
		return false, false
	}
	window := p.cfg.Window
	if def.settled != nil {
		window = 2
	}
	if len(warmup) < p.cfg.WarmupMin || len(warmup) < window && len(warmup) < p.cfg.WarmupMax {
		return true, false
	}
	var stable bool
	if def.settled != nil {
		stable = def.settled(warmup)
	} else {
		st.window = st.ev.warmupWindow(st.window[:0], warmup, p.cfg.Window)
		stable = len(st.window) > 0 && def.stable(st.window, p.cfg.Threshold)
	}
	if stable || len(warmup) >= p.cfg.WarmupMax {
		st.warmupDone, st.decided, st.met = true, len(warmup), stable
		if def.learns {
			st.learned, st.settled = learnedWarmup(len(warmup), stable, p.cfg.WarmupMin), stable
			st.drop = warmup[0] / warmup[len(warmup)-1]
		}
		return false, false
	}
	return true, false
}

// learnedWarmup returns the warmup slices of the iterations after a
// first one whose warmup ended after n slices, settled or at the cap.
// Settled after n, the last slice was not much faster than the one
// before it, so that one already ran at the steady level: the n−2 slices
// before it were the warmup, and at least least, and one. At the cap, the
// whole cap. (n−1 would add a slice to most later processes for nothing
// the rule saw: docs/EVALUATION.md.)
func learnedWarmup(n int, settled bool, least int) int {
	if settled {
		n -= 2
	}
	return max(n, least, 1)
}

// LearnedWarmup returns the warmup slices that bench's iterations after
// its first run, as its first iteration learned them, and whether that
// iteration's warmup settled before WarmupMax; 0 before it is learned or
// when the criterion does not learn its warmup.
func (p *Policy) LearnedWarmup(bench string) (slices int, settled bool) {
	st := p.state(bench)
	return st.learned, st.settled
}

// SetLearnedWarmup gives bench the warmup an earlier run learned for it,
// slices per iteration as that run's configuration file records them
// (optime's Warmup), so that this run does not pay for learning it again:
// its first iteration warms up as long as every later one. It applies
// only to a criterion that learns its warmup, and only before bench's
// first iteration. It reports whether it did: slices below 1 are
// ignored.
func (p *Policy) SetLearnedWarmup(bench string, slices int) bool {
	if slices < 1 || !p.cfg.Criterion.spec().learns {
		return false
	}
	st := p.state(bench)
	if st.learned > 0 || st.decided > 0 {
		return false
	}
	// Not capped at WarmupMax, which bounds how long the first process
	// looks for the steady state: a file that found it later (steady -o)
	// knows better.
	st.learned, st.settled = slices, true
	return true
}

// SetSlowOp says that each slice of bench runs a single op (b.N = 1)
// that takes at least the slice time, so that its slices cannot be made
// shorter and a warmup slice costs as much as a measured one; or that
// each call of its function spends a slice or more outside the timer,
// which every slice pays again (a setup-heavy benchmark). Under Interval,
// the pilot's processes after the first then measure one slice each.
// Under a criterion that learns its warmup, bench warms up for one slice
// in every process, as go test's ramp runs such an op once at b.N = 1
// before the run it reports; looking for the steady state took a first
// process one to four ops more for nothing the rule found
// (docs/EVALUATION.md). A cold bench gets no warmup: an op that takes go
// test's whole -benchtime or more, whose first run go test reports, or a
// setup-heavy benchmark, whose setup runs its code before the timer starts
// in every call. A WarmupMin above 1 is a warmup asked for, and every
// process of bench takes it. It applies only before bench's first
// iteration, and reports whether it did.
func (p *Policy) SetSlowOp(bench string, cold bool) bool {
	st := p.state(bench)
	if st.iterations > 0 || st.decided > 0 || p.cfg.Criterion == None {
		return false
	}
	st.slowOp = true
	if !p.cfg.Criterion.spec().learns || st.learned > 0 {
		return true
	}
	if cold && p.cfg.WarmupMin <= 1 {
		st.coldOp = true
		return true
	}
	st.learned, st.settled = max(1, p.cfg.WarmupMin), true
	return true
}

// EndIteration records a completed iteration of bench with its
// measurement values and costs, and decides whether bench is done: at
// least MinIterations are complete and the criterion holds. Iterations
// must come in suite-run order. The decision carries the process-level
// interval of the mean whatever the criterion.
func (p *Policy) EndIteration(bench string, it policy.Iteration) policy.Decision {
	st := p.state(bench)
	st.met = p.endIteration(st, it.SuiteRun, it.Measured)
	d := policy.Decision{Met: st.met, Stop: st.met}
	if p.cfg.Criterion != None {
		d.Criterion = p.cfg.Criterion.String()
	}
	if st.learned > 0 && !st.settled {
		d.Unsettled = &policy.Unsettled{Slices: st.learned, Drop: st.drop}
	}
	if len(it.Measured) == 0 {
		return d
	}
	st.procs = append(st.procs, append([]float64(nil), it.Measured...))
	if it.SliceCost > 0 {
		st.c1 += it.SliceCost
		st.c2 += it.ProcessCost
		st.costed++
	}
	est := stats.FitComponents(st.procs)
	interval := p.cfg.Criterion.spec().interval
	// The pilot's slices hold until the processes every benchmark gets:
	// two processes give the spread between processes one degree of
	// freedom, and a plan fitted to it put 16 slices in a third process
	// whose first two differed by chance (docs/EVALUATION.md).
	switch {
	case interval && st.costed > 0 && est.Processes >= max(p.cfg.MinIterations, MinProcesses):
		st.measure = p.slicesFor(st, est, st.c1/time.Duration(st.costed), st.c2/time.Duration(st.costed))
	case interval && st.slowOp:
		// A slice of a slow op costs as much as a process's warmup: the
		// first process's two slices give S₁², and the rest of the pilot
		// buys process means.
		st.measure = PlannedMinSlices
	}
	d.Precision = p.precision(est, st.measure)
	if interval {
		if st.iterations >= max(p.cfg.MinIterations, MinProcesses) && d.Precision.Width <= p.cfg.Threshold {
			st.held++
		} else {
			st.held = 0
		}
		st.met = st.held >= HoldProcesses
		d.Met, d.Stop = st.met, st.met
		// A benchmark at its target is never out of reach of it, whatever
		// the model predicts for the slices planned next.
		if !st.met && d.Precision.Width > p.cfg.Threshold && p.outOfReach(st, d.Precision) {
			d.Stop, d.Reason = true, policy.ReasonOutOfReach
		}
		if !d.Stop {
			d.Precision.Stop = p.predictedStop(st, d.Precision)
		}
	}
	return d
}

// predictedStop is the iteration after which the Interval criterion is
// predicted to stop the benchmark of st, whose interval is pr: once its
// target has held at HoldProcesses in a row, or, predicted far beyond its
// cap, at the earliest stop as out of reach. It is 0 when pr predicts
// nothing, or a stop past the cap.
func (p *Policy) predictedStop(st *benchState, pr policy.Precision) int {
	var stop int
	switch {
	case !pr.Known() || pr.Processes <= 0:
		return 0
	case pr.Width <= p.cfg.Threshold:
		stop = max(st.iterations+HoldProcesses-st.held, p.earliestStop())
	case p.cfg.MaxIterations > 0 && pr.Processes > OutOfReach*p.cfg.MaxIterations:
		stop = max(st.iterations+1, p.earliestStop())
	default:
		stop = max(pr.Processes+HoldProcesses-1, st.iterations+HoldProcesses, p.earliestStop())
	}
	if p.cfg.MaxIterations > 0 && stop > p.cfg.MaxIterations {
		return 0
	}
	return stop
}

// OutOfReach is how many times the cap the processes predicted for the
// target must be before the Interval criterion stops a benchmark that
// cannot reach it. Processes spent on such a benchmark narrow an interval
// that stays far from the target, so they are better spent on the others
// (or not at all); the margin keeps a benchmark whose spread merely looks
// large after a few processes running: with 3 processes' worth of
// degrees of freedom, a variance estimate reads 3 times too large in
// under 3% of cases (χ²₃ > 9).
const OutOfReach = 3

// outOfReach reports whether the benchmark of st, at the earliest point
// the criterion could stop it, is predicted to need more than OutOfReach
// times the processes its cap allows.
func (p *Policy) outOfReach(st *benchState, pr policy.Precision) bool {
	return p.cfg.MaxIterations > 0 && st.iterations >= p.earliestStop() && st.iterations < p.cfg.MaxIterations &&
		pr.Processes > OutOfReach*p.cfg.MaxIterations
}

// earliestStop is the first process at which the Interval criterion can
// stop a benchmark: the processes it needs before it judges, then
// HoldProcesses in a row that hold.
func (p *Policy) earliestStop() int {
	return max(p.cfg.MinIterations, MinProcesses) + HoldProcesses - 1
}

// HoldProcesses is the number of consecutive processes after which the
// Interval criterion must have held for a benchmark to stop. A rule that
// stops the first time the interval is narrow enough stops more often
// when the spread of the process means came out low by chance, and the
// interval it stops with is then too narrow. Simulated with fixed seeds
// (TestIntervalCoverage), holding at two consecutive processes brings the
// coverage of the 95% interval back near its level when processes differ,
// for about one process more; an upper confidence bound on the spread, or
// deciding at 99%, cost more processes and helped less (docs/EVALUATION.md,
// "Precision of each mean").
const HoldProcesses = 2

// slicesFor returns the measurement slices of the next iteration under
// Interval, from the estimate and the mean costs c₁ of a slice and c₂ of
// a process: the cheapest plan that reaches the target (varcomp's Plan,
// with the processes a stop needs at least), or, when no plan reaches it
// within MaxIterations, Kalibera and Jones's m*, which narrows the
// interval fastest per second, at most Measure: a benchmark that cannot
// reach its target in the run does not make the run longer than its
// static configuration, as an unbounded m* did live on a loaded machine
// (docs/EVALUATION.md, "Allocation: what the time buys").
func (p *Policy) slicesFor(st *benchState, est stats.Components, c1, c2 time.Duration) int {
	lo := MinSlices
	if st.slowOp {
		lo = PlannedMinSlices
	}
	minN := p.earliestStop()
	limit := p.cfg.MaxIterations
	if limit == 0 {
		limit = planLimit
	}
	if m, _, ok := est.Plan(p.cfg.Threshold, IntervalConfidence, minN, lo, p.cfg.MeasureMax, limit, c1, c2); ok {
		return m
	}
	return est.OptimalSlices(c1, c2, lo, max(lo, p.cfg.Measure))
}

// planLimit is the most processes a plan for the target may take when
// the configuration gives no cap.
const planLimit = 100

// precision describes the interval of est at IntervalConfidence, with the
// processes of m slices each that reach the target: the threshold under
// Interval, IntervalTarget under the other criteria.
func (p *Policy) precision(est stats.Components, m int) policy.Precision {
	target := IntervalTarget
	if p.cfg.Criterion.spec().interval {
		target = p.cfg.Threshold
	}
	return precisionOf(est, target, m)
}

// precisionOf describes the interval of est at IntervalConfidence, with
// the processes of m slices each that reach target.
func precisionOf(est stats.Components, target float64, m int) policy.Precision {
	pr := policy.Precision{Width: est.Interval(IntervalConfidence).RelHalfWidth(), Confidence: IntervalConfidence, Target: target, Next: math.NaN()}
	if math.IsNaN(pr.Width) {
		return pr
	}
	pr.Processes = est.ProcessesFor(target, IntervalConfidence, float64(m), maxPredicted)
	n := est.Processes
	if pr.Width > target && pr.Processes > 0 {
		// The model's prediction can fall at or below the processes
		// that just missed the target; it takes at least one more.
		pr.Processes = max(pr.Processes, n+1)
	}
	if now := est.PredictRelHalfWidth(IntervalConfidence, n, float64(m)); now > 0 {
		// Scale the observed width by the model's narrowing, so that a
		// lucky or unlucky sample of process means keeps its place.
		pr.Next = pr.Width * est.PredictRelHalfWidth(IntervalConfidence, n+1, float64(m)) / now
	}
	return pr
}

// endIteration updates the state of the paper's criteria and says whether
// the criterion holds.
func (p *Policy) endIteration(st *benchState, suiteRun int, measured []float64) bool {
	st.warmupDone = false
	if len(measured) == 0 {
		return false
	}
	if n := len(st.runIDs); n == 0 || st.runIDs[n-1] != suiteRun {
		st.runIDs = append(st.runIDs, suiteRun)
		st.runs = append(st.runs, &stats.Tree{})
	}
	run := st.runs[len(st.runs)-1]
	run.Children = append(run.Children, stats.Leaf(append([]float64(nil), measured...)))
	prev := len(st.all)
	st.all = append(st.all, measured...)
	st.iterations++

	def := p.cfg.Criterion.spec()
	if def.next == nil {
		return false
	}
	if v, ok := def.next(st, prev, p.cfg.Resamples); ok {
		st.f = append(st.f, v)
	}
	if st.iterations < p.cfg.MinIterations {
		return false
	}
	window := st.f
	if def.minWindow > 0 {
		window = st.f[max(0, len(st.f)-p.cfg.Window):]
	}
	return def.stable(window, p.cfg.Threshold)
}

// cumulativeWidth returns the relative width that width gives of all
// measurement values so far, nested suite run → iteration → slice,
// computing it at most once per completed iteration.
func (st *benchState) cumulativeWidth(resamples int, width func(r *resampler, t *stats.Tree, resamples int, src *rand.PCG) float64) float64 {
	if st.widthAt != st.iterations {
		st.width = width(&st.ev.res, &stats.Tree{Children: st.runs}, resamples, st.ev.rng)
		st.widthAt = st.iterations
	}
	return st.width
}

// WarmupSlices returns the number of warmup slices at which the last
// warmup decision of bench was taken, and whether the criterion held then.
func (p *Policy) WarmupSlices(bench string) (n int, met bool) {
	st := p.state(bench)
	return st.decided, st.met
}

// Slices returns the measurement slices the next iteration of bench runs:
// Measure, or under Interval the m* of its latest estimate.
func (p *Policy) Slices(bench string) int { return p.state(bench).measure }

// Vector returns a copy of bench's iteration vector F.
func (p *Policy) Vector(bench string) []float64 {
	return append([]float64(nil), p.state(bench).f...)
}
