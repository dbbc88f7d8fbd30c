package session

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// readResume reads the raw file of the run to resume and checks that it
// can be continued with these options: it must be an unfinished run with
// the same options and, if a seed is given, the same seed. A run of one
// version recorded on one link goes on there (o.Layouts is set to 0). It
// returns nil when there is nothing to resume.
func readResume(o *Options, log io.Writer) (*record.Run, error) {
	if o.Resume == "" {
		return nil, nil
	}
	run, warns, err := record.ReadFile(o.Resume)
	if err != nil {
		return nil, usage.Errorf("resume", "%w", err)
	}
	for _, w := range warns {
		fmt.Fprintf(log, "gobench-dyn: %s\n", w)
	}
	h := run.Header
	if h.Edited() {
		return nil, usage.ValueErrorf("resume", o.Resume, "the header was edited since the run wrote it (its seal does not match its seed, options or machine): a resumed run would not continue that run")
	}
	switch {
	case run.Complete:
		return nil, usage.ValueErrorf("resume", o.Resume, "the run is complete; there is nothing to resume")
	case len(h.Sources) > 0:
		return nil, usage.ValueErrorf("resume", o.Resume, "a merged file cannot be resumed; resume the run that wrote each part")
	case o.SeedSet && o.Seed != h.Seed:
		return nil, usage.ValueErrorf("seed", o.Seed, "the run to resume used seed %d; leave the seed out", h.Seed)
	case h.Instance != o.Instance:
		return nil, usage.ValueErrorf("resume", o.Resume, "the run was instance %q, not %q", h.Instance, o.Instance)
	case h.Shard != o.Shard.String() && !(h.Shard == "" && o.Shard.IsZero()):
		return nil, usage.ValueErrorf("resume", o.Resume, "the run was shard %q, not %q", h.Shard, o.Shard)
	}
	if o.Baseline == "" && len(h.Layouts) == 0 {
		// A run of one version on one link, as --layout fixed and the
		// runs before links were drawn for one version: the rest of its
		// processes run there too.
		o.Layouts = 0
	}
	// The plan is derived, and left out of the comparison.
	if diff := diffMaps(chosen(h.Options), chosen(headerOptions(o, gate.Plan{}))); len(diff) > 0 {
		return nil, usage.ValueErrorf("resume", o.Resume, "the flags differ from the interrupted run's: %s", strings.Join(diff, "; "))
	}
	now := newHeader(o, gate.Plan{}, nil, time.Time{})
	if diff := machineDiff(h, now); len(diff) > 0 {
		if !o.Force {
			return nil, usage.ValueErrorf("resume", o.Resume, "%w (%s): its results would mix two machines", ErrOtherMachine, strings.Join(diff, "; "))
		}
		fmt.Fprintf(log, "gobench-dyn: warning: %s: %v (%s); resuming as forced\n", o.Resume, ErrOtherMachine, strings.Join(diff, "; "))
	} else if h.Host != "" && h.Host != now.Host {
		fmt.Fprintf(log, "gobench-dyn: %s: the run was recorded on host %s, alike this one\n", o.Resume, h.Host)
	}
	return run, nil
}

// ErrOtherMachine is why a run is not resumed unless forced: it was
// recorded on another machine.
var ErrOtherMachine = errors.New("the run was recorded on another machine")

// derivedOptions are the header options a run derives from the others,
// such as the looks of a sequential comparison, how they spend its level
// and whether they are confirmed, which it plans once it knows its
// benchmarks: a resumed run compares what the user chose, before they
// are derived.
var derivedOptions = map[string]bool{"looks": true, "spending": true, "confirm": true}

// chosen returns the options of m the user chose.
func chosen(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		if !derivedOptions[k] {
			out[k] = v
		}
	}
	return out
}

// machineDiff describes how the machine of header was differs from that
// of now: the platform, the CPU model and the number of CPUs, which shape
// every measurement and the names of the benchmarks (their GOMAXPROCS
// suffix).
func machineDiff(was, now *record.Header) []string {
	var diff []string
	if was.GOOS+"/"+was.GOARCH != now.GOOS+"/"+now.GOARCH {
		diff = append(diff, fmt.Sprintf("%s/%s, this one %s/%s", was.GOOS, was.GOARCH, now.GOOS, now.GOARCH))
	}
	if was.CPU != now.CPU {
		diff = append(diff, fmt.Sprintf("cpu %q, this one %q", was.CPU, now.CPU))
	}
	if was.NumCPU != 0 && was.NumCPU != now.NumCPU {
		diff = append(diff, fmt.Sprintf("%d CPUs, this one %d", was.NumCPU, now.NumCPU))
	}
	return diff
}

// checkResumeCode refuses to resume when the test binaries differ from
// the interrupted run's: the code under test changed.
func checkResumeCode(path string, past, now *record.Header) error {
	if diff := diffMaps(past.Binaries, now.Binaries); len(diff) > 0 {
		return usage.ValueErrorf("resume", path, "the code under test changed since the interrupted run (test binary hashes): %s", strings.Join(diff, "; "))
	}
	return nil
}

// diffMaps describes the keys whose values differ between was and now.
func diffMaps(was, now map[string]string) []string {
	var diff []string
	for _, k := range slices.Sorted(maps.Keys(was)) {
		if v, ok := now[k]; !ok {
			diff = append(diff, fmt.Sprintf("%s was %q, now absent", k, was[k]))
		} else if v != was[k] {
			diff = append(diff, fmt.Sprintf("%s was %q, now %q", k, was[k], v))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(now)) {
		if _, ok := was[k]; !ok {
			diff = append(diff, fmt.Sprintf("%s was absent, now %q", k, now[k]))
		}
	}
	return diff
}
