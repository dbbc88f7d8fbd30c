package main

import "github.com/spf13/cobra"

// commands lists the subcommands of gobench-dyn.
func commands(ios *IOStreams) []*cobra.Command {
	return []*cobra.Command{
		NewCmdRun(ios, nil),
		NewCmdVersion(ios, nil),
		NewCmdCompare(ios, nil),
		NewCmdMerge(ios, nil),
		NewCmdReport(ios, nil),
		NewCmdReplay(ios, nil),
		NewCmdOptimize(ios, nil),
		NewCmdSteady(ios, nil),
		NewCmdAbs(ios, nil),
		NewCmdHistory(ios, nil),
	}
}

// atLeastOneArg accepts one argument or more; with none, it fails with msg
// as a usage error.
func atLeastOneArg(msg string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return usageErr("%s", msg)
		}
		return nil
	}
}
