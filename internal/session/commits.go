package session

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/worktree"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// A CommitMeasurer measures benchmarks at one commit against another as
// run --baseline does: the later commit is checked out in a temporary
// worktree as the code under test, and the run checks out the earlier one
// as its baseline in another, interleaving the two. history's
// confirmation of change points asks for such measurements.
type CommitMeasurer struct {
	// Dir is a directory of the repository; package paths resolve in
	// the matching directory of each checkout.
	Dir string
	// Run holds the options of each run (slice time, caps, stoppage);
	// Dir, Patterns, Bench, Baseline and the threshold are set per
	// measurement.
	Run Options
	Env Env
	Log io.Writer
}

// Measure runs benches at commit after against commit before, with the
// gate's threshold, and returns the gate's comparison.
func (g *CommitMeasurer) Measure(ctx context.Context, before, after string, benches []record.Bench, threshold float64) (*gate.Result, error) {
	tmp, err := os.MkdirTemp("", "gobench-dyn-confirm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	wt, err := worktree.Add(ctx, g.Dir, after, tmp)
	if err != nil {
		return nil, err
	}
	defer wt.Remove()
	dir, err := wt.Path(g.Dir)
	if err != nil {
		return nil, err
	}
	opts := g.Run
	opts.Dir, opts.Baseline, opts.Bench = dir, before, BenchPattern(benches)
	opts.Patterns = nil
	for _, b := range benches {
		if b.Package != "" && !slices.Contains(opts.Patterns, b.Package) {
			opts.Patterns = append(opts.Patterns, b.Package)
		}
	}
	opts.Compare.Threshold = threshold
	opts.Raw, opts.Resume = "", ""
	log := g.Log
	if log == nil {
		log = io.Discard
	}
	fmt.Fprintf(log, "gobench-dyn: confirming %d benchmarks: %s against %s\n", len(benches), shortCommit(after), shortCommit(before))
	res, err := Run(ctx, opts, Outputs{Log: log}, g.Env)
	if err != nil {
		return nil, err
	}
	if res.Interrupted() {
		return nil, context.Canceled
	}
	return res.Comparison, nil
}

// shortCommit returns the first 12 characters of a commit hash.
func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

var procsSuffix = regexp.MustCompile(`-[0-9]+$`)

// BenchPattern returns a go test -bench pattern that selects benches (and
// possibly a few more: each level is an alternation of the levels of all
// of them). Names are matched both as recorded and without a GOMAXPROCS
// suffix, which go test prints but does not match.
func BenchPattern(benches []record.Bench) string {
	var levels [][]string
	for _, b := range benches {
		parts := strings.Split(b.Benchmark, "/")
		for i, p := range parts {
			if i >= len(levels) {
				levels = append(levels, nil)
			}
			alts := []string{p}
			if i == len(parts)-1 {
				if s := procsSuffix.ReplaceAllString(p, ""); s != p && s != "" {
					alts = append(alts, s)
				}
			}
			for _, a := range alts {
				q := regexp.QuoteMeta(a)
				if !slices.Contains(levels[i], q) {
					levels[i] = append(levels[i], q)
				}
			}
		}
	}
	out := make([]string, len(levels))
	for i, l := range levels {
		slices.Sort(l)
		out[i] = "^(" + strings.Join(l, "|") + ")$"
	}
	return strings.Join(out, "/")
}
