// Package explain says where a change between two versions of a benchmark
// went: it merges each version's profiles, normalises them per operation,
// subtracts the baseline's from the code under test's as go tool pprof
// -diff_base does, and ranks the functions by their change in flat and
// cumulative time, bytes or allocations per operation.
//
// It is pure: profiles in, an Explanation out. Running the profiled
// processes is the session's job.
package explain

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/google/pprof/profile"

	"github.com/gobench-dyn/gobench-dyn/internal/render"
)

// A Kind is the profile that explains a change in one unit, named by the
// sample type the diff reads.
type Kind string

// The kinds of profile: CPU time for time units, and the alloc profile's
// bytes and objects for B/op and allocs/op.
const (
	CPU          Kind = "cpu"
	AllocSpace   Kind = "alloc_space"
	AllocObjects Kind = "alloc_objects"
)

// ForUnit returns the kind of profile that explains a change in unit, a
// unit as go test prints it, or false for units no profile measures
// (custom metrics).
func ForUnit(unit string) (Kind, bool) {
	switch unit {
	case "ns/op", "sec/op":
		return CPU, true
	case "B/op":
		return AllocSpace, true
	case "allocs/op":
		return AllocObjects, true
	}
	return "", false
}

// Memory reports whether k is read from an alloc profile
// (-test.memprofile) rather than a CPU profile (-test.cpuprofile).
func (k Kind) Memory() bool { return k != CPU }

// Unit is the unit of the values of an Explanation of kind k, per
// operation.
func (k Kind) Unit() string {
	switch k {
	case AllocSpace:
		return "B/op"
	case AllocObjects:
		return "allocs/op"
	}
	return "ns/op"
}

// A Line is one function's part of a change, per operation, in the unit
// of its Explanation.
type Line struct {
	Function string  `json:"function"`
	Base     float64 `json:"base"`
	Head     float64 `json:"head"`
	// Change is Head − Base as the diff profile has it.
	Change float64 `json:"change"`
	// Share is Change over the Explanation's Change, the net change:
	// 0.9 is 90% of it, negative for a function that moved against it.
	// It is NaN when the net change is under a tenth of Moved: the
	// profiles then see the functions' moves cancel out, and a share of
	// what is left would be a ratio of noise.
	Share float64 `json:"share"`
}

// MarshalJSON writes l with an undefined share (no net change) as null.
func (l Line) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Function string           `json:"function"`
		Base     float64          `json:"base"`
		Head     float64          `json:"head"`
		Change   float64          `json:"change"`
		Share    render.JSONFloat `json:"share"`
	}{l.Function, l.Base, l.Head, l.Change, render.JSONFloat(l.Share)})
}

// An Explanation is where a change went: the profiles' totals per
// operation and the functions that changed most.
type Explanation struct {
	Kind Kind   `json:"profile"`
	Unit string `json:"unit"`
	// Base and Head are each version's profile total per operation;
	// Change their difference. A CPU profile's total holds time outside
	// the benchmark's goroutine (the garbage collector's), so it is close
	// to, not the same as, ns/op.
	Base   float64 `json:"base"`
	Head   float64 `json:"head"`
	Change float64 `json:"change"`
	// Moved is the sum of every function's flat change in size: Change
	// when every function moved the same way, more when some moved
	// against it or by the profiler's chance.
	Moved float64 `json:"moved"`
	// Flat ranks functions by the change in their own time (or what they
	// allocated themselves), Cum by the change in everything under them,
	// largest first, without the harness's frames (Harness).
	Flat []Line `json:"flat"`
	Cum  []Line `json:"cum"`
	// Samples are the samples each version's profiles hold: the CPU
	// profile's 10 ms ticks, or the allocations recorded.
	Samples struct {
		Base int64 `json:"base"`
		Head int64 `json:"head"`
	} `json:"samples"`
}

// Options configures Diff.
type Options struct {
	// Top is how many functions Flat and Cum keep; 0 is DefaultTop.
	Top int
}

// DefaultTop is how many functions an Explanation lists by default.
const DefaultTop = 10

// Diff explains the change from base to head, each the merged profiles
// of baseOps and headOps benchmark operations. The ranking reads the
// diff profile (DiffProfile); the per-version values read each version
// normalised per operation.
func Diff(base, head *profile.Profile, baseOps, headOps int64, kind Kind, opts Options) (*Explanation, error) {
	if baseOps <= 0 || headOps <= 0 {
		return nil, fmt.Errorf("explain: operations must be positive, got %d and %d", baseOps, headOps)
	}
	bi, err := sampleIndex(base, kind)
	if err != nil {
		return nil, fmt.Errorf("explain: the baseline's profile: %w", err)
	}
	hi, err := sampleIndex(head, kind)
	if err != nil {
		return nil, fmt.Errorf("explain: the code under test's profile: %w", err)
	}
	base, head = relevant(base, kind), relevant(head, kind)
	diff, err := DiffProfile(base, head, baseOps, headOps)
	if err != nil {
		return nil, err
	}
	di, err := sampleIndex(diff, kind)
	if err != nil {
		return nil, err
	}
	bs, hs, ds := tally(base, bi, float64(baseOps)), tally(head, hi, float64(headOps)), tally(diff, di, float64(headOps))
	e := &Explanation{Kind: kind, Unit: kind.Unit(), Base: bs.total, Head: hs.total, Change: ds.total}
	e.Samples.Base, e.Samples.Head = Samples(base, kind), Samples(head, kind)
	top := cmp.Or(opts.Top, DefaultTop)
	for _, d := range ds.flat {
		e.Moved += math.Abs(d)
	}
	net := e.Change
	if math.Abs(net) < e.Moved/10 {
		net = 0
	}
	e.Flat = rank(ds.flat, bs.flat, hs.flat, net, top, nil)
	e.Cum = rank(ds.cum, bs.cum, hs.cum, net, top, Harness)
	return e, nil
}

// DiffProfile returns head minus base as one profile, base scaled to
// head's operations, its samples labelled as go tool pprof -diff_base
// labels them: a profile pprof reads as a diff, and the one Diff ranks.
func DiffProfile(base, head *profile.Profile, baseOps, headOps int64) (*profile.Profile, error) {
	neg := base.Copy()
	neg.Scale(-float64(headOps) / float64(baseOps))
	neg.SetLabel("pprof::base", []string{"true"})
	diff, err := profile.Merge([]*profile.Profile{head.Copy(), neg})
	if err != nil {
		return nil, fmt.Errorf("explain: the two versions' profiles do not merge: %w", err)
	}
	return diff, nil
}

// MergeProfiles merges the profiles of one version's processes, as
// go tool pprof merges several files.
func MergeProfiles(ps []*profile.Profile) (*profile.Profile, error) {
	if len(ps) == 0 {
		return nil, errors.New("explain: no profiles")
	}
	p, err := profile.Merge(ps)
	if err != nil {
		return nil, fmt.Errorf("explain: the profiles of one version do not merge: %w", err)
	}
	return p, nil
}

// benchmarkFrames matches the frames of package testing that every
// allocation of a benchmark's run passes through: runN, launch, run1 and
// RunParallel's goroutines.
var benchmarkFrames = regexp.MustCompile(`^testing\.\(\*B\)\.`)

// schedulerFrames matches the roots of the scheduler's own stacks: the
// system stack a goroutine switches to when it parks or yields
// (runtime.mcall, then schedule and findRunnable), and a thread's start
// (runtime.mstart, then schedule when idle, or sysmon).
var schedulerFrames = regexp.MustCompile(`^runtime\.(mcall|mstart)$`)

// relevant returns what a diff of kind reads of p: an alloc profile's
// allocations of the benchmark's run (benchmarkOnly), and a CPU profile
// without the scheduler's own time. That time is spent looking for work
// and spinning for it, and a loaded machine charges it unevenly to each
// version's few processes: at load 8, a third of a zap benchmark's
// change went there (docs/GATE.md). The time of the goroutines it runs,
// the garbage collector's included, stays.
func relevant(p *profile.Profile, kind Kind) *profile.Profile {
	if kind.Memory() {
		return benchmarkOnly(p)
	}
	p = p.Copy()
	p.FilterSamplesByName(nil, schedulerFrames, nil, nil)
	return p
}

// benchmarkOnly returns a copy of the alloc profile p with only the
// allocations made while a benchmark ran, as go tool pprof -focus keeps
// them. The rest are not counted but sampled: package initialisation
// runs before -test.memprofilerate applies, at the runtime's default of
// one sample per 512 KiB, so a package that reads its fixtures at init
// shows a different sampled share of them in every process, which would
// read as a change of the same size. Allocations of goroutines the code
// under test starts are left out with them.
func benchmarkOnly(p *profile.Profile) *profile.Profile {
	p = p.Copy()
	p.FilterSamplesByName(benchmarkFrames, nil, nil, nil)
	return p
}

// sampleIndex returns the index of kind's sample type in p.
func sampleIndex(p *profile.Profile, kind Kind) (int, error) {
	want := string(kind)
	if kind == CPU {
		// A CPU profile names its value by what it counts: samples,
		// then cpu in nanoseconds.
		for i, st := range p.SampleType {
			if st.Type == "cpu" && st.Unit == "nanoseconds" {
				return i, nil
			}
		}
		return 0, errors.New("no cpu sample type in nanoseconds: not a CPU profile")
	}
	for i, st := range p.SampleType {
		if st.Type == want {
			return i, nil
		}
	}
	return 0, fmt.Errorf("no %s sample type: not an alloc profile", want)
}

// Samples returns how many samples the profile p of kind holds: the CPU
// profiler's ticks, or the allocations an alloc profile recorded, which
// at -test.memprofilerate=1 are all of them.
func Samples(p *profile.Profile, kind Kind) int64 {
	want := "samples"
	if kind.Memory() {
		want = "alloc_objects"
	}
	var n int64
	for i, st := range p.SampleType {
		if st.Type != want {
			continue
		}
		for _, s := range p.Sample {
			n += s.Value[i]
		}
	}
	return n
}

// tallies are one profile's values per function, per operation.
type tallies struct {
	flat, cum map[string]float64
	total     float64
}

// tally sums p's values at index i per function, divided by ops: flat to
// the innermost frame, cum to every function on the stack once.
func tally(p *profile.Profile, i int, ops float64) tallies {
	t := tallies{flat: map[string]float64{}, cum: map[string]float64{}}
	seen := map[string]bool{}
	for _, s := range p.Sample {
		v := float64(s.Value[i]) / ops
		t.total += v
		clear(seen)
		first := true
		for _, loc := range s.Location {
			// Line[0] is the innermost of the functions inlined at
			// this address.
			for _, ln := range loc.Line {
				name := "?"
				if ln.Function != nil {
					name = ln.Function.Name
				}
				if first {
					t.flat[name] += v
					first = false
				}
				if !seen[name] {
					seen[name] = true
					t.cum[name] += v
				}
			}
			if len(loc.Line) == 0 {
				name := fmt.Sprintf("%#x", loc.Address)
				if first {
					t.flat[name] += v
					first = false
				}
				if !seen[name] {
					seen[name] = true
					t.cum[name] += v
				}
			}
		}
	}
	return t
}

// rank returns the top functions of change by the size of their change,
// leaving out those skip names.
func rank(change, base, head map[string]float64, total float64, top int, skip func(string) bool) []Line {
	var lines []Line
	for fn, d := range change {
		if d == 0 || skip != nil && skip(fn) {
			continue
		}
		share := math.NaN()
		if total != 0 {
			share = d / total
		}
		lines = append(lines, Line{Function: fn, Base: base[fn], Head: head[fn], Change: d, Share: share})
	}
	slices.SortFunc(lines, func(a, b Line) int {
		return cmp.Or(cmp.Compare(math.Abs(b.Change), math.Abs(a.Change)), strings.Compare(a.Function, b.Function))
	})
	return lines[:min(top, len(lines))]
}

// benchFunc matches a benchmark function and the closures in it.
var benchFunc = regexp.MustCompile(`^[^(]*[./]Benchmark[^./]*(\.func\d+(\.\d+)*)*$`)

// Harness reports whether fn is a frame every sample of a benchmark
// passes through, whose cumulative change is the whole change and so
// says nothing: package testing's (testing.(*B).runN, launch), the
// goroutine's start (runtime.goexit, runtime.main), and the benchmark
// function itself with its closures. Cum leaves them out; Flat keeps
// them, since time the benchmark's own body spends is worth naming.
func Harness(fn string) bool {
	switch {
	case strings.HasPrefix(fn, "testing."):
		return true
	case fn == "runtime.goexit" || fn == "runtime.main" || fn == "main.main":
		return true
	}
	return benchFunc.MatchString(fn)
}
