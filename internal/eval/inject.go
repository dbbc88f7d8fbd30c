package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/inject"
	"github.com/gobench-dyn/gobench-dyn/internal/overlay"
	"github.com/gobench-dyn/gobench-dyn/internal/record"
)

// An injectTarget is a function of a real suite's module slowed in the
// evaluation, and the benchmarks whose time it dominates.
type injectTarget struct {
	file, name, kind string
	// prefix is the name prefix of the benchmarks the function dominates;
	// the other benchmarks run are unchanged controls.
	prefix string
}

// An injectSuite is a real suite of the injected-slowdown evaluation: the
// functions slowed, and the benchmarks run.
type injectSuite struct {
	key string // in realSuites
	// bench selects the benchmarks the targets dominate, as go test
	// -bench reads it.
	bench   string
	targets []injectTarget
}

// injectSuites are the suites -inject knows, by -suite name. In go-toml,
// Unmarshal is CPU-bound and the encoder's benchmarks allocate on every
// call; in expfmt, the text parser allocates (about 5 times as much as
// the protobuf one, by its own benchmarks' comments) and
// MetricFamilyToText writes into a buffer the benchmark reuses.
var injectSuites = map[string]injectSuite{
	"toml": {"toml", "^Benchmark(Unmarshal|Marshal)$/^ReferenceFile$/", []injectTarget{
		{"unmarshaler.go", "Unmarshal", "CPU-bound", "BenchmarkUnmarshal/"},
		{"marshaler.go", "Encoder.Encode", "allocating", "BenchmarkMarshal/"},
	}},
	"expfmt": {"expfmt", "^Benchmark(ParseText|Create)$", []injectTarget{
		{"expfmt/text_create.go", "MetricFamilyToText", "CPU-bound", "BenchmarkCreate"},
		{"expfmt/text_parse.go", "TextParser.TextToMetricFamilies", "allocating", "BenchmarkParseText"},
	}},
}

// injection holds the settings of the injected-slowdown evaluation.
type injection struct {
	suite     injectSuite
	bin, out  string
	slice     time.Duration
	factors   []float64
	seeds     int
	count     int
	benchtime string
}

// evaluate brings the suite in through the module proxy, copies its source
// into a git repository that replaces the module (go build does not
// overlay files in the module cache), and for every target, factor and
// seed runs the gate (run --baseline HEAD, the head built with the
// slowing overlay) and the usual workflow (go test -count on the base,
// then on the head with the overlay, then benchstat's U test).
func (in injection) evaluate() error {
	rs := realSuites[in.suite.key]
	repo := filepath.Join(in.out, in.suite.key+"-repo")
	if err := injectRepo(repo, rs); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "eval: raw files in %s\n", in.out)
	t := newInjectTally()
	targets := in.suite.targets
	for _, tg := range targets {
		for _, v := range in.factors {
			ov := filepath.Join(in.out, fmt.Sprintf("overlay-%s-%g", tg.name, v))
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
			for seed := 1; seed <= in.seeds; seed++ {
				fmt.Fprintf(os.Stderr, "eval: inject %s ×%g, seed %d of %d (%s)\n", tg.name, 1+v, seed, in.seeds, time.Now().UTC().Format("15:04:05"))
				key := injectKey{tg.name, v}
				// Alternate which workflow goes first, so that drift of
				// the machine falls on both alike.
				steps := []func() error{
					func() error { return in.gate(t, key, tg, repo, slowed, v, seed) },
					func() error { return in.goTest(t, key, tg, repo, slowed, v) },
				}
				if seed%2 == 0 {
					steps[0], steps[1] = steps[1], steps[0]
				}
				for _, step := range steps {
					if err := step(); err != nil {
						return err
					}
				}
			}
			// The table so far, so that a run cut short keeps its figures.
			fmt.Fprint(os.Stderr, t.table(targets), "\n", t.capTable(targets))
		}
	}
	fmt.Printf("\n%s %s, %s; targets %s (%s) and %s (%s); %d seeds; gate: `run --baseline HEAD --overlay`, %s slices, default caps and rule; usual: `go test -count %d -benchtime %s` on each version + benchmath U test, α = 0.05\n\n",
		rs.module, rs.version, in.suite.bench, targets[0].name, targets[0].kind, targets[1].name, targets[1].kind,
		in.seeds, in.slice, in.count, in.benchtime)
	fmt.Print(t.table(targets))
	fmt.Printf("\nthe same pairs judged as a run capped at %d paired suite runs would have (its wall at most the one given):\n\n", formerCap)
	fmt.Print(t.capTable(targets))
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
			return nil, fmt.Errorf("go %v: %v", args, err)
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
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=eval", "GIT_AUTHOR_EMAIL=eval@example.com", "GIT_COMMITTER_NAME=eval", "GIT_COMMITTER_EMAIL=eval@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %v\n%s", args, err, out)
		}
	}
	return nil
}

// affects says whether target tg dominates benchmark bench.
func (tg injectTarget) affects(bench string) bool {
	return strings.HasPrefix("Benchmark"+strings.TrimPrefix(bench, "Benchmark"), tg.prefix)
}

// gate runs gobench-dyn's paired comparison of HEAD against the overlaid
// head with the default stopping rule and caps.
func (in injection) gate(t *injectTally, key injectKey, tg injectTarget, repo, overlay string, v float64, seed int) error {
	raw := filepath.Join(in.out, fmt.Sprintf("gate-%s-%g-%d.jsonl", tg.name, v, seed))
	args := []string{"run", "--baseline", "HEAD", "--overlay", overlay, "--bench", in.suite.bench,
		"--slice-time", in.slice.String(), "--seed", strconv.Itoa(seed), "--raw", raw, "--progress", "off", "-o", os.DevNull,
		realSuites[in.suite.key].pkg}
	start := time.Now()
	cmd := exec.Command(in.bin, args...)
	cmd.Dir = repo
	if b, err := cmd.CombinedOutput(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			return fmt.Errorf("gobench-dyn %v: %v\n%s", args, err, b)
		}
	}
	wall := time.Since(start)
	t.addTime(key, "gate", wall)
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
		t.add(key, "gate", tg.affects(trimProcs(c.Benchmark)), string(c.Verdict))
	}
	return in.rejudge(t, key, tg, r, wall)
}

// formerCap is the suite-run cap of a sequential baseline run before it
// became gate.DefaultLastLook; rejudge says what it would have decided.
const formerCap = 20

// rejudge judges the gate's pairs as a run with the former cap would have:
// the looks of that plan over the first formerCap paired suite runs. The
// verdicts are exactly that run's on the same pairs, because a pair the
// longer plan decided at a look decides at that look or earlier under the
// shorter plan's wider level per look. A pair the gate stopped out of
// reach before the former cap has no such verdict (that run would have
// gone on) and is left out of its column. Its wall time is bounded above
// by the gate's, less the time after the suite run at which its last pair
// would have stopped.
func (in injection) rejudge(t *injectTally, key injectKey, tg injectTarget, r *record.Run, wall time.Duration) error {
	short := &record.Run{Header: r.Header, Events: r.Events, Complete: r.Complete}
	for _, s := range r.Slices {
		if s.SuiteRun <= formerCap {
			short.Slices = append(short.Slices, s)
		}
	}
	old, head := gate.Split(short)
	opts := pairedOptions(gate.DefaultOptions(), r)
	opts.Plan = gate.NewPlan(gate.DefaultFirstLook, formerCap)
	res, err := gate.Runs(old, head, opts)
	if err != nil {
		return err
	}
	early := map[string]bool{}
	for _, e := range r.Events {
		if e.Event == record.EventStop && e.Reason == record.ReasonNoVerdict && e.SuiteRun < formerCap {
			early[e.Benchmark] = true
		}
	}
	last := 0
	for _, c := range timeComparisons(res) {
		if early[c.Benchmark] {
			continue
		}
		t.add(key, "gate20", tg.affects(trimProcs(c.Benchmark)), string(c.Verdict))
		last = max(last, c.Look)
	}
	var end, endShort time.Time
	for _, s := range r.Slices {
		e := s.Start.Add(time.Duration(s.WallNs))
		if e.After(end) {
			end = e
		}
		if s.SuiteRun <= last && e.After(endShort) {
			endShort = e
		}
	}
	if last > 0 {
		// With every pair left out there is no such run to time.
		t.addTime(key, "gate20", wall-end.Sub(endShort))
	}
	return nil
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
func (in injection) goTest(t *injectTally, key injectKey, tg injectTarget, repo, overlay string, v float64) error {
	start := time.Now()
	var runs [2]*record.Run
	for i, extra := range [][]string{nil, {"-overlay", overlay}} {
		args := append([]string{"test", "-run", "^$", "-bench", in.suite.bench, "-count", strconv.Itoa(in.count),
			"-benchtime", in.benchtime}, extra...)
		args = append(args, realSuites[in.suite.key].pkg)
		cmd := exec.Command("go", args...)
		cmd.Dir = repo
		out, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("go %v: %v\n%s", args, err, out)
		}
		if runs[i], err = parseGoTest(out); err != nil {
			return err
		}
	}
	t.addTime(key, "benchstat", time.Since(start))
	base, head := nsPerOp(runs[0]), nsPerOp(runs[1])
	for name, o := range base {
		if n, ok := head[name]; ok {
			t.add(key, "benchstat", tg.affects(name), benchstatVerdict(o, n))
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
