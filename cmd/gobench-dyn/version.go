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

// VersionOptions holds what gobench-dyn version needs: only its streams.
type VersionOptions struct {
	IO *IOStreams
}

// NewCmdVersion returns the version command; it calls runF, or
// versionRun when runF is nil.
func NewCmdVersion(ios *IOStreams, runF func(*VersionOptions) error) *cobra.Command {
	opts := &VersionOptions{IO: ios}
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the gobench-dyn version",
		Long:    "Print the gobench-dyn version, as gobench-dyn --version does.\n\nExit status: 0, or 2 on bad arguments.",
		Example: "  gobench-dyn version",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return versionRun(opts)
		},
	}
}

func versionRun(opts *VersionOptions) error {
	_, err := fmt.Fprintln(opts.IO.Out, versionLine())
	return err
}
