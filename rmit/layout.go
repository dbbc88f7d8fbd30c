package rmit

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
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
// iteration it runs, the same whenever it is asked for and in a resumed
// run. A benchmark's processes take its package's links in a shuffled
// order, each link once before any repeats, so that as long as there are
// links left no two processes of a benchmark share one, and the spread
// between layouts stays part of every interval over them. The links
// linked while preparing come first; the order is the package's, so that
// the benchmarks of a package that run past them link the same few more
// (Package.linkLayout).
//
// The two versions of a pair draw the same index: when their links share
// their seeds, as a baseline run's do, a pair runs both versions on one
// seed. The linker shuffles the same list of functions the same way for
// the same seed, so where a change leaves that list as it was (it edits
// bodies, adds no function) the two layouts differ only by the shift the
// edit causes, and the layout's effect on code the change did not touch
// cancels within the pair instead of adding to its spread. The estimate
// stays that of the change over random layouts: each pair still draws
// its seed at random, and the mean of head−base over seeds is the
// difference of the two versions' means over seeds (common random
// numbers). A change that adds or removes a function reshuffles
// everything, and its pairs are as independent as with seeds apart.
//
// The zero Layout, for a package built once, means b.Package.Binary.
func (r *Runner) layoutOf(b *Benchmark, k, it int) Layout {
	ls := b.Package.Layouts
	if len(ls) == 0 {
		return Layout{Binary: b.Package.Binary}
	}
	r.drawMu.Lock()
	defer r.drawMu.Unlock()
	key := drawKey{b.ID, k, it}
	if l, ok := r.drawn[key]; ok {
		return l
	}
	i := r.layoutSlot(b, k, it)
	if ls[i].Binary == "" {
		b.Package.link(i)
	}
	l := b.Package.Layouts[i]
	if r.drawn == nil {
		r.drawn = map[drawKey]Layout{}
	}
	r.drawn[key] = l
	return l
}

// layoutSlot returns the index among its package's links of the link
// that the process of b in suite run k and iteration it draws.
func (r *Runner) layoutSlot(b *Benchmark, k, it int) int {
	j := max((k-1)*max(b.Config.Iterations, 1)+it-1, 0)
	return layoutIndex(b.Package.ImportPath, r.Seed, j, b.Package.linked(), len(b.Package.Layouts))
}

// linkAhead links, before suite run k starts, the links its entries will
// draw that are not linked yet, as many at a time as there are CPUs, as
// Prepare links its first ones. Linked one by one when a process first
// draws it, each link waits for the one before, and in a comparison of a
// package with few benchmarks the links outlast the processes they serve
// (docs/GATE.md, "Where a gate's time goes"). No process runs while they
// link, so the links do not disturb any measurement. An entry that the
// records of an interrupted run replay starts no process and draws no link.
// sum counts the links and their time.
func (r *Runner) linkAhead(entries []Entry, k int, sum *Summary) {
	type slot struct {
		p *Package
		i int
	}
	var todo []slot
	seen := map[slot]bool{}
	for _, e := range entries {
		p := e.Bench.Package
		if p.linkLayout == nil || !r.runnable(e) || r.covered(e, k) || r.Resume.lookup(e.Bench, k, e.Iteration) != nil {
			continue
		}
		s := slot{p, r.layoutSlot(e.Bench, k, e.Iteration)}
		if p.Layouts[s.i].Binary == "" && !seen[s] {
			seen[s] = true
			todo = append(todo, s)
		}
	}
	if len(todo) == 0 {
		return
	}
	r.drawMu.Lock()
	defer r.drawMu.Unlock()
	start := r.now()
	defer func() { sum.Linked, sum.Linking = sum.Linked+len(todo), sum.Linking+r.now().Sub(start) }()
	sem := make(chan struct{}, runtime.NumCPU())
	var wg sync.WaitGroup
	for _, s := range todo {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			s.p.link(s.i)
		})
	}
	wg.Wait()
}

// A drawKey names one process of one benchmark: suite run and iteration.
type drawKey struct {
	id    string
	k, it int
}

// layoutIndex returns the index among n links of the j-th process of a
// benchmark of the package key: within each round of n processes, the
// first of them take the first linked links, which were linked while
// preparing, in a shuffled order, and the others the rest, shuffled; each
// round shuffles anew.
func layoutIndex(key string, seed uint64, j, linked, n int) int {
	h := fnv.New64a()
	h.Write([]byte(key))
	// FNV leaves its low bits poorly mixed; PCG's output is what picks.
	rng := rand.New(rand.NewPCG(h.Sum64(), seed^uint64(j/n)<<32))
	linked = min(max(linked, 1), n)
	early, late := rng.Perm(linked), rng.Perm(n-linked)
	if pos := j % n; pos < linked {
		return early[pos]
	}
	return linked + late[j%n-linked]
}

// linked returns how many of p's layouts, from the first, were linked
// while preparing: all of them unless some were left for later.
func (p *Package) linked() int {
	if p.linkLayout == nil {
		return len(p.Layouts)
	}
	return p.eager
}

// link links the i-th layout of p, which Prepare left to be linked when a
// process first draws it. A link that fails takes the place of the first
// link instead, so that the run goes on with the layouts it has.
func (p *Package) link(i int) {
	if p.linkLayout == nil {
		p.Layouts[i] = p.Layouts[0]
		return
	}
	bin, err := p.linkLayout(i)
	if err != nil {
		p.Layouts[i] = p.Layouts[0]
		return
	}
	p.Layouts[i].Binary = bin
}

// buildLayouts links the test binary of every package in built once more
// for each seed after the first, which Build has linked already, with
// flags[i] the build flags of seeds[i]. Only the link differs between
// them, so the go command takes the compiled packages from its cache; the
// links run several at a time, as Build's do. A package one of whose
// links fails is returned among failed, and left out of ok. Only the
// first linked seeds are linked now (all when linked is 0 or more than
// there are); the others are linked when a process first draws them
// (Runner.layoutOf), so that a run links no more than its processes use.
func buildLayouts(ctx context.Context, built []*Package, dir, binDir string, seeds []uint64, flags [][]string, linked int) (ok []*Package, failed []*BuildError) {
	if linked <= 0 || linked > len(seeds) {
		linked = len(seeds)
	}
	for _, p := range built {
		p.Layouts = []Layout{{Seed: seeds[0], Binary: p.Binary}}
		p.relink = &relinker{}
	}
	took := map[*Package]time.Duration{}
	defer func() {
		for j, p := range ok {
			for i := linked; i < len(seeds); i++ {
				p.Layouts = append(p.Layouts, Layout{Seed: seeds[i]})
			}
			if linked < len(seeds) {
				p.eager, p.LinkTime = linked, took[p]
				p.linkLayout = func(i int) (string, error) {
					return p.relink.link(context.Background(), p, dir, filepath.Join(binDir, fmt.Sprintf("layout-%d-%03d", seeds[i], j)), seeds[i], flags[i])
				}
			}
		}
	}()
	if linked == 1 {
		return built, nil
	}
	// One link of each package for each further seed, in seed order.
	type link struct {
		p    *Package
		seed int    // index in seeds
		dir  string // where its binary goes, apart from every other link's
		bin  string
		err  *BuildError
		took time.Duration
	}
	var links []*link
	for i := 1; i < linked; i++ {
		for j, p := range built {
			links = append(links, &link{p: p, seed: i, dir: filepath.Join(binDir, fmt.Sprintf("layout-%d-%03d", seeds[i], j))})
		}
	}
	// Each package's first link runs go test -c and keeps the linker's
	// command line; the others run the linker alone (relinker), and what
	// they take is what a link costs.
	first, rest := links[:min(len(built), len(links))], links[min(len(built), len(links)):]
	for _, batch := range [][]*link{first, rest} {
		sem := make(chan struct{}, runtime.NumCPU())
		var wg sync.WaitGroup
		for _, l := range batch {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				var err error
				start := time.Now()
				l.bin, err = l.p.relink.link(ctx, l.p, dir, l.dir, seeds[l.seed], flags[l.seed])
				l.took = time.Since(start)
				if err != nil {
					be, ok := err.(*BuildError)
					if !ok {
						be = &BuildError{Package: l.p, Output: err.Error()}
					}
					l.err = be
				}
			}()
		}
		wg.Wait()
	}
	bad := map[string]bool{}
	// The links ran as many at a time as there are CPUs, as linkAhead
	// runs them: each one's own wall time is what a link costs.
	costly := first
	if len(rest) > 0 {
		costly = rest
	}
	n := map[*Package]int{}
	for _, l := range costly {
		took[l.p] += l.took
		n[l.p]++
	}
	for p := range took {
		took[p] /= time.Duration(n[p])
	}
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
