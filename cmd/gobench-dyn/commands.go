package main

import "github.com/spf13/cobra"

// commands lists the subcommands of gobench-dyn.
func commands(ios *IOStreams) []*cobra.Command {
	return []*cobra.Command{
		NewCmdRun(ios, nil),
		newVersionCmd(),
		newCompareCmd(),
		newMergeCmd(),
		newReportCmd(),
		newReplayCmd(),
		newOptimizeCmd(),
	}
}
