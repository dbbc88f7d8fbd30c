package main

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/gittest"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// The fault tests run the built command on testdata/faulty (or a git
// repository made of it) under the faults of docs/RELIABILITY.md's table:
// full disks, closed pipes, SIGKILL, outputs held open, odd values and
// odd prints. Each row of the table names its test.

// hangLimit bounds a run that must not hang; it is far beyond what the
// runs below take on any machine.
const hangLimit = 5 * time.Minute

// fullDisk mounts a tmpfs of size bytes and returns its directory. Only
// root can mount one; the test is skipped otherwise.
func fullDisk(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("a full disk is a tmpfs, which only root can mount")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	return dir
}

// partialNote is the first line of a results file of a run stopped early.
var partialNote = regexp.MustCompile(`^# gobench-dyn: (interrupted|stopped: .*); the results are partial`)

// fixedArgs is a run of the benchmarks bench matches with no stoppage
// criterion: suiteRuns suite runs of slices measurement slices of 2 ms.
func fixedArgs(bench string, suiteRuns, slices int, extra ...string) []string {
	return append([]string{"run", ".", "-b", bench, "--stop", "none", "--suite-runs", strconv.Itoa(suiteRuns),
		"--slices", strconv.Itoa(slices), "--slice-time", "2ms"}, extra...)
}

// shortArgs is a run of BenchmarkOK and BenchmarkAlsoOK: suiteRuns × 2 ×
// 3 measurement slices, each after a warmup slice.
func shortArgs(suiteRuns int, extra ...string) []string {
	return fixedArgs("^Benchmark(OK|AlsoOK)$", suiteRuns, 3, append([]string{"--warmup", "1", "--seed", "9"}, extra...)...)
}

// TestRawOnAFullDisk fills the disk --raw is on in the middle of a run:
// the run stops at once, says which file failed and what its last
// complete record is, exits 1, keeps every slice in -o, and leaves the
// raw file readable; once copied where there is room, it resumes to the
// complete run.
func TestRawOnAFullDisk(t *testing.T) {
	disk := fullDisk(t, "8k")
	dir := faultyDir(t)
	tmp := privateTmp(t)
	raw, out := filepath.Join(disk, "raw.jsonl"), filepath.Join(tmp, "out.txt")
	_, stderr, code := within(t, hangLimit, dir, nil, shortArgs(6, "--raw", raw, "-o", out)...)
	require.Equal(t, 1, code, stderr)
	assert.Regexp(t, `writing the raw file `+regexp.QuoteMeta(raw)+` failed: no space left on device; it is readable up to line \d+, its last complete record \((slice \d+ of example\.com/faulty\.Benchmark\w+-?\d*, suite run \d+, iteration \d+|[a-z-]+ event.*)\), and a resumed run continues it`, stderr)
	assert.Contains(t, stderr, "gobench-dyn: stopped:")
	assert.NotContains(t, stderr, "gobench-dyn: done")
	assertNoLeftovers(t, tmp)

	run, warns, err := record.ReadFile(raw)
	require.NoError(t, err, "the raw file is readable")
	assert.False(t, run.Complete)
	for _, w := range warns {
		assert.NotContains(t, w.Msg, "incomplete", "the file ends with a complete record")
	}
	measured := countMeasured(run)
	assert.Less(t, measured, 6*2*3, "measuring stopped")
	results := sum(readBenchResults(t, out))
	assert.GreaterOrEqual(t, results, measured, "-o holds every slice measured")
	first, _, _ := strings.Cut(string(mustRead(t, out)), "\n")
	assert.Regexp(t, partialNote, first)

	// Where there is room, the run resumes to its end.
	roomy := filepath.Join(tmp, "raw.jsonl")
	require.NoError(t, os.WriteFile(roomy, mustRead(t, raw), 0o644))
	_, stderr, code = within(t, hangLimit, dir, nil, shortArgs(6, "--resume", roomy, "-o", out)...)
	require.Equal(t, 0, code, stderr)
	resumed, _, err := record.ReadFile(roomy)
	require.NoError(t, err)
	assert.True(t, resumed.Complete)
	assert.Equal(t, 6*2*3, countMeasured(resumed))
	assertSaneEfficiency(t, stderr)
}

// assertSaneEfficiency checks that the summary's time inside slices is a
// share of the wall time: at most 100%.
func assertSaneEfficiency(t *testing.T, stderr string) {
	t.Helper()
	m := regexp.MustCompile(`inside slices, setup included, (\d+)% of wall`).FindStringSubmatch(stderr)
	require.NotNil(t, m, stderr)
	pct, err := strconv.Atoi(m[1])
	require.NoError(t, err)
	assert.LessOrEqual(t, pct, 100, stderr)
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

// TestResultsOnAFullDisk fills the disk -o is on in the middle of a run:
// the failure is noticed at the write that failed, the message names the
// path given (not the temporary file behind it), the old results stay as
// they were, and --raw says why the run stopped and resumes.
func TestResultsOnAFullDisk(t *testing.T) {
	disk := fullDisk(t, "8k")
	dir := faultyDir(t)
	tmp := privateTmp(t)
	out, raw := filepath.Join(disk, "out.txt"), filepath.Join(tmp, "raw.jsonl")
	old := []byte("old results\n")
	require.NoError(t, os.WriteFile(out, old, 0o644))
	_, stderr, code := within(t, hangLimit, dir, nil, shortArgs(12, "--raw", raw, "-o", out)...)
	require.Equal(t, 1, code, stderr)
	assert.Contains(t, stderr, "gobench-dyn: writing --out "+out+": no space left on device")
	assert.NotContains(t, stderr, ".tmp")
	assert.Equal(t, old, mustRead(t, out), "the old results stay as they were")
	left, err := filepath.Glob(filepath.Join(disk, ".out.txt.tmp*"))
	require.NoError(t, err)
	assert.Empty(t, left)
	assertNoLeftovers(t, tmp)

	run, _, err := record.ReadFile(raw)
	require.NoError(t, err)
	assert.Less(t, countMeasured(run), 12*2*3, "measuring stopped at the failure")
	last := run.Events[len(run.Events)-1]
	assert.Equal(t, record.EventInterrupt, last.Event)
	assert.Contains(t, last.Reason, "stopped: writing --out "+out+": no space left on device")

	require.NoError(t, os.Remove(out))
	_, stderr, code = within(t, hangLimit, dir, nil, shortArgs(12, "--resume", raw, "-o", out)...)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, 12*2*3, sum(readBenchResults(t, out)))
}

// TestResultsOnAFullDevice writes -o to /dev/full, which fails every
// write, and to /dev/null: a device is written, never replaced by a
// renamed file (as root, a rename would replace the device itself).
func TestResultsOnAFullDevice(t *testing.T) {
	for _, dev := range []string{"/dev/full", os.DevNull} {
		if fi, err := os.Stat(dev); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
			t.Skipf("%s is not a character device here", dev)
		}
	}
	dir, tmp, raw, _ := faultyRun(t)
	_, stderr, code := within(t, hangLimit, dir, nil, shortArgs(4, "--raw", raw, "-o", "/dev/full")...)
	require.Equal(t, 1, code, stderr)
	assert.Contains(t, stderr, "gobench-dyn: writing --out /dev/full: no space left on device")
	run, _, err := record.ReadFile(raw)
	require.NoError(t, err)
	assert.LessOrEqual(t, countMeasured(run), 3, "the first result line failed: one iteration at most")

	_, stderr, code = within(t, hangLimit, dir, nil, shortArgs(1, "-o", os.DevNull)...)
	require.Equal(t, 0, code, stderr)
	for _, dev := range []string{"/dev/full", os.DevNull} {
		fi, err := os.Stat(dev)
		require.NoError(t, err)
		assert.NotZero(t, fi.Mode()&os.ModeCharDevice, "%s is still a device", dev)
	}
	assertNoLeftovers(t, tmp)
}

// TestClosedStdout runs with stdout a pipe that is closed before the
// results reach it, as gobench-dyn run | head does to the lines past its
// tenth: the write fails as on any output failure, with a message, its
// temporary files removed and exit 1 (not death by SIGPIPE, exit 141),
// and --raw holds every slice.
func TestClosedStdout(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs benchmarks")
	}
	dir, tmp, raw, _ := faultyRun(t)
	bin, err := builtBinary()
	require.NoError(t, err)
	cmd := exec.Command(bin, shortArgs(2, "--raw", raw, "--progress", "off")...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	require.NoError(t, stdout.Close())
	err = cmd.Wait()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, stderr.String())
	require.Equal(t, 1, ee.ExitCode(), "%v\n%s", ee, stderr.String())
	assert.Contains(t, stderr.String(), "gobench-dyn: writing results to stdout: broken pipe")
	assertNoLeftovers(t, tmp)
	run, _, err := record.ReadFile(raw)
	require.NoError(t, err)
	assert.True(t, run.Complete)
	assert.Equal(t, 2*2*3, countMeasured(run), "every slice is recorded")
}

// TestNaNMetricsSurvive runs a benchmark that reports NaN and infinite
// metrics: every slice reaches --raw with its values, the summary names
// them, and compare reads both the raw and the -o file.
func TestNaNMetricsSurvive(t *testing.T) {
	dir, tmp, raw, out := faultyRun(t)
	_, stderr, code := within(t, hangLimit, dir, nil, fixedArgs("^BenchmarkNaN$", 3, 2, "--raw", raw, "-o", out)...)
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `NOT A NUMBER example\.com/faulty\.BenchmarkNaN\S* reported NaN nan/op in 6 of 6 measurement slices`, stderr)
	assert.Regexp(t, `NOT A NUMBER example\.com/faulty\.BenchmarkNaN\S* reported \+Inf inf/op`, stderr)
	assert.Regexp(t, `NOT A NUMBER example\.com/faulty\.BenchmarkNaN\S* reported -Inf neginf/op`, stderr)

	run, _, err := record.ReadFile(raw)
	require.NoError(t, err)
	require.True(t, run.Complete)
	assert.Equal(t, 6, countMeasured(run), "no slice is missing")
	for _, s := range run.Slices {
		assert.True(t, math.IsNaN(s.Values["nan/op"]))
		assert.Equal(t, math.Inf(1), s.Values["inf/op"])
		assert.Equal(t, math.Inf(-1), s.Values["neginf/op"])
	}
	assert.Equal(t, 6, sum(readBenchResults(t, out)))
	for _, files := range [][]string{{out, out}, {raw, raw}} {
		stdout, stderr, code := within(t, hangLimit, tmp, nil, append([]string{"compare"}, files...)...)
		assert.Equal(t, 0, code, "%v: %s", files, stderr)
		assert.Contains(t, stdout, "NaN among the values")
	}
}

// TestMeasuringNothingLeavesRawAlone runs, on an existing raw file, runs
// that fail before they measure: it stays as it was.
func TestMeasuringNothingLeavesRawAlone(t *testing.T) {
	dir, tmp, raw, _ := faultyRun(t)
	_, stderr, code := within(t, hangLimit, dir, nil, shortArgs(1, "--raw", raw)...)
	require.Equal(t, 0, code, stderr)
	before := mustRead(t, raw)
	noGo := t.TempDir() // a PATH without go
	for _, tc := range []struct {
		env  []string
		args []string
	}{
		{nil, []string{"-b", "^BenchmarkNoSuchThing$"}},
		{nil, []string{"./no/such/package"}},
		{[]string{"PATH=" + noGo}, nil},
	} {
		args := append([]string{"run"}, tc.args...)
		args = append(args, "--stop", "none", "--raw", raw)
		_, stderr, code := within(t, hangLimit, dir, tc.env, args...)
		assert.NotEqual(t, 0, code, "%v: %s", tc, stderr)
		assert.Equal(t, before, mustRead(t, raw), "%v: %s", tc, stderr)
	}
	fresh := filepath.Join(tmp, "fresh.jsonl")
	_, _, code = within(t, hangLimit, dir, nil, "run", ".", "-b", "^BenchmarkNoSuchThing$", "--raw", fresh)
	assert.Equal(t, 2, code)
	assert.NoFileExists(t, fresh, "no raw file is made for nothing")
	assertNoLeftovers(t, tmp)
}

// TestUnfinishedRawNeedsForceAndResumeChecksItsHeader: a raw file that
// holds a run --resume could continue is not overwritten without --force;
// and a resume refuses a header edited since the run wrote it, or one of
// another machine unless forced.
func TestUnfinishedRawNeedsForceAndResumeChecksItsHeader(t *testing.T) {
	dir, tmp, raw, _ := faultyRun(t)
	_, stderr, code := within(t, hangLimit, dir, nil, shortArgs(3, "--raw", raw)...)
	require.Equal(t, 0, code, stderr)
	// Cut the run short after its first suite run, as a crash would.
	complete := mustRead(t, raw)
	lines := strings.SplitAfter(string(complete), "\n")
	cut := strings.Join(lines[:len(lines)/3], "")
	require.NoError(t, os.WriteFile(raw, []byte(cut), 0o644))

	_, stderr, code = within(t, hangLimit, dir, nil, shortArgs(3, "--raw", raw)...)
	assert.Equal(t, 2, code, stderr)
	assert.Contains(t, stderr, "--raw "+raw+": the file holds an unfinished run (it has no end record): --resume "+raw+" continues it, --force replaces it")
	assert.Equal(t, cut, string(mustRead(t, raw)))

	header, rest, _ := strings.Cut(cut, "\n")
	for _, tc := range []struct {
		header string
		force  bool
		code   int
		msg    string
	}{
		{strings.Replace(header, `"seed":9`, `"seed":10`, 1), true, 2, "the header was edited since the run wrote it"},
		{strings.Replace(header, `"slices":"3"`, `"slices":"4"`, 1), true, 2, "the header was edited since the run wrote it"},
		{otherMachine(t, header), false, 2, "the run was recorded on another machine"},
		{otherMachine(t, header), false, 2, "; --force resumes anyway"},
		{otherMachine(t, header), true, 0, "warning: " + raw + ": the run was recorded on another machine"},
	} {
		require.NoError(t, os.WriteFile(raw, []byte(tc.header+"\n"+rest), 0o644))
		args := slicesWithout(shortArgs(3, "--resume", raw), "--seed")
		if tc.force {
			args = append(args, "--force")
		}
		_, stderr, code := within(t, hangLimit, dir, nil, args...)
		assert.Equal(t, tc.code, code, stderr)
		assert.Contains(t, stderr, tc.msg)
	}

	require.NoError(t, os.WriteFile(raw, []byte(cut), 0o644))
	_, stderr, code = within(t, hangLimit, dir, nil, shortArgs(3, "--raw", raw, "--force")...)
	require.Equal(t, 0, code, stderr)
	run, _, err := record.ReadFile(raw)
	require.NoError(t, err)
	assert.True(t, run.Complete)
	assertNoLeftovers(t, tmp)
}

// otherMachine rewrites header, as gobench-dyn writes it, for another
// machine: another architecture and CPU.
func otherMachine(t *testing.T, header string) string {
	t.Helper()
	run, _, err := record.Read(strings.NewReader(header+"\n"), "raw")
	require.NoError(t, err)
	h := run.Header
	h.GOARCH, h.CPU = "riscv64", "Another CPU"
	var buf bytes.Buffer
	require.NoError(t, record.NewWriter(&buf).Write(h))
	return strings.TrimSuffix(buf.String(), "\n")
}

// otherCode returns raw with its header written anew, as by a run of
// other code: another test binary hash.
func otherCode(t *testing.T, raw []byte) []byte {
	t.Helper()
	header, rest, _ := bytes.Cut(raw, []byte("\n"))
	run, _, err := record.Read(bytes.NewReader(append(header, '\n')), "raw")
	require.NoError(t, err)
	for k, v := range run.Header.Binaries {
		run.Header.Binaries[k] = "0" + v
	}
	var buf bytes.Buffer
	require.NoError(t, record.NewWriter(&buf).Write(run.Header))
	return append(buf.Bytes(), rest...)
}

// sleepSource is a package of a repository for baseline runs: each slice
// of BenchmarkA takes 20 ms whatever b.N, so that a run lasts long enough
// to be interrupted, and reports a fixed ns/op.
const sleepSource = `package calc

import (
	"testing"
	"time"
)

func BenchmarkA(b *testing.B) {
	time.Sleep(20 * time.Millisecond)
	for range b.N {
	}
	b.ReportMetric(1000, "ns/op")
}
`

// TestResumeOfAnInterruptedBaselineRun interrupts a --baseline run with
// a sequential comparison, paired slice by slice (the default; process
// pairing resumes alike, session.TestResumeOfASequentialBaselineRun): it
// prints the verdicts it had reached, and --resume, which it says
// completes the run, does.
func TestResumeOfAnInterruptedBaselineRun(t *testing.T) {
	repo := gitRepo(t, 1000, 1000)
	require.NoError(t, os.WriteFile(filepath.Join(repo, "sleep_test.go"), []byte(sleepSource), 0o644))
	gittest.CommitAll(t, repo, "a slow benchmark")
	gittest.Git(t, repo, "commit", "-q", "--allow-empty", "-m", "nothing")
	for _, tc := range []struct {
		pairing []string
		// measured is the measurement slices after which both versions
		// have some: a process of 5 slices, or a turn each.
		measured int
	}{
		{[]string{"--pairing", "slice", "--turns", "4", "--turn-time", "5ms", "--turn-warmup", "10ms"}, 2},
	} {
		t.Run(tc.pairing[1], func(t *testing.T) {
			tmp := privateTmp(t)
			raw := filepath.Join(tmp, "raw.jsonl")
			args := append([]string{"run", ".", "--baseline", "HEAD~1", "--impact", "off", "-b", "^BenchmarkA$", "--stop", "cv", "--suite-runs", "8",
				"--slice-time", "5ms", "--seed", "4", "--progress", "off", "--raw", raw, "-o", filepath.Join(tmp, "out.txt")}, tc.pairing...)
			p := startGobenchDyn(t, repo, args...)
			waitForMeasured(t, raw, tc.measured)
			require.NoError(t, p.cmd.Process.Signal(os.Interrupt))
			require.Equal(t, 130, p.wait(t), p.stderr.String())
			assert.Contains(t, p.stderr.String(), "--resume "+raw+" completes them")
			assert.Contains(t, p.stderr.String(), "PARTIAL: the verdicts reached")
			assertNoLeftovers(t, tmp)

			_, stderr, code := within(t, hangLimit, repo, nil, append(slicesWithout(args, "--raw", "--seed"), "--resume", raw)...)
			require.Equal(t, 0, code, stderr)
			assert.Contains(t, stderr, "resuming "+raw)
			run, _, err := record.ReadFile(raw)
			require.NoError(t, err)
			assert.True(t, run.Complete)
			assertSaneEfficiency(t, stderr)
			assertNoLeftovers(t, tmp)
		})
	}
}

// waitForMeasured waits until the raw file holds at least n measurement
// slices.
func waitForMeasured(t *testing.T, path string, n int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(path)
		got := 0
		for line := range strings.Lines(string(data)) {
			if strings.HasPrefix(line, `{"type":"slice"`) && !strings.Contains(line, `"warmup":true`) {
				got++
			}
		}
		if got >= n {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s never held %d measurement slices", path, n)
}

// slicesWithout returns args without the flags named and their values.
func slicesWithout(args []string, flags ...string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		drop := false
		for _, f := range flags {
			if args[i] == f {
				drop = true
			}
		}
		if drop {
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// TestOutputHeldOpenDoesNotHoldTheRun runs a benchmark that leaves a
// child holding its stdout for an hour, out of reach of a kill of its
// process group: each iteration ends soon after its binary, whole, and
// no timeout is claimed.
func TestOutputHeldOpenDoesNotHoldTheRun(t *testing.T) {
	dir := faultyDir(t)
	tmp := privateTmp(t)
	mark := strconv.Itoa(3600 + os.Getpid()%99999) // a sleep nobody else runs
	t.Cleanup(func() { killMatching(t, "sleep "+mark) })
	out := filepath.Join(tmp, "out.txt")
	_, stderr, code := within(t, hangLimit, dir, []string{"FAULTY_MARK=" + mark}, fixedArgs("^BenchmarkHoldsOutput$", 1, 3, "--timeout", "1m", "-o", out)...)
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, stderr, "timeout")
	assert.NotContains(t, stderr, "FAILED")
	assert.Equal(t, 3, sum(readBenchResults(t, out)))
}

// killMatching kills the processes whose command line contains mark: the
// ones a test's benchmark started and left running on purpose.
func killMatching(t *testing.T, mark string) {
	for _, line := range processesMatching(t, []string{mark}) {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		if pid, err := strconv.Atoi(f[1]); err == nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// TestKilledRunIsCleanedUpByTheNext kills a --baseline run with SIGKILL,
// which no handler sees, while a benchmark with a child of its own hangs:
// the test binary dies with it, and the next run removes the temporary
// directory, the baseline's worktree and git's record of it, the unfinished
// results file and the child left running.
func TestKilledRunIsCleanedUpByTheNext(t *testing.T) {
	repo := t.TempDir()
	for _, f := range []string{"go.mod", "faulty_test.go", "outputs_test.go"} {
		require.NoError(t, os.WriteFile(filepath.Join(repo, f), mustRead(t, filepath.Join(faultyDir(t), f)), 0o644))
	}
	gittest.Git(t, repo, "init", "-q")
	gittest.CommitAll(t, repo, "faulty")
	tmp := privateTmp(t)
	mark := strconv.Itoa(800000 + os.Getpid()%99999)
	ready := filepath.Join(t.TempDir(), "ready")
	t.Setenv("FAULTY_MARK", mark)
	t.Setenv("FAULTY_READY", ready)
	t.Cleanup(func() { killMatching(t, "sleep "+mark) })
	out := filepath.Join(repo, "out.txt")
	p := startGobenchDyn(t, repo, "run", ".", "--baseline", "HEAD", "--impact", "off", "-b", "^BenchmarkHangReady$", "--stop", "none",
		"--suite-runs", "1", "--slices", "1", "--slice-time", "2ms", "--timeout", "1h", "-o", out)
	for deadline := time.Now().Add(hangLimit); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		require.True(t, time.Now().Before(deadline), "the benchmark never began to hang:\n%s", p.stderr.String())
	}
	binaries, err := filepath.Glob(filepath.Join(tmp, "gobench-dyn-*", "bin-*"))
	require.NoError(t, err)
	require.NotEmpty(t, binaries)
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGKILL))
	_ = p.cmd.Wait()

	// The test binaries die with the run.
	var alive []string
	for deadline := time.Now().Add(leftoverWait); ; time.Sleep(50 * time.Millisecond) {
		alive = processesMatching(t, binaries)
		if len(alive) == 0 || time.Now().After(deadline) {
			break
		}
	}
	assert.Empty(t, alive, "test binaries outlived the run")
	left, err := filepath.Glob(filepath.Join(tmp, "gobench-dyn-*"))
	require.NoError(t, err)
	require.NotEmpty(t, left, "SIGKILL leaves the temporary directory")
	tmpFiles, err := filepath.Glob(filepath.Join(repo, ".out.txt.tmp*"))
	require.NoError(t, err)
	require.NotEmpty(t, tmpFiles, "and the unfinished results file")

	// The next run, of anything, cleans up.
	_, stderr, code := within(t, hangLimit, repo, nil, fixedArgs("^BenchmarkOK$", 1, 1, "-o", out)...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "removed what 1 killed runs left behind")
	assertNoLeftovers(t, tmp, "sleep "+mark)
	tmpFiles, err = filepath.Glob(filepath.Join(repo, ".out.txt.tmp*"))
	require.NoError(t, err)
	assert.Empty(t, tmpFiles)
	list, err := exec.Command("git", "-C", repo, "worktree", "list", "--porcelain").Output()
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(string(list), "worktree "), "git forgot the baseline's worktree:\n%s", list)
}

// TestResultShapedPrintsAreNotResults runs a benchmark that prints lines
// shaped like results, of itself and of a benchmark that does not exist,
// with another b.N: its results are its own, and no phantom benchmark
// appears.
func TestResultShapedPrintsAreNotResults(t *testing.T) {
	dir, _, raw, out := faultyRun(t)
	_, stderr, code := within(t, hangLimit, dir, nil, fixedArgs("^BenchmarkFakeLine$", 2, 3, "-o", out, "--raw", raw)...)
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, stderr, "Phantom")
	assert.NotContains(t, stderr, "FAILED")
	counts := readBenchResults(t, out)
	assert.Equal(t, 6, sum(counts))
	for name := range counts {
		assert.True(t, strings.HasPrefix(name, "FakeLine"), name)
	}
	run, _, err := record.ReadFile(raw)
	require.NoError(t, err)
	for _, s := range run.Slices {
		assert.NotEqual(t, int64(987654321), s.N, "the printed line's N")
		assert.NotEqual(t, 999.0, s.Values["ns/op"], "the printed line's ns/op")
	}
}

// TestOutOfMemoryNamesTheCause runs a benchmark that runs out of memory:
// the failure quotes the runtime's fatal error line, not only the
// goroutine frames after it.
func TestOutOfMemoryNamesTheCause(t *testing.T) {
	dir := faultyDir(t)
	privateTmp(t)
	_, stderr, code := within(t, hangLimit, dir, nil, fixedArgs("^Benchmark(OOM|OK)$", 1, 2)...)
	require.Equal(t, 1, code, stderr)
	assert.Regexp(t, `FAILED example\.com/faulty\.BenchmarkOOM\S*: suite run 1 iteration 1: exit status 2: fatal error: out of memory`, stderr)
}

// TestBaselineWithoutGit runs --baseline where git is not installed: the
// message says so, before anything is built.
func TestBaselineWithoutGit(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, stderr, code := inProcess("run", "--baseline", "HEAD~1", "--impact", "off", faultyDir(t))
	assert.Equal(t, 2, code, stderr)
	assert.Contains(t, stderr, "--baseline: git is not installed")
	assert.NotContains(t, stderr, "not in a git repository")
}
