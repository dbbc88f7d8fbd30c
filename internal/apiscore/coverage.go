package apiscore

import (
	"io"
	"path"
	"path/filepath"

	"golang.org/x/tools/cover"
)

// Exercise is how much one benchmark run exercises one function, from a
// count-mode coverage profile.
type Exercise struct {
	Statements int   // statements of the function run at least once
	Hits       int64 // statement executions: each block's count × its statements
}

// Reaches reports whether the function ran at all.
func (e Exercise) Reaches() bool { return e.Hits > 0 }

// Add returns the sum of two exercises.
func (e Exercise) Add(o Exercise) Exercise {
	return Exercise{Statements: e.Statements + o.Statements, Hits: e.Hits + o.Hits}
}

// ParseProfile reads a coverage profile.
func ParseProfile(r io.Reader) ([]*cover.Profile, error) {
	return cover.ParseProfilesFromReader(r)
}

// Exercised maps the blocks of a coverage profile to the candidates whose
// bodies hold them, less the counts of the base profile, which may be nil:
// a run of fewer ops, so that what both ran (package initialisation, a
// benchmark's setup) cancels. It returns the exercise of each candidate
// that ran more in profile than in base, by index in cs.
func Exercised(cs []*Candidate, profile, base []*cover.Profile) map[int]Exercise {
	baseCount := map[blockKey]int{}
	for _, p := range base {
		for _, b := range p.Blocks {
			baseCount[keyOf(p.FileName, b)] += b.Count
		}
	}
	byFile := map[string][]int{}
	for i, c := range cs {
		if c.HasBody {
			f := path.Join(c.Package, filepath.Base(c.File))
			byFile[f] = append(byFile[f], i)
		}
	}
	out := map[int]Exercise{}
	for _, p := range profile {
		for _, b := range p.Blocks {
			n := b.Count - baseCount[keyOf(p.FileName, b)]
			if n <= 0 {
				continue
			}
			for _, i := range byFile[p.FileName] {
				if inside(cs[i], b) {
					out[i] = out[i].Add(Exercise{Statements: b.NumStmt, Hits: int64(n) * int64(b.NumStmt)})
				}
			}
		}
	}
	return out
}

type blockKey struct {
	file                                 string
	startLine, startCol, endLine, endCol int
}

func keyOf(file string, b cover.ProfileBlock) blockKey {
	return blockKey{file, b.StartLine, b.StartCol, b.EndLine, b.EndCol}
}

// inside reports whether block b lies within c's body.
func inside(c *Candidate, b cover.ProfileBlock) bool {
	after := b.StartLine > c.Body.StartLine || b.StartLine == c.Body.StartLine && b.StartCol >= c.Body.StartCol
	before := b.EndLine < c.Body.EndLine || b.EndLine == c.Body.EndLine && b.EndCol <= c.Body.EndCol
	return after && before
}
