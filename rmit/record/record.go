// Package record defines the measurement records of a gobench-dyn run and
// their file format, JSON Lines.
//
// A raw file holds one Header, then one Slice per timed repetition of a
// benchmark and Event records for everything else that happened (stops,
// failures, padding). Every record is one line, appended and flushed as it
// is produced, so a crash loses at most the line being written; readers
// accept such a torn last line with a warning.
package record

import (
	"cmp"
	"fmt"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"maps"
	"slices"
	"strings"
	"time"
)

// Schema is the version of the raw record format this package writes.
// Readers reject files with a newer schema.
const Schema = 1

// Record types, the value of every record's "type" field.
const (
	TypeHeader = "header"
	TypeSlice  = "slice"
	TypeEvent  = "event"
)

// Version labels, for runs that interleave a baseline with the code under
// test. Records of the code under test carry no version.
const (
	VersionHead     = ""
	VersionBaseline = "baseline"
)

// A Header opens every raw file and says how its records were produced.
type Header struct {
	Type      string    `json:"type"` // TypeHeader
	Schema    int       `json:"schema"`
	Tool      string    `json:"tool"` // tool name and version
	GoVersion string    `json:"go_version"`
	GOOS      string    `json:"goos"`
	GOARCH    string    `json:"goarch"`
	CPU       string    `json:"cpu,omitempty"`
	NumCPU    int       `json:"num_cpu,omitempty"`
	Host      string    `json:"host,omitempty"`
	Seed      uint64    `json:"seed"`
	Instance  string    `json:"instance,omitempty"`
	Shard     string    `json:"shard,omitempty"` // "K/N" when sharded
	Start     time.Time `json:"start"`
	// Options holds the options that shape the results, flag name to
	// value, so that a resumed or merged run can be checked against them.
	Options map[string]string `json:"options,omitempty"`
	// Binaries maps each package path to a hash of its test binary, which
	// identifies the code under test; for a baseline checked out of git,
	// whose binary holds the path of a temporary worktree, to "commit "
	// and the commit it was built from.
	Binaries map[string]string `json:"binaries,omitempty"`
	// Layouts are the -randlayout seeds each version's test binaries
	// were linked with, by version ("head", "baseline"): each process
	// ran one of them (Slice.Layout). Empty when each was linked once.
	Layouts map[string][]uint64 `json:"layouts,omitempty"`
	// Sources lists the raw files a merged file was made from, one entry
	// per instance and shard; it is empty in a file written by a run.
	Sources []Source `json:"sources,omitempty"`
	// Seal is a hash of the other fields as Writer wrote them, by which
	// a resumed run tells a header edited since (its seed, options or
	// machine) from the one the run wrote. Fields added to Header must be
	// omitempty, so that the headers of older files keep their seals.
	Seal string `json:"seal,omitempty"`
}

// A Source is one raw file that went into a merged file: one shard of one
// instance, or all of it.
type Source struct {
	File      string    `json:"file"`
	Instance  string    `json:"instance,omitempty"`
	Shard     string    `json:"shard,omitempty"`
	Host      string    `json:"host,omitempty"`
	GoVersion string    `json:"go_version,omitempty"`
	CPU       string    `json:"cpu,omitempty"`
	Seed      uint64    `json:"seed"`
	Start     time.Time `json:"start"`
	// Complete reports whether the file ended normally.
	Complete bool `json:"complete"`
}

// A Slice is one sample: one timed repetition inside an iteration, with a
// fixed b.N.
type Slice struct {
	Type      string `json:"type"` // TypeSlice
	Package   string `json:"pkg"`
	Benchmark string `json:"bench"` // full leaf name as go test prints it, with any -N suffix
	Version   string `json:"version,omitempty"`
	Instance  string `json:"instance,omitempty"`
	SuiteRun  int    `json:"suite_run"` // 1-based
	// Iteration is the 1-based index of this iteration among the
	// benchmark's iterations in the suite run.
	Iteration int `json:"iteration"`
	// Order is the 1-based position of the iteration in the suite run's
	// shuffled schedule.
	Order int `json:"order"`
	Slice int `json:"slice"` // 1-based within the iteration, warmup slices included
	// Turn is, in a duet iteration, the 1-based position of a slice
	// among the turns of both versions' workers: measured slice j of the
	// baseline and measured slice j of the head form a pair, and Turn
	// says which of the two ran first. It is 0 for the first slice, which
	// both workers run at once as they start, and in an iteration that
	// ran alone.
	Turn   int   `json:"turn,omitempty"`
	Warmup bool  `json:"warmup,omitempty"`
	N      int64 `json:"n"`
	// Values maps each unit the benchmark reported ("ns/op", "B/op",
	// "allocs/op", custom ReportMetric units) to its value.
	Values map[string]float64 `json:"values"`
	Start  time.Time          `json:"start"`
	WallNs int64              `json:"wall_ns"` // wall time of the slice as seen by the harness
	// Layout is the -randlayout seed of the link of the test binary
	// that measured the slice, 0 for the linker's own layout.
	Layout uint64 `json:"layout,omitempty"`
}

// Key returns the benchmark and version the event is about.
func (e *Event) Key() Key { return Key{Bench{e.Package, e.Benchmark}, e.Version} }

// Key returns the benchmark and version of the slice.
func (s *Slice) Key() Key { return Key{Bench{s.Package, s.Benchmark}, s.Version} }

// A Process names one iteration of a benchmark within its key: a run of
// its test binary, the unit the intervals of its mean are computed over.
type Process struct {
	Instance            string
	SuiteRun, Iteration int
}

// Process returns the process the slice was measured in.
func (s *Slice) Process() Process { return Process{s.Instance, s.SuiteRun, s.Iteration} }

// Event kinds.
const (
	EventCalibrated = "calibrated"  // b.N chosen; Value holds N
	EventWarmupEnd  = "warmup-end"  // warmup ended; Slice is the last warmup slice, Met says whether it was stable
	EventStop       = "stop"        // the benchmark leaves the schedule; Met says whether its criterion held
	EventFailure    = "failure"     // the iteration failed; Reason and Detail say why
	EventPadding    = "padding"     // an extra iteration keeps a suite run interleaved
	EventSkip       = "skip"        // a package or benchmark was not run; Reason says why
	EventBudget     = "budget"      // the time budget cut the benchmark short
	EventInterrupt  = "interrupted" // the run was interrupted; the file is partial
	EventEnd        = "end"         // the run finished; the file is complete
	// EventUnaffected: a benchmark of a baseline run was not measured,
	// as it executes no code and reads no file that differs between the versions; Reason
	// says what was found.
	EventUnaffected = "unaffected"
	// EventResumed opens the records appended by gobench-dyn run
	// --resume: the run continues where an interrupted one stopped.
	EventResumed = "resumed"
	// EventDiscarded drops the slices and warmup-end events recorded
	// before it for one iteration (Package, Benchmark, Version,
	// SuiteRun, Iteration) that was cut short: a resumed run runs that
	// iteration again. Readers leave the dropped records out.
	EventDiscarded = "discarded"
	// EventProcessPairs: the two versions of a baseline run's benchmark
	// are measured by pairs of processes, one after the other, rather
	// than in turns, as its calls spend too long outside the timer for
	// turns; Reason says how long.
	EventProcessPairs = "process-pairs"
)

// An Event records something other than a sample.
type Event struct {
	Type      string  `json:"type"` // TypeEvent
	Event     string  `json:"event"`
	Package   string  `json:"pkg,omitempty"`
	Benchmark string  `json:"bench,omitempty"`
	Version   string  `json:"version,omitempty"`
	Instance  string  `json:"instance,omitempty"`
	SuiteRun  int     `json:"suite_run,omitempty"`
	Iteration int     `json:"iteration,omitempty"`
	Slice     int     `json:"slice,omitempty"`
	Met       bool    `json:"met,omitempty"`
	Value     float64 `json:"value,omitempty"`
	// CriterionNs is the time spent computing stoppage criteria for the
	// benchmark so far, on stop events.
	CriterionNs int64 `json:"criterion_ns,omitempty"`
	// Precision is, on stop events, how well the benchmark's mean is
	// known when it left the schedule; nil when no interval was estimated.
	Precision *Precision `json:"precision,omitempty"`
	// Unsettled is, on stop events, the warmup of a benchmark whose first
	// process was still getting faster when its warmup reached the cap;
	// nil for one that settled.
	Unsettled *Unsettled `json:"unsettled,omitempty"`
	Reason    string     `json:"reason,omitempty"`
	Detail    string     `json:"detail,omitempty"`
	// TimeUse is, on end and interrupted events, how the run's wall
	// time was spent.
	TimeUse *TimeUse  `json:"time_use,omitempty"`
	Time    time.Time `json:"time"`
}

// A TimeUse says how much of a run's wall time its benchmarks spent
// inside their timers. A slice's wall time holds more than its timed
// run: the setup before b.ResetTimer, go test's one-op run1, the garbage
// collection before each timed run, and the hand-over between two
// workers. So the time inside the timer, not the time inside slices, is
// what the run spent measuring.
type TimeUse struct {
	WallNs int64 `json:"wall_ns"`
	// MeasuringNs runs from the start of the run's first slice to the
	// end of its last: the wall time without the preparation.
	MeasuringNs int64 `json:"measuring_ns"`
	// InSlicesNs is the wall time of the measurement slices.
	InSlicesNs int64 `json:"in_slices_ns"`
	// InTimerNs is the time the measurement slices spent inside the
	// benchmark's timer: N × ns/op summed over them.
	InTimerNs int64 `json:"in_timer_ns"`
}

// Timed returns the time slice s spent inside the benchmark's timer, N ×
// ns/op; 0 for a benchmark that reports no ns/op.
func (s *Slice) Timed() time.Duration {
	return time.Duration(float64(s.N) * s.Values["ns/op"])
}

// An Unsettled warmup ran to its cap while its slices still got faster:
// the benchmark's mean holds part of a transient that go test's ramp, which
// reports only its last, longest run, leaves out.
type Unsettled struct {
	// Slices is the warmup slices of every process, and Ops the
	// operations they ran in all (Slices × b.N).
	Slices int   `json:"slices"`
	Ops    int64 `json:"ops"`
	// Drop is the first warmup slice's ns/op over the last one's.
	Drop float64 `json:"drop"`
}

// String says what u says, as the summary and the results file say it:
// "not steady after 20 ops: the first ops cost 3.1× the last"; "" for nil.
func (u *Unsettled) String() string {
	if u == nil {
		return ""
	}
	return fmt.Sprintf("not steady after %d ops: the first ops cost %.3g× the last", u.Ops, u.Drop)
}

// A Precision is the interval of a benchmark's mean over its processes
// at a stop: its relative half-width (the ±x of "±2%") at Confidence,
// the target half-width, and the processes predicted to reach the target.
type Precision struct {
	RelHalfWidth float64 `json:"rel_half_width"`
	Confidence   float64 `json:"confidence"`
	Target       float64 `json:"target,omitempty"`
	Processes    int     `json:"processes_for_target,omitempty"`
}

// String formats p as the summary, the report and the results file say
// it: "±1.3% (95%)", or "±4.1% (95%); about 14 processes for ±3%" when the
// target was missed; "" for a nil or unknown p.
func (p *Precision) String() string {
	if p == nil {
		return ""
	}
	if p.Confidence <= 0 {
		return ""
	}
	s := render.Precision(p.RelHalfWidth, p.Target, p.Processes)
	if s == "" {
		return ""
	}
	head, tail, _ := strings.Cut(s, ";")
	head += fmt.Sprintf(" (%.0f%%)", 100*p.Confidence)
	if tail != "" {
		head += ";" + tail
	}
	return head
}

// Reasons of stop events a policy decided.
const (
	// ReasonCriterionMet: the stoppage criterion held (Met) or a cap
	// was reached (not Met).
	ReasonCriterionMet = "criterion met"
	// ReasonSettled: the benchmark and its baseline stopped because the
	// comparison of the two versions was already decided.
	ReasonSettled = "verdict settled"
	// ReasonOutOfReach: the interval of the benchmark's mean was
	// predicted to stay far from its target within the cap, so it
	// stopped unmet (the stopping policy's ReasonOutOfReach).
	ReasonOutOfReach = "out of reach"
	// ReasonBeyondBudget: the time budget cut the benchmark short, its
	// stop, at its target or as out of reach of it, predicted after more
	// processes than what was left of the budget once the benchmarks
	// predicted to stop sooner had theirs, or past its cap.
	ReasonBeyondBudget = "out of reach within the budget"
	// ReasonNoVerdict: the benchmark and its baseline stopped undecided
	// because a verdict was predicted out of reach within the cap
	// (compare.OutOfReach); their comparison is inconclusive.
	ReasonNoVerdict = "verdict out of reach"
	// ReasonUndecidedAtCap: the benchmark and its baseline stopped
	// undecided at the default cap of a run whose later looks are for
	// pairs with a change already shown (gate.Plan.Extend), their
	// interval holding zero; their comparison is inconclusive.
	ReasonUndecidedAtCap = "undecided at the cap"
)

// A Bench identifies a benchmark in every package of gobench-dyn: its
// package path and its name as go test prints it, sub-benchmarks and
// GOMAXPROCS suffix included. It names the same benchmark in both versions
// of a baseline run, in every shard and on every instance.
type Bench struct {
	Package   string `json:"pkg,omitempty"`
	Benchmark string `json:"bench"`
}

// String returns the benchmark as people name it: "pkg.BenchmarkX".
func (b Bench) String() string {
	if b.Package == "" {
		return b.Benchmark
	}
	return b.Package + "." + b.Benchmark
}

// Compare orders benchmarks by package, then name.
func (b Bench) Compare(o Bench) int {
	return cmp.Or(cmp.Compare(b.Package, o.Package), cmp.Compare(b.Benchmark, o.Benchmark))
}

// A Key identifies one benchmark of one version of the code.
type Key struct {
	Bench
	Version string
}

// ID returns k as one string, for state kept by opaque benchmark IDs,
// such as a stopping policy's.
func (k Key) ID() string { return k.Version + "|" + k.Package + "|" + k.Benchmark }

// A Run is the content of one or more raw files.
type Run struct {
	Header *Header // the first file's header
	Slices []Slice
	Events []Event
	// Complete reports whether the run ended normally: every file holds
	// an end event and no interruption.
	Complete bool

	// index lists the positions in Slices of each benchmark's slices, for
	// Series; it is rebuilt when Slices has grown or shrunk since.
	index   map[Key][]int
	indexed int
}

// Keys returns the benchmarks of r in order of first appearance.
func (r *Run) Keys() []Key {
	seen := map[Key]bool{}
	var keys []Key
	for i := range r.Slices {
		k := r.Slices[i].Key()
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys
}

// Units returns the units reported by benchmark k, "ns/op" first and the
// rest in sorted order.
func (r *Run) Units(k Key) []string {
	set := map[string]bool{}
	for _, i := range r.positions(k) {
		for u := range r.Slices[i].Values {
			set[u] = true
		}
	}
	return SortUnits(slices.Collect(maps.Keys(set)))
}

// SortUnits sorts units in the order go test prints them: ns/op first, then
// custom units alphabetically, then B/op and allocs/op.
func SortUnits(units []string) []string {
	rank := func(u string) int {
		switch u {
		case "ns/op":
			return 0
		case "B/op":
			return 2
		case "allocs/op":
			return 3
		}
		return 1
	}
	slices.SortFunc(units, func(a, b string) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		if a < b {
			return -1
		}
		if a > b {
			return 1
		}
		return 0
	})
	return units
}
