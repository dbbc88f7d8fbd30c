package history

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/internal/worktree"
)

// A GateMeasurer measures change points again as run --baseline does:
// the commit after is checked out in a temporary worktree as the code
// under test, and the run checks out the commit before as its baseline
// in another, interleaving the two.
type GateMeasurer struct {
	// Dir is a directory of the repository; package paths resolve in
	// the matching directory of each checkout.
	Dir string
	// Run holds the options of each run (slice time, caps, stoppage);
	// Dir, Patterns, Bench, Baseline and the threshold are set per
	// change point.
	Run session.Options
	Env session.Env
	Log io.Writer
}

// Measure runs the benchmarks of keys at after against before.
func (g *GateMeasurer) Measure(ctx context.Context, before, after string, keys []Key, threshold float64) (*gate.Result, error) {
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
	opts.Dir, opts.Baseline, opts.Bench = dir, before, BenchPattern(keys)
	opts.Patterns = nil
	for _, k := range keys {
		if k.Package != "" && !slices.Contains(opts.Patterns, k.Package) {
			opts.Patterns = append(opts.Patterns, k.Package)
		}
	}
	opts.Compare.Threshold = threshold
	opts.Raw, opts.Resume = "", ""
	log := g.Log
	if log == nil {
		log = io.Discard
	}
	fmt.Fprintf(log, "gobench-dyn: confirming %d benchmarks: %s against %s\n", len(keys), short(after), short(before))
	res, err := session.Run(ctx, opts, session.Outputs{Log: log}, g.Env)
	if err != nil {
		return nil, err
	}
	if res.Interrupted() {
		return nil, context.Canceled
	}
	return res.Comparison, nil
}
