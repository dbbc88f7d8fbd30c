package session

import (
	"fmt"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/worktree"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// workingTree is how a comparison names code under test that is not a
// commit.
const workingTree = "working tree"

// warnDirty warns that the code under test has uncommitted changes, which
// the run measures against the baseline, and names it the working tree in
// the comparison: "HEAD vs HEAD" would hide that the two differ.
func (r *run) warnDirty(changes []string) {
	if len(changes) == 0 {
		return
	}
	r.headName = workingTree
	shown := changes[:min(len(changes), 5)]
	more := ""
	if len(changes) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(changes)-len(shown))
	}
	fmt.Fprintf(r.log, "gobench-dyn: warning: the working tree has uncommitted changes (%s%s): they are measured against --baseline %s; commit or stash them to compare commits\n",
		strings.Join(shown, ", "), more, r.opts.Baseline)
}

// nameBaseline names the baseline checked out at commit rev in the log
// and the comparison. A merge base is named with its commit: which commit
// it is depends on HEAD, and the title of a comparison should say what it
// compared.
func (r *run) nameBaseline(rev string) {
	r.baseRev = rev
	what := ""
	if target, ok := worktree.CutMergeBase(r.opts.Baseline); ok {
		r.baseName = fmt.Sprintf("%s (%.12s)", r.opts.Baseline, rev)
		what = fmt.Sprintf(", the merge base of HEAD and %s,", target)
	}
	fmt.Fprintf(r.log, "gobench-dyn: baseline %s (%.12s)%s checked out in a temporary worktree\n", r.opts.Baseline, rev, what)
}

// describeSuite says how many benchmarks in how many packages a run
// measures: those of the code under test, the baseline's copies named
// apart rather than counted twice.
func describeSuite(bs []*rmit.Benchmark, baseline string) string {
	pkgs := map[string]bool{}
	head, base := 0, 0
	for _, b := range bs {
		if b.Package.Version != record.VersionHead {
			base++
			continue
		}
		head++
		pkgs[b.Package.ImportPath] = true
	}
	s := fmt.Sprintf("%s in %s", plural(head, "benchmark"), plural(len(pkgs), "package"))
	if base > 0 {
		s += fmt.Sprintf(", %d of them also at the baseline %s", base, baseline)
	}
	return s
}
