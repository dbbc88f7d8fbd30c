package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/gobench-dyn/gobench-dyn/internal/session"
)

// bindLayoutFlag binds --layout, which says how the test binaries of a
// baseline run are linked.
func bindLayoutFlag(fs *pflag.FlagSet, layout *string) {
	fs.StringVar(layout, "layout", session.LayoutRandom, fmt.Sprintf("with --baseline, the code layout of the test binaries: random (each pair of processes runs a fresh link of each version, both with one -ldflags=-randlayout seed, up to %d links a version, %d of them linked before measuring and the others when first drawn, so that where the code lands varies between pairs and the interval holds it) or fixed (each version linked once)", session.MaxLayouts, session.DefaultLayouts))
}
