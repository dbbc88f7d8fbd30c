package runreport

import (
	"fmt"
	"io"
	"slices"

	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// writeTogether says once per family, in both versions at once, that its
// members were measured with their siblings (rmit.Family), and why.
func writeTogether(w io.Writer, fams []*rmit.Family) {
	var told []string
	for _, f := range fams {
		name := f.Members[0].Package.ImportPath + "." + f.Top
		if slices.Contains(told, name) {
			continue
		}
		told = append(told, name)
		if len(told) > listed {
			continue
		}
		why := ""
		if f.Why != "" {
			why = " (" + f.Why + ")"
		}
		fmt.Fprintf(w, "  %s: %s, %s%s\n", name, render.Plural(len(f.Members), "benchmark"), rmit.FamilyNote, why)
	}
	if len(told) > listed {
		fmt.Fprintf(w, "  %d more families %s\n", len(told)-listed, rmit.FamilyNote)
	}
}
