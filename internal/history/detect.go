package history

import (
	"math"
	"slices"
	"sort"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobench-dyn/gobench-dyn/internal/choice"
	"github.com/gobench-dyn/gobench-dyn/internal/gate"
)

// A Method is a way to find change points.
type Method string

// The methods.
const (
	// MethodWeighted (the default) runs E-divisive means on the log of
	// each point, weighting every point by the inverse of its variance:
	// its own interval's plus the commit-to-commit variance the
	// intervals leave out, estimated per series. Candidates are tested
	// by a weighted t-test of the two segments' log means.
	MethodWeighted Method = "weighted"
	// MethodOtava is Apache Otava's analysis (Fleming et al., "Hunter",
	// ICPE 2023): E-divisive means in sliding windows with a Student
	// t-test, then the merge of weak change points, on the values as
	// they are. Intervals are ignored.
	MethodOtava Method = "otava"
)

// ParseMethod returns the method named s.
func ParseMethod(s string) (Method, error) {
	return choice.Parse("method", s, MethodWeighted, MethodOtava)
}

// Options choose how change points are found.
type Options struct {
	Method Method
	// PValue is the largest p-value of a change point (Otava's
	// max_pvalue); the first pass over the windows uses a laxer one, as
	// Otava does.
	PValue float64
	// Window is the length of the sliding windows of the first pass.
	Window int
	// MinChange is the least relative change that counts (Otava's
	// min_magnitude).
	MinChange float64
	// MinSegment is the fewest points a level needs on either side of a
	// change point. One point cannot tell a change from an outlier;
	// MethodOtava always uses 1, as Otava does.
	MinSegment int
	// Confidence is the level of each change's interval.
	Confidence float64
}

// Defaults.
const (
	DefaultPValue     = 0.001
	DefaultWindow     = 50
	DefaultMinSegment = 2
	DefaultConfidence = 0.95
)

// DefaultOptions returns the options of gobench-dyn history.
func DefaultOptions() Options {
	return Options{Method: MethodWeighted, PValue: DefaultPValue, Window: DefaultWindow, MinSegment: DefaultMinSegment, Confidence: DefaultConfidence}
}

func (o *Options) fill() {
	d := DefaultOptions()
	if o.Method == "" {
		o.Method = d.Method
	}
	if o.PValue <= 0 {
		o.PValue = d.PValue
	}
	if o.Window < 2 {
		o.Window = d.Window
	}
	if o.MinSegment < 1 {
		o.MinSegment = d.MinSegment
	}
	if o.Method == MethodOtava {
		o.MinSegment = 1
	}
	if !(o.Confidence > 0 && o.Confidence < 1) {
		o.Confidence = d.Confidence
	}
}

// firstPass is Otava's p-value of the split step: ten times laxer below
// 0.05, twice below 0.5.
func firstPass(p float64) float64 {
	switch {
	case p < 0.05:
		return 10 * p
	case p < 0.5:
		return 2 * p
	}
	return p
}

// A ChangePoint is a commit where a series' level changed.
type ChangePoint struct {
	Key Key
	// Index is the position in the series of the first point at the
	// new level; Commit is its commit and Prev the commit before it.
	Index    int
	Commit   string
	Time     time.Time
	Prev     string
	PrevTime time.Time
	Before   int // points in the level before
	After    int // points in the level after
	// LevelBefore and LevelAfter are the levels on either side (weighted
	// geometric means under MethodWeighted, means under MethodOtava).
	LevelBefore, LevelAfter float64
	// Change is the relative change of the level, after/before − 1, and
	// Lo and Hi bound it at Confidence.
	Change     float64
	Lo, Hi     float64
	Confidence float64
	// P is the p-value of no change.
	P float64
	// Confirmation is set once the change point was measured again.
	Confirmation *Confirmation
}

// Regression reports whether the change makes the benchmark worse: a
// higher value of a unit where lower is better (time, bytes,
// allocations), or a lower value where higher is better (throughput
// such as MB/s), as the gate judges units. A unit of unknown direction
// counts as worse either way.
func (c *ChangePoint) Regression() bool {
	switch gate.Better(c.Key.Unit, nil) {
	case 1:
		return c.Change < 0
	case -1:
		return c.Change > 0
	}
	return c.Change != 0
}

// segStats are the statistics of a split of [a, b) at tau.
type segStats struct {
	p               float64
	before, after   float64
	change, lo, hi  float64
	magnitude       float64
	nBefore, nAfter int
}

// tester computes the statistics of a split.
type tester interface {
	test(a, tau, b int) segStats
}

// Detect returns the change points of s.
func Detect(s *Series, opts Options) []ChangePoint {
	opts.fill()
	n := len(s.Points)
	if n < 2*opts.MinSegment || n < 3 {
		return nil
	}
	x := make([]float64, n)
	w := make([]float64, n)
	var tt tester
	switch opts.Method {
	case MethodOtava:
		for i, p := range s.Points {
			x[i], w[i] = p.Mean, 1
		}
		tt = newStudent(x, opts.Confidence)
	default:
		for i, p := range s.Points {
			if !(p.Mean > 0) {
				// A level that is not positive has no log: fall back to
				// the unweighted test on the values.
				return Detect(s, withMethod(opts, MethodOtava))
			}
			x[i] = math.Log(p.Mean)
		}
		v := variances(s.Points, x)
		for i := range w {
			w[i] = 1 / v[i]
		}
		tt = newWeighted(x, w, opts.Confidence)
	}
	if constant(x) {
		return nil
	}
	if floor, ok := countFloor[s.Key.Unit]; ok {
		tt = countTester{tt, floor}
	}
	idx := splitStep(x, w, tt, opts)
	idx = mergeStep(idx, n, tt, opts)
	out := make([]ChangePoint, 0, len(idx))
	for i, cp := range idx {
		a, b := 0, n
		if i > 0 {
			a = idx[i-1]
		}
		if i+1 < len(idx) {
			b = idx[i+1]
		}
		st := tt.test(a, cp, b)
		c := ChangePoint{
			Key: s.Key, Index: cp, Commit: s.Points[cp].Commit, Time: s.Points[cp].Time,
			Prev: s.Points[cp-1].Commit, PrevTime: s.Points[cp-1].Time,
			Before: cp - a, After: b - cp, LevelBefore: st.before, LevelAfter: st.after,
			Change: st.change, Lo: st.lo, Hi: st.hi, Confidence: opts.Confidence, P: st.p,
		}
		out = append(out, c)
	}
	return out
}

// countFloor is, per allocation unit, the least difference of levels
// that is a change: a mean over processes of allocations or bytes per op
// moves by fractions when an allocation happens in a few ops only (a
// pool refilled, a map grown), which is no change of the code. One
// allocation is at least 8 bytes, so these floors miss none.
var countFloor = map[string]float64{UnitAllocs: 0.5, UnitBytes: 1}

// countTester gives a split whose levels differ by less than floor no
// magnitude, so that the merge step drops it.
type countTester struct {
	tester
	floor float64
}

func (c countTester) test(a, tau, b int) segStats {
	st := c.tester.test(a, tau, b)
	if math.Abs(st.after-st.before) < c.floor {
		st.magnitude = 0
	}
	return st
}

func withMethod(o Options, m Method) Options {
	o.Method = m
	return o
}

func constant(x []float64) bool {
	for _, v := range x[1:] {
		if v != x[0] {
			return false
		}
	}
	return true
}

// splitStep is Otava's split: E-divisive in windows of opts.Window
// points advancing by half a window (or to the last change point found),
// each window split while its best candidate passes the first-pass
// p-value. It returns the union of the change points, sorted.
func splitStep(x, w []float64, tt tester, opts Options) []int {
	n := len(x)
	alpha := firstPass(opts.PValue)
	step := opts.Window / 2
	seen := map[int]bool{}
	var all []int
	for start := 0; start < n; {
		end := min(start+opts.Window, n)
		found := windowSplit(x, w, start, end, tt, alpha, opts.MinSegment)
		last := 0
		if len(found) > 0 {
			last = found[len(found)-1]
		}
		start = max(last, start+step)
		for _, c := range found {
			if !seen[c] {
				seen[c] = true
				all = append(all, c)
			}
		}
	}
	sort.Ints(all)
	return all
}

// windowSplit runs E-divisive on x[start:end]: it splits the interval
// holding the best candidate while that candidate is significant, and
// returns the change points found, sorted.
func windowSplit(x, w []float64, start, end int, tt tester, alpha float64, minSeg int) []int {
	if end-start < 2 {
		return nil
	}
	e := newEnergy(x[start:end], w[start:end])
	var cps []int // local, sorted
	for {
		bestQ, bestTau, bestA, bestB := math.Inf(-1), -1, 0, 0
		a := 0
		for i := 0; i <= len(cps); i++ {
			b := end - start
			if i < len(cps) {
				b = cps[i]
			}
			if tau, q, ok := e.candidate(a, b, minSeg); ok && q > bestQ {
				bestQ, bestTau, bestA, bestB = q, tau, a, b
			}
			a = b
		}
		if bestTau < 0 {
			break
		}
		st := tt.test(start+bestA, start+bestTau, start+bestB)
		if !(st.p <= alpha) {
			break
		}
		cps = append(cps, bestTau)
		sort.Ints(cps)
	}
	for i := range cps {
		cps[i] += start
	}
	return cps
}

// mergeStep is Otava's merge: while a change point is weak (p-value not
// below opts.PValue) or, all being strong, the smallest change is not
// above opts.MinChange, it drops that change point and tests its
// neighbours again.
func mergeStep(cps []int, n int, tt tester, opts Options) []int {
	cps = slices.Clone(cps)
	stats := make([]segStats, len(cps))
	bounds := func(i int) (int, int) {
		a, b := 0, n
		if i > 0 {
			a = cps[i-1]
		}
		if i+1 < len(cps) {
			b = cps[i+1]
		}
		return a, b
	}
	for i := range cps {
		a, b := bounds(i)
		stats[i] = tt.test(a, cps[i], b)
	}
	for len(cps) > 0 {
		weak := 0
		for i := range stats {
			if stats[i].p > stats[weak].p || math.IsNaN(stats[i].p) && !math.IsNaN(stats[weak].p) {
				weak = i
			}
		}
		if stats[weak].p < opts.PValue {
			weak = 0
			for i := range stats {
				if stats[i].magnitude < stats[weak].magnitude {
					weak = i
				}
			}
			if stats[weak].magnitude > opts.MinChange {
				return cps
			}
		}
		cps = slices.Delete(cps, weak, weak+1)
		stats = slices.Delete(stats, weak, weak+1)
		// Otava tests again the change point that followed the one
		// dropped and the one after it; the one before it lost its
		// right-hand level too, and is tested again here.
		first := weak
		if opts.Method != MethodOtava {
			first = weak - 1
		}
		for i := max(first, 0); i <= weak+1 && i < len(cps); i++ {
			a, b := bounds(i)
			stats[i] = tt.test(a, cps[i], b)
		}
	}
	return cps
}

// student is Otava's test: Student's two-sample t-test with pooled
// variance, given the standard deviations as numpy computes them by
// default (divided by n, not n − 1), as ttest_ind_from_stats receives
// them in Otava.
type student struct {
	s, s2 []float64 // prefix sums of x and x², x centred
	mu    float64   // the centre
	conf  float64
}

func newStudent(x []float64, conf float64) *student {
	mu := 0.0
	for _, v := range x {
		mu += v
	}
	mu /= float64(len(x))
	t := &student{s: make([]float64, len(x)+1), s2: make([]float64, len(x)+1), mu: mu, conf: conf}
	for i, v := range x {
		d := v - mu
		t.s[i+1] = t.s[i] + d
		t.s2[i+1] = t.s2[i] + d*d
	}
	return t
}

func (t *student) meanVar(a, b int) (mean, popVar float64) {
	n := float64(b - a)
	m := (t.s[b] - t.s[a]) / n
	v := (t.s2[b]-t.s2[a])/n - m*m
	return m, max(v, 0)
}

func (t *student) test(a, tau, b int) segStats {
	n1, n2 := tau-a, b-tau
	m1, v1 := t.meanVar(a, tau)
	m2, v2 := t.meanVar(tau, b)
	if n1 < 2 {
		v1 = 0
	}
	if n2 < 2 {
		v2 = 0
	}
	st := segStats{p: 1, before: m1 + t.mu, after: m2 + t.mu, nBefore: n1, nAfter: n2, lo: math.NaN(), hi: math.NaN()}
	st.change = relChange(st.before, st.after)
	st.magnitude = max(math.Abs(st.change), math.Abs(relChange(st.after, st.before)))
	df := float64(n1 + n2 - 2)
	if df <= 0 {
		return st
	}
	pooled := (float64(n1-1)*v1 + float64(n2-1)*v2) / df
	se := math.Sqrt(pooled * (1/float64(n1) + 1/float64(n2)))
	d := m2 - m1
	tstat := d / se
	switch {
	case math.IsNaN(tstat):
		st.p = math.NaN()
	default:
		st.p = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(math.Abs(tstat))
	}
	if st.before != 0 {
		h := tQuantile(t.conf, int(df)) * se
		st.lo, st.hi = (d-h)/st.before, (d+h)/st.before
	}
	return st
}

// relChange returns to/from − 1, or 0 when from is 0, as Otava's
// forward_rel_change does.
func relChange(from, to float64) float64 {
	if from == 0 {
		return 0
	}
	return to/from - 1
}

// weighted tests a split of log values by the difference of their
// weighted means, whose variance under the model is 1/W₁ + 1/W₂. The
// residual dispersion of the two levels scales it up when the points
// spread more than their variances say (never down), and the t
// distribution with n − 2 degrees of freedom allows for that estimate.
type weighted struct {
	sw, swx, swx2 []float64
	mu            float64
	conf          float64
}

func newWeighted(x, w []float64, conf float64) *weighted {
	mu := 0.0
	for _, v := range x {
		mu += v
	}
	mu /= float64(len(x))
	t := &weighted{sw: make([]float64, len(x)+1), swx: make([]float64, len(x)+1), swx2: make([]float64, len(x)+1), mu: mu, conf: conf}
	for i, v := range x {
		d := v - mu
		t.sw[i+1] = t.sw[i] + w[i]
		t.swx[i+1] = t.swx[i] + w[i]*d
		t.swx2[i+1] = t.swx2[i] + w[i]*d*d
	}
	return t
}

// level returns the weighted mean of [a, b), its weight and the weighted
// sum of squared residuals.
func (t *weighted) level(a, b int) (mean, weight, ss float64) {
	weight = t.sw[b] - t.sw[a]
	sx := t.swx[b] - t.swx[a]
	mean = sx / weight
	ss = max((t.swx2[b]-t.swx2[a])-sx*mean, 0)
	return mean, weight, ss
}

func (t *weighted) test(a, tau, b int) segStats {
	n1, n2 := tau-a, b-tau
	m1, w1, ss1 := t.level(a, tau)
	m2, w2, ss2 := t.level(tau, b)
	d := m2 - m1
	st := segStats{p: 1, before: math.Exp(m1 + t.mu), after: math.Exp(m2 + t.mu), nBefore: n1, nAfter: n2}
	st.change = math.Expm1(d)
	st.magnitude = math.Abs(st.change)
	st.lo, st.hi = math.NaN(), math.NaN()
	df := n1 + n2 - 2
	if df <= 0 {
		return st
	}
	phi := max((ss1+ss2)/float64(df), 1)
	se := math.Sqrt(phi * (1/w1 + 1/w2))
	tstat := d / se
	if math.IsNaN(tstat) {
		st.p = math.NaN()
		return st
	}
	st.p = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Survival(math.Abs(tstat))
	h := tQuantile(t.conf, df) * se
	st.lo, st.hi = math.Expm1(d-h), math.Expm1(d+h)
	return st
}

// variances returns the variance of each log point: the square of its
// relative standard error plus τ², the variance from commit to commit
// that no run's interval holds (the machine's state that day, the
// runner it got). τ² is estimated from the differences of successive
// points, robustly, so that the few differences that span a change do
// not count: Var(x_{i+1} − x_i) = 2τ² + se_i² + se_{i+1}².
func variances(ps []Point, x []float64) []float64 {
	n := len(ps)
	se2 := make([]float64, n)
	var known []float64
	for i, p := range ps {
		if r := p.SE / p.Mean; r > 0 && !math.IsInf(r, 0) {
			se2[i] = r * r
			known = append(known, r*r)
		}
	}
	// An interval over a few processes knows its own width poorly: with
	// 5 processes its variance is off by a factor of 2 or more one time
	// in five. Each is shrunk towards the series' typical one as if that
	// were known from priorDF more processes, so that no point weighs
	// far more than its neighbours on a lucky estimate.
	if len(known) > 0 {
		typical := median(known)
		for i, p := range ps {
			if se2[i] > 0 {
				df := float64(max(p.Processes-1, 1))
				se2[i] = (df*se2[i] + priorDF*typical) / (df + priorDF)
			}
		}
	}
	var tau2 float64
	if n >= 3 {
		d := make([]float64, n-1)
		pair := make([]float64, n-1)
		for i := range d {
			d[i] = math.Abs(x[i+1] - x[i])
			pair[i] = se2[i] + se2[i+1]
		}
		// The median absolute difference of a normal difference is
		// 0.6745 of its sd (its centre is 0 away from changes).
		sd := median(d) / 0.6744897501960817
		tau2 = max((sd*sd-median(pair))/2, 0)
	}
	// A floor keeps a series of identical counts (allocations) finite:
	// a relative sd of one in a billion.
	const floor = 1e-18
	v := make([]float64, n)
	for i := range v {
		v[i] = max(se2[i]+tau2, floor)
	}
	return v
}

// priorDF is the weight, in degrees of freedom, of a series' typical
// variance in each point's.
var priorDF = 10.0

// median returns the median of xs, reordering them. It is kept here
// until the project's statistics package offers one.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	sort.Float64s(xs)
	m := len(xs) / 2
	if len(xs)%2 == 1 {
		return xs[m]
	}
	return (xs[m-1] + xs[m]) / 2
}
