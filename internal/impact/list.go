package impact

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/render"
)

// WriteList writes the report as run --baseline --impact list prints it:
// each benchmark (and the leaves of those measured) with its outcome and
// why, each changed path with its kind and what it reaches, and what
// finding out took.
func (r *Report) WriteList(w io.Writer) error {
	tw := render.Table(w)
	fmt.Fprintf(tw, "package\tbenchmark\toutcome\twhy\n")
	outcome := func(affected bool) string {
		if affected {
			return "measured"
		}
		return "unaffected"
	}
	for _, b := range append(r.Benchmarks, r.New...) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", b.Package, b.Name, outcome(b.Affected), b.Why)
		if b.Affected {
			for _, l := range b.Leaves {
				fmt.Fprintf(tw, "%s\t  %s\t%s\t%s\n", b.Package, l.Name, outcome(l.Affected), l.Why)
			}
		}
	}
	if len(r.Unanalysed) > 0 {
		fmt.Fprintf(tw, "\nmodule\toutcome\twhy\n")
		for _, u := range r.Unanalysed {
			fmt.Fprintf(tw, "%s\tevery benchmark measured\tnot analysed: %s\n", u.Module, render.FirstLine(u.Why))
		}
	}
	if len(r.Paths) > 0 {
		fmt.Fprintf(tw, "\nchanged path\tkind\treaches\twhy\n")
		for _, p := range r.Paths {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.Path, p.Kind, p.reachText(r.Everything), p.Why)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	leaves := ""
	if n := len(r.UnaffectedLeaves()); n > 0 {
		leaves = fmt.Sprintf(", and %d leaves of those reached", n)
	}
	if n := len(r.Unanalysed); n > 0 {
		leaves += fmt.Sprintf(", with %s not analysed", render.Plural(n, "module"))
	}
	_, err := fmt.Fprintf(w, "\n%d of %d benchmarks reached, %d unaffected%s; %s and %s differ; diff %s, coverage %s (cached: %v), call graph %s, leaves %s\n",
		len(r.Benchmarks)-len(r.Unaffected())+len(r.New), len(r.Benchmarks)+len(r.New), len(r.Unaffected()), leaves, render.Plural(len(r.Paths), "path"), render.Plural(len(r.Changed), "declaration"),
		render.Duration(r.Diff), render.Duration(r.Coverage), r.Cached, render.Duration(r.CallGraph), render.Duration(r.Leaves))
	return err
}

// reachText says what the path reaches, in a column of the list.
func (p Path) reachText(everything string) string {
	switch {
	case p.Kind == PathModule || p.Kind == PathUnknown:
		return "everything"
	case p.Kind == PathPackageFile:
		return "its package's binaries"
	case everything != "" && p.Kind != PathUnused:
		return "everything (" + everything + ")"
	case len(p.Reaches) == 0:
		return "none"
	case len(p.Reaches) <= 2:
		return strings.Join(p.Reaches, ", ")
	default:
		return fmt.Sprintf("%s and %d more", p.Reaches[0], len(p.Reaches)-1)
	}
}

// PathSummary says in one line how many paths differ, of which kinds,
// and, when there are few, which: "2 paths differ: a.go (declarations,
// reaches 1), README.md (read file, reaches none)".
func (r *Report) PathSummary() string {
	if len(r.Paths) == 0 {
		return "no path differs"
	}
	var parts []string
	if len(r.Paths) <= 4 {
		for _, p := range r.Paths {
			parts = append(parts, fmt.Sprintf("%s (%s, reaches %s)", p.Path, p.Kind, p.reachCount(r.Everything)))
		}
	} else {
		counts := map[PathKind]int{}
		var kinds []PathKind
		for _, p := range r.Paths {
			if counts[p.Kind] == 0 {
				kinds = append(kinds, p.Kind)
			}
			counts[p.Kind]++
		}
		for _, k := range kinds {
			parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
		}
	}
	verb := "differ"
	if len(r.Paths) == 1 {
		verb = "differs"
	}
	return fmt.Sprintf("%s %s: %s", render.Plural(len(r.Paths), "path"), verb, strings.Join(parts, ", "))
}

func (p Path) reachCount(everything string) string {
	switch {
	case p.Kind == PathModule || p.Kind == PathUnknown || (everything != "" && p.Kind != PathUnused):
		return "everything"
	case p.Kind == PathPackageFile:
		return "its package's binaries"
	case len(p.Reaches) == 0:
		return "none"
	}
	return fmt.Sprint(len(p.Reaches))
}

// Took is the whole analysis's time.
func (r *Report) Took() time.Duration { return r.Diff + r.Coverage + r.CallGraph + r.Leaves }

// Merge joins the reports of several modules' analyses into one, for one
// list: their benchmarks side by side, and each changed path once, with
// the strongest kind any analysis found for it and every benchmark it
// reaches. Every report accounts for every path of the repository.
func Merge(reps ...*Report) *Report {
	if len(reps) == 1 {
		return reps[0]
	}
	out := &Report{}
	paths := map[string]int{}
	for _, r := range reps {
		out.Benchmarks = append(out.Benchmarks, r.Benchmarks...)
		out.New = append(out.New, r.New...)
		out.Unanalysed = append(out.Unanalysed, r.Unanalysed...)
		out.Changed = append(out.Changed, r.Changed...)
		out.Packages = append(out.Packages, r.Packages...)
		out.Diff += r.Diff
		out.Coverage += r.Coverage
		out.CallGraph += r.CallGraph
		out.Leaves += r.Leaves
		out.Cached = out.Cached || r.Cached
		for _, p := range r.Paths {
			i, ok := paths[p.Path]
			if !ok {
				paths[p.Path] = len(out.Paths)
				out.Paths = append(out.Paths, p)
				continue
			}
			q := &out.Paths[i]
			if kindRank[p.Kind] > kindRank[q.Kind] {
				q.Kind, q.Why = p.Kind, p.Why
			}
			q.Reaches = append(q.Reaches, p.Reaches...)
		}
	}
	// A reason for every benchmark holds for the merged list only when it
	// holds in every module: otherwise one module's go.mod would read as
	// reaching the others' benchmarks, whose own Why says what reaches
	// them.
	for i, r := range reps {
		if i == 0 {
			out.Everything = r.Everything
		} else if r.Everything != out.Everything {
			out.Everything = ""
		}
	}
	slices.Sort(out.Changed)
	out.Changed = slices.Compact(out.Changed)
	slices.Sort(out.Packages)
	out.Packages = slices.Compact(out.Packages)
	for i := range out.Paths {
		p := &out.Paths[i]
		if len(p.Reaches) > 0 && strings.HasPrefix(p.Why, "no benchmark") {
			p.Why = ""
		}
	}
	return out
}

// kindRank orders path kinds by what they reach, for Merge.
var kindRank = map[PathKind]int{PathUnused: 0, PathRead: 1, PathSource: 2, PathPackageFile: 3, PathModule: 4, PathUnknown: 5}
