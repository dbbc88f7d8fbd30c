package session

import (
	"fmt"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/record"
)

// readResume reads the raw file of the run to resume and checks that it
// can be continued with these options: it must be an unfinished run with
// the same options and, if a seed is given, the same seed. It returns nil
// when there is nothing to resume.
func readResume(o *Options, log io.Writer) (*record.Run, error) {
	if o.Resume == "" {
		return nil, nil
	}
	run, warns, err := record.ReadFile(o.Resume)
	if err != nil {
		return nil, usage.Errorf("Resume", "%w", err)
	}
	for _, w := range warns {
		fmt.Fprintf(log, "gobench-dyn: %s: %s\n", o.Resume, w)
	}
	h := run.Header
	switch {
	case run.Complete:
		return nil, usage.ValueErrorf("Resume", o.Resume, "the run is complete; there is nothing to resume")
	case len(h.Sources) > 0:
		return nil, usage.ValueErrorf("Resume", o.Resume, "a merged file cannot be resumed; resume the run that wrote each part")
	case o.SeedSet && o.Seed != h.Seed:
		return nil, usage.ValueErrorf("Seed", o.Seed, "the run to resume used seed %d; leave the seed out", h.Seed)
	case h.Instance != o.Instance:
		return nil, usage.ValueErrorf("Resume", o.Resume, "the run was instance %q, not %q", h.Instance, o.Instance)
	case h.Shard != o.Shard.String() && !(h.Shard == "" && o.Shard.IsZero()):
		return nil, usage.ValueErrorf("Resume", o.Resume, "the run was shard %q, not %q", h.Shard, o.Shard)
	}
	if diff := diffMaps(h.Options, headerOptions(o)); len(diff) > 0 {
		return nil, usage.ValueErrorf("Resume", o.Resume, "the flags differ from the interrupted run's: %s", strings.Join(diff, "; "))
	}
	return run, nil
}

// checkResumeCode refuses to resume when the test binaries differ from
// the interrupted run's: the code under test changed.
func checkResumeCode(path string, past, now *record.Header) error {
	if diff := diffMaps(past.Binaries, now.Binaries); len(diff) > 0 {
		return usage.ValueErrorf("Resume", path, "the code under test changed since the interrupted run (test binary hashes): %s", strings.Join(diff, "; "))
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
