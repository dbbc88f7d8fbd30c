package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commandNames lists the root and every subcommand as their help is asked for.
func commandNames() [][]string {
	names := [][]string{{}}
	for _, c := range newRootCmd(systemIO()).Commands() {
		names = append(names, []string{c.Name()})
	}
	return names
}

// TestHelpHasExitStatusAndOneDefault reads every command's help: each
// says what its exit status means, and no flag shows two defaults (one in
// its usage and cobra's own after it).
func TestHelpHasExitStatusAndOneDefault(t *testing.T) {
	for _, name := range commandNames() {
		out, _, code := inProcess(append(name, "--help")...)
		require.Equal(t, 0, code, "%v", name)
		assert.Contains(t, out, "Exit status", "%v --help", name)
		for l := range strings.Lines(out) {
			assert.LessOrEqual(t, strings.Count(l, "(default"), 1, "%v --help: %s", name, l)
		}
	}
}

func TestVersionFlag(t *testing.T) {
	flag, _, code := inProcess("--version")
	assert.Equal(t, 0, code)
	cmd, _, code := inProcess("version")
	assert.Equal(t, 0, code)
	assert.Equal(t, cmd, flag)
	assert.True(t, strings.HasPrefix(flag, "gobench-dyn "), flag)
}

// TestRelativeThresholdTypo checks that a relative threshold of 1 or more,
// a percentage typed for a fraction, is refused with the fraction meant,
// in every command that takes one; a KLD threshold is a probability, and
// checked as one.
func TestRelativeThresholdTypo(t *testing.T) {
	old, same := filepath.Join("testdata", "compare", "old.txt"), filepath.Join("testdata", "compare", "same.txt")
	tiny := filepath.Join("..", "..", "testdata", "tiny-v1.0.0.csv")
	// A run that got past its flags would fail on the missing package.
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"run", "--stop", "precision", "--threshold", "3", "./no/such/package"}, "--threshold 3: a relative change is a fraction (0.03 = 3%); for 3% use 0.03"},
		{[]string{"run", "--target", "3", "./no/such/package"}, "--target 3: a relative change is a fraction (0.03 = 3%); for 3% use 0.03"},
		{[]string{"run", "--threshold", "0.03", "./no/such/package"}, "--threshold: --stop interval takes --target"},
		{[]string{"run", "--stop", "cv", "--target", "0.02", "./no/such/package"}, "--target: only --stop interval has a target"},
		{[]string{"run", "--stop", "cv", "--min-iterations", "2", "./no/such/package"}, "--min-iterations: no criterion judges a benchmark on fewer than 3 processes"},
		{[]string{"run", "--stop", "cv", "--threshold", "1", "./no/such/package"}, "--threshold 1: "},
		{[]string{"run", "--stop", "rciw", "--threshold", "5", "./no/such/package"}, "for 5% use 0.05"},
		{[]string{"run", "--min-change", "3", "./no/such/package"}, "--min-change 3: a relative change is a fraction"},
		{[]string{"run", "--stop", "kld", "--threshold", "3", "./no/such/package"}, "--threshold: a KLD threshold is a probability below 1"},
		{[]string{"replay", "--stop", "cv", "--threshold", "2", tiny}, "--threshold 2: a relative change is a fraction"},
		{[]string{"compare", "--threshold", "3", old, same}, "--threshold 3: a relative change is a fraction (0.03 = 3%); for 3% use 0.03"},
		{[]string{"optimize", "--threshold", "10", tiny}, "--threshold 10: a relative change is a fraction (0.03 = 3%); for 10% use 0.1"},
	} {
		_, stderr, code := inProcess(tc.args...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, stderr)
		assert.Contains(t, stderr, tc.msg, "%v", tc.args)
	}
	_, stderr, code := inProcess("compare", "--threshold", "0.5", old, same)
	assert.Equal(t, 0, code, "a fraction is accepted: %s", stderr)
}

// failingWriter fails every write, as a closed pipe or a full disk does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestFailedWriteExits1 checks that an output that cannot be written is a
// runtime failure, exit 1, in every command that writes one, and that a
// path that cannot be created is a bad flag, exit 2, naming the path the
// user gave.
func TestFailedWriteExits1(t *testing.T) {
	old, same := filepath.Join("testdata", "compare", "old.txt"), filepath.Join("testdata", "compare", "same.txt")
	tiny := filepath.Join("..", "..", "testdata", "tiny-v1.0.0.csv")
	raw := filepath.Join("testdata", "compare", "old.jsonl")
	for _, args := range [][]string{
		{"compare", old, same},
		{"compare", "--json", old, same},
		{"replay", tiny},
		{"optimize", tiny},
		{"report", "--markdown", "-", raw},
		{"version"},
	} {
		var errOut bytes.Buffer
		code := executeIO(args, failingWriter{}, &errOut)
		assert.Equal(t, 1, code, "%v: %s", args, errOut.String())
	}

	missing := filepath.Join(t.TempDir(), "missing", "dir", "out")
	for _, tc := range []struct {
		args []string
		flag string
	}{
		{[]string{"merge", "-o", missing, raw}, "--out"},
		{[]string{"optimize", "-o", missing, tiny}, "--out"},
		{[]string{"report", "--html", missing, raw}, "--html"},
		{[]string{"report", "--markdown", missing, raw}, "--markdown"},
	} {
		_, stderr, code := inProcess(tc.args...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, stderr)
		assert.Contains(t, stderr, tc.flag+": create "+missing+": no such file or directory", "%v", tc.args)
		assert.NotContains(t, stderr, ".tmp", "only the user's path is named")
	}
}

// TestExitCodesOfErrors checks how an error becomes an exit status: one a
// command marks keeps its status, any other it returns is a runtime
// failure (1), and what cobra refuses before running anything is usage (2).
func TestExitCodesOfErrors(t *testing.T) {
	_, stderr, code := inProcess("no-such-command")
	assert.Equal(t, 2, code, stderr)
	_, stderr, code = inProcess("compare", "--no-such-flag")
	assert.Equal(t, 2, code, stderr)
	_, stderr, code = inProcess("compare", "--threshold", "x", "a", "b")
	assert.Equal(t, 2, code, stderr)
	_, stderr, code = inProcess("version", "extra")
	assert.Equal(t, 2, code, stderr)

	for _, tc := range []struct {
		err  error
		code int
	}{
		{errors.New("go build: signal: killed"), 1},
		{usageErr("--x: bad"), 2},
		{failErr("regression"), 1},
		{&exitError{code: 130, msg: "interrupted"}, 130},
	} {
		c := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return tc.err }}
		runtimeFailures(c)
		err := c.RunE(c, nil)
		var ex *exitError
		require.True(t, errors.As(err, &ex), "%v", tc.err)
		assert.Equal(t, tc.code, ex.code, "%v", tc.err)
		assert.Equal(t, tc.err.Error(), ex.msg)
	}
}

// TestNoBenchmarksMatchNamesThePackages checks that the message of a run
// that finds nothing names where it looked, also when no package was
// given.
func TestNoBenchmarksMatchNamesThePackages(t *testing.T) {
	dir := filepath.Join(moduleRoot(t), "examples", "stable")
	_, stderr, code := gobenchDyn(t, dir, "run", "-b", "NoSuchBenchmark")
	assert.Equal(t, 2, code, stderr)
	assert.Contains(t, stderr, `no benchmarks match "NoSuchBenchmark" in ./...`+"\n")
	_, err := os.Stat(dir)
	require.NoError(t, err)
}

// TestMissingGoSumNamesTheFix runs a module whose test imports a
// dependency without its go.sum entry: the failure ends with the go get -t
// line that adds it.
func TestMissingGoSumNamesTheFix(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n\ngo 1.26\n\nrequire github.com/stretchr/testify v1.12.1\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "m_test.go"), []byte("package m\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/assert\"\n)\n\n"+
		"func BenchmarkX(b *testing.B) {\n\tfor range b.N {\n\t\tassert.True(b, true)\n\t}\n}\n"), 0o644))
	_, stderr, code := gobenchDyn(t, dir, "run", "--progress", "off", ".")
	assert.Equal(t, 1, code, stderr)
	assert.Contains(t, stderr, "missing go.sum entry")
	assert.Contains(t, stderr, "to add the missing go.sum entries, run:\n    \tgo get -t example.com/m\n")
}

// TestRunFailedWriteExits1 runs a short real run whose results go to a
// stdout that fails every write: the run says so and exits 1, not 0.
func TestRunFailedWriteExits1(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a benchmark")
	}
	var errOut bytes.Buffer
	code := executeIO([]string{"run", "--stop", "none", "--suite-runs", "1", "--slices", "1", "--warmup", "0", "--slice-time", "5ms",
		"--progress", "off", "-b", "SortInts", "../../examples/stable"}, failingWriter{}, &errOut)
	assert.Equal(t, 1, code, errOut.String())
	assert.Contains(t, errOut.String(), "writing results to stdout: no space left on device")
}
