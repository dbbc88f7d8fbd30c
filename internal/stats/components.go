package stats

import (
	"math"
	"time"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// floorShare is the floor of T₂² relative to the squared mean: a
// between-process sd of 0.01% of the mean. An estimate of τ² at or below
// zero says only that the between-process variance is too small to see
// with the data at hand; the floor keeps the optimal slices per process
// finite (then the upper clamp decides) without pretending to more.
const floorShare = 1e-4

// Components holds the variance components of one benchmark, after
// Kalibera and Jones ("Rigorous benchmarking in reasonable time", ISMM
// 2013, with the corrected unbiased estimator of the revised paper and of
// libkalibera): a result is y_jk = μ + b_j + e_jk for process j and slice
// k, with between-process effects b_j (variance τ²) and within-process
// noise e_jk (variance σ²).
//
// From them it derives what a measurement schedule needs: the interval of
// the mean over process means, the slices per process that buy the most
// precision per second, and the processes that a target precision takes.
type Components struct {
	// Processes is n, the number of processes with at least one slice.
	Processes int
	// Slices is m, the harmonic mean of the slices per process. With
	// unequal counts, the variance of an unweighted mean of process means
	// is τ² + σ²·mean(1/m_j) = τ² + σ²/m for exactly this m, so it is the
	// m that makes T₂² unbiased.
	Slices float64
	// Mean is the mean of the process means, the estimate of μ: every
	// process weighs the same, as each is one draw of b_j.
	Mean float64
	// S1 is S₁², the pooled within-process variance: the sum of squared
	// deviations from each process's mean over the sum of m_j − 1. With
	// equal m it is the mean of the processes' sample variances. NaN when
	// no process has two slices.
	S1 float64
	// S2 is S₂², the sample variance of the process means. NaN below two
	// processes.
	S2 float64
	// T2 is T₂² = S₂² − S₁²/m, the unbiased estimate of τ², floored at
	// (1e-4·Mean)² (see Floored).
	T2 float64
	// Floored reports that S₂² − S₁²/m fell below the floor: the
	// between-process variance is not distinguishable from zero.
	Floored bool
}

// FitComponents estimates the variance components of processes, each the slice
// values of one process in order. Empty processes are left out.
func FitComponents(processes [][]float64) Components {
	e := Components{S1: math.NaN(), S2: math.NaN(), T2: math.NaN(), Mean: math.NaN(), Slices: math.NaN()}
	var means []float64
	var ss, df, inv float64
	for _, p := range processes {
		if len(p) == 0 {
			continue
		}
		m := stat.Mean(p, nil)
		means = append(means, m)
		inv += 1 / float64(len(p))
		for _, v := range p {
			ss += (v - m) * (v - m)
		}
		df += float64(len(p) - 1)
	}
	e.Processes = len(means)
	if e.Processes == 0 {
		return e
	}
	e.Slices = float64(e.Processes) / inv
	e.Mean = stat.Mean(means, nil)
	if df > 0 {
		e.S1 = ss / df
	}
	if e.Processes >= 2 {
		e.S2 = stat.Variance(means, nil)
	}
	if !math.IsNaN(e.S1) && !math.IsNaN(e.S2) {
		e.T2 = e.S2 - e.S1/e.Slices
		if floor := e.floor(); !(e.T2 >= floor) {
			e.T2, e.Floored = floor, true
		}
	}
	return e
}

func (e Components) floor() float64 {
	f := floorShare * e.Mean
	if f*f > 0 {
		return f * f
	}
	return math.SmallestNonzeroFloat64
}

// Interval returns the Student-t interval of the mean at the given
// confidence over the process means: Mean ± t(n−1)·√(S₂²/n), as
// libkalibera's confidence95. Process means of independent processes are
// independent whatever the slices inside them do, so the interval holds
// its level for normal process means at any n ≥ 2; slices are not
// independent samples and do not count as degrees of freedom. Below two
// processes it is NaN.
func (e Components) Interval(confidence float64) Interval {
	iv := Interval{Center: e.Mean, Lo: math.NaN(), Hi: math.NaN(), Confidence: confidence}
	if e.Processes < 2 || math.IsNaN(e.S2) {
		return iv
	}
	h := TCritical(1-confidence, float64(e.Processes-1)) * math.Sqrt(e.S2/float64(e.Processes))
	iv.Lo, iv.Hi = e.Mean-h, e.Mean+h
	return iv
}

// OptimalSlices returns m* = ⌈√(c₂·S₁² / (c₁·T₂²))⌉, the slices per process
// that minimise the variance of the mean per second of run time, clamped
// to [lo, hi]: c₁ is the cost of one slice, c₂ the cost of one process
// besides its slices (start, warmup, exit). Var(mean) = (T₂² + S₁²/m)/n at
// a cost n·(c₂ + m·c₁); their product is least at m*. It returns lo when
// the estimate or a cost is missing.
func (e Components) OptimalSlices(c1, c2 time.Duration, lo, hi int) int {
	if c1 <= 0 || c2 < 0 || math.IsNaN(e.S1) || math.IsNaN(e.T2) {
		return lo
	}
	m := math.Sqrt(float64(c2) * e.S1 / (float64(c1) * e.T2))
	if math.IsNaN(m) {
		return lo
	}
	if m >= float64(hi) {
		return hi
	}
	return max(lo, min(hi, int(math.Ceil(m))))
}

// BetweenShare returns the share of a process mean's variance that lies
// between processes, T₂²/(T₂² + S₁²/m): near 1, slices added inside a
// process cannot narrow the interval and only more processes can. NaN
// without both components.
func (e Components) BetweenShare() float64 {
	if math.IsNaN(e.S1) || math.IsNaN(e.T2) || e.Slices <= 0 {
		return math.NaN()
	}
	return e.T2 / (e.T2 + e.S1/e.Slices)
}

// VarianceOfMean returns the predicted variance of the mean of n
// processes of m slices each: T₂²/n + S₁²/(n·m).
func (e Components) VarianceOfMean(n int, m float64) float64 {
	return (e.T2 + e.S1/m) / float64(n)
}

// PredictRelHalfWidth returns the predicted relative half-width of the
// interval at the given confidence with n processes of m slices each,
// from the estimated components: t(n−1)·√(VarianceOfMean(n, m))/|Mean|.
// NaN below two processes or without an estimate.
func (e Components) PredictRelHalfWidth(confidence float64, n int, m float64) float64 {
	if n < 2 {
		return math.NaN()
	}
	return TCritical(1-confidence, float64(n-1)) * math.Sqrt(e.VarianceOfMean(n, m)) / math.Abs(e.Mean)
}

// ProcessesFor returns the least number of processes of m slices each
// whose interval at the given confidence is predicted to have a relative
// half-width at most target, searching up to limit. It returns 0 when the
// estimate cannot say (fewer than two processes, or a NaN), and limit+1
// when even limit processes would not reach the target.
func (e Components) ProcessesFor(target, confidence float64, m float64, limit int) int {
	if math.IsNaN(e.T2) || math.IsNaN(e.S1) || e.Mean == 0 || math.IsNaN(e.Mean) || target <= 0 {
		return 0
	}
	// The t quantile shrinks with n, so the width is monotone in n: the
	// normal-quantile answer is a lower bound to search up from.
	z := distuv.UnitNormal.Quantile(1 - (1-confidence)/2)
	v1 := e.VarianceOfMean(1, m) / (e.Mean * e.Mean)
	n := max(2, int(math.Ceil(z*z*v1/(target*target))))
	for ; n <= limit; n++ {
		if e.PredictRelHalfWidth(confidence, n, m) <= target {
			return n
		}
	}
	return limit + 1
}

// Plan returns the slices per process m in [lo, hi] that reach a relative
// half-width of target at the given confidence at the least total cost
// n·(c₂ + m·c₁), with n the processes that m needs (ProcessesFor, at least
// minN), and that n. It reports false when no m reaches the target within
// limit processes, or the estimate or costs are missing; then OptimalSlices
// is the better rule.
//
// m* minimises the cost of a given precision when the number of processes
// is free. It is not when a minimum of processes binds: a stable benchmark
// whose between-process variance is small gets a large m*, although the
// minimum of processes at few slices each would already reach the target.
func (e Components) Plan(target, confidence float64, minN, lo, hi, limit int, c1, c2 time.Duration) (m, n int, ok bool) {
	if c1 <= 0 || c2 < 0 {
		return lo, 0, false
	}
	best := math.Inf(1)
	for mm := lo; mm <= hi; mm++ {
		nn := e.ProcessesFor(target, confidence, float64(mm), limit)
		if nn == 0 || nn > limit {
			continue
		}
		nn = max(nn, minN)
		if cost := float64(nn) * (float64(c2) + float64(mm)*float64(c1)); cost < best {
			best, m, n = cost, mm, nn
		}
	}
	if math.IsInf(best, 1) {
		return lo, 0, false
	}
	return m, n, true
}
