package runreport

import (
	"fmt"
	"io"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// writeNonFinite names in the summary the units that reported NaN or an
// infinity.
func writeNonFinite(w io.Writer, nfs []session.NonFinite) {
	for _, nf := range nfs {
		name := nf.Key.Bench.String()
		if nf.Key.Version != record.VersionHead {
			name += " (" + nf.Key.Version + ")"
		}
		fmt.Fprintf(w, "  NOT A NUMBER %s reported %s %s in %d of %d measurement slices: recorded as is, with no mean or interval\n",
			name, strings.Join(nf.Values, ", "), nf.Unit, nf.Slices, nf.Of)
	}
}
