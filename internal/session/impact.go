package session

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/coverage"
	"github.com/gobench-dyn/gobench-dyn/internal/impact"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"github.com/gobench-dyn/gobench-dyn/internal/worktree"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// findImpact decides which benchmarks of the baseline the change from it
// to the code under test can reach, module by module, before anything is
// built for measuring: the others are not prepared, and are reported
// unaffected. It returns the modules with benchmarks left to measure, and
// what discovery is to leave out. When the analysis of a module fails,
// all its benchmarks are measured.
func (r *run) findImpact(ctx context.Context, co *Checkout, tmp string, mods []module) ([]module, *unaffectedSkip) {
	fmt.Fprintf(r.log, "gobench-dyn: impact: finding the benchmarks the change can reach\n")
	skip := &unaffectedSkip{}
	var left []module
	for _, m := range mods {
		where := ""
		if r.opts.AllModules {
			where = " in module " + m.name(r.opts.Dir)
		}
		if r.outsideModule(co, m, where) {
			continue
		}
		rep, err := r.analyze(ctx, co, tmp, m)
		if err != nil {
			fmt.Fprintf(r.log, "gobench-dyn: impact%s: %s; every benchmark is measured\n", where, strings.TrimSpace(err.Error()))
			left = append(left, m)
			continue
		}
		unaffected, leaves := rep.Unaffected(), rep.UnaffectedLeaves()
		for _, b := range unaffected {
			skip.tops = append(skip.tops, record.Bench{Package: b.Package, Benchmark: b.Name})
		}
		for _, l := range leaves {
			skip.leaves = append(skip.leaves, record.Bench{Package: l.Package, Benchmark: l.Name})
		}
		r.logImpact(where, rep)
		if len(rep.Benchmarks) == 0 || len(unaffected) < len(rep.Benchmarks) || len(rep.New) > 0 {
			left = append(left, m)
		}
	}
	return left, skip
}

// logImpact says what the analysis of the module where found.
func (r *run) logImpact(where string, rep *impact.Report) {
	unaffected, leaves := rep.Unaffected(), rep.UnaffectedLeaves()
	cached := ""
	if rep.Cached {
		cached = ", coverage cached"
	}
	leafNote := ""
	if n := len(leaves); n > 0 {
		leafNote = fmt.Sprintf("; of the leaves of those it reaches, %d unaffected", n)
	}
	fmt.Fprintf(r.log, "gobench-dyn: impact%s: %d of %s can reach the change, %d unaffected%s (%s%s)\n", where,
		len(rep.Benchmarks)-len(unaffected), plural(len(rep.Benchmarks), "top-level benchmark"), len(unaffected), leafNote, rep.Took().Round(10e6), cached)
	fmt.Fprintf(r.log, "gobench-dyn: impact%s: %s\n", where, rep.PathSummary())
	if rep.Everything != "" {
		fmt.Fprintf(r.log, "gobench-dyn: impact%s: every benchmark is measured: %s\n", where, rep.Everything)
	}
}

// Impact checks out the baseline of opts, finds which of its benchmarks
// the change can reach, and removes the checkout: what run --baseline
// would measure, without measuring (run --impact list). With
// AllModules, the report holds every module's benchmarks.
func Impact(ctx context.Context, opts Options, outs Outputs, env Env) (*impact.Report, error) {
	r := newRun(&opts, outs, env)
	defer r.cleanup()
	if opts.Baseline != "" && r.env.Checkout == nil {
		if err := worktree.Available(); err != nil {
			return nil, usage.Errorf("baseline", "%w", err)
		}
	}
	mods, err := r.modules()
	if err != nil {
		return nil, err
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
	var reps []*impact.Report
	for _, m := range mods {
		if r.outsideModule(co, m, " in module "+m.name(opts.Dir)) {
			continue
		}
		rep, err := r.analyze(ctx, co, tmp, m)
		if err != nil {
			if !opts.AllModules || ctx.Err() != nil {
				return nil, err
			}
			// As a run does (findImpact): the module is measured whole,
			// and the others are still listed.
			fmt.Fprintf(r.log, "gobench-dyn: impact in module %s: %s; every benchmark is measured\n", m.name(opts.Dir), strings.TrimSpace(err.Error()))
			reps = append(reps, &impact.Report{Unanalysed: []impact.Unanalysed{{Module: m.name(opts.Dir), Why: err.Error()}}})
			continue
		}
		if opts.AllModules {
			// The table merges every module's; the log says which were
			// analysed, as it says which were not.
			r.logImpact(" in module "+m.name(opts.Dir), rep)
		}
		reps = append(reps, rep)
	}
	return impact.Merge(reps...), nil
}

// outsideModule reports, with AllModules, whether the change touches only
// code that module m's build cannot compile, and says so: the module is
// then neither analysed nor measured.
func (r *run) outsideModule(co *Checkout, m module, where string) bool {
	if !r.opts.AllModules || co.Paths == nil || co.HeadRoot == "" {
		return false
	}
	dirs, err := buildDirs(co.HeadRoot, m.dir)
	if err != nil {
		return false
	}
	if r.repoModules == nil {
		all, err := rmit.FindModules(co.HeadRoot)
		if err != nil {
			return false
		}
		for _, d := range all {
			if rel, err := filepath.Rel(co.HeadRoot, d); err == nil {
				r.repoModules = append(r.repoModules, filepath.ToSlash(rel))
			}
		}
	}
	if !outsideBuild(co.Paths, dirs, r.repoModules) {
		return false
	}
	fmt.Fprintf(r.log, "gobench-dyn: impact%s: the change touches no code its build compiles (from %s): not measured\n", where, strings.Join(dirs, ", "))
	return true
}

// analyze runs the impact analysis of the run's packages in module m
// against the baseline checked out in co.
func (r *run) analyze(ctx context.Context, co *Checkout, tmp string, m module) (*impact.Report, error) {
	o := r.opts
	patterns := o.Patterns
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	baseDir, err := m.baseDir(co, o.AllModules)
	if err != nil {
		return nil, err
	}
	tmp = filepath.Join(tmp, "impact"+m.suffix())
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		return nil, err
	}
	return impact.Analyze(ctx, impact.Options{
		HeadDir: cmp.Or(m.dir, "."), BaseDir: baseDir, BaseRev: co.Rev, HeadRoot: co.HeadRoot, BaseRoot: co.Root, Changed: co.Paths,
		Patterns: patterns, Bench: o.Bench, BuildFlags: buildFlags(o, ""), Overlay: o.Overlay, TestArgs: o.TestArgs,
		TempDir: tmp, Coverage: coverage.Runner{Starter: r.env.Starter, Timeout: o.Timeout}, Log: r.log,
	})
}

// An unaffectedSkip is what discovery leaves out of a baseline run: the
// top-level benchmarks the change cannot reach, and the leaves, named
// without the GOMAXPROCS suffix, of those it reaches that it cannot. It
// keeps the leaves it left out as discovery found them, for the records.
type unaffectedSkip struct {
	tops, leaves []record.Bench
	found        []record.Bench // the leaves left out, as discovered
}

// top tells discovery which top-level benchmarks not to prepare.
func (s *unaffectedSkip) top(pkg, top string) bool {
	return slices.Contains(s.tops, record.Bench{Package: pkg, Benchmark: top})
}

// leaf tells discovery which leaves not to measure.
func (s *unaffectedSkip) leaf(b *rmit.Benchmark) bool {
	if !slices.Contains(s.leaves, record.Bench{Package: b.Package.ImportPath, Benchmark: b.Base}) {
		return false
	}
	if !slices.Contains(s.found, b.Bench()) {
		s.found = append(s.found, b.Bench())
	}
	return true
}

// options returns the discovery options that leave out what s names.
func (s *unaffectedSkip) options(d rmit.DiscoverOptions) rmit.DiscoverOptions {
	if s == nil {
		return d
	}
	if len(s.tops) > 0 {
		d.Skip = s.top
	}
	if len(s.leaves) > 0 {
		d.SkipLeaf = s.leaf
	}
	return d
}

// benches returns the benchmarks s left out: the top-level ones, then
// the leaves as discovered.
func (s *unaffectedSkip) benches() []record.Bench {
	if s == nil {
		return nil
	}
	return append(slices.Clone(s.tops), s.found...)
}

// noSuite is the suite of a run whose benchmarks the change reaches none
// of: nothing to build, nothing to measure.
func noSuite(skip *unaffectedSkip) *prepared {
	empty := func() *rmit.Suite { return &rmit.Suite{} }
	return &prepared{suite: empty(), head: empty(), base: empty(), unaffected: skip.benches()}
}
