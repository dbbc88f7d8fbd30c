package packagerules

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"
)

// features stand side by side on the engine (CONTRIBUTING.md, "How it is
// built"): abs, history, replay, report and steady. run and its gate are
// the engine's own command. None may depend on another, even through a
// third package; what one needs from another goes through a type or an
// interface below both, wired in cmd.
var features = []string{
	"internal/apiscore",
	"internal/history",
	"internal/replay",
	"internal/report",
	"internal/steady",
}

// engine runs the benchmarks every feature measures with, and writes what
// a run measured for a reader; it depends on no feature.
var engine = []string{"internal/session", "internal/runreport", "rmit"}

// running are the packages that start processes or check out code:
// report, which only reads files, depends on none of them.
var running = []string{"rmit", "internal/session", "internal/worktree", "internal/gitrepo", "internal/coverage", "internal/impact", "os/exec"}

func TestFeaturesSideBySide(t *testing.T) {
	watchModule(t)
	deps := loadDeps(t, append(slices.Clone(features), engine...)...)
	for _, f := range features {
		for _, other := range features {
			if other != f && deps[f][other] {
				t.Errorf("%s depends on the feature %s", f, other)
			}
		}
	}
	for _, e := range engine {
		for _, f := range features {
			if deps[e][f] {
				t.Errorf("the engine %s depends on the feature %s", e, f)
			}
		}
	}
	for _, r := range running {
		if deps["internal/report"][r] {
			t.Errorf("internal/report depends on %s, which runs processes", r)
		}
	}
}

// loadDeps returns, per package (a path in this module), every package it
// depends on, directly or not: paths in this module relative to it,
// standard packages as they are.
func loadDeps(t *testing.T, pkgs ...string) map[string]map[string]bool {
	t.Helper()
	var patterns []string
	for _, p := range pkgs {
		patterns = append(patterns, module+"/"+p)
	}
	loaded, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps}, patterns...)
	require.NoError(t, err)
	require.Len(t, loaded, len(pkgs))
	out := map[string]map[string]bool{}
	for _, p := range loaded {
		for _, e := range p.Errors {
			t.Errorf("%s: %v", p.PkgPath, e)
		}
		seen := map[string]bool{}
		var walk func(*packages.Package)
		walk = func(p *packages.Package) {
			for _, d := range p.Imports {
				path := relative(d.PkgPath)
				if !seen[path] {
					seen[path] = true
					walk(d)
				}
			}
		}
		walk(p)
		out[relative(p.PkgPath)] = seen
	}
	return out
}

func relative(path string) string {
	if rest, ok := strings.CutPrefix(path, module+"/"); ok {
		return rest
	}
	return path
}
