package stopper

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// KLD is the probability 2^−J that the slices with and without the newest
// one come from one distribution, J being the symmetric Kullback-Leibler
// divergence in bits of their Gaussian kernel density estimates (He et
// al.). Stable when the mean probability in the window exceeds t
// (t = 0.99).
var KLD = Criterion{&kldDef}

var kldDef = definition{
	name:        "kld",
	help:        "Kullback-Leibler similarity",
	threshold:   0.99,
	probability: true,
	minWindow:   3,
	value: func(e *evaluator, xs []float64) float64 {
		if len(xs) < 3 {
			return math.NaN()
		}
		return e.kde.probability(xs[:len(xs)-1], xs)
	},
	next: func(st *benchState, prev, _ int) (float64, bool) {
		if prev < 2 {
			return 0, false
		}
		return st.ev.kde.probability(st.all[:prev], st.all), true
	},
	stable: StableProb,
}

// KLD grid and kernel parameters, as in the paper (§5.3) and the public
// JMH fork behind it.
const (
	kldStrips     = 1000 // evaluation points of the densities
	kldIQRFactor  = 1.5  // values beyond Q1−1.5·IQR and Q3+1.5·IQR are outliers
	kernelSupport = 5    // the Gaussian kernel is cut off at ±5 bandwidths
)

// KLDOf returns the probability that d1 and d2 come from the same
// distribution, 2^−J, where J = KL(d1‖d2) + KL(d2‖d1) in bits between
// Gaussian kernel density estimates of d1 and d2 (He et al.).
//
// The densities are evaluated on 1000 points spanning the union of
// [Q1 − 1.5·IQR, Q3 + 1.5·IQR] of both samples; values outside that range
// still shape the estimates but are left out of the divergence. Each
// bandwidth follows Silverman's rule, 1.06·min(sd, IQR/1.34)·n^(−1/5), with sd
// alone when the IQR is zero (tied values are common in go test output),
// and the other sample's bandwidth when a sample is constant.
//
// It is 1 when both ranges collapse to one point (both samples constant
// and equal, or equal up to outliers), 0 when the densities do not
// overlap, and NaN when a sample holds fewer than two values or a NaN.
func KLDOf(d1, d2 []float64) float64 {
	var k kde
	return k.probability(d1, d2)
}

// kde holds the buffers of KLD computations between calls.
type kde struct {
	s1, s2 []float64 // sorted samples
	p1, p2 []float64 // densities on the grid
	bins   []float64
	kernel []float64
}

func (k *kde) probability(d1, d2 []float64) float64 {
	if len(d1) < 2 || len(d2) < 2 {
		return math.NaN()
	}
	k.s1 = sortedCopy(k.s1, d1)
	k.s2 = sortedCopy(k.s2, d2)
	if !finite(k.s1) || !finite(k.s2) {
		return math.NaN()
	}
	lo1, hi1, iqr1 := fences(k.s1)
	lo2, hi2, iqr2 := fences(k.s2)
	lo, hi := min(lo1, lo2), max(hi1, hi2)
	if !(hi > lo) {
		return 1
	}
	h1, h2 := bandwidth(d1, iqr1), bandwidth(d2, iqr2)
	switch {
	case h1 == 0 && h2 == 0:
		// Two different constants.
		return 0
	case h1 == 0:
		h1 = h2
	case h2 == 0:
		h2 = h1
	}
	step := (hi - lo) / (kldStrips - 1)
	k.p1 = k.density(k.p1, k.s1, h1, lo, step)
	k.p2 = k.density(k.p2, k.s2, h2, lo, step)
	j := 0.0
	overlap := false
	for i, p := range k.p1 {
		q := k.p2[i]
		if p > 0 && q > 0 {
			overlap = true
			// p·log(p/q) + q·log(q/p), both directions at once.
			j += (p - q) * math.Log2(p/q)
		}
	}
	if !overlap {
		return 0
	}
	return math.Exp2(-j * step)
}

// density returns into dst the Gaussian kernel density estimate of sorted
// xs with bandwidth h at the points lo + i·step, i < kldStrips. It bins xs
// linearly onto a grid of that step and convolves the bins with the
// sampled kernel, which costs O(n + strips·h/step) instead of
// O(n·strips) exponentials. With h at least a few steps, as Silverman's
// rule gives on a grid spanning several IQRs, the binning error is of the
// order (step/h)², far below the precision the criterion needs; narrower
// kernels are evaluated exactly.
func (k *kde) density(dst, xs []float64, h, lo, step float64) []float64 {
	dst = resize(dst, kldStrips)
	clear(dst)
	norm := 1 / (float64(len(xs)) * h * math.Sqrt(2*math.Pi))
	reach := int(math.Ceil(kernelSupport * h / step))
	// The convolution costs 2·reach+1 multiply-adds per point, the direct
	// sum up to n exponentials of some 10 multiply-adds each.
	if reach < 4 || 2*reach+1 > 10*len(xs) {
		for i := range dst {
			x := lo + float64(i)*step
			from, _ := slices.BinarySearch(xs, x-kernelSupport*h)
			s := 0.0
			for _, v := range xs[from:] {
				if v > x+kernelSupport*h {
					break
				}
				z := (v - x) / h
				s += math.Exp(-z * z / 2)
			}
			dst[i] = s * norm
		}
		return dst
	}
	k.kernel = resize(k.kernel, 2*reach+1)
	for j := range k.kernel {
		z := float64(j-reach) * step / h
		k.kernel[j] = math.Exp(-z*z/2) * norm
	}
	// Bin b holds the weight at lo + (b−reach)·step.
	k.bins = resize(k.bins, kldStrips+2*reach)
	clear(k.bins)
	last := float64(len(k.bins) - 1)
	for _, v := range xs {
		u := (v-lo)/step + float64(reach)
		if u < 0 || u > last {
			continue // farther than the kernel reaches from every point
		}
		b := int(u)
		w := u - float64(b)
		k.bins[b] += 1 - w
		if w > 0 {
			k.bins[b+1] += w
		}
	}
	for i := range dst {
		s := 0.0
		for j, c := range k.bins[i : i+2*reach+1] {
			s += c * k.kernel[j]
		}
		dst[i] = s
	}
	return dst
}

// fences returns Q1 − 1.5·IQR, Q3 + 1.5·IQR and the IQR of sorted xs.
func fences(xs []float64) (lo, hi, iqr float64) {
	q1 := stat.Quantile(0.25, stat.LinInterp, xs, nil)
	q3 := stat.Quantile(0.75, stat.LinInterp, xs, nil)
	iqr = q3 - q1
	return q1 - kldIQRFactor*iqr, q3 + kldIQRFactor*iqr, iqr
}

// bandwidth returns Silverman's rule-of-thumb bandwidth of xs.
func bandwidth(xs []float64, iqr float64) float64 {
	sd := stat.StdDev(xs, nil)
	spread := sd
	if iqr > 0 {
		spread = min(sd, iqr/1.34)
	}
	return 1.06 * spread * math.Pow(float64(len(xs)), -0.2)
}

func sortedCopy(dst, xs []float64) []float64 {
	dst = append(dst[:0], xs...)
	slices.Sort(dst)
	return dst
}

func finite(xs []float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

func resize(xs []float64, n int) []float64 {
	if cap(xs) < n {
		return make([]float64, n)
	}
	return xs[:n]
}
