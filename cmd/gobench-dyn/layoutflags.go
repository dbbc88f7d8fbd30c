package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/gobench-dyn/gobench-dyn/internal/session"
)

// bindLayoutFlag binds --layout, which says how the test binaries of a
// run are linked.
func bindLayoutFlag(fs *pflag.FlagSet, layout *string) {
	fs.StringVar(layout, "layout", session.LayoutRandom, fmt.Sprintf("the code layout of the test binaries: random (each process runs a fresh link with an -ldflags=-randlayout seed, and with --baseline each pair of processes runs both versions on one seed, up to %d links a version, %d of them linked before measuring (a benchmark's least processes without --baseline) and the others when first drawn, so that where the code lands varies between processes and the interval holds it) or fixed (each version linked once)", session.MaxLayouts, session.DefaultLayouts))
}
