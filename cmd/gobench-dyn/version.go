package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// toolVersion returns the module version gobench-dyn was built from, or
// "devel" for a build from a work tree.
func toolVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// versionLine is what version and --version print.
func versionLine() string {
	return fmt.Sprintf("gobench-dyn %s (%s %s/%s)", toolVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the gobench-dyn version",
		Long:    "Print the gobench-dyn version, as gobench-dyn --version does.\n\nExit status: 0, or 2 on bad arguments.",
		Example: "  gobench-dyn version",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), versionLine())
			return err
		},
	}
}
