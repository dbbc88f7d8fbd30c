package rmit

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// A Layout is one link of a package's test binary, its functions placed
// in the order the linker's -randlayout seed drew.
//
// Where a function starts decides how its loops fall on cache lines and
// on the branch predictor's and the micro-op cache's sets: code that did
// not change can run twice as fast or as slow when a change elsewhere
// moves it (Mytkowicz et al., ASPLOS 2009). One link of each version
// compares two layouts as much as two versions, and pairing, which takes
// the machine's noise out, makes that fixed difference look only more
// certain. Each process of a run draws one of several links instead, so
// that the layout varies between processes and the interval over them
// holds it, as Stabilizer (Curtsinger & Berger, ASPLOS 2013) does by
// re-randomising at run time.
type Layout struct {
	Seed   uint64 // the -randlayout seed
	Binary string
}

// LayoutSeeds draws n link seeds for the given version from the run's
// seed: a run with the same seed links the same layouts. Seeds are never
// 0, which the linker takes for its own order.
func LayoutSeeds(seed uint64, version string, n int) []uint64 {
	h := fnv.New64a()
	h.Write([]byte(version))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	out := make([]uint64, n)
	for i := range out {
		// A seed the linker reads as a positive int64.
		for out[i] == 0 {
			out[i] = rng.Uint64() >> 1
		}
	}
	return out
}

// LayoutFlags returns flags, the go test -c flags of a build, with the
// linker flag -randlayout=seed added to their -ldflags, or to those of
// goflags (the GOFLAGS environment), which a -ldflags on the command line
// would otherwise replace. A per-package -ldflags (pattern=flags) is an
// error: which link it reaches is for the go command to decide.
func LayoutFlags(flags []string, goflags string, seed uint64) ([]string, error) {
	layout := "-randlayout=" + strconv.FormatUint(seed, 10)
	out := make([]string, 0, len(flags)+1)
	merged := false
	for i := 0; i < len(flags); i++ {
		name, value, hasValue := strings.Cut(strings.TrimPrefix(flags[i], "-"), "=")
		if name != "ldflags" && name != "-ldflags" {
			out = append(out, flags[i])
			continue
		}
		if !hasValue {
			if i+1 == len(flags) {
				return nil, fmt.Errorf("build flag %s has no value", flags[i])
			}
			i++
			value = flags[i]
		}
		if isPatternFlag(value) {
			return nil, fmt.Errorf("build flag -ldflags=%s applies to some packages only; the link of a test binary cannot be randomised with it", value)
		}
		// The go command takes the last -ldflags: every one is merged,
		// and all but the last are dropped as it would drop them.
		out = append(out, "-ldflags="+joinFlags(value, layout))
		merged = true
	}
	if merged {
		kept := out[:0]
		last := -1
		for i, f := range out {
			if strings.HasPrefix(f, "-ldflags=") {
				last = i
			}
		}
		for i, f := range out {
			if !strings.HasPrefix(f, "-ldflags=") || i == last {
				kept = append(kept, f)
			}
		}
		return kept, nil
	}
	for _, f := range strings.Fields(goflags) {
		name, value, ok := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(f, "-"), "-"), "=")
		if name == "ldflags" && ok {
			if isPatternFlag(value) {
				return nil, fmt.Errorf("GOFLAGS -ldflags=%s applies to some packages only; the link of a test binary cannot be randomised with it", value)
			}
			layout = joinFlags(value, layout)
		}
	}
	return append(out, "-ldflags="+layout), nil
}

// isPatternFlag reports whether the value of a build flag such as
// -ldflags has the form pattern=flags.
func isPatternFlag(v string) bool {
	v = strings.TrimSpace(v)
	return v != "" && !strings.HasPrefix(v, "-") && strings.Contains(v, "=")
}

func joinFlags(a, b string) string {
	if strings.TrimSpace(a) == "" {
		return b
	}
	return strings.TrimSpace(a) + " " + b
}

// layoutOf returns the link that the process of b in suite run k and
// iteration it runs: a draw among b's package's layouts, the same in a
// resumed run, and independent between the two versions of a pair. The
// zero Layout, for a package built once, means b.Package.Binary.
func (r *Runner) layoutOf(b *Benchmark, k, it int) Layout {
	ls := b.Package.Layouts
	if len(ls) == 0 {
		return Layout{Binary: b.Package.Binary}
	}
	h := fnv.New64a()
	h.Write([]byte(b.ID))
	// FNV leaves its low bits poorly mixed; PCG's output is what picks.
	rng := rand.New(rand.NewPCG(h.Sum64(), r.Seed^uint64(k)<<32^uint64(uint32(it))))
	return ls[rng.IntN(len(ls))]
}

// buildLayouts links the test binary of every package in built once more
// for each seed after the first, which Build has linked already, with
// flags[i] the build flags of seeds[i]. Only the link differs between
// them, so the go command takes the compiled packages from its cache; the
// links run several at a time, as Build's do. A package one of whose
// links fails is returned among failed, and left out of ok.
func buildLayouts(ctx context.Context, built []*Package, dir, binDir string, seeds []uint64, flags [][]string) (ok []*Package, failed []*BuildError) {
	for _, p := range built {
		p.Layouts = []Layout{{Seed: seeds[0], Binary: p.Binary}}
	}
	if len(seeds) == 1 {
		return built, nil
	}
	// One link of each package for each further seed, in seed order.
	type link struct {
		p    *Package
		seed int    // index in seeds
		dir  string // where its binary goes, apart from every other link's
		bin  string
		err  *BuildError
	}
	var links []*link
	for i := 1; i < len(seeds); i++ {
		for j, p := range built {
			links = append(links, &link{p: p, seed: i, dir: filepath.Join(binDir, fmt.Sprintf("layout-%d-%03d", seeds[i], j))})
		}
	}
	sem := make(chan struct{}, runtime.NumCPU())
	var wg sync.WaitGroup
	for _, l := range links {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if err := os.Mkdir(l.dir, 0o700); err != nil {
				l.err = &BuildError{Package: l.p, Output: err.Error()}
				return
			}
			c := *l.p
			done, _, fails := Build(ctx, []*Package{&c}, BuildOptions{Dir: dir, BuildFlags: flags[l.seed], OutDir: l.dir, Parallel: 1})
			switch {
			case len(fails) > 0:
				l.err = fails[0]
			case len(done) == 0:
				l.err = &BuildError{Package: l.p, Output: "the link with -randlayout produced no test binary"}
			default:
				l.bin = done[0].Binary
			}
		}()
	}
	wg.Wait()
	bad := map[string]bool{}
	for _, l := range links {
		if l.err != nil {
			failed = append(failed, l.err)
			bad[l.p.ImportPath] = true
			continue
		}
		l.p.Layouts = append(l.p.Layouts, Layout{Seed: seeds[l.seed], Binary: l.bin})
	}
	for _, p := range built {
		if !bad[p.ImportPath] {
			ok = append(ok, p)
		}
	}
	return ok, failed
}
