// Command gobench-dyn runs Go benchmark suites in randomized multiple
// interleaved trials, stops each benchmark once its result is stable, and
// prints results that benchstat reads.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

func main() {
	os.Exit(execute(os.Args[1:], systemIO()))
}

// execute runs the command line args with the streams ios and returns the
// exit status.
func execute(args []string, ios *IOStreams) int {
	root := newRootCmd(ios)
	root.SetArgs(args)
	root.SetIn(ios.In)
	root.SetOut(ios.Out)
	root.SetErr(ios.ErrOut)
	err := root.Execute()
	if err == nil {
		return 0
	}
	var ex *exitError
	if errors.As(err, &ex) {
		if ex.msg != "" {
			fmt.Fprintln(ios.ErrOut, "gobench-dyn:", ex.msg)
		}
		return ex.code
	}
	// Anything else came from cobra itself: an unknown flag or command,
	// or a bad flag value. Those are usage errors.
	fmt.Fprintln(ios.ErrOut, "gobench-dyn:", err)
	return 2
}

func newRootCmd(ios *IOStreams) *cobra.Command {
	root := &cobra.Command{
		Use:   "gobench-dyn",
		Short: "Run Go benchmarks in randomized interleaved trials, stopping each once it is stable",
		Long: `gobench-dyn replaces "go test -bench" in Makefiles and CI. It runs a benchmark
suite in randomized multiple interleaved trials (RMIT), records every slice of
every iteration, stops each benchmark as soon as its result is statistically
stable, and prints output that benchstat reads as is.`,
		Example: `  gobench-dyn run ./...                          # stop each benchmark once stable
  gobench-dyn run --baseline origin/main ./...   # interleave the base version; exit 1 on a regression
  gobench-dyn run --stop none -o full.txt --raw full.jsonl ./... && gobench-dyn optimize -o bench.conf full.jsonl`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.CompletionOptions.DisableDefaultCmd = true
	root.AddCommand(commands(ios)...)
	return root
}

// An exitError carries an exit status out of a command.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// usageErr returns an error that exits 2 with a message naming the bad flag,
// file or line.
func usageErr(format string, args ...any) error {
	return &exitError{code: 2, msg: fmt.Sprintf(format, args...)}
}

// failErr returns an error that exits 1: a regression or failed benchmark.
func failErr(format string, args ...any) error {
	return &exitError{code: 1, msg: fmt.Sprintf(format, args...)}
}
