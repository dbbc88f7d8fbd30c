package main

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/inject"
	"github.com/gobench-dyn/gobench-dyn/internal/overlay"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// An injectTarget is a function of a real suite's module slowed in the
// evaluation, and the benchmarks whose time it dominates.
type injectTarget struct {
	file, name, kind string
	// match selects, by name without the GOMAXPROCS suffix, the
	// benchmarks the function dominates; the other benchmarks run are
	// unchanged controls.
	match *regexp.Regexp
}

// An injectSuite is a real suite of the injected-slowdown evaluation: the
// functions slowed, and the benchmarks run.
type injectSuite struct {
	key string // in realSuites
	// bench selects the benchmarks the targets dominate and the
	// controls, as go test -bench reads it.
	bench   string
	targets []injectTarget
}

// injectSuites are the suites -inject knows, by -suite name. In go-toml,
// Unmarshal is CPU-bound and the encoder's benchmarks allocate on every
// call; in expfmt, the text parser allocates (about 5 times as much as
// the protobuf one, by its own benchmarks' comments) and
// MetricFamilyToText writes into a buffer the benchmark reuses; in
// gonum's stat, Mean and MomentAbout sum 100,000 values without
// allocating, and neither calls the other. Every slowed call lasts
// microseconds or more, so that the clock the slowing reads at its entry
// and exit adds far less than the smallest slowdown.
var injectSuites = map[string]injectSuite{
	"toml": {"toml", "^Benchmark(Unmarshal|Marshal)$/^ReferenceFile$/", []injectTarget{
		{"unmarshaler.go", "Unmarshal", "CPU-bound", regexp.MustCompile(`^BenchmarkUnmarshal/`)},
		{"marshaler.go", "Encoder.Encode", "allocating", regexp.MustCompile(`^BenchmarkMarshal/`)},
	}},
	"expfmt": {"expfmt", "^Benchmark(ParseText|Create)$", []injectTarget{
		{"expfmt/text_create.go", "MetricFamilyToText", "CPU-bound", regexp.MustCompile(`^BenchmarkCreate$`)},
		{"expfmt/text_parse.go", "TextParser.TextToMetricFamilies", "allocating", regexp.MustCompile(`^BenchmarkParseText$`)},
	}},
	"stat": {"stat", "^Benchmark(Mean|MomentAbout)Large$", []injectTarget{
		{"stat/stat.go", "Mean", "CPU-bound", regexp.MustCompile(`^BenchmarkMeanLarge$`)},
		{"stat/stat.go", "MomentAbout", "CPU-bound", regexp.MustCompile(`^BenchmarkMomentAboutLarge$`)},
	}},
}

// The workflows the evaluation compares.
const (
	wfSlice     = "slice"     // run --baseline, paired slice by slice (the default)
	wfProcess   = "process"   // run --baseline --pairing process
	wfBenchstat = "benchstat" // go test -count on each version, then benchstat's U test
	// wfDiscovery is the slice-paired gate's verdicts as its looks found
	// them, before the confirmation measured the changes again: what
	// run --baseline --confirm=false reports, read from the same run.
	wfDiscovery = "discovery"
)

// injection holds the settings of the injected-slowdown evaluation.
type injection struct {
	suites   []injectSuite
	bin, out string
	slice    time.Duration
	factors  []float64
	seeds    int
	goSeeds  int // the seeds that also run go test, the slowest workflow
	// processSeeds are the seeds that also run the process-paired gate.
	processSeeds int
	count        int
	benchtime    string
}

// evaluate brings each suite in through the module proxy, copies its
// source into a git repository that replaces the module (go build does
// not overlay files in the module cache), and for every target, factor
// and seed runs the three workflows one after the other, in an order that
// rotates from seed to seed, so that drift of the machine falls on each
// alike: the gate paired slice by slice and paired process by process
// (run --baseline HEAD, the head built with the slowing overlay), and
// the usual workflow (go test -count on the base, then on the head with
// the overlay, then benchstat's U test).
func (in injection) evaluate() error {
	fmt.Fprintf(os.Stderr, "eval: raw files in %s\n", in.out)
	t := newInjectTally()
	step := 0
	for _, su := range in.suites {
		rs := realSuites[su.key]
		repo := filepath.Join(in.out, su.key+"-repo")
		if err := injectRepo(repo, rs); err != nil {
			return err
		}
		for _, tg := range su.targets {
			for _, v := range in.factors {
				ov := filepath.Join(in.out, fmt.Sprintf("overlay-%s-%s-%g", su.key, tg.name, v))
				if err := os.MkdirAll(ov, 0o755); err != nil {
					return err
				}
				files, err := inject.Files(filepath.Join(repo, "mod", tg.file), tg.name, v)
				if err != nil {
					return err
				}
				slowed, err := overlay.Write(ov, files, "")
				if err != nil {
					return err
				}
				if v == 0 {
					// A/A: the same code on both sides. Slowing by a
					// factor of 0 would still add the clock reads of the
					// slowing, a real change in a short function.
					slowed = ""
				}
				key := injectKey{su.key, tg.name, v}
				for seed := 1; seed <= in.seeds; seed++ {
					fmt.Fprintf(os.Stderr, "eval: %s: inject %s ×%g, seed %d of %d (%s)\n", su.key, tg.name, 1+v, seed, in.seeds, time.Now().UTC().Format("15:04:05"))
					steps := []func() error{
						func() error { return in.gate(t, key, su, tg, wfSlice, repo, slowed, seed) },
					}
					if seed <= in.processSeeds {
						steps = append(steps, func() error { return in.gate(t, key, su, tg, wfProcess, repo, slowed, seed) })
					}
					if seed <= in.goSeeds {
						steps = append(steps, func() error { return in.goTest(t, key, su, tg, repo, slowed) })
					}
					step++
					for i := range steps {
						if err := steps[(i+step)%len(steps)](); err != nil {
							return err
						}
					}
				}
				// The table so far, so that a run cut short keeps its figures.
				fmt.Fprint(os.Stderr, t.table(in.suites))
			}
		}
	}
	var names []string
	for _, su := range in.suites {
		rs := realSuites[su.key]
		names = append(names, fmt.Sprintf("%s %s (%s)", rs.module, rs.version, su.bench))
	}
	fmt.Printf("\n%s; %d seeds (go test on %d, process-paired on %d); gate: `run --baseline HEAD --overlay`, default flags, --pairing slice or process (slices of %s); usual: `go test -count %d -benchtime %s` on each version + benchmath U test, α = 0.05\n\n",
		strings.Join(names, ", "), in.seeds, in.goSeeds, in.processSeeds, in.slice, in.count, in.benchtime)
	fmt.Print(t.table(in.suites))
	fmt.Print("\n", t.goals(in.suites))
	return nil
}

// injectRepo makes a git repository in dir holding a module that requires
// the suite's module and replaces it with a writable copy of its source
// in dir/mod, committed, so that the baseline is HEAD and the head is the
// same tree built with an overlay.
func injectRepo(dir string, rs realSuite) error {
	if err := scratchModule(dir, rs); err != nil {
		return err
	}
	goCmd := func(args ...string) ([]byte, error) {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("go %v: %w", args, err)
		}
		return out, nil
	}
	src, err := goCmd("list", "-m", "-f", "{{.Dir}}", rs.module)
	if err != nil {
		return err
	}
	if err := os.CopyFS(filepath.Join(dir, "mod"), os.DirFS(strings.TrimSpace(string(src)))); err != nil {
		return err
	}
	if _, err := goCmd("mod", "edit", "-replace", rs.module+"=./mod"); err != nil {
		return err
	}
	if _, err := goCmd("list", "-test", "-deps", rs.pkg); err != nil {
		return err
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "copy of " + rs.module}} {
		if err := gitIn(dir, args...); err != nil {
			return err
		}
	}
	return nil
}

// affects says whether target tg dominates benchmark bench, named without
// its GOMAXPROCS suffix.
func (tg injectTarget) affects(bench string) bool {
	return tg.match.MatchString("Benchmark" + strings.TrimPrefix(bench, "Benchmark"))
}

// gate runs gobench-dyn's paired comparison of HEAD against the overlaid
// head with the default flags and the pairing of workflow wf.
func (in injection) gate(t *injectTally, key injectKey, su injectSuite, tg injectTarget, wf, repo, slowed string, seed int) error {
	raw := filepath.Join(in.out, fmt.Sprintf("%s-%s-%s-%g-%d.jsonl", wf, su.key, tg.name, key.v, seed))
	args := []string{"run", "--baseline", "HEAD", "--bench", su.bench, "--pairing", wf,
		"--slice-time", in.slice.String(), "--seed", strconv.Itoa(seed), "--raw", raw, "--progress", "off", "-o", os.DevNull}
	if slowed != "" {
		args = append(args, "--overlay", slowed)
	}
	args = append(args, realSuites[su.key].pkg)
	start := time.Now()
	cmd := exec.Command(in.bin, args...)
	cmd.Dir = repo
	if b, err := cmd.CombinedOutput(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			return fmt.Errorf("gobench-dyn %v: %w\n%s", args, err, b)
		}
	}
	t.addTime(key, wf, time.Since(start))
	r, _, err := record.ReadFile(raw)
	if err != nil {
		return err
	}
	old, head := gate.Split(r)
	res, err := gate.Runs(old, head, pairedOptions(gate.DefaultOptions(), r))
	if err != nil {
		return err
	}
	for _, c := range timeComparisons(res) {
		affected := tg.affects(trimProcs(c.Benchmark))
		t.add(key, wf, affected, string(c.Verdict))
		pairs := c.Units
		if c.Confirmation != nil {
			pairs += c.Confirmation.Pairs
		}
		t.addPairs(key, wf, pairs)
		if wf == wfSlice {
			t.add(key, wfDiscovery, affected, string(discovered(c).Verdict))
			t.addPairs(key, wfDiscovery, c.Units)
		}
		if affected {
			t.addSpread(key, wf, unitSpread(old, head, record.Bench{Package: c.Package, Benchmark: c.Benchmark}))
		}
	}
	return nil
}

// unitSpread returns the standard deviation of the units a paired
// comparison of bench rests on: the mean log ratio of the slice pairs of
// each process pair of a duet, or the log ratio of the process means of
// each suite run both versions ran; NaN with fewer than two.
func unitSpread(old, head *record.Run, bench record.Bench) float64 {
	type unit struct {
		inst    string
		sr, itn int
	}
	b := old.Series(record.Key{Bench: bench, Version: record.VersionBaseline}, "ns/op")
	h := head.Series(record.Key{Bench: bench}, "ns/op")
	logMean := func(xs []float64) float64 { return math.Log(stat.Mean(xs, nil)) }
	var d []float64
	if len(h) > 0 && h[0].Duet {
		byUnit := map[unit][]float64{}
		for _, it := range b {
			byUnit[unit{it.Instance, it.SuiteRun, it.Iteration}] = it.Values
		}
		for _, it := range h {
			bv := byUnit[unit{it.Instance, it.SuiteRun, it.Iteration}]
			if len(bv) != len(it.Values) || len(bv) == 0 {
				continue
			}
			var s float64
			for j := range bv {
				s += math.Log(it.Values[j] / bv[j])
			}
			d = append(d, s/float64(len(bv)))
		}
	} else {
		bySR := map[int][]float64{}
		for _, it := range b {
			bySR[it.SuiteRun] = append(bySR[it.SuiteRun], it.Values...)
		}
		hs := map[int][]float64{}
		for _, it := range h {
			hs[it.SuiteRun] = append(hs[it.SuiteRun], it.Values...)
		}
		for k, hv := range hs {
			if bv := bySR[k]; len(bv) > 0 && len(hv) > 0 {
				d = append(d, logMean(hv)-logMean(bv))
			}
		}
	}
	if len(d) < 2 {
		return math.NaN()
	}
	return stat.StdDev(d, nil)
}

// discovered returns c as the looks left it, before its confirmation:
// a change that fresh pairs did not confirm is the change the looks
// found. Its Units are already the looks' pairs.
func discovered(c gate.Comparison) gate.Comparison {
	if c.Confirmation != nil && !c.Confirmation.Confirmed {
		up := c.Ratio.Center > 1
		c.Verdict = gate.Improvement
		if up == (c.Better < 0) {
			c.Verdict = gate.Regression
		}
	}
	return c
}

// timeComparisons returns the comparisons of time per operation.
func timeComparisons(res *gate.Result) []gate.Comparison {
	var out []gate.Comparison
	for _, c := range res.Comparisons {
		if c.Unit == "sec/op" || c.Unit == "ns/op" {
			out = append(out, c)
		}
	}
	return out
}

// goTest runs the usual workflow: go test -count on the base, then on
// the head with the overlay, then benchstat's comparison of the two.
func (in injection) goTest(t *injectTally, key injectKey, su injectSuite, tg injectTarget, repo, slowed string) error {
	start := time.Now()
	var runs [2]*record.Run
	slowedArgs := []string{"-overlay", slowed}
	if slowed == "" {
		slowedArgs = nil
	}
	for i, extra := range [][]string{nil, slowedArgs} {
		args := append([]string{"test", "-run", "^$", "-bench", su.bench, "-count", strconv.Itoa(in.count),
			"-benchtime", in.benchtime}, extra...)
		args = append(args, realSuites[su.key].pkg)
		cmd := exec.Command("go", args...)
		cmd.Dir = repo
		out, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("go %v: %w\n%s", args, err, out)
		}
		if runs[i], err = parseGoTest(out); err != nil {
			return err
		}
	}
	t.addTime(key, wfBenchstat, time.Since(start))
	base, head := nsPerOp(runs[0]), nsPerOp(runs[1])
	for name, o := range base {
		if n, ok := head[name]; ok {
			t.add(key, wfBenchstat, tg.affects(name), benchstatVerdict(o, n))
		}
	}
	return nil
}

// nsPerOp returns each benchmark's ns/op values, keyed by name without
// the GOMAXPROCS suffix.
func nsPerOp(r *record.Run) map[string][]float64 {
	m := map[string][]float64{}
	for _, s := range r.Slices {
		if v, ok := s.Values["ns/op"]; ok {
			name := trimProcs(s.Benchmark)
			m[name] = append(m[name], v)
		}
	}
	return m
}

// trimProcs drops a benchmark name's -GOMAXPROCS suffix.
func trimProcs(name string) string {
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			return name[:i]
		}
	}
	return name
}
