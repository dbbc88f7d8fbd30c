package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// The reliability tests run the built command on testdata/faulty, a module
// of benchmarks that panic, fail, hang, skip, print and do not compile, and
// check that a run keeps every measurement, says what went wrong, and
// leaves no process or temporary file behind. docs/RELIABILITY.md lists
// them by fault.

// faultyDir is the module of misbehaving benchmarks.
func faultyDir(t *testing.T) string { return absDir(t, "testdata/faulty") }

// faultyRun returns the faulty module, a private TMPDIR (see privateTmp),
// and the paths in it of a run's raw records and results, not made yet.
func faultyRun(t *testing.T) (dir, tmp, raw, out string) {
	t.Helper()
	dir, tmp = faultyDir(t), privateTmp(t)
	return dir, tmp, filepath.Join(tmp, "raw.jsonl"), filepath.Join(tmp, "out.txt")
}

// privateTmp points TMPDIR at a fresh directory for the command, so that
// its temporary files can be checked, and returns it.
func privateTmp(t *testing.T) string {
	t.Helper()
	if !testing.Short() {
		// Build the command before TMPDIR moves.
		_, err := builtBinary()
		require.NoError(t, err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	return tmp
}

// assertNoLeftovers checks that the command removed its temporary
// directories and that no process it started is still running. A process
// killed with SIGKILL shows in ps until the kernel schedules its exit, and
// a grandchild the command could not reap (such as a benchmark's sleep) is
// left for init to reap; on a loaded machine both take a while. So it
// polls for up to leftoverWait, counting a zombie (state Z) as gone: a
// process that leaks for real is still there when the time is up.
func assertNoLeftovers(t *testing.T, tmp string, marks ...string) {
	t.Helper()
	left, err := filepath.Glob(filepath.Join(tmp, "gobench-dyn-*"))
	require.NoError(t, err)
	assert.Empty(t, left, "temporary directories left behind")
	var alive []string
	for deadline := time.Now().Add(leftoverWait); ; time.Sleep(50 * time.Millisecond) {
		alive = processesMatching(t, append(marks, tmp))
		if len(alive) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, line := range alive {
		t.Errorf("process left running: %s", line)
	}
}

// leftoverWait is how long a killed process may take to disappear.
const leftoverWait = 10 * time.Second

// processesMatching lists the live (not zombie) processes whose command
// line contains one of marks, ps itself excepted.
func processesMatching(t *testing.T, marks []string) []string {
	t.Helper()
	out, err := exec.Command("ps", "-eo", "stat=,pid=,args=").Output()
	require.NoError(t, err)
	var alive []string
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "Z") || strings.Contains(line, "ps -eo") {
			continue
		}
		for _, m := range marks {
			if strings.Contains(line, m) {
				alive = append(alive, line)
				break
			}
		}
	}
	return alive
}

// countMeasured counts the measurement slices of run.
func countMeasured(run *record.Run) int {
	n := 0
	for _, s := range run.Slices {
		if !s.Warmup {
			n++
		}
	}
	return n
}

func eventsOf(run *record.Run, kind string) map[string]record.Event {
	m := map[string]record.Event{}
	for _, e := range run.Events {
		if e.Event == kind {
			m[e.Package+"."+e.Benchmark] = e
		}
	}
	return m
}

// sum adds up the values of m.
func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func TestFaultyBenchmarksFailAlone(t *testing.T) {
	dir := faultyDir(t)
	tmp := privateTmp(t)
	mark := strconv.Itoa(900000 + os.Getpid()%99999) // a sleep nobody else runs
	t.Setenv("FAULTY_MARK", mark)
	out, raw := filepath.Join(tmp, "out.txt"), filepath.Join(tmp, "raw.jsonl")
	_, stderr, code := gobenchDyn(t, dir, "run", "./...", "-b", "^Benchmark(OK|AlsoOK|Panic|Fatal|LateFail|Prints|Hang|Skip)$",
		"--stop", "none", "--suite-runs", "2", "--warmup", "1", "--slices", "3", "--slice-time", "5ms", "--timeout", "3s",
		"--seed", "3", "-o", out, "--raw", raw)
	assert.Equal(t, 1, code, "a failed benchmark fails the run:\n%s", stderr)
	assertNoLeftovers(t, tmp, "sleep "+mark)

	// Every failure is named with its reason and the tail of its output,
	// its message once.
	for _, want := range []string{
		"FAILED example.com/faulty/broken: build failed",
		`cannot use "not a number"`,
		"FAILED example.com/faulty.BenchmarkPanic", "panic: faulty: boom",
		"FAILED example.com/faulty.BenchmarkFatal", "faulty: fatal failure",
		"FAILED example.com/faulty.BenchmarkLateFail", "faulty: failed in a later repetition",
		"FAILED example.com/faulty.BenchmarkHang", "timeout", "killed after --timeout 3s",
		"example.com/faulty.BenchmarkSkip skipped: faulty_test.go:109: faulty: not on this machine; not run",
	} {
		assert.Contains(t, stderr, want)
	}
	_, summary, _ := strings.Cut(stderr, "gobench-dyn: done")
	assert.Equal(t, 1, strings.Count(summary, "faulty: fatal failure"), "the summary gives the message of b.Fatal once:\n%s", summary)

	// The healthy benchmarks ran their whole configuration, the printing
	// one included: 2 suite runs × 3 slices.
	counts := readBenchResults(t, out)
	for _, name := range []string{"OK", "AlsoOK", "Prints"} {
		found := false
		for full, n := range counts {
			if strings.HasPrefix(full, name+"-") { // benchfmt drops "Benchmark"
				found = true
				assert.Equal(t, 6, n, full)
			}
		}
		assert.True(t, found, "Benchmark%s in %v", name, counts)
	}

	run, warns, err := record.ReadFile(raw)
	require.NoError(t, err)
	assert.Empty(t, warns)
	assert.True(t, run.Complete)
	assert.Equal(t, sum(counts), countMeasured(run), "-o holds every measurement slice of --raw")
	failures := eventsOf(run, record.EventFailure)
	for name, want := range map[string]string{
		"example.com/faulty/broken.":            "not a number",
		"example.com/faulty.BenchmarkPanic-":    "panic: faulty: boom",
		"example.com/faulty.BenchmarkFatal-":    "faulty: fatal failure",
		"example.com/faulty.BenchmarkLateFail-": "failed in a later repetition",
		"example.com/faulty.BenchmarkHang-":     "killed after --timeout",
	} {
		found := false
		for key, e := range failures {
			if strings.HasPrefix(key, name) {
				found = true
				assert.Contains(t, e.Reason+"\n"+e.Detail, want, key)
			}
		}
		assert.True(t, found, "failure event for %s", name)
	}
	assert.Len(t, failures, 5)
	assert.Contains(t, eventsOf(run, record.EventSkip), "example.com/faulty.BenchmarkSkip")
}

func TestKeepGoingOnlyChangesTheExitStatus(t *testing.T) {
	dir, tmp, _, out := faultyRun(t)
	_, stderr, code := gobenchDyn(t, dir, "run", ".", "-b", "^Benchmark(OK|Fatal)$", "--keep-going",
		"--stop", "none", "--suite-runs", "2", "--slices", "2", "--slice-time", "5ms", "-o", out)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "FAILED example.com/faulty.BenchmarkFatal")
	assert.Contains(t, stderr, "faulty: fatal failure")
	counts := readBenchResults(t, out)
	assert.Equal(t, 4, sum(counts), "BenchmarkOK: 2 suite runs × 2 slices")
	assertNoLeftovers(t, tmp)
}

// started is a gobench-dyn process running in the background.
type started struct {
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
}

func startGobenchDyn(t *testing.T, dir string, args ...string) *started {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end: builds and runs benchmarks")
	}
	bin, err := builtBinary()
	require.NoError(t, err)
	s := &started{cmd: exec.Command(bin, args...)}
	s.cmd.Dir = dir
	s.cmd.Env = append(os.Environ(), "CI=true")
	s.cmd.Stdout, s.cmd.Stderr = &s.stdout, &s.stderr
	require.NoError(t, s.cmd.Start())
	t.Cleanup(func() { _ = s.cmd.Process.Kill(); _ = s.cmd.Wait() })
	return s
}

// wait waits for the process to exit and returns its exit status.
func (s *started) wait(t *testing.T) int {
	t.Helper()
	err := s.cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	require.NoError(t, err)
	return 0
}

// waitForSlices waits until the raw file holds at least n slice records.
func waitForSlices(t *testing.T, path string, n int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(path)
		if bytes.Count(data, []byte(`{"type":"slice"`)) >= n {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s never held %d slices", path, n)
}

// slowArgs is a run long enough to be interrupted: 3 benchmarks × 4 suite
// runs × 2 iterations × (1 + 2) slices, BenchmarkSlow's 20 ms each.
func slowArgs(extra ...string) []string {
	return append([]string{"run", ".", "-b", "^Benchmark(OK|AlsoOK|Slow)$", "--stop", "none", "--suite-runs", "4",
		"--iterations", "2", "--warmup", "1", "--slices", "2", "--slice-time", "5ms", "--seed", "42"}, extra...)
}

const slowMeasured = 3 * 4 * 2 * 2

func TestInterruptAndResume(t *testing.T) {
	dir, tmp, raw, out := faultyRun(t)

	p := startGobenchDyn(t, dir, slowArgs("-o", out, "--raw", raw)...)
	waitForSlices(t, raw, 8)
	require.NoError(t, p.cmd.Process.Signal(os.Interrupt))
	code := p.wait(t)
	stderr := p.stderr.String()
	require.Equal(t, 130, code, stderr)
	assert.Contains(t, stderr, "interrupted: the results written are partial")
	assert.Contains(t, stderr, "gobench-dyn: interrupted: 3 benchmarks", "the summary's final line says the run is partial")
	assert.Contains(t, stderr, "--resume "+raw+" completes them")
	assert.NotContains(t, stderr, "saved")
	assertNoLeftovers(t, tmp)

	run, warns, err := record.ReadFile(raw)
	require.NoError(t, err)
	assert.False(t, run.Complete)
	require.NotEmpty(t, warns)
	assert.Contains(t, warns[0].Msg, "interrupted")
	assert.Contains(t, eventsOf(run, record.EventInterrupt), ".")
	measured := countMeasured(run)
	assert.Less(t, measured, slowMeasured)
	assert.Equal(t, measured, sum(readBenchResults(t, out)), "-o holds what --raw holds")

	// Resuming with other flags, another seed or other code is refused,
	// and leaves the file as it was.
	before, err := os.ReadFile(raw)
	require.NoError(t, err)
	edited := filepath.Join(tmp, "edited.jsonl")
	require.NoError(t, os.WriteFile(edited, otherCode(t, before), 0o600))
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{slowArgs("--resume", raw, "--slices", "3")[2:], `slices was "2", now "3"`},
		{append(slowArgs("--resume", raw), "--seed", "43")[2:], "--seed 43: the run to resume used seed 42"},
		{slowArgs("--resume", raw, "--raw", filepath.Join(tmp, "other.jsonl"))[2:], "--raw"},
		{slowArgs("--resume", edited)[2:], "the code under test changed"},
	} {
		_, stderr, code := gobenchDyn(t, dir, append([]string{"run", "."}, tc.args...)...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, stderr)
		assert.Contains(t, stderr, tc.msg)
	}
	after, err := os.ReadFile(raw)
	require.NoError(t, err)
	assert.Equal(t, before, after, "a refused resume leaves the file alone")

	// Cut the last record in half, as a crash would, and resume.
	require.NoError(t, os.WriteFile(raw, before[:len(before)-20], 0o600))
	out2 := filepath.Join(tmp, "out2.txt")
	_, stderr, code = gobenchDyn(t, dir, slowArgs("--resume", raw, "-o", out2)...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "is incomplete")
	assert.Contains(t, stderr, "resuming")
	resumed, warns, err := record.ReadFile(raw)
	require.NoError(t, err)
	assert.Empty(t, warns)
	assert.True(t, resumed.Complete)
	assert.Equal(t, slowMeasured, countMeasured(resumed), "exactly the slices of an uninterrupted run")
	assert.Equal(t, slowMeasured, sum(readBenchResults(t, out2)), "-o covers the old and the new slices")
	assert.Len(t, eventsOf(resumed, record.EventResumed), 1)

	// The same schedule as an uninterrupted run with the same seed.
	full := filepath.Join(tmp, "full.jsonl")
	_, stderr, code = gobenchDyn(t, dir, slowArgs("--raw", full, "-o", filepath.Join(tmp, "full.txt"))...)
	require.Equal(t, 0, code, stderr)
	want, _, err := record.ReadFile(full)
	require.NoError(t, err)
	assert.Equal(t, scheduleOrder(want), scheduleOrder(resumed))
	assert.Equal(t, len(want.Slices), len(resumed.Slices))

	// A complete run has nothing to resume.
	_, stderr, code = gobenchDyn(t, dir, slowArgs("--resume", full)...)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "nothing to resume")
	assertNoLeftovers(t, tmp)
}

func TestSecondInterruptAborts(t *testing.T) {
	dir, tmp, raw, out := faultyRun(t)
	p := startGobenchDyn(t, dir, slowArgs("--raw", raw, "-o", out)...)
	waitForSlices(t, raw, 2)
	// Two signals back to back: whichever path handles the second, the
	// run ends with 130 and removes its temporary directories.
	require.NoError(t, p.cmd.Process.Signal(os.Interrupt))
	require.NoError(t, p.cmd.Process.Signal(os.Interrupt))
	assert.Equal(t, 130, p.wait(t), p.stderr.String())
	assertNoLeftovers(t, tmp)
	unfinished, err := filepath.Glob(filepath.Join(tmp, ".out.txt.tmp*"))
	require.NoError(t, err)
	assert.Empty(t, unfinished, "no unfinished -o file is left: %s", p.stderr.String())
	run, _, err := record.ReadFile(raw)
	require.NoError(t, err, "the raw file stays readable")
	assert.False(t, run.Complete)
	assert.NotEmpty(t, run.Slices)
}

func TestTermStopsLikeInterruptAndRawIsLocked(t *testing.T) {
	dir, tmp, raw, out := faultyRun(t)
	p := startGobenchDyn(t, dir, slowArgs("--raw", raw, "-o", out)...)
	waitForSlices(t, raw, 2)

	// A second run may not write the same raw file meanwhile.
	before, err := os.ReadFile(raw)
	require.NoError(t, err)
	_, stderr, code := gobenchDyn(t, dir, slowArgs("--raw", raw)...)
	assert.Equal(t, 2, code, stderr)
	assert.Contains(t, stderr, "being written by another gobench-dyn run")
	assert.NotContains(t, stderr, "benchmarks in", "refused before building anything")
	after, err := os.ReadFile(raw)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(after, before), "the refused run did not touch the file")

	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	assert.Equal(t, 130, p.wait(t), p.stderr.String())
	assert.Contains(t, p.stderr.String(), "partial")
	assertNoLeftovers(t, tmp)
	run, _, err := record.ReadFile(raw)
	require.NoError(t, err)
	assert.Contains(t, eventsOf(run, record.EventInterrupt), ".")
	assert.Equal(t, countMeasured(run), sum(readBenchResults(t, filepath.Join(tmp, "out.txt"))))
}

func TestUnwritableOutputFailsFast(t *testing.T) {
	tmp := privateTmp(t)
	raw := filepath.Join(tmp, "raw.jsonl")
	for _, tc := range []struct {
		args []string
		flag string
	}{
		{[]string{"-o", filepath.Join(tmp, "no", "such", "dir", "out.txt"), "--raw", raw}, "--out"},
		{[]string{"-o", tmp, "--raw", raw}, "--out"}, // a directory
		{[]string{"--raw", filepath.Join(tmp, "no", "raw.jsonl")}, "--raw"},
		{[]string{"--raw", tmp}, "--raw"},
	} {
		_, stderr, code := inProcess(slowArgs(tc.args...)...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, stderr)
		assert.Contains(t, stderr, tc.flag)
		assert.NotContains(t, stderr, "benchmarks in", "no benchmark was prepared")
		_, err := os.Stat(raw)
		assert.True(t, os.IsNotExist(err), "no slice was recorded")
	}
	assertNoLeftovers(t, tmp)
}

// badInputs writes the malformed files of TestBadInputExit2 into dir and
// returns their paths by name.
func badInputs(t *testing.T, dir string) map[string]string {
	t.Helper()
	good, err := os.ReadFile("testdata/compare/old.jsonl")
	require.NoError(t, err)
	lines := strings.SplitAfter(string(good), "\n")
	header, slice := lines[0], lines[1]
	// The end event gone and the last slice cut short, as by a crash.
	body := strings.TrimSuffix(string(good), "\n")
	body = body[:strings.LastIndex(body, "\n")+1]
	torn := body[:len(body)-40]
	files := map[string]string{
		"notjson.jsonl":    header + slice + "{not json\n" + slice,
		"noheader.jsonl":   slice + slice,
		"twoheaders.jsonl": header + slice + header,
		"schema.jsonl":     strings.Replace(header, `"schema": 1`, `"schema": 99`, 1) + slice,
		"negn.jsonl":       header + strings.Replace(slice, `"n": 100000`, `"n": -5`, 1),
		"wrongtype.jsonl":  header + strings.Replace(slice, `"suite_run": 1`, `"suite_run": "one"`, 1),
		"unknown.jsonl":    header + `{"type": "sample"}` + "\n",
		"empty.jsonl":      "",
		"bad.txt":          "goos: linux\npkg: example.com/p\nBenchmarkX-8 \t 100\t fast ns/op\n",
		"bad.cfg":          "gobench-dyn-config schema=1\nbench pkg=p name=B s=0 i=3 d=1 warmup=0 metric=cv threshold=0.01\n",
		"newer.cfg":        "gobench-dyn-config schema=9\n",
		"torn.jsonl":       torn,
		"good.jsonl":       string(good),
	}
	paths := map[string]string{}
	for name, content := range files {
		paths[name] = filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(paths[name], []byte(content), 0o600))
	}
	return paths
}

func TestBadInputExit2(t *testing.T) {
	dir := t.TempDir()
	f := badInputs(t, dir)
	out := filepath.Join(dir, "out")
	rawLoc := map[string]string{
		"notjson.jsonl":    ":3: not a JSON record",
		"noheader.jsonl":   ":1: first record",
		"twoheaders.jsonl": ":3: second header",
		"schema.jsonl":     ":1: schema 99",
		"negn.jsonl":       ":2: slice with n = -5",
		"wrongtype.jsonl":  ":2: field",
		"unknown.jsonl":    ":2: unknown record type",
		"empty.jsonl":      ":1: ",
	}
	type tc struct {
		args []string
		msg  string
	}
	var cases []tc
	for name, loc := range rawLoc {
		p := f[name]
		cases = append(cases,
			tc{[]string{"compare", f["good.jsonl"], p}, name + loc},
			tc{[]string{"merge", "-o", out, p}, name + loc},
			tc{[]string{"optimize", p}, name + loc},
			tc{[]string{"report", "--markdown", out, p}, name + loc},
			tc{[]string{"run", "--resume", p}, name + loc},
		)
		cases = append(cases, tc{[]string{"replay", p}, name + loc})
	}
	cases = append(cases,
		tc{[]string{"compare", f["good.jsonl"], f["bad.txt"]}, "bad.txt:3"},
		tc{[]string{"compare", f["good.jsonl"], filepath.Join(dir, "missing.txt")}, "missing.txt"},
		tc{[]string{"compare", f["good.jsonl"]}, "two files"},
		tc{[]string{"compare", "--confidence", "2", f["good.jsonl"], f["good.jsonl"]}, "--confidence"},
		tc{[]string{"compare", "--rule", "bogus", f["good.jsonl"], f["good.jsonl"]}, "--rule"},
		tc{[]string{"merge", f["good.jsonl"]}, "-o"},
		tc{[]string{"merge", "-o", filepath.Join(dir, "no", "dir", "m.jsonl"), f["good.jsonl"]}, "-o"},
		tc{[]string{"optimize", "--metric", "bogus", f["good.jsonl"]}, "--metric"},
		tc{[]string{"optimize", "--threshold", "-1", f["good.jsonl"]}, "--threshold"},
		tc{[]string{"optimize"}, "at least one"},
		tc{[]string{"replay", "--resamples", "5", f["good.jsonl"]}, "--resamples"},
		tc{[]string{"replay", f["bad.txt"]}, "bad.txt:1"},
		tc{[]string{"report", f["good.jsonl"]}, "--html"},
		tc{[]string{"report", "--markdown", out, "--confidence", "7", f["good.jsonl"]}, "--confidence"},
		tc{[]string{"run", "--config", f["bad.cfg"], "."}, "bad.cfg:2"},
		tc{[]string{"run", "--config", f["newer.cfg"], "."}, "newer.cfg:1"},
		tc{[]string{"run", "--config", filepath.Join(dir, "missing.cfg"), "."}, "missing.cfg"},
		tc{[]string{"run", "--resume", f["good.jsonl"]}, "nothing to resume"},
		tc{[]string{"run", "--timeout", "-1s"}, "--timeout"},
		tc{[]string{"run", "--iterations", "0"}, "--iterations"},
		tc{[]string{"run", "--budget", "soon"}, "--budget"},
		tc{[]string{"run", "--seed", "-1"}, "--seed"},
		tc{[]string{"run", "--shard", "3/2"}, "--shard"},
		tc{[]string{"run", "--progress", "sometimes"}, "--progress"},
		tc{[]string{"run", "--bench", "("}, "--bench"},
		tc{[]string{"bogus"}, "unknown command"},
	)
	for _, c := range cases {
		t.Run(strings.Join(c.args[:1], " ")+" "+filepath.Base(c.args[len(c.args)-1]), func(t *testing.T) {
			_, stderr, code := inProcess(c.args...)
			assert.Equal(t, 2, code, "%v: %s", c.args, stderr)
			assert.Contains(t, stderr, c.msg, "%v", c.args)
			assert.NotContains(t, stderr, "goroutine ", "no stack trace")
			assert.NotContains(t, stderr, "panic:", "no panic")
		})
	}
}

func TestTornRawFileIsReadWithAWarning(t *testing.T) {
	dir := t.TempDir()
	f := badInputs(t, dir)
	good, _, err := record.ReadFile(f["good.jsonl"])
	require.NoError(t, err)
	for _, args := range [][]string{
		{"compare", f["good.jsonl"], f["torn.jsonl"]},
		{"merge", "-o", filepath.Join(dir, "merged.jsonl"), f["torn.jsonl"]},
		{"optimize", f["torn.jsonl"]},
		{"replay", f["torn.jsonl"]},
		{"report", "--markdown", filepath.Join(dir, "report.md"), f["torn.jsonl"]},
	} {
		_, stderr, code := inProcess(args...)
		assert.Equal(t, 0, code, "%v: %s", args, stderr)
		assert.Regexp(t, `warning: .*torn\.jsonl:\d+: last line is incomplete`, stderr, "%v: the warning names the file and line", args)
		assert.NotContains(t, stderr, "goroutine ")
	}
	merged, _, err := record.ReadFile(filepath.Join(dir, "merged.jsonl"))
	require.NoError(t, err)
	assert.Equal(t, len(good.Slices)-1, len(merged.Slices), "everything but the torn record is kept")
}
