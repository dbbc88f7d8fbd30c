package steady

import (
	"bufio"
	"encoding/json"
	"fmt"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"io"
	"math"
	"time"

	"github.com/gobench-dyn/gobench-dyn/optime"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// WriteTable prints one table of benchmarks, one of processes and one of
// the dynamic criteria's warmup estimation errors. rs[i] is the result of
// ins[i].
func WriteTable(w io.Writer, ins []Input, rs []Result) error {
	values := make([][][]float64, len(ins))
	for i, in := range ins {
		values[i] = in.Processes
	}
	bw := bufio.NewWriter(w)
	writeBenchmarks(bw, ins, rs)
	fmt.Fprintln(bw)
	writeProcesses(bw, ins, rs, values)
	fmt.Fprintln(bw)
	writeWEE(bw, rs, values)
	return bw.Flush()
}

func writeBenchmarks(w io.Writer, ins []Input, rs []Result) {
	tw := render.Table(w)
	fmt.Fprintln(tw, "benchmark\tclass\tsteady\twarmup\twarmup time")
	for i, in := range ins {
		r := rs[i]
		n := 0
		for _, s := range r.Series {
			if s.Class == Steady {
				n++
			}
		}
		wu, wt := "–", "–"
		if r.Warmup >= 0 {
			wu = fmt.Sprintf("%d slices", r.Warmup)
			wt = fmt.Sprintf("%.3gs", in.LearnedWarmupTime(r))
		}
		fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%s\t%s\n", in.Name, r.Class, n, len(r.Series), wu, wt)
	}
	tw.Flush()
}

func writeProcesses(w io.Writer, ins []Input, rs []Result, values [][][]float64) {
	tw := render.Table(w)
	fmt.Fprintln(tw, "benchmark\tprocess\tclass\tstart\tstart time\tslices\tsegments\tpenalty\tlast mean")
	for i, in := range ins {
		for j, s := range rs[i].Series {
			start, st := "–", "–"
			if s.Class == Steady {
				start = fmt.Sprint(s.Start)
				st = fmt.Sprintf("%.3gs", in.WarmupTime(j, s.Start))
			}
			last := math.NaN()
			if len(s.Means) > 0 {
				last = s.Means[len(s.Means)-1]
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%d\t%d\t%.4g\t%.4g\n", in.Name, j, s.Class, start, st, len(values[i][j]), len(s.Ends), s.Penalty, last)
		}
	}
	tw.Flush()
}

func writeWEE(w io.Writer, rs []Result, values [][][]float64) {
	tw := render.Table(w)
	fmt.Fprintln(tw, "criterion\tsteady processes\tWEE median\tWEE IQR\tover\tunder\tnever held")
	for _, c := range stopper.Criteria() {
		if !c.WindowWarmup() {
			continue
		}
		cfg := stopper.Paper(c)
		// A window of slices, as the FSE'20 warmup stoppage, without its
		// cap of 50: the series is the cap here.
		cfg.WarmupMax = math.MaxInt32
		wee := WEEOf(rs, values, cfg, 0)
		if wee.N == 0 {
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%.0f slices\t%.0f–%.0f\t%d\t%d\t%d\n", c, wee.N, wee.Median, wee.Q1, wee.Q3, wee.Over, wee.Under, wee.Unmet)
	}
	tw.Flush()
}

// A Verdict is one process's class and steady start, as WriteJSON writes
// it: the shape of Traini et al.'s published classifications.
type Verdict struct {
	Name  string `json:"name"`
	Fork  int    `json:"fork"`
	Class string `json:"class"`
	Start int    `json:"start"`
}

// WriteJSON writes the verdict of every process of every benchmark as an
// indented JSON array.
func WriteJSON(w io.Writer, ins []Input, rs []Result) error {
	out := []Verdict{}
	for i, in := range ins {
		for j, s := range rs[i].Series {
			out = append(out, Verdict{Name: in.Name, Fork: j, Class: s.Class.String(), Start: s.Start})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// LearnOptions say how LearnedConfig writes what was learned.
type LearnOptions struct {
	// RunSliceTime is the slice time of the runs that will obey the
	// configuration: the warmup is written in slices of it.
	RunSliceTime time.Duration
	// Created is the configuration file's creation time.
	Created time.Time
	// New is the entry of a benchmark the configuration does not hold
	// yet; its Package, Benchmark, Warmup and Sources are set.
	New optime.Entry
}

// LearnedConfig returns cf (or a new configuration file) with the warmup
// of every benchmark read from records set to its learned warmup, in
// slices of o.RunSliceTime. A benchmark cf does not hold gets o.New; one
// that never settled keeps its warmup.
func LearnedConfig(cf *optime.ConfigFile, ins []Input, rs []Result, o LearnOptions) *optime.ConfigFile {
	if cf == nil {
		cf = &optime.ConfigFile{Schema: optime.ConfigSchema}
	}
	cf.Created = o.Created
	id := 1
	for _, s := range cf.Sources {
		id = max(id, s.ID+1)
	}
	cf.Sources = append(cf.Sources, optime.Source{ID: id, File: "gobench-dyn steady"})
	for i, in := range ins {
		if in.Package == "" || rs[i].Warmup < 0 {
			continue
		}
		// The warmup lasts as long in a run as in the probe: in slices of
		// the run's slice time, rounded up. A benchmark steady from its
		// first slice keeps one slice, Go's default.
		warmup := max(1, int(math.Ceil(in.LearnedWarmupTime(rs[i])/o.RunSliceTime.Seconds())))
		if e, ok := cf.Lookup(in.Package, in.Benchmark); ok {
			for k := range cf.Entries {
				if cf.Entries[k].Package == e.Package && cf.Entries[k].Benchmark == e.Benchmark {
					cf.Entries[k].Warmup = warmup
					cf.Entries[k].Sources = append(cf.Entries[k].Sources, id)
				}
			}
			continue
		}
		e := o.New
		e.Package, e.Benchmark, e.Warmup, e.Sources = in.Package, in.Benchmark, warmup, []int{id}
		cf.Entries = append(cf.Entries, e)
	}
	return cf
}
