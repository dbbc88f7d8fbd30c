package session

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/fakebin"
	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// WriteSummary writes the end-of-run summary of res as the run command
// does. It is runreport.WriteSummary, which this package's tests cannot
// import, as runreport imports session: the external test package sets
// it (summary_test.go).
var WriteSummary func(w io.Writer, res *Result)

// suffix is the GOMAXPROCS suffix go test appends to names.
func suffix() string {
	if p := runtime.GOMAXPROCS(0); p > 1 {
		return "-" + strconv.Itoa(p)
	}
	return ""
}

// fakeBuilding is how long the fake binaries take to build.
const fakeBuilding = 2 * time.Second

// env returns the seams of a run on the fake binaries: packages are
// "built" without the toolchain, and the baseline is checked out in a
// directory named "baseline".
func fakeEnv(f *fakebin.Binaries) Env {
	return Env{
		Starter: f,
		Clock:   f.Clock.Now,
		Prepare: func(ctx context.Context, opts rmit.PrepareOptions) (*rmit.Suite, error) {
			pkg := &rmit.Package{ImportPath: "example.com/p", Dir: opts.Dir, Version: opts.Version, Binary: "p.test", Hash: "hash-" + opts.Dir}
			if opts.CodeIDs {
				pkg.CodeID = "code-" + opts.Dir
			}
			for _, seed := range opts.LayoutSeeds {
				pkg.Layouts = append(pkg.Layouts, rmit.Layout{Seed: seed, Binary: fmt.Sprintf("%s/p-%d.test", opts.Dir, seed)})
			}
			bs, fails, err := rmit.Discover(ctx, pkg, opts.Discover)
			if err != nil {
				return nil, err
			}
			for _, b := range bs {
				b.Parallel = f.Parallel[b.Base]
			}
			s := &rmit.Suite{Packages: []*rmit.Package{pkg}, Benchmarks: bs, Building: fakeBuilding}
			for _, f := range fails {
				s.Failures = append(s.Failures, &rmit.PrepareFailure{Package: pkg.ImportPath, Bench: f.Name, Version: opts.Version, Reason: f.Reason})
			}
			return s, nil
		},
		TurnOverlay: func(context.Context, string, string, string) (string, error) { return "", nil },
		Checkout: func(_ context.Context, dir, rev, _ string) (*Checkout, error) {
			return &Checkout{Dir: "baseline", Rev: "0123456789abcdef", Remove: func() error { return nil }}, nil
		},
	}
}
