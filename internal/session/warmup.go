package session

import (
	"fmt"
	"io"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/warmupcache"
	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// learnedWarmups carries the warmups a run of one version learns to the
// later runs of the same code, and gave this run those of the earlier
// ones (warmupcache).
type learnedWarmups struct {
	dir     warmupcache.Dir
	learner warmupLearner
	// pkgs are the run's packages with a test binary, in the suite's
	// order, and bins their benchmarks.
	pkgs      []*rmit.Package
	bins      map[*rmit.Package][]*rmit.Benchmark
	sliceTime time.Duration
	// taken holds the IDs of the benchmarks whose warmup came from the
	// cache: they learned none.
	taken map[string]bool
}

// takeWarmups gives each benchmark of a run of one version, under a
// criterion that learns its warmup in its first process, the warmup an
// earlier run learned on the same code, and returns what keeps
// this run's for later ones; nil when the run keeps none. A configuration
// file gives its own warmups, and a comparison warms its turns up by
// --turn-warmup.
func (r *run) takeWarmups(pl *runPlan, p *prepared) *learnedWarmups {
	o := r.opts
	learner, ok := pl.policy.(warmupLearner)
	if o.WarmupCache == "" || p.base != nil || pl.config != nil || !ok {
		return nil
	}
	w := &learnedWarmups{dir: warmupcache.Dir(o.WarmupCache), learner: learner, bins: map[*rmit.Package][]*rmit.Benchmark{}, taken: map[string]bool{}, sliceTime: o.SliceTime}
	for _, b := range p.suite.Benchmarks {
		if b.Package.CodeID == "" {
			continue
		}
		if w.bins[b.Package] == nil {
			w.pkgs = append(w.pkgs, b.Package)
		}
		w.bins[b.Package] = append(w.bins[b.Package], b)
	}
	for _, pkg := range w.pkgs {
		bs := w.bins[pkg]
		cached, err := w.dir.Read(w.binary(pkg))
		if err != nil {
			fmt.Fprintf(r.log, "gobench-dyn: warning: the warmup cache: %v; its benchmarks learn their warmup again\n", err)
			continue
		}
		for _, b := range bs {
			if n, ok := cached[b.Name]; ok && learner.SetLearnedWarmup(b.ID, n) {
				w.taken[b.ID] = true
			}
		}
	}
	if len(w.taken) > 0 {
		fmt.Fprintf(r.log, "gobench-dyn: warmup: %d of %d benchmarks warm up as an earlier run learned on the same code (--warmup-cache off learns it again)\n",
			len(w.taken), len(p.suite.Benchmarks))
	}
	return w
}

// binary names what the cache keeps of p's benchmarks under.
func (w *learnedWarmups) binary(p *rmit.Package) warmupcache.Binary {
	return warmupcache.Binary{Package: p.ImportPath, Code: p.CodeID, SliceTime: w.sliceTime}
}

// keep writes the warmups the run learned, of the benchmarks whose
// first process found their steady state, to the cache. A cache that
// cannot be written costs later runs their learning again, and is said so.
func (w *learnedWarmups) keep(log io.Writer) {
	if w == nil {
		return
	}
	for _, pkg := range w.pkgs {
		learned := map[string]int{}
		for _, b := range w.bins[pkg] {
			if n, settled := w.learner.LearnedWarmup(b.ID); !w.taken[b.ID] && settled && n >= 1 {
				learned[b.Name] = n
			}
		}
		if err := w.dir.Write(w.binary(pkg), learned); err != nil {
			fmt.Fprintf(log, "gobench-dyn: warning: the warmup cache: %v\n", err)
		}
	}
}
