package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/gitrepo"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// regressSource is a package of benchmarks whose costs are set per version:
// each benchmark runs a fixed amount of integer work, scaled by its factor.
const regressSource = `package work

import "testing"

var sink uint64

func spin(n int) {
	x := uint64(1)
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	sink += x
}

func alloc(n int) {
	var s [][]byte
	for i := 0; i < n/64; i++ {
		s = append(s, make([]byte, 64))
	}
	sink += uint64(len(s))
}

%s`

// regressBenchmarks are the benchmarks of the regression evaluation: name,
// kind and base cost.
var regressBenchmarks = []struct {
	name, kind string
	n          int
}{
	{"Spin10", "spin", 2000}, {"Spin25", "spin", 3000}, {"Alloc10", "alloc", 4000}, {"Alloc25", "alloc", 6000},
	{"SpinSame1", "spin", 2500}, {"SpinSame2", "spin", 8000}, {"AllocSame1", "alloc", 5000}, {"AllocSame2", "alloc", 2000},
}

// regressFactor returns the slowdown injected into benchmark name in the
// new version: the number in its name, in percent; 0 for the unchanged.
func regressFactor(name string) float64 {
	switch {
	case strings.HasSuffix(name, "10"):
		return 0.10
	case strings.HasSuffix(name, "25"):
		return 0.25
	}
	return 0
}

func writeVersion(dir string, slow bool) error {
	var b strings.Builder
	for _, bm := range regressBenchmarks {
		n := bm.n
		if slow {
			n = int(float64(n) * (1 + regressFactor(bm.name)))
		}
		fmt.Fprintf(&b, "func Benchmark%s(b *testing.B) {\n\tfor range b.N {\n\t\t%s(%d)\n\t}\n}\n\n", bm.name, bm.kind, n)
	}
	return os.WriteFile(filepath.Join(dir, "work_test.go"), []byte(fmt.Sprintf(regressSource, b.String())), 0o644)
}

// evalIdentity makes the commits of the evaluation's repositories, so
// that they need no git configuration.
var evalIdentity = gitrepo.Identity{Name: "eval", Email: "eval@example.com"}

// gitIn runs git with args in dir, as evalIdentity.
func gitIn(dir string, args ...string) error {
	_, err := gitrepo.RunAs(context.Background(), dir, evalIdentity, args...)
	return err
}

// regressRepo makes a git repository with two commits: the base version,
// then the version with injected slowdowns.
func regressRepo(dir string) error {
	git := func(args ...string) error { return gitIn(dir, args...) }
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/work\n\ngo 1.26\n"), 0o644); err != nil {
		return err
	}
	for i, slow := range []bool{false, true} {
		if err := writeVersion(dir, slow); err != nil {
			return err
		}
		if i == 0 {
			if err := git("init", "-q"); err != nil {
				return err
			}
		}
		if err := git("add", "."); err != nil {
			return err
		}
		if err := git("commit", "-q", "--allow-empty", "-m", fmt.Sprintf("version %d", i+1)); err != nil {
			return err
		}
	}
	return nil
}

// tally counts verdicts on time by kind of benchmark and injected change.
// In an A/A tally no benchmark changed.
type tally struct {
	flagged, total map[cell]int
	aa             bool
}

// A cell is a kind of benchmark ("spin", "alloc") and an injected change.
type cell struct {
	kind   string
	factor float64
}

func newTally(aa bool) *tally {
	return &tally{flagged: map[cell]int{}, total: map[cell]int{}, aa: aa}
}

func (t *tally) add(res *gate.Result) {
	for _, c := range res.Comparisons {
		if c.Unit != "sec/op" && c.Unit != "ns/op" {
			continue
		}
		name := strings.TrimPrefix(c.Benchmark, "Benchmark")
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			name = name[:i]
		}
		f := regressFactor(name)
		if t.aa {
			f = 0
		}
		k := cell{"spin", f}
		if strings.HasPrefix(name, "Alloc") {
			k.kind = "alloc"
		}
		t.total[k]++
		// An A/A false alarm is a change claimed, in either direction;
		// an inconclusive verdict claims nothing.
		if (f == 0 && (c.Verdict == gate.Regression || c.Verdict == gate.Improvement)) || (f > 0 && c.Verdict == gate.Regression) {
			t.flagged[k]++
		}
	}
}

// row formats t as a Markdown table row named name, with extra cells
// between the name and the counts.
func (t *tally) row(name string, extra ...string) string {
	share := func(kind string, f float64) string {
		k := cell{kind, f}
		if t.total[k] == 0 {
			return "—"
		}
		return fmt.Sprintf("%d/%d", t.flagged[k], t.total[k])
	}
	cells := append([]string{name}, extra...)
	cells = append(cells, share("spin", 0), share("alloc", 0), share("spin", 0.10), share("alloc", 0.10), share("spin", 0.25), share("alloc", 0.25))
	return "| " + strings.Join(cells, " | ") + " |"
}

// evaluateRegressions measures false alarms and detection rates of
// run --baseline (both versions interleaved) against two sequential runs
// compared afterwards, over several seeds.
func evaluateRegressions(bin, out string, seeds int, slice time.Duration, s, d int) error {
	e, err := newRegressEval(bin, out, slice, s, d)
	if err != nil {
		return err
	}
	defer e.close()
	for seed := 1; seed <= seeds; seed++ {
		fmt.Fprintf(os.Stderr, "eval: regressions, seed %d of %d\n", seed, seeds)
		if err := e.static(strconv.Itoa(seed)); err != nil {
			return err
		}
		if err := e.dynamic(strconv.Itoa(seed)); err != nil {
			return err
		}
	}
	e.print(seeds, slice, s, d)
	return nil
}

// regressEval holds one regression evaluation: the generated repository,
// a checkout of its previous commit, the flags of each kind of run, and
// the tallies of their verdicts.
type regressEval struct {
	bin, out, repo, base string
	// common runs the static configuration; dynamicArgs the default
	// criterion at its default caps (40 suite runs with sequential
	// sampling, 5 without).
	common, dynamicArgs []string
	opts                gate.Options
	inter, seq, aa      *tally
	early, late         *tally
	earlyWall, lateWall time.Duration
	settledPairs        int
}

func newRegressEval(bin, out string, slice time.Duration, s, d int) (*regressEval, error) {
	e := &regressEval{
		bin: bin, out: out,
		repo: filepath.Join(out, "regress"), base: filepath.Join(out, "regress-base"),
		common: []string{"--stop", "none", "--slice-time", slice.String(), "--suite-runs", strconv.Itoa(s), "--iterations", "1",
			"--slices", strconv.Itoa(d), "--progress", "off", "-o", os.DevNull},
		dynamicArgs: []string{"--slice-time", slice.String(), "--iterations", "1",
			"--slices", strconv.Itoa(d), "--progress", "off", "-o", os.DevNull},
		opts:  gate.DefaultOptions(),
		inter: newTally(false), seq: newTally(false), aa: newTally(true),
		early: newTally(false), late: newTally(false),
	}
	if err := os.MkdirAll(e.repo, 0o755); err != nil {
		return nil, err
	}
	if err := regressRepo(e.repo); err != nil {
		return nil, err
	}
	if err := gitrepo.AddWorktree(context.Background(), e.repo, e.base, "HEAD~1"); err != nil {
		return nil, fmt.Errorf("worktree: %w", err)
	}
	return e, nil
}

func (e *regressEval) close() {
	_ = gitrepo.RemoveWorktree(context.Background(), e.repo, e.base)
}

// gb runs gobench-dyn in dir; exit status 1 (a regression) is a result,
// not an error.
func (e *regressEval) gb(dir string, args ...string) error {
	cmd := exec.Command(e.bin, args...)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			return fmt.Errorf("gobench-dyn %v: %w\n%s", args, err, b)
		}
	}
	return nil
}

// compareBaseline compares the two versions of one run --baseline file,
// paired as the run recorded them.
func (e *regressEval) compareBaseline(raw string) (*gate.Result, *record.Run, error) {
	r, _, err := record.ReadFile(raw)
	if err != nil {
		return nil, nil, err
	}
	old, head := gate.Split(r)
	res, err := gate.Runs(old, head, pairedOptions(e.opts, r))
	return res, head, err
}

// static runs the fixed configuration of one seed three ways: HEAD~1 and
// HEAD interleaved, HEAD against itself (A/A), and two sequential runs
// compared afterwards.
func (e *regressEval) static(sd string) error {
	for _, c := range []struct {
		name, rev string
		t         *tally
	}{{"inter", "HEAD~1", e.inter}, {"aa", "HEAD", e.aa}} {
		raw := filepath.Join(e.out, c.name+"-"+sd+".jsonl")
		if err := e.gb(e.repo, append([]string{"run", "--baseline", c.rev, "--seed", sd, "--raw", raw}, e.common...)...); err != nil {
			return err
		}
		res, _, err := e.compareBaseline(raw)
		if err != nil {
			return err
		}
		c.t.add(res)
	}
	oldRaw, newRaw := filepath.Join(e.out, "seq-old-"+sd+".jsonl"), filepath.Join(e.out, "seq-new-"+sd+".jsonl")
	if err := e.gb(e.base, append([]string{"run", "--seed", sd, "--raw", oldRaw}, e.common...)...); err != nil {
		return err
	}
	if err := e.gb(e.repo, append([]string{"run", "--seed", sd, "--raw", newRaw}, e.common...)...); err != nil {
		return err
	}
	o, _, err := record.ReadFile(oldRaw)
	if err != nil {
		return err
	}
	n, _, err := record.ReadFile(newRaw)
	if err != nil {
		return err
	}
	res, err := gate.Runs(o, n, e.opts)
	if err != nil {
		return err
	}
	e.seq.add(res)
	return nil
}

// dynamic runs the default criterion of one seed with and without
// sequential sampling.
func (e *regressEval) dynamic(sd string) error {
	for _, sequential := range []bool{true, false} {
		raw := filepath.Join(e.out, fmt.Sprintf("dyn-%s-%t.jsonl", sd, sequential))
		start := time.Now()
		if err := e.gb(e.repo, append([]string{"run", "--baseline", "HEAD~1", "--seed", sd, "--raw", raw,
			"--sequential=" + strconv.FormatBool(sequential)}, e.dynamicArgs...)...); err != nil {
			return err
		}
		wall := time.Since(start)
		res, head, err := e.compareBaseline(raw)
		if err != nil {
			return err
		}
		if !sequential {
			e.late.add(res)
			e.lateWall += wall
			continue
		}
		e.early.add(res)
		e.earlyWall += wall
		for _, ev := range head.Events {
			if ev.Event == record.EventStop && ev.Reason == record.ReasonSettled && ev.Version != record.VersionBaseline {
				e.settledPairs++
			}
		}
	}
	return nil
}

// print writes the evaluation's tables as Markdown to stdout.
func (e *regressEval) print(seeds int, slice time.Duration, s, d int) {
	fmt.Printf("\n%d seeds; %d benchmarks per version (2 slowed by 10%%, 2 by 25%%, 4 unchanged); %s slices, %d suite runs × %d slices; default rule (%s, %.0f%%, %.0f%% CI)\n\n",
		seeds, len(regressBenchmarks), slice, s, d, e.opts.Rule, 100*e.opts.Threshold, 100*e.opts.Confidence)
	fmt.Println("| method | false alarms, CPU-bound | false alarms, allocating | +10% found, CPU | +10% found, alloc | +25% found, CPU | +25% found, alloc |")
	fmt.Println("|---|--:|--:|--:|--:|--:|--:|")
	fmt.Println(e.aa.row("A/A: `run --baseline HEAD` (interleaved)"))
	fmt.Println(e.inter.row("`run --baseline HEAD~1` (interleaved)"))
	fmt.Println(e.seq.row("two sequential runs + `compare`"))
	fmt.Printf("\nThe default dynamic configuration (default criterion, %d slices, default caps), `run --baseline HEAD~1`:\n\n", d)
	fmt.Println("| method | wall, all seeds | false alarms, CPU-bound | false alarms, allocating | +10% found, CPU | +10% found, alloc | +25% found, CPU | +25% found, alloc |")
	fmt.Println("|---|--:|--:|--:|--:|--:|--:|--:|")
	seconds := func(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }
	fmt.Println(e.early.row(fmt.Sprintf("`--sequential` (default; %d of %d pairs decided early)", e.settledPairs, seeds*len(regressBenchmarks)), seconds(e.earlyWall)))
	fmt.Println(e.late.row("`--sequential=false`", seconds(e.lateWall)))
}

// pairedOptions returns opts for the halves of one run --baseline file:
// paired by suite run, with the sequential looks its header records.
func pairedOptions(opts gate.Options, r *record.Run) gate.Options {
	opts = gate.FromHeader(r.Header, opts)
	opts.Paired = true
	return opts
}
