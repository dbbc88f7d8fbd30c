package session

import (
	"slices"
	"strconv"

	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// DefaultLayouts is how many links with randomised code layouts each
// version of a baseline run gets while preparing, before any benchmark
// runs. A link costs a fraction of a second once the packages are
// compiled (docs/GATE.md, "Code layout"), and most comparisons decide
// within 8 pairs, so these cover them; the pairs past them link the
// layouts they draw from MaxLayouts. A run of one version links only as
// many as a benchmark's least processes while preparing (eagerLayouts).
const DefaultLayouts = 8

// MaxLayouts is how many links each version of a baseline run may have.
// Layouts of them (DefaultLayouts) are linked while preparing, the others
// when a process first draws them: a benchmark's processes take the links
// one each before any repeats (rmit), so that up to the longest
// sequential plan's 90 pairs no two share a link and the spread between
// layouts stays inside every interval (docs/GATE.md, "Code layout").
const MaxLayouts = 96

// layoutKey names a version in record.Header.Layouts.
func layoutKey(version string) string {
	if version == record.VersionHead {
		return "head"
	}
	return version
}

// layoutSeeds returns the -randlayout seeds of version's test binaries:
// those of the run resumed, which its processes ran with, or else drawn
// from the run's seed, the same for both versions, so that each pair runs
// its two versions on one seed (rmit's layoutOf says why). None when each
// version is linked once.
//
// A run of one version draws its links too: where the linker puts a
// benchmark's code can move it by half or more (docs/EVALUATION.md, "One
// link is one draw of the code layout"), and measured on one link, every
// process repeats that draw and the interval leaves it out, so that a
// rebuild of code the benchmark never runs reads as a change.
func (r *run) layoutSeeds(version string) []uint64 {
	o := r.opts
	if o.Layouts <= 0 {
		return nil
	}
	if r.past != nil {
		if seeds := r.past.Header.Layouts[layoutKey(version)]; len(seeds) > 0 {
			return slices.Clone(seeds)
		}
	}
	return rmit.LayoutSeeds(o.Seed, "", max(o.Layouts, MaxLayouts))
}

// headerLayouts returns the seeds of the links of pkgs by version, for
// the raw header: all packages of a version share them.
func headerLayouts(pkgs []*rmit.Package) map[string][]uint64 {
	var m map[string][]uint64
	for _, p := range pkgs {
		if len(p.Layouts) == 0 {
			continue
		}
		if m == nil {
			m = map[string][]uint64{}
		}
		k := layoutKey(p.Version)
		if _, ok := m[k]; ok {
			continue
		}
		for _, l := range p.Layouts {
			m[k] = append(m[k], l.Seed)
		}
	}
	return m
}

// layoutOption is the header option of the layouts: the number of links
// of each version, or "" for one, which older runs leave out.
func layoutOption(o *Options) string {
	if o.Layouts <= 0 {
		return ""
	}
	return strconv.Itoa(o.Layouts)
}

// eagerLayouts returns how many of each version's links are linked while
// preparing: DefaultLayouts for a baseline run, whose pairs most often
// decide within them, and a benchmark's least processes for a run of one
// version, which the others would wait for in every package it builds;
// processes past them link the layouts they draw before their suite run
// (rmit.Runner.linkAhead).
func eagerLayouts(o *Options) int {
	if o.Baseline != "" {
		return o.Layouts
	}
	return min(o.Layouts, max(o.Stop.MinIterations, 1))
}
