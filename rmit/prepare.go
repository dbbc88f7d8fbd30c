package rmit

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// PrepareOptions configures Prepare.
type PrepareOptions struct {
	Dir        string   // where packages are resolved and built; "" is the current directory
	Patterns   []string // package patterns, as for go test
	BuildFlags []string
	BinDir     string // where test binaries go
	Version    string // record.VersionHead or record.VersionBaseline
	Discover   DiscoverOptions
	// TestArgs are passed to every run of the test binaries, after the
	// harness's own flags, as go test -args passes them (Package.TestArgs).
	TestArgs []string
	// Log receives notes on skipped packages and progress of the build.
	Log io.Writer
	// LayoutSeeds, when set, link each test binary once per seed with
	// the linker's -randlayout (Package.Layouts); the first link is
	// the one benchmarks are discovered and calibrated with. Only the
	// first LinkedLayouts seeds (0: all) are linked while preparing; the
	// others when a process first draws them.
	LayoutSeeds   []uint64
	LinkedLayouts int
	// Hooked says that BuildFlags add the turn hook's overlay
	// (Package.Hooked): discovery's probes then use its hooks too.
	Hooked bool
	// CodeIDs sets each package's CodeID, with one more go list.
	CodeIDs bool
}

// A Suite is the set of calibrated benchmarks a run will measure, and
// what went wrong while preparing it.
type Suite struct {
	Packages   []*Package
	Benchmarks []*Benchmark
	// Building is how long listing the packages and compiling and
	// linking their test binaries took, before any ran: what a go test
	// -bench pass of them spends too before its first benchmark, unlike
	// the calibration and the links of other layouts that follow.
	Building time.Duration
	// Failures are packages that did not build and benchmarks that
	// failed while being discovered: the run goes on without them.
	Failures []*PrepareFailure
	// Skipped are benchmarks selected by name that printed no result
	// when probed, because they skip themselves: they are not run.
	Skipped []*PrepareFailure
}

// A LoadError is why Prepare could not list the packages of its
// patterns: patterns that resolve to nothing, or requirements of the
// module that cannot be loaded (a module version the proxy does not
// serve). Its message is go list's.
type LoadError struct{ Err error }

func (e *LoadError) Error() string { return e.Err.Error() }

// Unwrap returns the error of go list.
func (e *LoadError) Unwrap() error { return e.Err }

// A PrepareFailure is a package or benchmark that could not be prepared.
type PrepareFailure struct {
	Package string
	Bench   string // "" for the whole package
	Version string
	Reason  string
	Detail  string // the compiler's or test binary's own output
}

func (f *PrepareFailure) Error() string {
	name := f.Package
	if f.Bench != "" {
		name += "." + f.Bench
	}
	if f.Version != "" && f.Version != record.VersionHead {
		// The baseline's own failure: said so, or it reads as one of
		// the code under test.
		name += " (" + f.Version + ")"
	}
	if f.Detail == "" {
		return name + ": " + f.Reason
	}
	return name + ": " + f.Reason + "\n" + indent(f.Detail)
}

// Event returns the failure as a raw record event.
func (f *PrepareFailure) Event() *record.Event {
	return &record.Event{Event: record.EventFailure, Package: f.Package, Benchmark: f.Bench, Version: f.Version,
		Reason: f.Reason, Detail: f.Detail, Time: time.Now()}
}

// SkipEvent returns a skipped benchmark as a raw record event.
func (f *PrepareFailure) SkipEvent() *record.Event {
	return &record.Event{Event: record.EventSkip, Package: f.Package, Benchmark: f.Bench, Version: f.Version,
		Reason: f.Reason, Detail: f.Detail, Time: time.Now()}
}

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// Prepare resolves the package patterns, builds each package's test binary
// and discovers and calibrates its benchmarks. A package that fails to
// build or a benchmark that fails while being discovered is reported in
// Suite.Failures, and the others are prepared all the same. The error is
// for failures that leave nothing to run: patterns that do not resolve,
// or a cancelled context; a *LoadError when the packages could not be
// listed.
func Prepare(ctx context.Context, opts PrepareOptions) (*Suite, error) {
	logf := func(format string, args ...any) {
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, format+"\n", args...)
		}
	}
	start := time.Now()
	pkgs, notes, err := List(ctx, opts.Patterns, ListOptions{Dir: opts.Dir, BuildFlags: opts.BuildFlags})
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, &LoadError{Err: err}
	}
	for _, n := range notes {
		logf("gobench-dyn: %s", n)
	}
	for _, p := range pkgs {
		p.Version = opts.Version
		p.TestArgs = opts.TestArgs
		p.Hooked = opts.Hooked
	}
	flags := [][]string{opts.BuildFlags}
	if len(opts.LayoutSeeds) > 0 {
		flags = flags[:0]
		for _, seed := range opts.LayoutSeeds {
			f, err := LayoutFlags(opts.BuildFlags, os.Getenv("GOFLAGS"), seed)
			if err != nil {
				return nil, err
			}
			flags = append(flags, f)
		}
	}
	built, notes, failed := Build(ctx, pkgs, BuildOptions{Dir: opts.Dir, BuildFlags: flags[0], OutDir: opts.BinDir})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	for _, n := range notes {
		logf("gobench-dyn: %s", n)
	}
	s := &Suite{Building: time.Since(start)}
	if opts.CodeIDs {
		// After Building: a go test pass builds, but lists nothing.
		if err := setCodeIDs(ctx, opts.Dir, opts.BuildFlags, built); err != nil {
			// Without it, nothing is keyed by the code: said, not
			// fatal.
			logf("gobench-dyn: warning: %v", err)
		}
	}
	for _, f := range failed {
		s.Failures = append(s.Failures, &PrepareFailure{Package: f.Package.ImportPath, Version: opts.Version, Reason: "build failed", Detail: f.Output})
	}
	for _, p := range built {
		bs, fails, err := Discover(ctx, p, opts.Discover)
		if err != nil {
			return nil, err
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		failed := 0
		for _, f := range fails {
			pf := &PrepareFailure{Package: p.ImportPath, Bench: f.Name, Version: opts.Version, Reason: f.Reason, Detail: f.Detail}
			if f.Skipped {
				logf("gobench-dyn: %s.%s %s; not run", p.ImportPath, f.Name, f.Reason)
				s.Skipped = append(s.Skipped, pf)
				continue
			}
			failed++
			s.Failures = append(s.Failures, pf)
		}
		if len(bs) == 0 && failed == 0 {
			reach := ""
			if opts.Discover.Skip != nil || opts.Discover.SkipLeaf != nil {
				reach = " that the change reaches"
			}
			logf("gobench-dyn: %s: no benchmarks match %q%s, skipped", p.ImportPath, opts.Discover.Bench, reach)
			continue
		}
		s.Packages = append(s.Packages, p)
		s.Benchmarks = append(s.Benchmarks, bs...)
	}
	if len(opts.LayoutSeeds) > 0 && len(s.Packages) > 0 {
		// Only the packages with benchmarks to run are linked again.
		ok, failed := buildLayouts(ctx, s.Packages, opts.Dir, opts.BinDir, opts.LayoutSeeds, flags, opts.LinkedLayouts)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s.dropFailed(failed, opts.Version)
		s.Packages = ok
	}
	return s, nil
}

// dropFailed removes the benchmarks of the packages whose builds failed
// from s, and lists the failures.
func (s *Suite) dropFailed(failed []*BuildError, version string) {
	bad := map[string]bool{}
	for _, f := range failed {
		if !bad[f.Package.ImportPath] {
			s.Failures = append(s.Failures, &PrepareFailure{Package: f.Package.ImportPath, Version: version, Reason: "build failed", Detail: f.Output})
		}
		bad[f.Package.ImportPath] = true
	}
	kept := s.Benchmarks[:0]
	for _, b := range s.Benchmarks {
		if !bad[b.Package.ImportPath] {
			kept = append(kept, b)
		}
	}
	s.Benchmarks = kept
}
