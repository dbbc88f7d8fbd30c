// Command eval measures, in one session on one machine, what gobench-dyn
// saves against a full static run of a suite and what it costs in result
// quality, beside plain go test -count for the same number of samples.
//
//	go run ./internal/eval                                  # the bundled examples
//	go run ./internal/eval -dir /path/to/module ./pkg/...   # another suite
//
// Every method runs the same packages with the same slice time, one after
// the other, so they share the machine's noise as far as sequential runs
// can. Figures are printed as a Markdown table: wall time, time saved
// against the full run, the share of benchmarks whose mean lies within 1%,
// 3% and 5% of the full run's, the A/A share (the 99% bootstrap CI of the
// ratio of means straddles 1), and the time spent computing criteria.
//
// With -interleave, sequential runs give way to one schedule in rounds:
// the reference runs twice (A and B), the methods between, each round in
// its own seeded shuffled order, so that drift of the machine falls on
// every method alike, and A against B is printed beside every method as
// the noise floor.
//
// With -inject, go-toml's (or with -suite expfmt, prometheus/common's)
// source is copied into a scratch repository and
// chosen functions are slowed through go test -overlay (package inject);
// the gate (run --baseline) and go test -count on both versions plus
// benchstat's U test judge every slowdown side by side.
package main

import (
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

func main() {
	f := &evalFlags{}
	f.slice = flag.Duration("slice", 50*time.Millisecond, "slice time of every method")
	f.suiteRuns = flag.Int("s", 3, "suite runs of the full run")
	f.iterations = flag.Int("i", 5, "iterations per suite run of the full run")
	f.slices = flag.Int("d", 5, "measurement slices per iteration of the full run")
	f.dir = flag.String("dir", ".", "module directory the packages are resolved in")
	f.out = flag.String("out", "", "directory for the raw files (default: a temporary one)")
	f.bench = flag.String("bench", ".", "benchmarks to run")
	f.methods = flag.String("methods", "rciw,precision,cv,kld,static,config,gotest", "comma-separated methods besides the full run: a --stop criterion, static (gobench-dyn's default caps with --stop none), config (optimize, then run --config) or gotest")
	f.regress = flag.Int("regress", 0, "instead, measure regression detection over this many seeds")
	f.suite = flag.String("suite", "", "a real suite to bring in through the module proxy instead: toml, zap, expfmt or stat (with -inject, a comma-separated list)")
	f.scale = flag.Bool("scale", false, "instead, measure time and memory of the commands on synthetic suites of 100 to 10,000 benchmarks")
	f.scaleFiles = flag.String("scale-files", "100,1000,10000", "with -scale, the benchmark counts of the synthetic raw files (empty: none)")
	f.scaleRun = flag.String("scale-run", "100,1000", "with -scale, the sub-benchmark counts run live (empty: none)")
	f.interleave = flag.Bool("interleave", false, "instead, compare the default, --stop none and go test -count in one interleaved schedule against a reference run twice (its noise floor)")
	f.rounds = flag.Int("rounds", 3, "with -interleave, rounds of the schedule, each in its own shuffled order")
	f.refProcs = flag.Int("ref-procs", 10, "with -interleave, processes of each reference chunk (one chunk of A and one of B per round)")
	f.procCap = flag.Int("cap", 5, "with -interleave, the suite runs (processes) of the default's cap and of --stop none")
	f.also = flag.String("also", "", "with -interleave, gobench-dyn flags of a second setting of the default run in the same schedule, such as \"--min-iterations 6\"")
	f.target = flag.Float64("target", 0.03, "with -interleave, --stop interval's --target, and the ±x a benchmark must reach")
	f.injectMode = flag.Bool("inject", false, "instead, slow functions of go-toml, expfmt and gonum stat (or those -suite names) through go test -overlay and compare the gate, paired slice by slice and process by process, with go test -count + benchstat")
	f.factors = flag.String("factors", "0,0.03,0.05,0.10", "with -inject, comma-separated slowdowns v (0: A/A)")
	f.seeds = flag.Int("seeds", 2, "with -inject, seeds per function and slowdown")
	f.goSeeds = flag.Int("go-seeds", -1, "with -inject, the seeds that also run go test + benchstat, the slowest workflow (-1: all)")
	f.functions = flag.String("functions", "", "with -inject, the slowed functions to evaluate, comma-separated as the tables name them (empty: all of each suite)")
	f.processSeeds = flag.Int("process-seeds", -1, "with -inject, the seeds that also run the process-paired gate (-1: all)")
	f.count = flag.Int("count", 10, "with -inject, go test -count of the usual workflow")
	f.benchtime = flag.String("benchtime", "1s", "with -inject, go test -benchtime of the usual workflow")
	f.interfere = flag.Int("interfere", 0, "with -inject, goroutines that spin and rest in spells of 20 ms to 1 s beside every workflow, as a shared machine's neighbours do (0: none)")
	flag.Parse()
	os.Exit(f.run())
}

// evalFlags holds the command line of eval.
type evalFlags struct {
	slice        *time.Duration
	suiteRuns    *int
	iterations   *int
	slices       *int
	dir          *string
	out          *string
	bench        *string
	methods      *string
	regress      *int
	suite        *string
	scale        *bool
	scaleFiles   *string
	scaleRun     *string
	interleave   *bool
	also         *string
	rounds       *int
	refProcs     *int
	procCap      *int
	target       *float64
	injectMode   *bool
	factors      *string
	seeds        *int
	goSeeds      *int
	processSeeds *int
	functions    *string
	count        *int
	benchtime    *string
	interfere    *int
}

// run runs the mode the flags ask for and returns the exit status: 2 for
// bad flags, 1 for a failed evaluation.
func (f *evalFlags) run() int {
	var err error
	switch {
	case *f.injectMode:
		return f.runInject()
	case *f.scale:
		err = evaluateScaleMode(*f.out, *f.scaleFiles, *f.scaleRun)
	case *f.regress > 0:
		err = f.runRegress()
	default:
		return f.runSuite()
	}
	return exitStatus(err, 1)
}

// exitStatus prints err, if any, and returns code for it, 0 without it.
func exitStatus(err error, code int) int {
	if err == nil {
		return 0
	}
	fmt.Fprintln(os.Stderr, "eval:", err)
	return code
}

func (f *evalFlags) runInject() int {
	in := injection{slice: *f.slice, seeds: *f.seeds, goSeeds: *f.goSeeds, processSeeds: *f.processSeeds, count: *f.count, benchtime: *f.benchtime}
	if in.processSeeds < 0 {
		in.processSeeds = in.seeds
	}
	if in.goSeeds < 0 {
		in.goSeeds = in.seeds
	}
	for key := range strings.SplitSeq(cmp.Or(*f.suite, "toml,expfmt,stat"), ",") {
		su, ok := injectSuites[strings.TrimSpace(key)]
		if !ok {
			fmt.Fprintf(os.Stderr, "eval: -suite %q: -inject knows toml, expfmt and stat\n", key)
			return 2
		}
		if *f.functions != "" {
			names := strings.Split(*f.functions, ",")
			su.targets = slices.DeleteFunc(slices.Clone(su.targets), func(tg injectTarget) bool { return !slices.Contains(names, tg.name) })
			if len(su.targets) == 0 {
				fmt.Fprintf(os.Stderr, "eval: -functions %q: none is a function of suite %s\n", *f.functions, su.key)
				return 2
			}
		}
		in.suites = append(in.suites, su)
	}
	var err error
	if in.factors, err = parseFactors(*f.factors); err != nil || *f.seeds < 1 || *f.count < 2 {
		fmt.Fprintf(os.Stderr, "eval: -factors %q, -seeds %d, -count %d: want slowdowns in [0, 10), seeds ≥ 1, count ≥ 2\n", *f.factors, *f.seeds, *f.count)
		return 2
	}
	if *f.interfere < 0 {
		fmt.Fprintf(os.Stderr, "eval: -interfere %d: want 0 or more goroutines\n", *f.interfere)
		return 2
	}
	if *f.out != "" {
		in.out, err = *f.out, os.MkdirAll(*f.out, 0o755)
	} else {
		in.out, err = os.MkdirTemp("", "gobench-dyn-inject-")
	}
	if err == nil {
		if in.bin, err = buildTool(in.out); err == nil {
			if *f.interfere > 0 {
				stop := make(chan struct{})
				defer close(stop)
				go interfere(*f.interfere, 1, stop)
			}
			err = in.evaluate()
		}
	}
	return exitStatus(err, 1)
}

func (f *evalFlags) runRegress() error {
	out, err := os.MkdirTemp("", "gobench-dyn-eval-")
	if err != nil {
		return err
	}
	bin, err := buildTool(out)
	if err != nil {
		return err
	}
	return evaluateRegressions(bin, out, *f.regress, *f.slice, *f.suiteRuns, *f.slices)
}

// runSuite evaluates the methods on the examples, the packages named, or
// a real suite, one after the other or (-interleave) interleaved.
func (f *evalFlags) runSuite() int {
	pkgs := flag.Args()
	if *f.suite != "" {
		rs, ok := realSuites[*f.suite]
		if !ok {
			fmt.Fprintf(os.Stderr, "eval: -suite %q: want toml, zap or expfmt\n", *f.suite)
			return 2
		}
		*f.dir = filepath.Join(os.TempDir(), "gobench-dyn-eval-"+*f.suite)
		if err := scratchModule(*f.dir, rs); err != nil {
			return exitStatus(err, 1)
		}
		pkgs = []string{rs.pkg}
	}
	if len(pkgs) == 0 {
		pkgs = []string{"./examples/..."}
	}
	if *f.interleave {
		il := interleaving{dir: *f.dir, out: *f.out, pkgs: pkgs, slice: *f.slice, bench: *f.bench, rounds: *f.rounds,
			refProcs: *f.refProcs, slices: *f.slices, cap: *f.procCap, target: *f.target, seed: 1,
			also: strings.Fields(*f.also)}
		if err := il.check(); err != nil {
			return exitStatus(err, 2)
		}
		return exitStatus(il.evaluate(), 1)
	}
	full := []string{"--suite-runs", strconv.Itoa(*f.suiteRuns), "--iterations", strconv.Itoa(*f.iterations), "--slices", strconv.Itoa(*f.slices)}
	return exitStatus(evaluate(*f.dir, *f.out, pkgs, *f.bench, *f.slice, full, *f.suiteRuns**f.iterations**f.slices, *f.methods), 1)
}

// A result is one method's run.
type result struct {
	name      string
	wall      time.Duration
	harness   time.Duration // gobench-dyn's own CPU time
	criterion time.Duration
	run       *record.Run
}

// evaluate runs the full static configuration (the reference), then every
// method with gobench-dyn's own defaults, and go test with as many samples
// as the full run.
func evaluate(dir, out string, pkgs []string, bench string, slice time.Duration, fullConfig []string, fullSamples int, methods string) error {
	if out == "" {
		var err error
		if out, err = os.MkdirTemp("", "gobench-dyn-eval-"); err != nil {
			return err
		}
	}
	bin, err := buildTool(out)
	if err != nil {
		return err
	}
	common := []string{"--bench", bench, "--slice-time", slice.String(), "--seed", "1", "--progress", "off", "--keep-going", "-o", os.DevNull}
	run := func(name string, args ...string) (*result, error) {
		return runTool(bin, dir, filepath.Join(out, name+".jsonl"), name, append(common, args...), pkgs)
	}
	full, err := run("full", append([]string{"--stop", "none", "--warmup", "1"}, fullConfig...)...)
	if err != nil {
		return err
	}
	results := []*result{full}
	for _, m := range regexp.MustCompile(`[^,\s]+`).FindAllString(methods, -1) {
		var r *result
		switch m {
		case "config":
			var cfg string
			if cfg, err = optimizeFull(bin, out); err == nil {
				r, err = run("config", append([]string{"--stop", "none", "--config", cfg}, fullConfig...)...)
			}
		case "gotest":
			r, err = goTest(dir, pkgs, bench, slice, fullSamples)
		case "static":
			r, err = run("static", "--stop", "none")
		default:
			r, err = run(m, "--stop", m)
		}
		if err != nil {
			return err
		}
		results = append(results, r)
	}
	printTable(results, full)
	return replayFull(bin, out, methods)
}

// optimizeFull learns a configuration file from the full run in out and
// returns its path.
func optimizeFull(bin, out string) (string, error) {
	cfg := filepath.Join(out, "config.txt")
	cmd := exec.Command(bin, "optimize", "--metric", "rmad", "-o", cfg, filepath.Join(out, "full.jsonl"))
	cmd.Stdout = os.Stderr
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("optimize: %w", err)
	}
	return cfg, nil
}

// replayFull replays each criterion among methods post hoc on the full
// run in out, for comparison with the live runs, and prints the last
// lines of each replay.
func replayFull(bin, out, methods string) error {
	for _, m := range regexp.MustCompile(`[^,\s]+`).FindAllString(methods, -1) {
		switch m {
		case "config", "gotest", "static":
			continue
		}
		cmd := exec.Command(bin, "replay", "--stop", m, "--resamples", "1000", filepath.Join(out, "full.jsonl"))
		b, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("replay --stop %s: %w", m, err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		fmt.Printf("\nreplay --stop %s on the full run:\n", m)
		for _, l := range lines[max(0, len(lines)-3):] {
			fmt.Println("    " + l)
		}
	}
	return nil
}

// runTool runs gobench-dyn run with args on pkgs in dir, recording to raw,
// and reads back what it recorded.
func runTool(bin, dir, raw, name string, args, pkgs []string) (*result, error) {
	args = append(append(append([]string{"run"}, args...), "--raw", raw), pkgs...)
	fmt.Fprintf(os.Stderr, "eval: %s: gobench-dyn %v\n", name, args)
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return nil, fmt.Errorf("%s: %w\n%s", name, err, stderr.String())
	}
	r, _, err := record.ReadFile(raw)
	if err != nil {
		return nil, err
	}
	res := &result{name: name, wall: wall, run: r, harness: harnessCPU(stderr.String())}
	for _, e := range r.Events {
		if e.Event == record.EventStop {
			res.criterion += time.Duration(e.CriterionNs)
		}
	}
	return res, nil
}

// buildTool builds gobench-dyn into dir.
func buildTool(dir string) (string, error) {
	bin := filepath.Join(dir, "gobench-dyn")
	if b, err := exec.Command("go", "build", "-o", bin, "github.com/gobench-dyn/gobench-dyn/cmd/gobench-dyn").CombinedOutput(); err != nil {
		return "", fmt.Errorf("building gobench-dyn: %w\n%s", err, b)
	}
	return bin, nil
}

var harnessRE = regexp.MustCompile(`harness CPU ([0-9.]+[a-zµ]+)`)

func harnessCPU(stderr string) time.Duration {
	m := harnessRE.FindStringSubmatch(stderr)
	if m == nil {
		return 0
	}
	d, _ := time.ParseDuration(m[1])
	return d
}

// goTest runs plain go test -bench -count and reads its output as one
// suite run of count one-slice iterations per benchmark.
func goTest(dir string, pkgs []string, bench string, slice time.Duration, count int) (*result, error) {
	args := append([]string{"test", "-run", "^$", "-bench", bench, "-benchmem", "-count", strconv.Itoa(count), "-benchtime", slice.String()}, pkgs...)
	fmt.Fprintf(os.Stderr, "eval: gotest: go %v\n", args)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	start := time.Now()
	outText, err := cmd.Output()
	wall := time.Since(start)
	if err != nil {
		return nil, fmt.Errorf("go test: %w", err)
	}
	run, err := parseGoTest(outText)
	if err != nil {
		return nil, err
	}
	return &result{name: fmt.Sprintf("go test -count %d", count), wall: wall, run: run}, nil
}

func printTable(results []*result, full *result) {
	fmt.Printf("| method | wall | saved vs full | samples | within 1%% | within 3%% | within 5%% | A/A same | criteria | harness CPU |\n")
	fmt.Printf("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, r := range results {
		w1, w3, w5, aa, n, samples := quality(r.run, full.run)
		fmt.Printf("| %s | %.1fs | %.0f%% | %d | %s | %s | %s | %s | %.2f%% | %.1f%% |\n",
			r.name, r.wall.Seconds(), 100*(1-r.wall.Seconds()/full.wall.Seconds()), samples,
			share(w1, n), share(w3, n), share(w5, n), share(aa, n),
			100*r.criterion.Seconds()/r.wall.Seconds(), 100*r.harness.Seconds()/r.wall.Seconds())
	}
}

func share(k, n int) string {
	if n == 0 {
		return "—"
	}
	return fmt.Sprintf("%.0f%% (%d/%d)", 100*float64(k)/float64(n), k, n)
}

// quality compares the benchmarks of r with those of full, matched by
// package and name.
func quality(r, full *record.Run) (w1, w3, w5, aa, n, samples int) {
	rng := rand.New(rand.NewPCG(1, 2))
	keys := map[[2]string]record.Key{}
	for _, k := range full.Keys() {
		keys[[2]string{k.Package, k.Benchmark}] = k
	}
	for _, k := range r.Keys() {
		fk, ok := keys[[2]string{k.Package, k.Benchmark}]
		if !ok {
			continue
		}
		a, b := full.Series(fk, "ns/op"), r.Series(k, "ns/op")
		samples += len(record.Measurements(b))
		ma, mb := stat.Mean(record.Measurements(a), nil), stat.Mean(record.Measurements(b), nil)
		if math.IsNaN(ma) || math.IsNaN(mb) {
			continue
		}
		n++
		change := math.Abs(mb/ma - 1)
		if change < 0.01 {
			w1++
		}
		if change < 0.03 {
			w3++
		}
		if change < 0.05 {
			w5++
		}
		if stats.RatioCI(gate.Tree(a), gate.Tree(b), 0.99, 2000, rng).Contains(1) {
			aa++
		}
	}
	return
}
