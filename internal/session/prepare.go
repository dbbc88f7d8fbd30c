package session

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/gitrepo"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"github.com/gobench-dyn/gobench-dyn/internal/worktree"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// prepared is the suite of a run: the code under test and, with a
// baseline, the baseline's benchmarks after it.
type prepared struct {
	suite      *rmit.Suite // both versions together
	head, base *rmit.Suite // base is nil without a baseline
	// unaffected are the benchmarks of a baseline run the change cannot
	// reach, left out by discovery: not measured.
	unaffected []record.Bench
}

// prepare builds, discovers and calibrates the code under test and, with
// a baseline, the baseline checked out under tmp, in each module of the
// run. The baseline's worktree stays until the run's cleanups:
// benchmarks that read files run in it.
func (r *run) prepare(ctx context.Context, tmp string) (*prepared, error) {
	mods, err := r.modules()
	if err != nil {
		return nil, err
	}
	var co *Checkout
	var skip *unaffectedSkip
	if r.opts.Baseline != "" && r.opts.Impact {
		// What the change reaches decides what is built and measured.
		if co, err = r.checkoutBaseline(ctx, tmp); err != nil {
			return nil, err
		}
		if mods, skip = r.findImpact(ctx, co, tmp, mods); len(mods) == 0 {
			return noSuite(skip), nil
		}
	}
	head, err := r.prepareModules(ctx, mods, tmp, record.VersionHead, nil, skip)
	if err != nil {
		return nil, err
	}
	p := &prepared{suite: head, head: head}
	if r.opts.Baseline == "" {
		return p, nil
	}
	if co == nil {
		if co, err = r.checkoutBaseline(ctx, tmp); err != nil {
			return nil, err
		}
	}
	base, err := r.prepareModules(ctx, mods, tmp, record.VersionBaseline, co, skip)
	if err != nil {
		return nil, err
	}
	// A test binary holds the paths of its sources, here those of a
	// temporary worktree that is new in every run: the commit names the
	// baseline's code, so that a resumed run knows it for the same.
	for _, p := range base.Packages {
		p.Hash = "commit " + co.Rev
	}
	reportUnpaired(r.log, r.opts.Baseline, base, head)
	rmit.ShareN(base.Benchmarks, head.Benchmarks)
	p.base = base
	p.suite = joinSuites(head, base)
	// Both versions are discovered: the leaves they left out are known.
	p.unaffected = skip.benches()
	return p, nil
}

// prepareModules prepares one version of the code in each module, the
// baseline's in its checkout co, and joins them in one suite. With
// several modules, one without benchmarks is left out with a note.
func (r *run) prepareModules(ctx context.Context, mods []module, tmp, version string, co *Checkout, skip *unaffectedSkip) (*rmit.Suite, error) {
	var suites []*rmit.Suite
	var failed []*rmit.PrepareFailure
	for _, m := range mods {
		dir := m.dir
		if co != nil {
			var err error
			if dir, err = m.baseDir(co, r.opts.AllModules); err != nil {
				return nil, err
			}
		}
		if r.opts.AllModules && !patternsIn(dir, r.opts.Patterns) {
			fmt.Fprintf(r.log, "gobench-dyn: module %s: no benchmarks match\n", m.name(r.opts.Dir))
			continue
		}
		suite, err := r.prepareVersion(ctx, dir, tmp, version, m.suffix(), skip)
		var load *rmit.LoadError
		var none *nonePrepared
		// Across modules, one that does not load or build leaves the
		// others to measure, and fails as a package that does not build
		// does.
		switch {
		case err == nil:
			suites = append(suites, suite)
		case !r.opts.AllModules:
			return nil, err
		case errors.Is(err, errNoBenchmarks):
			fmt.Fprintf(r.log, "gobench-dyn: module %s: no benchmarks match\n", m.name(r.opts.Dir))
		case errors.As(err, &load):
			f := &rmit.PrepareFailure{Package: "module " + m.name(r.opts.Dir), Version: version, Reason: "its packages could not be loaded", Detail: load.Error()}
			fmt.Fprintf(r.log, "gobench-dyn: FAILED %s\n", f)
			failed = append(failed, f)
		case errors.As(err, &none):
			failed = append(failed, suite.Failures...)
		default:
			return nil, err
		}
	}
	if len(suites) == 0 && len(failed) > 0 {
		return nil, fmt.Errorf("no benchmark could be prepared in any module: %s", failed[0])
	}
	if len(suites) == 0 {
		return nil, usage.Errorf("", "no benchmarks match %q in any module below %s", r.opts.Bench, cmp.Or(r.opts.Dir, "."))
	}
	if len(failed) > 0 {
		suites = append(suites, &rmit.Suite{Failures: failed})
	}
	return joinSuites(suites...), nil
}

// patternsIn reports whether any of patterns can name a package of the
// module in dir: a relative pattern whose directory the module does not
// hold names none there, where go list would fail as for a module that
// does not load. Other patterns, and none (./...), can.
func patternsIn(dir string, patterns []string) bool {
	if len(patterns) == 0 {
		return true
	}
	for _, p := range patterns {
		if !strings.HasPrefix(p, "./") {
			return true
		}
		base, _ := strings.CutSuffix(p, "/...")
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(base))); err == nil {
			return true
		}
	}
	return false
}

// joinSuites returns one suite of all of suites' packages, benchmarks and
// failures, in order; one suite as it is.
func joinSuites(suites ...*rmit.Suite) *rmit.Suite {
	if len(suites) == 1 {
		return suites[0]
	}
	out := &rmit.Suite{}
	for _, s := range suites {
		out.Packages = append(out.Packages, s.Packages...)
		out.Benchmarks = append(out.Benchmarks, s.Benchmarks...)
		out.Failures = append(out.Failures, s.Failures...)
		out.Skipped = append(out.Skipped, s.Skipped...)
		out.Building += s.Building
	}
	return out
}

// errNoBenchmarks is why a version has nothing to measure.
var errNoBenchmarks = errors.New("no benchmarks match")

// A nonePrepared error says that a version has nothing to measure
// because each of its packages or benchmarks failed: the suite returned
// with it holds the failures.
type nonePrepared struct{ msg string }

func (e *nonePrepared) Error() string { return e.msg }

// checkoutBaseline checks out the baseline under tmp until the run's
// cleanups.
func (r *run) checkoutBaseline(ctx context.Context, tmp string) (*Checkout, error) {
	dir := r.opts.Dir
	if dir == "" {
		dir = "."
	}
	co, err := r.checkout(ctx, dir, r.opts.Baseline, tmp)
	if err != nil {
		return nil, usage.Errorf("baseline", "%w", err)
	}
	r.cleanups.Add(func() { _ = co.Remove() })
	r.nameBaseline(co.Rev)
	r.warnDirty(co.Changes)
	return co, nil
}

// prepareVersion prepares one version of the code, resolving packages in
// dir, and gives every benchmark the options' configuration.
func (r *run) prepareVersion(ctx context.Context, dir, tmp, version, suffix string, skip *unaffectedSkip) (*rmit.Suite, error) {
	o := r.opts
	binDir := filepath.Join(tmp, "bin-head"+suffix)
	if version != record.VersionHead {
		binDir = filepath.Join(tmp, "bin-"+version+suffix)
	}
	if err := os.Mkdir(binDir, 0o700); err != nil {
		return nil, err
	}
	flags, sliceTime := buildFlags(o, o.Overlay), o.SliceTime
	hooked := false
	if o.duets() {
		// Both versions' binaries wait for their turns through a hook
		// in package testing, and calibrate b.N for one turn.
		ov, err := r.turnOverlay(ctx, dir, filepath.Join(tmp, "overlay-"+version+suffix), o.Overlay)
		if err != nil {
			return nil, fmt.Errorf("preparing the %s's test binaries to take turns: %w", versionName(version), err)
		}
		flags, sliceTime, hooked = buildFlags(o, ov), o.TurnTime, true
	} else if ov, err := r.turnOverlay(ctx, dir, filepath.Join(tmp, "overlay-"+version+suffix), o.Overlay); err == nil {
		// The same hook runs a family of sub-benchmarks together, each
		// at its own b.N, when one fails alone (rmit.Family); without
		// it, such a family fails as it did before.
		flags, hooked = buildFlags(o, ov), true
	}
	suite, err := r.env.Prepare(ctx, rmit.PrepareOptions{
		Dir: dir, Patterns: o.Patterns, BuildFlags: flags, BinDir: binDir, Version: version, Log: r.log, TestArgs: o.TestArgs,
		Discover:    skip.options(rmit.DiscoverOptions{Bench: o.Bench, CPU: o.CPU, SliceTime: sliceTime, Timeout: o.Timeout, Starter: r.env.Starter, Clock: r.env.Clock}),
		LayoutSeeds: r.layoutSeeds(version), LinkedLayouts: eagerLayouts(o), Hooked: hooked,
		// The warmup cache keys a run of one version by the code its
		// binaries run.
		CodeIDs: o.WarmupCache != "" && o.Baseline == "",
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%w before any benchmark ran", rmit.ErrInterrupted)
		}
		return nil, usage.Wrap(err)
	}
	if len(suite.Benchmarks) == 0 {
		for _, f := range suite.Failures {
			fmt.Fprintf(r.log, "gobench-dyn: FAILED %s\n", f)
		}
		if len(suite.Failures) > 0 && version == record.VersionBaseline {
			return suite, &nonePrepared{fmt.Sprintf("no benchmark of the baseline %s could be prepared: nothing to compare with", o.Baseline)}
		}
		if len(suite.Failures) > 0 {
			return suite, &nonePrepared{"no benchmark could be prepared"}
		}
		where := strings.Join(o.Patterns, " ")
		if where == "" {
			where = "./..."
		}
		return nil, usage.Errorf("", "%w %q in %s", errNoBenchmarks, o.Bench, where)
	}
	for _, b := range suite.Benchmarks {
		b.Config = rmit.Config{SuiteRuns: o.SuiteRuns, Iterations: o.Iterations}
	}
	for _, p := range suite.Packages {
		// An Env's own Prepare may not have set it.
		p.Hooked = hooked
	}
	return suite, nil
}

// checkout checks out rev through the Env, or with package worktree.
func (r *run) checkout(ctx context.Context, dir, rev, parent string) (*Checkout, error) {
	if r.env.Checkout != nil {
		return r.env.Checkout(ctx, dir, rev, parent)
	}
	wt, err := worktree.Add(ctx, dir, rev, parent)
	if err != nil {
		return nil, err
	}
	path, err := wt.Path(dir)
	if err != nil {
		_ = wt.Remove()
		return nil, err
	}
	changes, err := gitrepo.Changes(ctx, dir)
	if err != nil {
		_ = wt.Remove()
		return nil, err
	}
	paths, err := gitrepo.Diff(ctx, dir, wt.Rev)
	if err != nil {
		_ = wt.Remove()
		return nil, err
	}
	return &Checkout{Dir: path, Rev: wt.Rev, Remove: wt.Remove, Changes: changes, Root: wt.Dir, HeadRoot: wt.Repo, Paths: paths}, nil
}

// turnOverlay writes the overlay of the turn hook for the module in dir
// through the Env, or with rmit.TurnOverlay.
func (r *run) turnOverlay(ctx context.Context, dir, outDir, base string) (string, error) {
	if r.env.TurnOverlay != nil {
		return r.env.TurnOverlay(ctx, dir, outDir, base)
	}
	return rmit.TurnOverlay(ctx, dir, outDir, base)
}

// versionName names a version in messages.
func versionName(version string) string {
	if version == record.VersionHead {
		return "code under test"
	}
	return version
}

// buildFlags returns the go test -c flags of o, with overlay as the
// build overlay ("": none).
func buildFlags(o *Options, overlay string) []string {
	var f []string
	if o.Tags != "" {
		f = append(f, "-tags="+o.Tags)
	}
	if o.Race {
		f = append(f, "-race")
	}
	if overlay != "" {
		f = append(f, "-overlay="+overlay)
	}
	return f
}

// reportUnpaired lists the benchmarks present in only one version. A
// benchmark missing from a version because its package or itself failed
// there is not new or gone: the failure says why, once per package.
func reportUnpaired(w io.Writer, rev string, base, head *rmit.Suite) {
	unpaired(w, head, base, "baseline "+rev, "is new: not in the baseline")
	unpaired(w, base, head, "code under test", "is gone: only in the baseline")
}

// unpaired reports the benchmarks of mine that other lacks, other being
// the version named version.
func unpaired(w io.Writer, mine, other *rmit.Suite, version, missing string) {
	have := map[record.Bench]bool{}
	for _, b := range other.Benchmarks {
		have[b.Bench()] = true
	}
	failedPkgs, failedBench := map[string]string{}, map[record.Bench]bool{}
	for _, f := range other.Failures {
		if f.Bench == "" {
			failedPkgs[f.Package] = f.Reason
		} else {
			failedBench[record.Bench{Package: f.Package, Benchmark: f.Bench}] = true
		}
	}
	told := map[string]bool{}
	for _, b := range mine.Benchmarks {
		id := b.Bench()
		switch {
		case have[id]:
		case failedPkgs[id.Package] != "":
			if !told[id.Package] {
				told[id.Package] = true
				fmt.Fprintf(w, "gobench-dyn: %s: %s in the %s; its benchmarks have nothing to compare with\n", id.Package, failedPkgs[id.Package], version)
			}
		case failedBench[id] || failedBench[record.Bench{Package: id.Package, Benchmark: b.Base}]:
			fmt.Fprintf(w, "gobench-dyn: %s failed in the %s: nothing to compare with\n", id, version)
		default:
			fmt.Fprintf(w, "gobench-dyn: %s %s\n", id, missing)
		}
	}
}
