package apiscore

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/tools/cover"

	"github.com/gobench-dyn/gobench-dyn/internal/coverage"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// pairOf returns the copy of b, a benchmark of the unchanged suite, that
// a candidate's paired run measures, and its slowed partner in package
// head. The copy leaves the suite's benchmark, its b.N and its family, to
// the spread runs and to the other candidates.
func (e *evaluation) pairOf(b *rmit.Benchmark, head *rmit.Package) (base, slowed *rmit.Benchmark) {
	c := *b
	if e.opts.Turns != nil {
		// b.N, calibrated for a slice, is scaled to one turn.
		c.N = max(1, int64(float64(b.N)*float64(e.opts.TurnTime)/float64(e.opts.SliceTime)))
	}
	procs, setCPU := b.Procs, b.Procs > 0
	if !setCPU {
		procs = runtime.GOMAXPROCS(0)
	}
	h := rmit.NewBenchmark(head, b.Name, procs, setCPU)
	h.N, h.Config = c.N, c.Config
	return &c, h
}

// A pairedFamily is a family of the unchanged suite and its two copies
// in one candidate's paired run, one per version.
type pairedFamily struct {
	suite, base, head *rmit.Family
}

// pairFamilies gives the benchmarks of a candidate's paired run, base
// (copies of the suite's benchmarks suite, in the same order) and their
// slowed partners head, families like the suite's. A process of such a
// family runs every member, those that do not reach the candidate
// included, each at the b.N of its paired run, and records the members in
// the run. The unchanged and the slowed code's families are measured
// together or alone alike (the runner marks both when one member fails
// alone), and start together when an earlier run found the suite's
// family to be, so that each comparison is like for like.
func (e *evaluation) pairFamilies(suite, base, head []*rmit.Benchmark, heads map[string]*rmit.Package) []pairedFamily {
	at := map[*rmit.Benchmark]int{}
	for i, b := range suite {
		at[b] = i
	}
	var out []pairedFamily
	seen := map[*rmit.Family]bool{}
	for _, b := range suite {
		f := b.Family
		if f == nil || len(f.Members) < 2 || seen[f] {
			continue
		}
		seen[f] = true
		bf := &rmit.Family{Top: f.Top, Pattern: f.Pattern, Procs: f.Procs, Together: f.Together, Why: f.Why}
		hf := &rmit.Family{Top: f.Top, Pattern: f.Pattern, Procs: f.Procs, Together: f.Together, Why: f.Why}
		for _, m := range f.Members {
			var bm, hm *rmit.Benchmark
			if i, ok := at[m]; ok {
				bm, hm = base[i], head[i]
			} else {
				bm, hm = e.pairOf(m, heads[m.Package.ImportPath])
			}
			bm.Family, hm.Family = bf, hf
			bf.Members, hf.Members = append(bf.Members, bm), append(hf.Members, hm)
		}
		out = append(out, pairedFamily{suite: f, base: bf, head: hf})
	}
	return out
}

// learnTogether marks the suite's families that a paired run measured
// together, so that later candidates start with them together and do not
// pay again for the iteration that fails alone.
func (e *evaluation) learnTogether(fams []pairedFamily) {
	for _, pf := range fams {
		if pf.suite.Together {
			continue
		}
		for _, f := range []*rmit.Family{pf.base, pf.head} {
			if f.Together {
				pf.suite.Together, pf.suite.Why = true, f.Why
				break
			}
		}
	}
	e.tellTogether()
}

// tellTogether says once per family of the suite that it is measured
// with its siblings, and why.
func (e *evaluation) tellTogether() {
	if e.told == nil {
		e.told = map[*rmit.Family]bool{}
	}
	for _, b := range e.suite.Benchmarks {
		if f := b.Family; f != nil && f.Together && !e.told[f] {
			e.told[f] = true
			e.logf("gobench-dyn: abs: %s.%s: %d benchmarks %s (%s)", b.Package.ImportPath, f.Top, len(f.Members), rmit.FamilyNote, f.Why)
		}
	}
}

// withSiblings returns what b, a member of a family, exercises when it
// runs with its siblings, as go test runs it, if alone it failed
// (aloneErr) or exercised nothing (alone): a leaf whose parent checks what
// its siblings computed fails alone, and one that needs a sibling's input
// may skip itself. A leaf that fails alone and passes with its family is
// measured together with it from then on, as is one that exercises
// something only there. When b has no family, the test binary no hook to
// run one, or the family fails too, what b did alone stands.
func (e *evaluation) withSiblings(ctx context.Context, p *rmit.Package, b *rmit.Benchmark, n int, alone map[int]Exercise, aloneErr error) (map[int]Exercise, error) {
	f := b.Family
	if f == nil || len(f.Members) < 2 || e.turnHook == nil {
		return alone, aloneErr
	}
	profs, err := e.familyProfiles(ctx, p, b, n)
	if errors.Is(err, rmit.ErrInterrupted) {
		return nil, err
	}
	if err != nil {
		return alone, aloneErr
	}
	together := Exercised(e.cands, profs[1], profs[0])
	if aloneErr == nil && len(together) == 0 {
		// It reaches none of the candidates, alone or not.
		return alone, nil
	}
	if !f.Together {
		// A leaf that skips itself alone prints nothing, which coverage
		// cannot tell from running what reaches no candidate.
		f.Together, f.Why = true, b.Name+" reaches no candidate alone"
		if aloneErr != nil {
			f.Why = fmt.Sprintf("its parent checks what they compute: %s failed alone: %s", b.Name, failureLine(aloneErr.Error()))
		}
	}
	return together, nil
}

// failureLine returns the line of a test binary's output that says why
// it failed, "x_test.go:35: mismatch", or else its first line.
func failureLine(out string) string {
	for line := range strings.Lines(out) {
		if l := strings.TrimSpace(line); strings.Contains(l, ".go:") {
			return l
		}
	}
	return render.FirstLine(out)
}

// familyProfiles returns the coverage profiles of b, a member of a
// family, run as go test runs it: with its family in one process, every
// sibling at b.N = 1 in both runs and b at 2x and then 3x, so that, as
// alone, the difference of the two profiles is one op of b.
func (e *evaluation) familyProfiles(ctx context.Context, p *rmit.Package, b *rmit.Benchmark, n int) ([2][]*cover.Profile, error) {
	f := b.Family
	var profs [2][]*cover.Profile
	for k, times := range []int64{2, 3} {
		ns := make([]*rmit.Benchmark, len(f.Members))
		for i, m := range f.Members {
			c := *m
			c.N = 1
			if m == b {
				c.N = times
			}
			ns[i] = &c
		}
		args := []string{"-test.bench=" + f.Pattern, "-test.benchtime=1x"}
		if f.Procs > 0 {
			args = append(args, "-test.cpu="+strconv.Itoa(f.Procs))
		}
		out := filepath.Join(e.dir("profiles"), fmt.Sprintf("%d-family-%dx.out", n, times))
		run := coverage.Runner{Starter: e.opts.Starter, Timeout: e.opts.Timeout, Env: []string{rmit.FixedNEnv + "=" + rmit.FixedNValue(ns)}}
		var err error
		if profs[k], err = run.Profile(ctx, p, out, args...); err != nil {
			return profs, err
		}
	}
	return profs, nil
}
