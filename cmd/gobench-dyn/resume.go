package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/record"
	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// readResume reads the raw file that --resume names and checks that it
// can be continued with the flags given: it must be an unfinished run with
// the same options and, if --seed is given, the same seed. It sets the
// seed from the file. It returns nil without --resume.
func (o *runOptions) readResume() (*record.Run, error) {
	if o.Resume == "" {
		return nil, nil
	}
	run, warns, err := record.ReadFile(o.Resume)
	if err != nil {
		return nil, usageErr("--resume: %v", err)
	}
	for _, w := range warns {
		fmt.Fprintf(o.Stderr, "gobench-dyn: --resume: %s\n", w)
	}
	h := run.Header
	switch {
	case run.Complete:
		return nil, usageErr("--resume %s: the run is complete; there is nothing to resume", o.Resume)
	case len(h.Sources) > 0:
		return nil, usageErr("--resume %s: a merged file cannot be resumed; resume the run that wrote each part", o.Resume)
	case o.seedSet && o.Seed != h.Seed:
		return nil, usageErr("--seed %d: the run to resume used seed %d; leave --seed out", o.Seed, h.Seed)
	case h.Instance != o.Shard.Instance:
		return nil, usageErr("--resume %s: the run was instance %q, not %q (--instance)", o.Resume, h.Instance, o.Shard.Instance)
	case h.Shard != o.Shard.Shard.String() && !(h.Shard == "" && o.Shard.Shard.IsZero()):
		return nil, usageErr("--resume %s: the run was shard %q, not %q (--shard)", o.Resume, h.Shard, o.Shard.Shard)
	}
	if diff := diffMaps(h.Options, o.headerOptions()); len(diff) > 0 {
		return nil, usageErr("--resume %s: the flags differ from the interrupted run's: %s", o.Resume, strings.Join(diff, "; "))
	}
	o.Seed = h.Seed
	return run, nil
}

// checkResumeCode refuses to resume when the test binaries differ from
// the interrupted run's: the code under test changed.
func checkResumeCode(path string, past, now *record.Header) error {
	if diff := diffMaps(past.Binaries, now.Binaries); len(diff) > 0 {
		return usageErr("--resume %s: the code under test changed since the interrupted run (test binary hashes): %s", path, strings.Join(diff, "; "))
	}
	return nil
}

// diffMaps describes the keys whose values differ between was and now.
func diffMaps(was, now map[string]string) []string {
	var diff []string
	for _, k := range sortedKeys(was) {
		if v, ok := now[k]; !ok {
			diff = append(diff, fmt.Sprintf("%s was %q, now absent", k, was[k]))
		} else if v != was[k] {
			diff = append(diff, fmt.Sprintf("%s was %q, now %q", k, was[k], v))
		}
	}
	for _, k := range sortedKeys(now) {
		if _, ok := was[k]; !ok {
			diff = append(diff, fmt.Sprintf("%s was absent, now %q", k, now[k]))
		}
	}
	return diff
}

// recordedPrepareEvents returns the failure and skip events a run wrote
// before its first iteration, so that a resumed run does not write them
// twice.
func recordedPrepareEvents(run *record.Run) map[string]bool {
	m := map[string]bool{}
	for _, e := range run.Events {
		if e.SuiteRun == 0 && (e.Event == record.EventFailure || e.Event == record.EventSkip) {
			m[prepareEventKey(&e)] = true
		}
	}
	return m
}

func prepareEventKey(e *record.Event) string {
	return strings.Join([]string{e.Event, e.Version, e.Package, e.Benchmark, e.Reason}, "\x00")
}

// writePrepareEvents writes the failures and skips met while preparing
// suite, leaving out those already recorded.
func writePrepareEvents(rw *record.Writer, suite *rmit.Suite, recorded map[string]bool) {
	var evs []*record.Event
	for _, f := range suite.Failures {
		evs = append(evs, f.Event())
	}
	for _, f := range suite.Skipped {
		evs = append(evs, f.SkipEvent())
	}
	for _, e := range evs {
		if !recorded[prepareEventKey(e)] {
			_ = rw.Write(e)
		}
	}
}

// appendRaw opens the raw file of an interrupted run to append to it,
// locked as createRaw locks. A last record cut short by a crash is cut
// off, so that the records appended start on a line of their own.
func appendRaw(path string) (*rawFile, error) {
	f, err := openLocked(path, os.O_RDWR)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(f)
	if err == nil {
		if end := int64(bytes.LastIndexByte(data, '\n') + 1); end < int64(len(data)) {
			err = f.Truncate(end)
		}
	}
	if err == nil {
		_, err = f.Seek(0, io.SeekEnd)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &rawFile{File: f}, nil
}
