package replay

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// WriteTable prints res as a table, one row per benchmark and instance,
// then the suite's totals. fullWarmup is the warmup the full results left
// out, or −1 for the recorded warmup.
func WriteTable(w io.Writer, res *Result, fullWarmup int) error {
	bw := bufio.NewWriter(w)
	c := res.Config
	threshold := "--threshold"
	if c.Criterion == stopper.Interval {
		threshold = "--target"
	}
	fmt.Fprintf(bw, "replay: --stop %s %s %g --window %d --warmup %d --warmup-max %d --slices %d --min-iterations %d",
		c.Criterion, threshold, c.Threshold, c.Window, c.WarmupMin, c.WarmupMax, c.Measure, c.MinIterations)
	if fullWarmup >= 0 {
		fmt.Fprintf(bw, "; full result without the first %d slices of each iteration", fullWarmup)
	}
	fmt.Fprintln(bw)
	fmt.Fprintln(bw)
	multi := false
	for _, b := range res.Benchmarks {
		multi = multi || b.Instance != res.Benchmarks[0].Instance
	}
	tw := render.Table(bw)
	head := "benchmark\t"
	if multi {
		head += "instance\t"
	}
	fmt.Fprintln(tw, head+"iterations\twarmup\tmet\tsaved\tchange\tA/A\tprecision (95%)\t")
	for _, b := range res.Benchmarks {
		name := b.Key.Benchmark
		if b.Key.Version != "" {
			name += " (" + b.Key.Version + ")"
		}
		row := name + "\t"
		if multi {
			row += b.Instance + "\t"
		}
		warm := 0.0
		for _, it := range b.Iterations {
			warm += float64(it.Warmup)
		}
		met := "no"
		if b.Met {
			met = "yes"
		}
		aa := "differs"
		if b.Same {
			aa = "same"
		}
		if math.IsNaN(b.Change) {
			aa = "–"
		}
		prec := b.Precision.String()
		if prec == "" {
			prec = "–"
		}
		fmt.Fprintf(tw, "%s%d/%d\t%.1f\t%s\t%s\t%s\t%s\t%s\t\n", row, len(b.Iterations), b.Recorded,
			warm/float64(max(1, len(b.Iterations))), met, pct(b.TimeSaved), pct(b.Change), aa, prec)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	s := res.Summary
	fmt.Fprintf(bw, "\nsuite: %d benchmarks, %d of %d slices, time saved %s (%s)\n", len(res.Benchmarks), s.DynSlices, s.FullSlices, pct(s.TimeSaved), timeBasis(s))
	fmt.Fprintf(bw, "A/A not different %s; change rate %s ± %s; below 1%% %s, 2%% %s, 3%% %s\n",
		pct(s.Same), pct(s.MeanChange), pct(s.SDChange), pct(s.Below1), pct(s.Below2), pct(s.Below3))
	fmt.Fprintf(bw, "warmup %.1f ± %.1f slices (cap hit in %s of iterations); iterations %.1f ± %.1f (criterion unmet in %s of benchmarks)\n",
		s.WarmupMean, s.WarmupSD, pct(s.WarmupUnmet), s.IterationsMean, s.IterationsSD, pct(s.Unmet))
	if s.Short > 0 {
		fmt.Fprintf(bw, "%d iterations were recorded shorter than the policy wanted; they count as they were recorded\n", s.Short)
	}
	return bw.Flush()
}

// timeBasis says what the time saved counts.
func timeBasis(s Summary) string {
	switch {
	case s.Timed:
		return "recorded slice times, each process's start-up included"
	case s.ProcessCost > 0:
		return fmt.Sprintf("slices, each process %g slice times more", s.ProcessCost)
	}
	return "slices alone; --process-cost adds the processes"
}

// jsonIteration is one replayed iteration in the JSON output.
type jsonIteration struct {
	SuiteRun  int  `json:"suite_run"`
	Iteration int  `json:"iteration"`
	Warmup    int  `json:"warmup"`
	WarmupMet bool `json:"warmup_met"`
	Measured  int  `json:"measured"`
	Short     bool `json:"short,omitempty"`
}

// jsonBench is one replayed benchmark in the JSON output.
type jsonBench struct {
	Package     string           `json:"pkg"`
	Benchmark   string           `json:"bench"`
	Version     string           `json:"version,omitempty"`
	Instance    string           `json:"instance,omitempty"`
	Iterations  []jsonIteration  `json:"iterations"`
	Recorded    int              `json:"recorded_iterations"`
	Stopped     bool             `json:"stopped"`
	Met         bool             `json:"met"`
	FullSlices  int              `json:"full_slices"`
	DynSlices   int              `json:"slices"`
	TimeSaved   render.JSONFloat `json:"time_saved"`
	FullMean    render.JSONFloat `json:"full_mean"`
	Mean        render.JSONFloat `json:"mean"`
	Change      render.JSONFloat `json:"change"`
	RatioLo     render.JSONFloat `json:"ratio_lo"`
	RatioHi     render.JSONFloat `json:"ratio_hi"`
	Same        bool             `json:"aa_same"`
	CriterionNs int64            `json:"criterion_ns"`
	// RelHalfWidth is the relative half-width of the 95% interval of
	// the mean over the replayed processes; Processes those predicted
	// to reach the target.
	RelHalfWidth render.JSONFloat `json:"rel_half_width"`
	Processes    int              `json:"processes_for_target,omitempty"`
}

// jsonResult is the JSON output of replay.
type jsonResult struct {
	Stop          string           `json:"stop"`
	Threshold     float64          `json:"threshold"`
	Window        int              `json:"window"`
	Warmup        int              `json:"warmup"`
	WarmupMax     int              `json:"warmup_max"`
	Slices        int              `json:"slices"`
	MinIterations int              `json:"min_iterations"`
	Benchmarks    []jsonBench      `json:"benchmarks"`
	FullSlices    int              `json:"full_slices"`
	DynSlices     int              `json:"slices_used"`
	TimeSaved     render.JSONFloat `json:"time_saved"`
	// TimeBasis is "recorded" when the time saved counts recorded slice
	// times, "slices" when it counts slices and ProcessCost per process.
	TimeBasis   string           `json:"time_basis"`
	ProcessCost float64          `json:"process_cost"`
	Same        render.JSONFloat `json:"aa_same"`
	MeanChange  render.JSONFloat `json:"change_mean"`
	SDChange    render.JSONFloat `json:"change_sd"`
	Below1      render.JSONFloat `json:"below_1pct"`
	Below2      render.JSONFloat `json:"below_2pct"`
	Below3      render.JSONFloat `json:"below_3pct"`
	WarmupMean  render.JSONFloat `json:"warmup_mean"`
	WarmupUnmet render.JSONFloat `json:"warmup_unmet"`
	IterMean    render.JSONFloat `json:"iterations_mean"`
	Unmet       render.JSONFloat `json:"unmet"`
}

// WriteJSON writes res as one indented JSON object: the policy, each
// benchmark's replay and the suite's totals. NaN values are null.
func WriteJSON(w io.Writer, res *Result) error {
	s := res.Summary
	out := jsonResult{
		Stop: res.Config.Criterion.String(), Threshold: res.Config.Threshold, Window: res.Config.Window,
		Warmup: res.Config.WarmupMin, WarmupMax: res.Config.WarmupMax, Slices: res.Config.Measure,
		MinIterations: res.Config.MinIterations,
		FullSlices:    s.FullSlices, DynSlices: s.DynSlices, TimeSaved: render.JSONFloat(s.TimeSaved),
		TimeBasis: "slices", ProcessCost: s.ProcessCost,
		Same: render.JSONFloat(s.Same), MeanChange: render.JSONFloat(s.MeanChange), SDChange: render.JSONFloat(s.SDChange),
		Below1: render.JSONFloat(s.Below1), Below2: render.JSONFloat(s.Below2), Below3: render.JSONFloat(s.Below3),
		WarmupMean: render.JSONFloat(s.WarmupMean), WarmupUnmet: render.JSONFloat(s.WarmupUnmet),
		IterMean: render.JSONFloat(s.IterationsMean), Unmet: render.JSONFloat(s.Unmet),
	}
	if s.Timed {
		out.TimeBasis, out.ProcessCost = "recorded", 0
	}
	for _, b := range res.Benchmarks {
		out.Benchmarks = append(out.Benchmarks, jsonBenchOf(b))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// jsonBenchOf returns the JSON output of b.
func jsonBenchOf(b *Benchmark) jsonBench {
	jb := jsonBench{
		Package: b.Key.Package, Benchmark: b.Key.Benchmark, Version: b.Key.Version, Instance: b.Instance,
		Recorded: b.Recorded, Stopped: b.Stopped, Met: b.Met,
		FullSlices: b.FullSlices, DynSlices: b.DynSlices, TimeSaved: render.JSONFloat(b.TimeSaved),
		FullMean: render.JSONFloat(b.FullMean), Mean: render.JSONFloat(b.DynMean), Change: render.JSONFloat(b.Change),
		RatioLo: render.JSONFloat(b.Ratio.Lo), RatioHi: render.JSONFloat(b.Ratio.Hi), Same: b.Same,
		CriterionNs: int64(b.Criterion),
		Processes:   b.Precision.Processes,
	}
	jb.RelHalfWidth = render.JSONFloat(math.NaN())
	if b.Precision.Known() {
		jb.RelHalfWidth = render.JSONFloat(b.Precision.Width)
	}
	for _, it := range b.Iterations {
		jb.Iterations = append(jb.Iterations, jsonIteration(it))
	}
	return jb
}

// pct prints a share as a percentage, and NaN as a dash.
var pct = render.Percent{Digits: 1, NaN: "–"}.Format
