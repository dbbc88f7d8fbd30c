package history

import (
	"math"
	"sort"
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// A Meta says where a run was measured: what every entry of the run
// carries besides its numbers.
type Meta struct {
	Commit     string
	CommitTime time.Time
	Branch     string
	// Place is the commit's place in the graph; zero when unknown.
	Place   GraphPlace
	Machine string
	Options string
}

// Confidence is the level of the intervals a run's entries carry, that of
// the run's summary.
const Confidence = 0.95

// FromRun returns the entries of run, the code under test's benchmarks
// (a baseline's are left out): for each benchmark and unit other than
// allocations and bytes per op, the mean of its process means with its
// t interval over processes, and the allocations and bytes per op as
// the mean of their process means.
func FromRun(run *record.Run, meta Meta) []Entry {
	var out []Entry
	for _, k := range run.Keys() {
		if k.Version != record.VersionHead {
			continue
		}
		units := run.Units(k)
		allocs, bytes := math.NaN(), math.NaN()
		for _, u := range units {
			switch u {
			case UnitAllocs:
				allocs = fit(run, k, u).Mean
			case UnitBytes:
				bytes = fit(run, k, u).Mean
			}
		}
		for _, u := range units {
			if u == UnitAllocs || u == UnitBytes {
				continue
			}
			est := fit(run, k, u)
			if est.Processes == 0 || math.IsNaN(est.Mean) {
				continue
			}
			iv := est.Interval(Confidence)
			e := Entry{
				Commit: meta.Commit, CommitTime: meta.CommitTime, Branch: meta.Branch, Parents: meta.Place.Parents, Position: meta.Place.Position,
				Machine: meta.Machine, Options: meta.Options,
				Package: k.Package, Benchmark: k.Benchmark, Unit: u,
				Mean: est.Mean, Lo: iv.Lo, Hi: iv.Hi, Confidence: Confidence, Processes: est.Processes,
				AllocsPerOp: math.NaN(), BytesPerOp: math.NaN(),
			}
			if u == "ns/op" || u == "sec/op" {
				e.AllocsPerOp, e.BytesPerOp = allocs, bytes
			}
			if math.IsNaN(e.Lo) {
				e.Confidence = 0
			}
			out = append(out, e)
		}
	}
	return out
}

// fit estimates the variance components of benchmark k in unit u over
// its processes' measurement slices.
func fit(run *record.Run, k record.Key, u string) stats.Components {
	var procs [][]float64
	for _, it := range run.Series(k, u) {
		procs = append(procs, it.Values)
	}
	return stats.FitComponents(procs)
}

// resultOptions are the options of a run that change what it measures,
// by their names in the raw header: a point measured otherwise is
// another series.
var resultOptions = []string{"tags", "race", "cpu", "slice-time"}

// OptionsOf returns the options of header that shape results, as the
// label entries carry: "race=true slice-time=100ms tags=x", the options
// at their zero value left out.
func OptionsOf(h *record.Header) string {
	if h == nil {
		return ""
	}
	var parts []string
	for _, name := range resultOptions {
		v := h.Options[name]
		if v == "" || v == "false" {
			continue
		}
		parts = append(parts, name+"="+v)
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// MachineOf returns the default machine label of a run: its instance
// name when it has one, else the operating system, architecture and CPU
// model, so that runners of the same kind share series whatever their
// host names.
func MachineOf(h *record.Header) string {
	if h == nil {
		return ""
	}
	if h.Instance != "" {
		return h.Instance
	}
	label := h.GOOS + "/" + h.GOARCH
	if h.CPU != "" {
		label += " " + h.CPU
	}
	return label
}
