package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The command's tests run it in one of two ways, and both give back the
// same three things in one order: what it wrote on stdout, what it wrote
// on stderr (with its error message last, as main prints it), and its
// exit status. In process, through main's own executeIO (inProcess) or a
// command's Run function with its Options (runOptions), for flags, files
// and output; or as the built binary (gobenchDyn, within), for runs that
// start test binaries, signals and the environment.

// inProcess runs the command line args in this process, as main would.
func inProcess(args ...string) (stdout, stderr string, code int) {
	var out, errOut bytes.Buffer
	code = executeIO(args, &out, &errOut)
	return out.String(), errOut.String(), code
}

// runOptions returns what a command's Run function did, as main would
// show it: what it wrote to out and errOut, its error's message printed
// last on stderr as main prints it, and the exit status the error stands
// for.
func runOptions(t *testing.T, out, errOut *bytes.Buffer, err error) (stdout, stderr string, code int) {
	t.Helper()
	code, msg := exitOf(t, err)
	if msg != "" {
		fmt.Fprintln(errOut, "gobench-dyn:", msg)
	}
	return out.String(), errOut.String(), code
}

// exitCode runs args in process and returns the exit status.
func exitCode(args ...string) int {
	_, _, code := inProcess(args...)
	return code
}

// exitOf returns the exit status and message a command's error stands
// for: 0 and "" for none; any other error must be an exitError.
func exitOf(t *testing.T, err error) (int, string) {
	t.Helper()
	if err == nil {
		return 0, ""
	}
	var ex *exitError
	require.True(t, errors.As(err, &ex), "%v", err)
	return ex.code, ex.msg
}

// gobenchDyn runs the built command in dir.
func gobenchDyn(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return within(t, 0, dir, nil, args...)
}

// within runs the built command in dir with env added; a run still going
// after limit (unless 0) is a hang, and fails the test rather than the
// test binary's deadline.
func within(t *testing.T, limit time.Duration, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end: builds and runs benchmarks")
	}
	bin, err := builtBinary()
	require.NoError(t, err)
	ctx, cancel := context.Background(), func() {}
	if limit > 0 {
		ctx, cancel = context.WithTimeout(ctx, limit)
	}
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "CI=true"), env...)
	cmd.WaitDelay = 10 * time.Second
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	require.NoError(t, ctx.Err(), "gobench-dyn %v did not end within %v:\n%s", args, limit, errOut.String())
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return out.String(), errOut.String(), code
}

// binaryDir holds the command builtBinary builds, so that TestMain
// removes it when the tests end.
var binaryDir string

func TestMain(m *testing.M) {
	var err error
	if binaryDir, err = os.MkdirTemp("", "gobench-dyn-e2e-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	// A run keeps its learned warmups for the next run of the same
	// binary: the tests' runs neither read nor write the user's.
	os.Setenv("GOBENCHDYN_WARMUP_CACHE", "off")
	code := m.Run()
	os.RemoveAll(binaryDir)
	os.Exit(code)
}

// builtBinary builds the gobench-dyn command once per test run.
var builtBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp(binaryDir, "bin-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "gobench-dyn")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", errors.New(string(out))
	}
	return bin, nil
})
