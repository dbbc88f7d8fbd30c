package session

import (
	"fmt"
	"strings"
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
