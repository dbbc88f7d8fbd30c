package steady

import (
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// A Result is the analysis of one benchmark's processes.
type Result struct {
	Series []Series
	Class  Class
	// Warmup is the learned warmup in values (slices): the latest
	// steady-state start of a steady process, so that every steady
	// process would have been measured only in its steady state. It is
	// −1 when no process is steady.
	Warmup int
}

// AnalyzeBenchmark applies the rules to each process of a benchmark and
// classifies the benchmark.
func AnalyzeBenchmark(processes [][]float64, opts Options, rng *rand.Rand) Result {
	r := Result{Warmup: -1}
	for _, xs := range processes {
		s := Analyze(xs, opts, rng)
		r.Series = append(r.Series, s)
		if s.Class == Steady {
			r.Warmup = max(r.Warmup, s.Start)
		}
	}
	r.Class = Benchmark(r.Series)
	return r
}

// AnalyzeInputs analyses each benchmark of ins, its outlier filter never
// dropping the leading values SkipFor spares for its operations per value.
func AnalyzeInputs(ins []Input, opts Options, rng *rand.Rand) []Result {
	rs := make([]Result, len(ins))
	for i, in := range ins {
		o := opts
		o.Skip = SkipFor(0, in.Ops)
		rs[i] = AnalyzeBenchmark(in.Processes, o, rng)
	}
	return rs
}

// ReplayWarmup returns the warmup, in values, that the dynamic warmup
// stoppage of cfg.Criterion (CV, RCIW or KLD: package stopper) would have
// chosen on xs: the number of values it took as warmup before its
// criterion held on its window, or before cfg.WarmupMax, which is
// capped to len(xs). met reports whether the criterion held.
func ReplayWarmup(xs []float64, cfg stopper.Config) (warmup int, met bool) {
	cfg.WarmupMax = min(max(cfg.WarmupMax, cfg.WarmupMin), len(xs))
	cfg.Measure = 1
	p, err := stopper.NewPolicy(cfg)
	if err != nil {
		return 0, false
	}
	const id = "replay"
	for n := range len(xs) + 1 {
		if !p.NextSlice(id, xs[:n], nil).Warmup {
			w, met := p.WarmupSlices(id)
			return w, met
		}
	}
	return len(xs), false
}

// WEE summarizes the warmup estimation errors of a criterion over the
// steady processes: |estimated warmup − steady-state start| (Traini et
// al., RQ4), in values.
type WEE struct {
	Criterion stopper.Criterion
	N         int     // steady processes replayed
	Median    float64 // median error
	Q1, Q3    float64 // quartiles of the error
	// Over and Under count the processes whose estimate lies after or
	// before the start by more than the tolerance given to WEEOf; Unmet
	// those where the criterion never held.
	Over, Under, Unmet int
}

// WEEOf replays cfg's warmup stoppage on every steady series of results
// and summarizes its errors against their steady-state starts. An
// estimate within tol values of the start counts as neither over nor
// under (Traini et al. used 5 s).
func WEEOf(results []Result, values [][][]float64, cfg stopper.Config, tol int) WEE {
	w := WEE{Criterion: cfg.Criterion}
	var errs []float64
	for i, r := range results {
		for j, s := range r.Series {
			if s.Class != Steady {
				continue
			}
			est, met := ReplayWarmup(values[i][j], cfg)
			if !met {
				w.Unmet++
			}
			d := est - s.Start
			errs = append(errs, math.Abs(float64(d)))
			switch {
			case d > tol:
				w.Over++
			case d < -tol:
				w.Under++
			}
		}
	}
	w.N = len(errs)
	if w.N > 0 {
		slices.Sort(errs)
		w.Median, w.Q1, w.Q3 = stats.Quantile(errs, 0.5), stats.Quantile(errs, 0.25), stats.Quantile(errs, 0.75)
	}
	return w
}
