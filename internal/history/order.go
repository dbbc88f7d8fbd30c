package history

import (
	"cmp"
	"slices"
	"time"
)

// A Placement says how the commits of a series were placed where the
// commit graph alone did not decide, so that the output can say so.
type Placement struct {
	// ByTime holds commits of one first-parent position, neither of
	// which the recorded parents put on the line alone: their order
	// among themselves is that of their commit times.
	ByTime []string
	// Unplaced holds commits recorded without their place in the graph
	// (by a version that did not record it), placed by commit time.
	Unplaced []string
	// OffLine holds the commits left out of the series: not on the
	// first-parent line it follows (a side branch's commits).
	OffLine []string
}

// A place is what orders one commit: the fields of its entries.
type place struct {
	hash     string
	time     time.Time
	branch   string
	parents  []string
	position int
	// used marks a commit placed on the line.
	used bool
}

// orderCommits returns the commits of entries in the order of the
// history, as docs/HISTORY.md defines it, and how they were placed.
//
// A series follows the first-parent line of its tip, as
// "git rev-list --first-parent" lists it, oldest first. The tip is the
// commit of greatest first-parent position among those measured on the
// followed branch (see followedBranch). From the tip the line goes to
// the commit's first parent when that was measured, and across commits
// that were not to the measured commits of the next lower position that
// may be on the line: measured on that branch, and not known to be on a
// side branch. Several such commits of one position are all kept,
// ordered by commit time, and reported in Placement.ByTime. Commits the
// line does not reach (a side branch's, which reach the line at their
// merge commit) are left out. Commits recorded without a position go
// among the others by commit time.
func orderCommits(entries []Entry) ([]string, Placement) {
	byHash := map[string]*place{}
	var all []*place
	for i := range entries {
		e := &entries[i]
		if p, ok := byHash[e.Commit]; ok {
			if p.position == 0 && e.Position > 0 {
				p.parents, p.position = e.Parents, e.Position
			}
			continue
		}
		p := &place{hash: e.Commit, time: e.CommitTime, branch: e.Branch, parents: e.Parents, position: e.Position}
		byHash[e.Commit] = p
		all = append(all, p)
	}
	byTime := func(a, b *place) int { return cmp.Or(a.time.Compare(b.time), cmp.Compare(a.hash, b.hash)) }
	var placed, unplaced []*place
	for _, p := range all {
		if p.position > 0 {
			placed = append(placed, p)
		} else {
			unplaced = append(unplaced, p)
		}
	}
	var pl Placement
	line := followLine(placed, byHash, &pl)
	slices.SortFunc(unplaced, byTime)
	for _, u := range unplaced {
		pl.Unplaced = append(pl.Unplaced, u.hash)
	}
	return mergeByTime(line, unplaced), pl
}

// followLine walks the first-parent line back from the tip, as
// orderCommits describes, and returns it oldest first.
func followLine(placed []*place, byHash map[string]*place, pl *Placement) []*place {
	if len(placed) == 0 {
		return nil
	}
	branch := followedBranch(placed, byHash)
	// A commit measured on no branch (a detached head, such as the
	// merge commit a CI system makes of a pull request) or on another
	// is on the line only where a recorded first parent links it, unless
	// no commit names a branch.
	onBranch := func(p *place) bool { return p.branch == branch }
	side := sideCommits(placed, byHash, onBranch)
	// Candidates across a gap, by position from the greatest.
	var cands []*place
	for _, p := range placed {
		if onBranch(p) && !side[p.hash] {
			cands = append(cands, p)
		}
	}
	if len(cands) == 0 {
		// Every commit is on a side branch: there is no line to follow.
		for _, p := range placed {
			pl.OffLine = append(pl.OffLine, p.hash)
		}
		slices.Sort(pl.OffLine)
		return nil
	}
	slices.SortFunc(cands, func(a, b *place) int {
		return cmp.Or(cmp.Compare(b.position, a.position), b.time.Compare(a.time), cmp.Compare(b.hash, a.hash))
	})
	var back []*place // the line, newest first
	next := 0         // the first candidate not yet passed
	// gap returns the unused candidates of the greatest position below
	// pos, latest commit time first.
	gap := func(pos int) []*place {
		for next < len(cands) && (cands[next].position >= pos || cands[next].used) {
			next++
		}
		if next == len(cands) {
			return nil
		}
		var out []*place
		for i := next; i < len(cands) && cands[i].position == cands[next].position; i++ {
			if !cands[i].used {
				out = append(out, cands[i])
			}
		}
		return out
	}
	take := func(ps []*place) *place {
		for _, p := range ps {
			p.used = true
			back = append(back, p)
		}
		if len(ps) > 1 {
			for i := len(ps) - 1; i >= 0; i-- {
				pl.ByTime = append(pl.ByTime, ps[i].hash)
			}
		}
		// The walk goes on from the last placed on the line.
		return ps[len(ps)-1]
	}
	for cur := take(gap(cands[0].position + 1)); ; {
		// A recorded first parent is proof of the line, whatever
		// branch it was measured on; a position that does not follow
		// from it (a hand-edited history) is a gap.
		if len(cur.parents) > 0 {
			if fp, ok := byHash[cur.parents[0]]; ok && fp.position == cur.position-1 && !fp.used {
				cur = take([]*place{fp})
				continue
			}
		}
		ps := gap(cur.position)
		if len(ps) == 0 {
			break
		}
		cur = take(ps)
	}
	slices.Reverse(back)
	for _, p := range placed {
		if !p.used {
			pl.OffLine = append(pl.OffLine, p.hash)
		}
	}
	slices.Sort(pl.OffLine)
	return back
}

// followedBranch returns the branch the line follows: of the branches
// commits were measured on, the one most were measured on, leaving out
// a branch merged into another (a commit measured on it is a later
// parent of a merge measured on the other) unless every branch is; ""
// when no commit names a branch.
func followedBranch(placed []*place, byHash map[string]*place) string {
	n := map[string]int{}
	merged := map[string]bool{}
	for _, p := range placed {
		if p.branch == "" {
			continue
		}
		n[p.branch]++
		for _, h := range p.parents[min(1, len(p.parents)):] {
			if q, ok := byHash[h]; ok && q.branch != "" && q.branch != p.branch {
				merged[q.branch] = true
			}
		}
	}
	best := ""
	for _, onlyUnmerged := range []bool{true, false} {
		for b, c := range n {
			if onlyUnmerged && merged[b] {
				continue
			}
			if best == "" || c > n[best] || c == n[best] && b < best {
				best = b
			}
		}
		if best != "" {
			break
		}
	}
	return best
}

// sideCommits returns the commits known to be on a side branch: a later
// parent of a merge measured on the followed branch (or none), and the
// commits before it on its branch as far as recorded first parents link
// them, up to a fork: a commit that is the first parent of two measured
// commits, or one measured on another branch than the merged one.
func sideCommits(placed []*place, byHash map[string]*place, onBranch func(*place) bool) map[string]bool {
	children := map[string]int{}
	for _, p := range placed {
		if len(p.parents) > 0 {
			children[p.parents[0]]++
		}
	}
	side := map[string]bool{}
	for _, m := range placed {
		if !onBranch(m) {
			continue
		}
		for _, h := range m.parents[min(1, len(m.parents)):] {
			start, ok := byHash[h]
			for p := start; ok && !side[p.hash] && p.branch == start.branch && (p == start || children[p.hash] < 2); {
				side[p.hash] = true
				if len(p.parents) == 0 {
					break
				}
				p, ok = byHash[p.parents[0]]
			}
		}
	}
	return side
}

// mergeByTime places the unplaced commits, in time order, among those of
// the line: each before the first commit of the line from where the
// last went that is later than it.
func mergeByTime(line, unplaced []*place) []string {
	out := make([]string, 0, len(line)+len(unplaced))
	j := 0
	for _, l := range line {
		for ; j < len(unplaced) && unplaced[j].time.Before(l.time); j++ {
			out = append(out, unplaced[j].hash)
		}
		out = append(out, l.hash)
	}
	for ; j < len(unplaced); j++ {
		out = append(out, unplaced[j].hash)
	}
	return out
}
