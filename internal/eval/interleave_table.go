package main

import (
	"fmt"
	"gonum.org/v1/gonum/stat"
	"math"
	"path"
	"slices"
	"strings"
	"time"

	"golang.org/x/perf/benchmath"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// confidence is the level of every interval of -interleave: that of
// --stop interval's target and of benchstat's ±.
const confidence = 0.95

// A score is what one run of a method says, benchmark by benchmark,
// against the reference.
type score struct {
	benches  int       // benchmarks matched with the reference
	reached  int       // whose achieved interval is within ±target
	early    int       // that stopped before the cap of processes
	widths   []float64 // achieved relative half-widths
	within   int       // whose mean is within ±target of the reference's
	agree    int       // whose 95% log-ratio interval against the reference covers 0
	compared int       // that had an interval against the reference
}

// scoreRun scores run against ref, the pooled reference half A.
func scoreRun(run, ref *record.Run, gotest bool, target float64, procCap int) score {
	var sc score
	refKeys := map[record.Bench]bool{}
	for _, k := range ref.Keys() {
		refKeys[k.Bench] = true
	}
	for _, k := range run.Keys() {
		if !refKeys[k.Bench] {
			continue
		}
		series := run.Series(k, "ns/op")
		if len(series) == 0 {
			continue
		}
		sc.benches++
		w := achieved(series, gotest)
		sc.widths = append(sc.widths, w)
		if w <= target {
			sc.reached++
		}
		if !gotest && len(series) < procCap {
			sc.early++
		}
		rm := stat.Mean(record.Measurements(ref.Series(record.Key{Bench: k.Bench}, "ns/op")), nil)
		if math.Abs(stat.Mean(record.Measurements(series), nil)/rm-1) <= target {
			sc.within++
		}
	}
	opts := gate.Options{Rule: gate.RuleCI, Confidence: confidence, Correction: gate.CorrectionNone}
	res, err := gate.Runs(ref, run, opts)
	if err != nil {
		return sc
	}
	for _, c := range res.Comparisons {
		if c.Unit != "ns/op" || c.Method != gate.MethodWelch {
			continue
		}
		sc.compared++
		if c.Ratio.Contains(1) {
			sc.agree++
		}
	}
	return sc
}

// achieved returns the relative half-width of a benchmark's 95% interval:
// for gobench-dyn, the Student-t interval over process means (stats.Components);
// for go test -count, whose repetitions share one process, benchstat's ±,
// the interval of the median of the repetitions.
func achieved(series []record.IterationSample, gotest bool) float64 {
	if gotest {
		v := record.Measurements(series)
		s := benchmath.AssumeNothing.Summary(benchmath.NewSample(v, &benchmath.DefaultThresholds), confidence)
		return max(s.Hi-s.Center, s.Center-s.Lo) / s.Center
	}
	procs := make([][]float64, 0, len(series))
	for _, it := range series {
		procs = append(procs, it.Values)
	}
	return stats.FitComponents(procs).Interval(confidence).RelHalfWidth()
}

// print writes the table of -interleave: one row per reference half and
// method, over every round, with the noise floor beside each.
func (res *interleaved) print(il interleaving) {
	floor := scoreRun(res.refB, res.refA, false, il.target, 0)
	floorCell := share(floor.agree, floor.compared)
	fmt.Printf("noise floor (ref B against ref A, %d processes each): %s agree at 95%%, %s within ±%.0f%%\n\n",
		il.rounds*il.refProcs, floorCell, share(floor.within, floor.benches), 100*il.target)
	fmt.Printf("| method | wall per run | × ref chunk | reached ±%.0f%% | stopped early | median ± | median ± at ref time | mean within ±%.0f%% of ref | A/A agree | floor (B vs A) |\n", 100*il.target, 100*il.target)
	fmt.Println("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, t := range append([]*track{res.ref}, res.methods...) {
		var wall time.Duration
		var sum score
		var eqTime []float64
		for _, r := range t.runs {
			// A reference chunk is judged against the other half.
			against := res.refA
			if r.name == "ref A" {
				against = res.refB
			}
			sc := scoreRun(r.run, against, t.gotest, il.target, il.cap)
			wall += r.wall
			// An interval's width shrinks as the square root of the
			// processes, so of the time spent on them.
			for _, w := range sc.widths {
				eqTime = append(eqTime, w*math.Sqrt(r.wall.Seconds()/res.refWall.Seconds()))
			}
			sum = sum.add(sc)
		}
		wall /= time.Duration(len(t.runs))
		early := share(sum.early, sum.benches)
		if t.gotest || t == res.ref {
			early = "—"
		}
		fmt.Printf("| %s | %.1f s | %.2f | %s | %s | ±%.1f%% | ±%.1f%% | %s | %s | %s |\n", label(t, il), wall.Seconds(),
			wall.Seconds()/res.refWall.Seconds(), share(sum.reached, sum.benches), early, 100*median(sum.widths),
			100*median(eqTime), share(sum.within, sum.benches), share(sum.agree, sum.compared), floorCell)
	}
}

func (s score) add(o score) score {
	s.benches += o.benches
	s.reached += o.reached
	s.early += o.early
	s.widths = append(s.widths, o.widths...)
	s.within += o.within
	s.agree += o.agree
	s.compared += o.compared
	return s
}

func label(t *track, il interleaving) string {
	switch t.name {
	case "interval":
		return fmt.Sprintf("default (--stop interval --target %g, cap %d)", il.target, il.cap)
	case "none":
		return fmt.Sprintf("--stop none (cap %d × %d slices)", il.cap, il.slices)
	case "gotest":
		return fmt.Sprintf("go test -count %d + benchstat ±", il.cap*il.slices)
	case "also":
		return fmt.Sprintf("default %s (cap %d)", strings.Join(il.also, " "), il.cap)
	}
	return fmt.Sprintf("reference chunk (--stop none, %d × %d slices; A and B)", il.refProcs, il.slices)
}

// median is the median of the values of xs that are not NaN.
func median(xs []float64) float64 {
	return stats.MedianInPlace(slices.DeleteFunc(slices.Clone(xs), math.IsNaN))
}

// printPerBenchmark writes, per benchmark, what the reference says about
// itself beside the precision every method reached: the median over rounds
// of the achieved ±, and for the default (and its -also setting) the
// processes it spent.
func (res *interleaved) printPerBenchmark(il interleaving) {
	adaptive := []string{"interval"}
	head := "| benchmark | ref B / ref A | default: processes | default ± |"
	if len(il.also) > 0 {
		adaptive = append(adaptive, "also")
		head += " -also: processes | -also ± |"
	}
	fmt.Printf("\n%s --stop none ± | go test benchstat ± |\n", head)
	fmt.Println("|---|--:|" + strings.Repeat("--:|", 2*len(adaptive)+2))
	widths := map[string]map[record.Bench][]float64{}
	procs := map[string]map[record.Bench][]float64{}
	for _, t := range res.methods {
		widths[t.name] = map[record.Bench][]float64{}
		procs[t.name] = map[record.Bench][]float64{}
		for _, r := range t.runs {
			for _, k := range r.run.Keys() {
				series := r.run.Series(k, "ns/op")
				if len(series) == 0 {
					continue
				}
				widths[t.name][k.Bench] = append(widths[t.name][k.Bench], achieved(series, t.gotest))
				procs[t.name][k.Bench] = append(procs[t.name][k.Bench], float64(len(series)))
			}
		}
	}
	for _, k := range res.refA.Keys() {
		a := stat.Mean(record.Measurements(res.refA.Series(k, "ns/op")), nil)
		b := stat.Mean(record.Measurements(res.refB.Series(k, "ns/op")), nil)
		if math.IsNaN(a) {
			continue
		}
		fmt.Printf("| %s | %.3f |", path.Base(k.Package)+"."+k.Benchmark, b/a)
		for _, m := range adaptive {
			fmt.Printf(" %.1f | ±%.1f%% |", stat.Mean(procs[m][k.Bench], nil), 100*median(widths[m][k.Bench]))
		}
		fmt.Printf(" ±%.1f%% | ±%.1f%% |\n", 100*median(widths["none"][k.Bench]), 100*median(widths["gotest"][k.Bench]))
	}
}
