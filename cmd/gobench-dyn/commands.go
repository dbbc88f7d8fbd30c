package main

import "github.com/spf13/cobra"

// commands lists the subcommands of gobench-dyn.
func commands() []*cobra.Command {
	return []*cobra.Command{
		newRunCmd(),
		newVersionCmd(),
		newCompareCmd(),
		newMergeCmd(),
		newReportCmd(),
		newReplayCmd(),
		newOptimizeCmd(),
		newAbsCmd(),
	}
}
