package apiscore

import (
	"io"

	"golang.org/x/tools/cover"

	"github.com/gobench-dyn/gobench-dyn/internal/coverage"
)

// Exercise is how much one benchmark run exercises one function.
type Exercise = coverage.Exercise

// ParseProfile reads a coverage profile.
func ParseProfile(r io.Reader) ([]*cover.Profile, error) { return coverage.Parse(r) }

// Exercised maps the blocks of a coverage profile to the candidates whose
// bodies hold them, less the counts of the base profile (coverage.Exercised).
// It returns the exercise of each candidate that ran more in profile than
// in base, by index in cs.
func Exercised(cs []*Candidate, profile, base []*cover.Profile) map[int]Exercise {
	fns := make([]coverage.Func, 0, len(cs))
	index := make([]int, 0, len(cs))
	for i, c := range cs {
		if c.HasBody {
			fns = append(fns, coverage.Func{Package: c.Package, File: c.File, Body: c.Body})
			index = append(index, i)
		}
	}
	out := map[int]Exercise{}
	for j, x := range coverage.Exercised(fns, profile, base) {
		out[index[j]] = x
	}
	return out
}
