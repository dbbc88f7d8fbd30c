package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"github.com/google/pprof/profile"

	"github.com/gobench-dyn/gobench-dyn/internal/explain"
	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// An Explained is where the change of one comparison went: the diff of
// both versions' profiles, taken after the verdicts, and the files they
// were written to.
type Explained struct {
	Package   string `json:"-"`
	Benchmark string `json:"-"`
	// Unit is the comparison's unit, which Kind explains.
	CompareUnit string `json:"-"`
	*explain.Explanation
	// Processes are the processes of each version, and Ops the
	// benchmark operations each version's profiles cover.
	Processes int   `json:"processes"`
	Ops       int64 `json:"ops"`
	// Seconds is what profiling the two versions took.
	Seconds float64 `json:"seconds"`
	// BaseProfile and HeadProfile are the merged profiles of each
	// version; Command opens their diff.
	BaseProfile string `json:"base_profile"`
	HeadProfile string `json:"head_profile"`
	Command     string `json:"command"`

	tree *explain.Node // the call tree of both versions, for the flame graph
}

// explainTarget is one top-level turn of profiling: a benchmark in both
// versions, with the kind of profile its decided units need.
type explainTarget struct {
	head, base *rmit.Benchmark
	memory     bool
	comps      []gate.Comparison
}

// Profiling targets: a CPU profile stops once each version holds
// explainSamples of the profiler's ticks (10 ms each), or at the time
// cap; an alloc profile at -test.memprofilerate=1 records every
// allocation, so one pair of processes holds all there is to see.
const (
	explainSamples = 300
	// explainProcesses is how many processes of each version the time
	// cap is spread over: the first process of a CPU profile lasts
	// about ExplainTime / (2 × explainProcesses).
	explainProcesses = 4
)

// explainChanges profiles both versions of every benchmark a decided
// regression or improvement names, in units a profile measures, diffs the
// profiles and adds the explanations to res. What fails here is said on
// the log and leaves that explanation out: the verdicts stand without it.
func (r *run) explainChanges(ctx context.Context, p *prepared, res *Result) {
	if res.Comparison == nil || p.base == nil {
		return
	}
	targets := r.explainTargets(p, res.Comparison)
	if len(targets) == 0 {
		return
	}
	// The profiled processes run in their packages' directories: the
	// paths they write to must not depend on it.
	dir, err := filepath.Abs(r.opts.ExplainDir)
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		fmt.Fprintf(r.log, "gobench-dyn: explain: %v\n", err)
		return
	}
	start := r.now()
	changes := 0
	for _, t := range targets {
		changes += len(t.comps)
	}
	fmt.Fprintf(r.log, "gobench-dyn: explaining %s: profiling both versions, %s, at most %s per CPU profile\n",
		plural(changes, "decided change"), plural(len(targets), "profile"), render.Duration(r.opts.ExplainTime))
	for _, t := range targets {
		if ctx.Err() != nil {
			return
		}
		ex, err := r.explainTarget(ctx, t, dir)
		if err != nil {
			fmt.Fprintf(r.log, "gobench-dyn: explain %s: %v\n", t.head.Bench(), err)
			continue
		}
		res.Explained = append(res.Explained, ex...)
	}
	res.ExplainTime = r.now().Sub(start)
	if len(res.Explained) > 0 {
		path := filepath.Join(dir, "explain.html")
		if err := writeFlameGraphs(path, res.Explained); err != nil {
			fmt.Fprintf(r.log, "gobench-dyn: explain: %v\n", err)
			return
		}
		res.ExplainHTML = path
	}
}

// writeFlameGraphs writes the differential flame graph of every
// explanation to path, as one page.
func writeFlameGraphs(path string, ex []*Explained) error {
	var graphs []explain.Graph
	for _, e := range ex {
		graphs = append(graphs, explain.Graph{Title: fmt.Sprintf("%s %s (%s profiles)", record.Bench{Package: e.Package, Benchmark: e.Benchmark}, e.CompareUnit, e.Kind),
			Unit: e.Unit, Root: e.tree})
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = explain.WriteHTML(f, "Where the changes went", graphs)
	return errors.Join(err, f.Close())
}

// explainTargets groups the decided changes by benchmark and profile.
func (r *run) explainTargets(p *prepared, c *gate.Result) []*explainTarget {
	heads, bases := map[record.Bench]*rmit.Benchmark{}, map[record.Bench]*rmit.Benchmark{}
	for _, b := range p.head.Benchmarks {
		heads[b.Bench()] = b
	}
	for _, b := range p.base.Benchmarks {
		bases[b.Bench()] = b
	}
	type key struct {
		bench  record.Bench
		memory bool
	}
	byKey := map[key]*explainTarget{}
	var targets []*explainTarget
	for _, cmp := range c.Comparisons {
		if cmp.Verdict != gate.Regression && cmp.Verdict != gate.Improvement {
			continue
		}
		kind, ok := explain.ForUnit(cmp.Unit)
		if !ok {
			continue
		}
		id := record.Bench{Package: cmp.Package, Benchmark: cmp.Benchmark}
		h, b := heads[id], bases[id]
		if h == nil || b == nil {
			continue
		}
		k := key{id, kind.Memory()}
		t := byKey[k]
		if t == nil {
			t = &explainTarget{head: h, base: b, memory: kind.Memory()}
			byKey[k] = t
			targets = append(targets, t)
		}
		t.comps = append(t.comps, cmp)
	}
	return targets
}

// explainTarget runs fresh process pairs of t's two versions in turns,
// at the gate's b.N, until the profiles hold enough samples or the time
// cap is reached, and explains each of t's comparisons.
func (r *run) explainTarget(ctx context.Context, t *explainTarget, dir string) ([]*Explained, error) {
	tmp, err := os.MkdirTemp(dir, ".profiles-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	kind := explain.CPU
	if t.memory {
		kind = explain.AllocSpace
	}
	count := r.explainCount(t)
	start := r.now()
	var base, head []*profile.Profile
	for i := 0; ; i++ {
		// The first of a pair alternates, so that neither version
		// always runs on the heels of the other.
		order := []*rmit.Benchmark{t.base, t.head}
		if i%2 == 1 {
			order[0], order[1] = order[1], order[0]
		}
		for _, b := range order {
			prof, err := r.profileOnce(ctx, b, profiledLink(b, i), t.memory, count, filepath.Join(tmp, fmt.Sprintf("%s-%d.pprof", b.Package.Version, i)))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", versionName(b.Package.Version), err)
			}
			if b == t.base {
				base = append(base, prof)
			} else {
				head = append(head, prof)
			}
		}
		if t.memory || r.now().Sub(start) >= r.opts.ExplainTime {
			break
		}
		mb, err := explain.MergeProfiles(base)
		if err != nil {
			return nil, err
		}
		mh, err := explain.MergeProfiles(head)
		if err != nil {
			return nil, err
		}
		if min(explain.Samples(mb, kind), explain.Samples(mh, kind)) >= explainSamples {
			break
		}
	}
	mb, err := explain.MergeProfiles(base)
	if err != nil {
		return nil, err
	}
	mh, err := explain.MergeProfiles(head)
	if err != nil {
		return nil, err
	}
	ops := int64(len(base)) * int64(count) * t.head.N
	name := profileName(t.head, t.memory)
	basePath, headPath := filepath.Join(dir, name+".base.pprof"), filepath.Join(dir, name+".head.pprof")
	if err := writeProfile(basePath, mb); err != nil {
		return nil, err
	}
	if err := writeProfile(headPath, mh); err != nil {
		return nil, err
	}
	took := r.now().Sub(start)
	var out []*Explained
	for _, c := range t.comps {
		k, _ := explain.ForUnit(c.Unit)
		e, err := explain.Diff(mb, mh, ops, ops, k, explain.Options{})
		if err != nil {
			return nil, err
		}
		tree, err := explain.Tree(mb, mh, ops, ops, k)
		if err != nil {
			return nil, err
		}
		sample := ""
		if k.Memory() {
			sample = "-sample_index=" + string(k) + " "
		}
		out = append(out, &Explained{
			Package: c.Package, Benchmark: c.Benchmark, CompareUnit: c.Unit, Explanation: e,
			Processes: len(base), Ops: ops, Seconds: took.Seconds(),
			BaseProfile: basePath, HeadProfile: headPath,
			Command: "go tool pprof " + sample + "-diff_base " + basePath + " " + headPath,
			tree:    tree,
		})
	}
	return out, nil
}

// explainCount is the -test.count of one profiling process: slices of the
// gate's b.N enough to fill its share of the time cap, judged by the
// time the gate measured, and one slice for an alloc profile, whose
// every allocation is recorded.
func (r *run) explainCount(t *explainTarget) int {
	if t.memory {
		return 1
	}
	perOp := 0.0
	for _, c := range t.comps {
		if c.Unit == "ns/op" {
			perOp = max(c.Old.Mean, c.New.Mean)
		}
	}
	slice := float64(t.head.N) * perOp
	if slice <= 0 {
		return 1
	}
	share := float64(r.opts.ExplainTime) / (2 * explainProcesses)
	return max(1, int(share/slice))
}

// profiledLink returns the test binary of b's package that the i-th
// profiled pair runs: the links already made, in turn, so that the
// profiles, like the measurement, are of several layouts and not of one,
// and the two versions of a pair run one seed (layoutOf); the one binary
// of a package linked once.
func profiledLink(b *rmit.Benchmark, i int) string {
	var linked []string
	for _, l := range b.Package.Layouts {
		if l.Binary != "" {
			linked = append(linked, l.Binary)
		}
	}
	if len(linked) == 0 {
		return b.Package.Binary
	}
	return linked[i%len(linked)]
}

// profileOnce runs b from test binary bin in a fresh process for count
// slices of its b.N with a CPU or alloc profile written to path, and reads
// the profile.
func (r *run) profileOnce(ctx context.Context, b *rmit.Benchmark, bin string, memory bool, count int, path string) (*profile.Profile, error) {
	args := []string{
		"-test.run=^$",
		"-test.bench=" + rmit.LeafPattern(b.Base),
		"-test.benchtime=" + strconv.FormatInt(b.N, 10) + "x",
		"-test.count=" + strconv.Itoa(count),
	}
	if b.Procs > 0 {
		args = append(args, "-test.cpu="+strconv.Itoa(b.Procs))
	}
	if memory {
		args = append(args, "-test.memprofile="+path, "-test.memprofilerate=1")
	} else {
		args = append(args, "-test.cpuprofile="+path)
	}
	args = append(args, b.Package.TestArgs...)
	proc, err := r.env.Starter.Start(bin, b.Package.Dir, args)
	if err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, proc.Kill)
	defer stop()
	_, _ = io.Copy(io.Discard, proc.Stdout())
	if err := proc.Wait(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("the profiled process failed: %w\n%s", err, proc.StderrTail())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("the profiled process wrote no profile: %w", err)
	}
	defer f.Close()
	prof, err := profile.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("reading the profile %s: %w", path, err)
	}
	return prof, nil
}

// writeProfile writes p to path, gzipped as pprof reads it.
func writeProfile(path string, p *profile.Profile) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = p.Write(f)
	return errors.Join(err, f.Close())
}

// unsafeName matches what a file name should not hold.
var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// profileName names the profiles of b: package, benchmark and kind.
func profileName(b *rmit.Benchmark, memory bool) string {
	kind := "cpu"
	if memory {
		kind = "alloc"
	}
	return unsafeName.ReplaceAllString(filepath.Base(b.Package.ImportPath)+"."+b.Name, "_") + "." + kind
}

// Explanation returns the explanation of the comparison of pkg's bench in
// unit, or nil.
func (res *Result) Explanation(pkg, bench, unit string) *Explained {
	i := slices.IndexFunc(res.Explained, func(e *Explained) bool {
		return e.Package == pkg && e.Benchmark == bench && e.CompareUnit == unit
	})
	if i < 0 {
		return nil
	}
	return res.Explained[i]
}
