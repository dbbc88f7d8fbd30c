// Package history keeps the results of benchmark runs across commits and
// finds the commits where a benchmark's level changed.
//
// A run adds one Entry per benchmark and unit: the mean over the run's
// processes with its interval, the processes it rests on, allocations and
// bytes per op, and where it was measured (commit, commit time, branch,
// machine label, options). Entries live in a Store, one SQLite file, and
// travel as JSON Lines (Export, Import).
//
// Series never mix machines or options: a point measured on another
// machine label or with other options is another series. Detect finds
// change points in each series by E-divisive means, as Apache Otava does
// (MethodOtava reproduces it), or, by default, with every point weighted
// by its own interval and the commit-to-commit noise the intervals do not
// hold (MethodWeighted).
package history

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"
)

// An Entry is the summary of one benchmark in one unit from one run.
type Entry struct {
	// Commit is the commit measured, CommitTime its commit time, Branch
	// the branch it was measured on.
	Commit     string
	CommitTime time.Time
	Branch     string
	// Parents are the parents of Commit, the first parent first, and
	// Position is its first-parent position: the commits on its
	// first-parent line from the root, itself included, as
	// "git rev-list --first-parent --count" counts them. They place the
	// commit in the history (see Order); Position 0 means unknown, as in
	// entries written before they were recorded.
	Parents  []string
	Position int
	// Machine labels the machine kind, Options the options that shape
	// results; points of different labels or options never share a
	// series.
	Machine string
	Options string

	Package   string
	Benchmark string
	Unit      string
	// Mean is the mean of the process means; Lo and Hi bound its
	// interval at Confidence over Processes processes (NaN when fewer
	// than two processes gave no interval).
	Mean       float64
	Lo, Hi     float64
	Confidence float64
	Processes  int
	// AllocsPerOp and BytesPerOp are the mean allocations and bytes per
	// op over the processes; NaN when the run did not report them.
	AllocsPerOp float64
	BytesPerOp  float64
}

// A Key names one series: one benchmark in one unit on one machine label
// with one set of options.
type Key struct {
	Package   string `json:"pkg,omitempty"`
	Benchmark string `json:"bench"`
	Unit      string `json:"unit"`
	Machine   string `json:"machine"`
	Options   string `json:"options,omitempty"`
}

// Key returns the series e belongs to.
func (e *Entry) Key() Key {
	return Key{Package: e.Package, Benchmark: e.Benchmark, Unit: e.Unit, Machine: e.Machine, Options: e.Options}
}

// Name returns the benchmark as people name it, "pkg.BenchmarkX".
func (k Key) Name() string {
	if k.Package == "" {
		return k.Benchmark
	}
	return k.Package + "." + k.Benchmark
}

// String names the series with its unit and, when set, machine and
// options.
func (k Key) String() string {
	s := k.Name() + " " + k.Unit
	if k.Machine != "" {
		s += " on " + k.Machine
	}
	if k.Options != "" {
		s += " [" + k.Options + "]"
	}
	return s
}

// Validate reports the first thing wrong with e, so that a bad entry is
// refused before it reaches the store.
func (e *Entry) Validate() error {
	switch {
	case strings.TrimSpace(e.Commit) == "":
		return errors.New("no commit")
	case e.CommitTime.IsZero():
		return errors.New("no commit time")
	case e.Benchmark == "":
		return errors.New("no benchmark name")
	case e.Unit == "":
		return errors.New("no unit")
	case math.IsNaN(e.Mean) || math.IsInf(e.Mean, 0):
		return fmt.Errorf("mean %v is not a number", e.Mean)
	case e.Processes < 1:
		return fmt.Errorf("processes %d: want at least 1", e.Processes)
	case math.IsNaN(e.Lo) != math.IsNaN(e.Hi):
		return errors.New("an interval needs both lo and hi")
	case !math.IsNaN(e.Lo) && !(e.Lo <= e.Mean && e.Mean <= e.Hi):
		return fmt.Errorf("interval [%g, %g] does not hold the mean %g", e.Lo, e.Hi, e.Mean)
	case !math.IsNaN(e.Lo) && !(e.Confidence > 0 && e.Confidence < 1):
		return fmt.Errorf("confidence %g: want a level between 0 and 1", e.Confidence)
	case e.Position < 0:
		return fmt.Errorf("position %d: want a count of commits", e.Position)
	case e.Position == 0 && len(e.Parents) > 0:
		return errors.New("parents without a position")
	case e.Position == 1 && len(e.Parents) > 0:
		return errors.New("position 1 is a root commit, which has no parents")
	case e.Position > 1 && len(e.Parents) == 0:
		return fmt.Errorf("position %d needs the commit's parents", e.Position)
	case slices.ContainsFunc(e.Parents, func(p string) bool { return p == "" || strings.IndexFunc(p, unicode.IsSpace) >= 0 }):
		return errors.New("a parent that is not a commit hash")
	case e.AllocsPerOp < 0 || e.BytesPerOp < 0:
		return errors.New("negative allocations or bytes per op")
	case math.IsInf(e.Lo, 0) || math.IsInf(e.Hi, 0) || math.IsInf(e.AllocsPerOp, 0) || math.IsInf(e.BytesPerOp, 0):
		return errors.New("an infinite value")
	}
	return nil
}
