package impact

import (
	"context"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// A Leaf is one sub-benchmark of a top-level benchmark, as go test prints
// its name without the GOMAXPROCS suffix, and what the change does to it.
type Leaf struct {
	Name     string
	Affected bool
	Why      string
}

// UnaffectedLeaves returns the leaves the change cannot reach of the
// benchmarks it reaches through others of their leaves, each as a
// Benchmark named by the leaf.
func (r *Report) UnaffectedLeaves() []Benchmark {
	var out []Benchmark
	for _, b := range r.Benchmarks {
		if !b.Affected {
			continue
		}
		for _, l := range b.Leaves {
			if !l.Affected {
				out = append(out, Benchmark{Package: b.Package, Name: l.Name, Why: l.Why})
			}
		}
	}
	return out
}

// decideLeaves decides, for each benchmark that executes or can call code
// that differs and has more than one leaf, which of its leaves can: a
// leaf runs in a process of its own, where its siblings' sub-benchmark
// functions never run. A leaf is affected when the code its process can
// run (leafReach) calls a function that differs; otherwise when a run of
// the leaf alone with coverage executes a function that differs or can
// call one. A leaf whose sub-benchmarks the walk cannot follow, or whose
// coverage is unknown, is affected. A benchmark none of whose leaves is
// affected is not either.
func (a *analysis) decideLeaves(ctx context.Context, profiles map[benchKey]*profiled) error {
	grew := false
	for i := range a.rep.Benchmarks {
		b := &a.rep.Benchmarks[i]
		p := profiles[benchKey{b.Package, b.Name}]
		if p == nil || len(p.Leaves) < 2 {
			continue
		}
		b.Leaves = make([]Leaf, len(p.Leaves))
		for j, name := range p.Leaves {
			b.Leaves[j] = Leaf{Name: name, Affected: b.Affected, Why: b.Why}
		}
		if !b.Affected || !b.reach {
			continue
		}
		g := a.program()
		// The walk starts from what runs in every process of the
		// package: the benchmark's own function (its closures run only
		// when called or selected), TestMain and the initialisers.
		var tops []*ssa.Function
		for _, pkg := range []string{b.Package, b.Package + "_test"} {
			for _, name := range []string{b.Name, "TestMain"} {
				for _, fn := range g.funcs[declKey{pkg, name}] {
					if fn.Parent() == nil {
						tops = append(tops, fn)
					}
				}
			}
			tops = append(tops, g.inits[pkg]...)
		}
		any := false
		for j := range b.Leaves {
			l := &b.Leaves[j]
			changed, known := g.leafReach(tops, strings.Split(l.Name, "/")[1:], a.changed)
			switch {
			case !known:
				l.Why = b.Why + "; its sub-benchmark functions are values the analysis cannot follow"
			case changed != "":
				l.Why = "its code can call " + changed + ", which differs"
			default:
				key := benchKey{b.Package, l.Name}
				lp, ok := profiles[key]
				if !ok {
					var err error
					if lp, err = a.profile(ctx, b.Package, l.Name, rmit.LeafPattern(l.Name)); err != nil {
						return err
					}
					if lp != nil {
						profiles[key], grew = lp, true
					}
				}
				if lp == nil {
					l.Why = "its coverage is unknown"
				} else {
					l.Why = a.executesChanged(b.Package, lp.Executed)
				}
				l.Affected = l.Why != ""
			}
			any = any || l.Affected
		}
		if !any {
			b.Affected, b.Why = false, "none of its leaves executes code that differs"
		}
	}
	if grew {
		a.saveCache(profiles)
	}
	return nil
}
