package session

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"slices"

	"github.com/gobench-dyn/gobench-dyn/internal/coverage"
	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/impact"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"github.com/gobench-dyn/gobench-dyn/internal/worktree"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// findImpact decides which benchmarks of the baseline the change from it
// to the code under test can reach, before anything is built for
// measuring: the others are not prepared, and are reported unaffected.
// It reports whether no benchmark is left to measure. When the analysis
// fails, every benchmark is measured.
func (r *run) findImpact(ctx context.Context, co *Checkout, tmp string) bool {
	fmt.Fprintf(r.log, "gobench-dyn: impact: finding the benchmarks the change can reach\n")
	rep, err := r.analyze(ctx, co, tmp)
	if err != nil {
		fmt.Fprintf(r.log, "gobench-dyn: impact: %v; every benchmark is measured\n", err)
		return false
	}
	r.unaffected, r.unaffectedLeaves = nil, nil
	for _, b := range rep.Unaffected() {
		r.unaffected = append(r.unaffected, record.Bench{Package: b.Package, Benchmark: b.Name})
	}
	for _, l := range rep.UnaffectedLeaves() {
		r.unaffectedLeaves = append(r.unaffectedLeaves, record.Bench{Package: l.Package, Benchmark: l.Name})
	}
	took := rep.Took()
	cached := ""
	if rep.Cached {
		cached = ", coverage cached"
	}
	leaves := ""
	if n := len(r.unaffectedLeaves); n > 0 {
		leaves = fmt.Sprintf("; of the leaves of those it reaches, %d unaffected", n)
	}
	fmt.Fprintf(r.log, "gobench-dyn: impact: %d of %s can reach the change, %d unaffected%s (%s%s)\n",
		len(rep.Benchmarks)-len(r.unaffected), plural(len(rep.Benchmarks), "top-level benchmark"), len(r.unaffected), leaves, took.Round(10e6), cached)
	fmt.Fprintf(r.log, "gobench-dyn: impact: %s\n", rep.PathSummary())
	if rep.Everything != "" {
		fmt.Fprintf(r.log, "gobench-dyn: impact: every benchmark is measured: %s\n", rep.Everything)
	}
	return len(rep.Benchmarks) > 0 && len(r.unaffected) == len(rep.Benchmarks) && len(rep.New) == 0
}

// Impact checks out the baseline of opts, finds which of its benchmarks
// the change can reach, and removes the checkout: what run --baseline
// would measure, without measuring (run --impact list).
func Impact(ctx context.Context, opts Options, outs Outputs, env Env) (*impact.Report, error) {
	r := newRun(&opts, outs, env)
	defer r.cleanup()
	if opts.Baseline != "" && r.env.Checkout == nil {
		if err := worktree.Available(); err != nil {
			return nil, usage.Errorf("Baseline", "%w", err)
		}
	}
	tmp, err := os.MkdirTemp("", "gobench-dyn-impact-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	co, err := r.checkoutBaseline(ctx, tmp)
	if err != nil {
		return nil, err
	}
	defer func() { _ = co.Remove() }()
	return r.analyze(ctx, co, tmp)
}

// analyze runs the impact analysis of the run's packages against the
// baseline checked out in co.
func (r *run) analyze(ctx context.Context, co *Checkout, tmp string) (*impact.Report, error) {
	o := r.opts
	patterns := o.Patterns
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	return impact.Analyze(ctx, impact.Options{
		HeadDir: cmp.Or(o.Dir, "."), BaseDir: co.Dir, BaseRev: co.Rev, HeadRoot: co.HeadRoot, BaseRoot: co.Root, Changed: co.Paths,
		Patterns: patterns, Bench: o.Bench, BuildFlags: buildFlags(o, ""), Overlay: o.Overlay, TestArgs: o.TestArgs,
		TempDir: tmp, Coverage: coverage.Runner{Starter: r.env.Starter, Timeout: o.Timeout}, Log: r.log,
	})
}

// skipUnaffected tells discovery which top-level benchmarks not to
// prepare.
func (r *run) skipUnaffected(pkg, top string) bool {
	return slices.Contains(r.unaffected, record.Bench{Package: pkg, Benchmark: top})
}

// skipUnaffectedLeaf tells discovery which leaves not to measure, and
// keeps their names as discovery found them, for the records.
func (r *run) skipUnaffectedLeaf(b *rmit.Benchmark) bool {
	if !slices.Contains(r.unaffectedLeaves, record.Bench{Package: b.Package.ImportPath, Benchmark: b.Base}) {
		return false
	}
	if !slices.Contains(r.unaffected, b.Bench()) {
		r.unaffected = append(r.unaffected, b.Bench())
	}
	return true
}

// recordUnaffected writes an event for each benchmark not measured, to
// the raw records and to both versions' runs, where the comparison and
// the results files find them.
func (r *run) recordUnaffected(rw *record.Writer, obs *observer) error {
	for _, b := range r.unaffected {
		ev := record.Event{Type: record.TypeEvent, Event: record.EventUnaffected, Package: b.Package, Benchmark: b.Benchmark,
			Reason: gate.UnaffectedNote, Time: r.now()}
		if rw != nil {
			if err := rw.Write(&ev); err != nil {
				return fmt.Errorf("raw records: %w", err)
			}
		}
		obs.head.Events = append(obs.head.Events, ev)
		obs.baseline.Events = append(obs.baseline.Events, ev)
	}
	return nil
}

// noSuite is the suite of a run whose benchmarks the change reaches none
// of: nothing to build, nothing to measure.
func noSuite() *prepared {
	empty := func() *rmit.Suite { return &rmit.Suite{} }
	return &prepared{suite: empty(), head: empty(), base: empty()}
}
