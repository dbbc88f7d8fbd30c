package history

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The evaluation of docs/HISTORY.md. It is off by default: it installs
// Apache Otava from PyPI into a virtual environment and runs it on the
// same series as this package's methods.
//
//	go test ./internal/history -run TestEvaluation -eval -eval-out /tmp/eval.md -timeout 60m
var (
	evalFlag = flag.Bool("eval", false, "run the evaluation of docs/HISTORY.md against Apache Otava (installs it from PyPI)")
	evalOut  = flag.String("eval-out", "", "write the evaluation's tables to `FILE`")
	evalVenv = flag.String("eval-venv", "", "Python virtual environment to install Otava into and reuse (default: a temporary one)")
	evalN    = flag.Int("eval-series", 200, "series per configuration")
)

// otavaVersion is the release compared against.
const otavaVersion = "0.8.0"

// otavaScript runs Otava's analysis (compute_change_points, what
// "otava analyze" runs on each metric, at its defaults: window 50,
// max_pvalue 0.001, min_magnitude 0) on each series read as a JSON line
// {"id", "values", "pvalue"} and writes {"id", "cps", "seconds"}.
const otavaScript = `
import json, sys, time
from otava.analysis import compute_change_points
for line in sys.stdin:
    s = json.loads(line)
    t0 = time.perf_counter()
    cps, _ = compute_change_points(s["values"], window_len=50, max_pvalue=s.get("pvalue", 0.001), min_magnitude=0.0)
    dt = time.perf_counter() - t0
    idx = sorted(set(int(c.index) for c in cps))
    print(json.dumps({"id": s["id"], "cps": idx, "seconds": dt}), flush=True)
`

// otava runs Apache Otava on series, returning the change points of each
// and the seconds it took on each.
type otavaRunner struct {
	python string
	dir    string
}

func newOtava(t *testing.T) *otavaRunner {
	venv := *evalVenv
	if venv == "" {
		venv = filepath.Join(t.TempDir(), "venv")
	}
	py := filepath.Join(venv, "bin", "python")
	if _, err := os.Stat(py); err != nil {
		out, err := exec.Command("python3", "-m", "venv", venv).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	out, err := exec.Command(py, "-m", "pip", "install", "-q", "apache-otava=="+otavaVersion).CombinedOutput()
	require.NoError(t, err, "pip install apache-otava: %s", out)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "run_otava.py"), []byte(otavaScript), 0o644))
	return &otavaRunner{python: py, dir: dir}
}

type otavaResult struct {
	ID      int     `json:"id"`
	CPs     []int   `json:"cps"`
	Seconds float64 `json:"seconds"`
}

func (o *otavaRunner) run(t *testing.T, series [][]float64, pvalue float64) []otavaResult {
	in := filepath.Join(o.dir, "in.jsonl")
	f, err := os.Create(in)
	require.NoError(t, err)
	w := bufio.NewWriter(f)
	for i, s := range series {
		b, _ := json.Marshal(map[string]any{"id": i, "values": s, "pvalue": pvalue})
		w.Write(b)
		w.WriteByte('\n')
	}
	require.NoError(t, w.Flush())
	require.NoError(t, f.Close())
	stdin, err := os.Open(in)
	require.NoError(t, err)
	defer stdin.Close()
	cmd := exec.Command(o.python, filepath.Join(o.dir, "run_otava.py"))
	cmd.Stdin = stdin
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "otava: %s", stderr.String())
	res := make([]otavaResult, len(series))
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		var r otavaResult
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		res[r.ID] = r
	}
	return res
}

// The noise levels of the synthetic series, after the raw runs of
// docs/EVALUATION.md: on this shared 2-core VM process means spread
// 5–15% and a run's median interval is ±5–8%; runs minutes apart shift
// by about 2%, and now and then by much more.
var noises = []noise{
	{Name: "quiet", Run: 0.005, Process: 0.02, Processes: 10},
	{Name: "typical", Run: 0.01, Process: 0.05, Processes: 10, Tail: 0.01},
	{Name: "noisy", Run: 0.02, Process: 0.10, Processes: 5, Tail: 0.02},
}

var stepSizes = []float64{0.02, 0.05, 0.10}

const (
	evalLength    = 200 // commits per synthetic series
	evalTolerance = 2   // a change point found within this many commits of a true one counts
)

// score counts the change points found against the truth: each true
// change matched at most once, within the tolerance.
type score struct {
	truths, found, tp int
	points            int
	seconds           float64
}

func (s *score) add(truth, found []int, points int, seconds float64) {
	s.truths += len(truth)
	s.found += len(found)
	s.points += points
	s.seconds += seconds
	used := make([]bool, len(found))
	for _, c := range truth {
		for j, f := range found {
			if !used[j] && abs(f-c) <= evalTolerance {
				used[j] = true
				s.tp++
				break
			}
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (s score) recall() float64 { return float64(s.tp) / float64(max(s.truths, 1)) }
func (s score) precision() float64 {
	if s.found == 0 {
		return math.NaN()
	}
	return float64(s.tp) / float64(s.found)
}
func (s score) fpPer1000() float64 { return 1000 * float64(s.found-s.tp) / float64(max(s.points, 1)) }

func indexes(cps []ChangePoint) []int {
	out := make([]int, len(cps))
	for i, c := range cps {
		out[i] = c.Index
	}
	return out
}

// stepSet returns the synthetic series of one noise level and step
// size: two changes each, at least 40 commits apart and 25 from the ends,
// up or down at random.
func stepSet(nz noise, step float64, n int, seed uint64) []truth {
	rng := rand.New(rand.NewPCG(seed, uint64(1000*step)+uint64(len(nz.Name))))
	var out []truth
	for i := range n {
		var at []int
		for {
			a, b := 25+rng.IntN(evalLength-50), 25+rng.IntN(evalLength-50)
			if abs(a-b) >= 40 {
				at = []int{min(a, b), max(a, b)}
				break
			}
		}
		steps := []float64{step * sign(rng), step * sign(rng)}
		out = append(out, synth(fmt.Sprintf("%s-%g-%d", nz.Name, step, i), evalLength, at, steps, nz, rng))
	}
	return out
}

func nullSet(nz noise, n int, seed uint64) []truth {
	rng := rand.New(rand.NewPCG(seed, 7+uint64(len(nz.Name))))
	var out []truth
	for i := range n {
		out = append(out, synth(fmt.Sprintf("%s-null-%d", nz.Name, i), evalLength, nil, nil, nz, rng))
	}
	return out
}

func means(s *Series) []float64 {
	out := make([]float64, len(s.Points))
	for i, p := range s.Points {
		out[i] = p.Mean
	}
	return out
}

type evalReport struct{ b strings.Builder }

func (r *evalReport) printf(format string, args ...any) { fmt.Fprintf(&r.b, format, args...) }

func TestEvaluation(t *testing.T) {
	if !*evalFlag {
		t.Skip("the evaluation against Apache Otava runs with -eval")
	}
	ot := newOtava(t)
	rep := &evalReport{}
	rep.printf("Generated by `go test ./internal/history -run TestEvaluation -eval -eval-series %d` on %s.\n\n", *evalN, time.Now().UTC().Format("2006-01-02"))
	evalSteps(t, ot, rep)
	evalSweep(t, rep)
	evalDelay(t, ot, rep)
	evalGenerators(t, ot, rep)
	if *evalOut != "" {
		require.NoError(t, os.WriteFile(*evalOut, []byte(rep.b.String()), 0o644))
	}
	t.Log("\n" + rep.b.String())
}

type method struct {
	name string
	run  func(s *Series) []int
}

func goMethods() []method {
	return []method{
		{"gobench-dyn weighted", func(s *Series) []int { return indexes(Detect(s, DefaultOptions())) }},
		{"Otava's analysis in Go", func(s *Series) []int { return indexes(Detect(s, Options{Method: MethodOtava})) }},
	}
}

// evalSteps scores every method on the step series and the null series of
// each noise level.
func evalSteps(t *testing.T, ot *otavaRunner, rep *evalReport) {
	rep.printf("### Steps of 2%%, 5%% and 10%%\n\n")
	rep.printf("%d series of %d commits per row, two steps each (up or down at random, at least 40 commits apart), plus %d series without a change per noise level for the false change points; a change point found within ±%d commits of a true one counts.\n\n", *evalN, evalLength, *evalN, evalTolerance)
	rep.printf("| noise | step | method | recall | precision | false per 1,000 benchmark-commits | time per series |\n|---|--:|---|--:|--:|--:|--:|\n")
	agree, total := 0, 0
	for _, nz := range noises {
		null := nullSet(nz, *evalN, 99)
		for _, step := range stepSizes {
			set := append(stepSet(nz, step, *evalN, 1), null...)
			vals := make([][]float64, len(set))
			for i, tr := range set {
				vals[i] = means(tr.Series)
			}
			py := ot.run(t, vals, DefaultPValue)
			scores := map[string]*score{}
			var names []string
			for _, m := range goMethods() {
				sc := &score{}
				for i, tr := range set {
					t0 := time.Now()
					found := m.run(tr.Series)
					sc.add(tr.Changes, found, len(tr.Series.Points), time.Since(t0).Seconds())
					if m.name == "Otava's analysis in Go" {
						total++
						if slices.Equal(found, py[i].CPs) || len(found) == 0 && len(py[i].CPs) == 0 {
							agree++
						}
					}
				}
				scores[m.name] = sc
				names = append(names, m.name)
			}
			sc := &score{}
			for i, tr := range set {
				sc.add(tr.Changes, py[i].CPs, len(tr.Series.Points), py[i].Seconds)
			}
			name := "Apache Otava " + otavaVersion
			scores[name] = sc
			names = append(names, name)
			for _, n := range names {
				s := scores[n]
				rep.printf("| %s | %g%% | %s | %.1f%% | %.1f%% | %.2f | %s |\n", nz.Name, 100*step, n, 100*s.recall(), 100*s.precision(), s.fpPer1000(), fmtSeconds(s.seconds/float64(len(set))))
			}
		}
	}
	rep.printf("\nOtava's analysis in Go found the same change points as Apache Otava %s on %d of %d series.\n\n", otavaVersion, agree, total)
}

func fmtSeconds(s float64) string {
	switch {
	case s < 1e-3:
		return fmt.Sprintf("%.0f µs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.1f ms", s*1e3)
	}
	return fmt.Sprintf("%.2f s", s)
}

// evalSweep compares the two methods at equal recall: the p-value of
// each is swept, and the false change points at each recall reached
// are listed.
func evalSweep(t *testing.T, rep *evalReport) {
	rep.printf("### Equal recall: the p-value swept, 5%% steps\n\n")
	rep.printf("| noise | p-value | weighted: recall | weighted: false per 1,000 | Otava: recall | Otava: false per 1,000 |\n|---|--:|--:|--:|--:|--:|\n")
	for _, nz := range noises {
		set := append(stepSet(nz, 0.05, *evalN, 1), nullSet(nz, *evalN, 99)...)
		for _, p := range []float64{1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-8} {
			var w, o score
			for _, tr := range set {
				w.add(tr.Changes, indexes(Detect(tr.Series, Options{Method: MethodWeighted, PValue: p})), len(tr.Series.Points), 0)
				o.add(tr.Changes, indexes(Detect(tr.Series, Options{Method: MethodOtava, PValue: p})), len(tr.Series.Points), 0)
			}
			rep.printf("| %s | %g | %.1f%% | %.2f | %.1f%% | %.2f |\n", nz.Name, p, 100*w.recall(), w.fpPer1000(), 100*o.recall(), o.fpPer1000())
		}
	}
	rep.printf("\n")
}

// evalDelay measures how many commits at the new level each method
// needs before it reports a change at the right place: the analysis runs
// on the history up to the change and k more commits.
func evalDelay(t *testing.T, ot *otavaRunner, rep *evalReport) {
	const maxK = 12
	rep.printf("### Delay: commits at the new level until the change is found\n\n")
	rep.printf("The first of the two changes of %d series per row; the history is cut k commits after the change (k = 1: the changed commit is the last one), for k up to %d; \"never\" counts those not found by then.\n\n", *evalN/4, maxK)
	rep.printf("| noise | step | method | median k | 90th percentile k | never |\n|---|--:|---|--:|--:|--:|\n")
	for _, nz := range noises {
		for _, step := range stepSizes[1:] {
			set := stepSet(nz, step, *evalN/4, 1)
			var prefixes [][]float64
			type probe struct{ series, k int }
			var probes []probe
			delays := map[string][]int{}
			for _, m := range goMethods() {
				for _, tr := range set {
					c := tr.Changes[0]
					d := maxK + 1
					for k := 1; k <= maxK; k++ {
						s := &Series{Key: tr.Series.Key, Points: tr.Series.Points[:c+k]}
						if near(m.run(s), c) {
							d = k
							break
						}
					}
					delays[m.name] = append(delays[m.name], d)
				}
			}
			for i, tr := range set {
				c := tr.Changes[0]
				for k := 1; k <= maxK; k++ {
					prefixes = append(prefixes, means(tr.Series)[:c+k])
					probes = append(probes, probe{i, k})
				}
			}
			py := ot.run(t, prefixes, DefaultPValue)
			first := map[int]int{}
			for j, pr := range probes {
				if _, ok := first[pr.series]; !ok && near(py[j].CPs, set[pr.series].Changes[0]) {
					first[pr.series] = pr.k
				}
			}
			name := "Apache Otava " + otavaVersion
			for i := range set {
				d, ok := first[i]
				if !ok {
					d = maxK + 1
				}
				delays[name] = append(delays[name], d)
			}
			for _, n := range []string{goMethods()[0].name, goMethods()[1].name, name} {
				ds := delays[n]
				sort.Ints(ds)
				never := 0
				for _, d := range ds {
					if d > maxK {
						never++
					}
				}
				rep.printf("| %s | %g%% | %s | %s | %s | %d of %d |\n", nz.Name, 100*step, n, kOf(ds[len(ds)/2], maxK), kOf(ds[(len(ds)*9)/10], maxK), never, len(ds))
			}
		}
	}
	rep.printf("\n")
}

func kOf(k, maxK int) string {
	if k > maxK {
		return "never"
	}
	return fmt.Sprint(k)
}

func near(found []int, c int) bool {
	for _, f := range found {
		if abs(f-c) <= evalTolerance {
			return true
		}
	}
	return false
}

// evalGenerators runs the methods on the patterns of otava-test-data,
// reimplemented in otavagen_test.go from its published description.
func evalGenerators(t *testing.T, ot *otavaRunner, rep *evalReport) {
	const seeds = 20
	rep.printf("### The patterns of otava-test-data\n\n")
	rep.printf("Each pattern at length 500 with %d seeds, at the generators' default values and noise σ = 5 on a level of 100 (see otavagen_test.go); the points carry no interval, so the weighted method weighs them alike. Level changes are the truth; an outlier, a change of variance or of phase is none, and whatever is found there counts as false.\n\n", seeds)
	rep.printf("| pattern | true changes | method | found | recall | false per 1,000 |\n|---|--:|---|--:|--:|--:|\n")
	for _, g := range otavaGenerators() {
		var set []truth
		for seed := range seeds {
			set = append(set, g.gen(500, uint64(seed)))
		}
		vals := make([][]float64, len(set))
		for i, tr := range set {
			vals[i] = means(tr.Series)
		}
		py := ot.run(t, vals, DefaultPValue)
		truths := 0
		for _, tr := range set {
			truths += len(tr.Changes)
		}
		for _, m := range goMethods() {
			var sc score
			for _, tr := range set {
				sc.add(tr.Changes, m.run(tr.Series), len(tr.Series.Points), 0)
			}
			rep.printf("| %s | %d | %s | %d | %s | %.2f |\n", g.name, truths, m.name, sc.found, recallOf(sc), sc.fpPer1000())
		}
		var sc score
		for i, tr := range set {
			sc.add(tr.Changes, py[i].CPs, len(tr.Series.Points), 0)
		}
		rep.printf("| %s | %d | Apache Otava %s | %d | %s | %.2f |\n", g.name, truths, otavaVersion, sc.found, recallOf(sc), sc.fpPer1000())
	}
	rep.printf("\n")
}

func recallOf(s score) string {
	if s.truths == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f%%", 100*s.recall())
}

var (
	evalScale      = flag.Bool("eval-scale", false, "measure the analysis of 10,000 benchmarks × 1,000 commits (docs/HISTORY.md)")
	evalScaleStore = flag.String("eval-scale-store", "", "with -eval-scale, write the store to `FILE`, or analyse it again when it exists")
)

// scaleHelperEnv makes the test binary analyse the store it names and
// print the time the analysis took and the peak memory of the process,
// so that the measurement holds nothing of the store's making.
const scaleHelperEnv = "HISTORY_TEST_SCALE_STORE"

// TestScale measures history on 10,000 benchmarks × 1,000 commits: a
// store is written with that many entries (each benchmark a random walk
// of levels with a step now and then, under the typical noise), then a
// fresh process analyses it, and fails if that took more than the goals
// of docs/HISTORY.md, 60 s and 1 GiB.
//
//	go test ./internal/history -run TestScale -eval-scale -v -timeout 60m
func TestScale(t *testing.T) {
	if path := os.Getenv(scaleHelperEnv); path != "" {
		scaleHelper(t, path)
		return
	}
	if !*evalScale {
		t.Skip("the scale measurement runs with -eval-scale")
	}
	const benches, commits = 10000, 1000
	path := *evalScaleStore
	if path == "" {
		path = filepath.Join(t.TempDir(), "scale.db")
	}
	if _, err := os.Stat(path); err == nil {
		analyseScale(t, path)
		return
	}
	s, err := Open(path)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(11, 12))
	level := make([]float64, benches)
	for i := range level {
		level[i] = 100 * math.Exp(4*rng.Float64())
	}
	t0 := time.Now()
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	nz := noises[1]
	for c := range commits {
		es := make([]Entry, benches)
		for b := range es {
			if rng.Float64() < 0.002 {
				level[b] *= 1 + 0.1*sign(rng)
			}
			m := level[b] * math.Exp(nz.Run*rng.NormFloat64())
			h := 1.96 * m * nz.Process / math.Sqrt(float64(nz.Processes))
			es[b] = Entry{Commit: fmt.Sprintf("%040x", c), CommitTime: at.Add(time.Duration(c) * time.Hour), Branch: "main", Machine: "ci",
				Parents: parentOf(c), Position: c + 1,
				Package: "example.com/p", Benchmark: fmt.Sprintf("BenchmarkB%05d-2", b), Unit: "ns/op",
				Mean: m, Lo: m - h, Hi: m + h, Confidence: 0.95, Processes: nz.Processes, AllocsPerOp: 3, BytesPerOp: 128}
		}
		_, err := s.Add(context.Background(), es)
		require.NoError(t, err)
	}
	require.NoError(t, s.Close())
	fi, err := os.Stat(path)
	require.NoError(t, err)
	t.Logf("wrote %d entries in %s; store %.0f MiB", benches*commits, time.Since(t0).Round(time.Second), float64(fi.Size())/(1<<20))
	analyseScale(t, path)
}

// parentOf returns the parents of the scale history's commit c, a line
// of commits each the parent of the next.
func parentOf(c int) []string {
	if c == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%040x", c-1)}
}

// analyseScale analyses the store at path in a fresh process.
func analyseScale(t *testing.T, path string) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestScale$", "-test.v")
	cmd.Env = append(os.Environ(), scaleHelperEnv+"="+path)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	t.Logf("analysis:\n%s", out)
}

func scaleHelper(t *testing.T, path string) {
	s, err := Open(path)
	require.NoError(t, err)
	defer s.Close()
	t0 := time.Now()
	a, err := Analyze(context.Background(), s, Query{}, DefaultOptions())
	require.NoError(t, err)
	el := time.Since(t0)
	status, _ := os.ReadFile("/proc/self/status")
	peak := ""
	for _, l := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			peak = strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:"))
		}
	}
	fmt.Printf("SCALE series=%d points=%d change_points=%d elapsed=%s peak_rss=%s\n", a.Series, a.Points, len(a.ChangePoints()), el.Round(10*time.Millisecond), peak)
	// The goals of docs/HISTORY.md: this is a measurement, run by hand on
	// a quiet machine, never in CI.
	var kB int
	_, err = fmt.Sscanf(peak, "%d kB", &kB)
	require.NoError(t, err, "VmHWM %q", peak)
	require.LessOrEqual(t, el, time.Minute, "the analysis took longer than the goal")
	require.LessOrEqual(t, kB, 1<<20, "the analysis's peak memory exceeds the goal of 1 GiB")
}
