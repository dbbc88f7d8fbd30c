// Command gobench-dyn runs Go benchmark suites in randomized multiple
// interleaved trials, stops each benchmark once its result is stable, and
// prints results that benchstat reads.
package main

//go:generate go test -run ^TestCLIDocsUpToDate$ -update-docs .

import (
	"errors"
	"fmt"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"io"
	"os"

	"github.com/spf13/cobra"
)

func main() {
	catchSIGPIPE()
	os.Exit(execute(os.Args[1:]))
}

// execute runs the command line args and returns the exit status.
func execute(args []string) int {
	return executeIO(args, os.Stdout, os.Stderr)
}

// executeIO is execute writing to stdout and stderr.
func executeIO(args []string, stdout, stderr io.Writer) int {
	ios := &IOStreams{In: os.Stdin, Out: stdout, ErrOut: stderr}
	root := newRootCmd(ios)
	root.SetArgs(args)
	root.SetIn(ios.In)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return 0
	}
	var ex *exitError
	if errors.As(err, &ex) {
		if ex.msg != "" {
			fmt.Fprintln(stderr, "gobench-dyn:", ex.msg)
		}
		return ex.code
	}
	// Anything else came from cobra itself: an unknown command or a
	// missing argument. Those are usage errors.
	fmt.Fprintln(stderr, "gobench-dyn:", err)
	return 2
}

func newRootCmd(ios *IOStreams) *cobra.Command {
	root := &cobra.Command{
		Use:   "gobench-dyn",
		Short: "Run Go benchmarks in randomized interleaved trials, stopping each once it is stable",
		Long: `gobench-dyn replaces "go test -bench" in Makefiles and CI. It runs a benchmark
suite in randomized multiple interleaved trials (RMIT), records every slice of
every iteration, stops each benchmark as soon as its result is statistically
stable, and prints output that benchstat reads as is.

Exit status, the same for every command: 0 ok; 1 a regression found, a
benchmark failed, or a runtime failure such as an output that could not be
written; 2 bad flags or input files; 130 interrupted.`,
		Example: `  gobench-dyn run ./...                          # stop each benchmark once stable
  gobench-dyn run --baseline origin/main ./...   # interleave the base version; exit 1 on a regression
  gobench-dyn run --stop none -o full.txt --raw full.jsonl ./... && gobench-dyn optimize -o bench.conf full.jsonl`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.CompletionOptions.DisableDefaultCmd = true
	root.AddCommand(commands(ios)...)
	root.Version = versionLine()
	root.SetVersionTemplate("{{.Version}}\n")
	// A flag cobra cannot parse is a usage error.
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return usageErr("%w", err)
	})
	for _, c := range root.Commands() {
		runtimeFailures(c)
	}
	return root
}

// runtimeFailures makes every error that c and its subcommands return
// without an exit status a runtime failure, exit 1: bad flags and input
// files say so with usageErr (exit 2), and everything else that goes
// wrong while a command runs (a build that breaks, a disk that fills up)
// is not the user's usage.
func runtimeFailures(c *cobra.Command) {
	if run := c.RunE; run != nil {
		c.RunE = func(cmd *cobra.Command, args []string) error {
			return exitStatus(run(cmd, args))
		}
	}
	for _, sub := range c.Commands() {
		runtimeFailures(sub)
	}
}

// exitStatus gives err an exit status unless it has one: 2 for a usage
// error, 1 for any other.
func exitStatus(err error) error {
	var ex *exitError
	switch {
	case err == nil || errors.As(err, &ex):
		return err
	case usage.As(err) != nil:
		return exitUsage(err)
	}
	return &exitError{code: 1, msg: err.Error(), err: err}
}

// An exitError carries an exit status and the message for it out of a
// command, with the error it stands for.
type exitError struct {
	code int
	msg  string
	err  error // the cause, if any
}

func (e *exitError) Error() string { return e.msg }

// Unwrap returns the cause.
func (e *exitError) Unwrap() error { return e.err }

// usageErr returns an error that exits 2 with a message naming the bad flag,
// file or line. A %w argument stays reachable with errors.Is.
func usageErr(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &exitError{code: 2, msg: err.Error(), err: err}
}

// failErr returns an error that exits 1: a regression or failed benchmark.
func failErr(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &exitError{code: 1, msg: err.Error(), err: err}
}

// exitUsage turns a library's usage error into exit status 2, with a
// message in the words of the flags: "--resume r.jsonl: the run is
// complete".
func exitUsage(err error) error {
	return &exitError{code: 2, msg: usage.As(usage.Wrap(err)).Error(), err: err}
}
