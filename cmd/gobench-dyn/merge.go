package main

import (
	"fmt"
	"io"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/spf13/cobra"
)

// MergeOptions holds the flags and arguments of gobench-dyn merge.
type MergeOptions struct {
	Out    string   // -o: the merged raw file
	Inputs []string // the raw files to merge

	ErrOut io.Writer
}

// NewCmdMerge returns the merge command. It binds flags to MergeOptions and calls
// runF, or mergeRun when runF is nil, so that tests can check what the flags
// bind without running anything.
func NewCmdMerge(ios *IOStreams, runF func(*MergeOptions) error) *cobra.Command {
	opts := &MergeOptions{}
	cmd := &cobra.Command{
		Use:   "merge -o OUT RAW...",
		Short: "Combine the raw records of shards and instances into one file",
		Long: `Merge raw record files (--raw of gobench-dyn run) written by the jobs of one
parallel run, shards (--shard K/N) or instances (--instance NAME) or both, into
one raw file that optimize, replay, compare and report read like any other.

Instances stay the outermost level of the records: every record of the merged
file names its instance. Files that name no instance and are the shards of one
run form a single unnamed instance; any other unnamed files become one
instance each, named after the file, with a warning.

Merge refuses files that cannot be pooled: different record schemas,
platforms or result-shaping options (slice time, criteria, configuration...),
two files holding the same shard of one instance, one instance name from two
hosts, or a benchmark measured in two files of the same instance. It warns
where Go versions, CPUs or test binaries differ, where a file is partial (a
torn last line is dropped), and where an instance lacks a shard.

The output is written to a temporary file and renamed into place, so OUT is
never left half written.

Exit status: 0 merged; 1 if writing the merged file fails; 2 on bad flags,
bad input or a refused merge.`,
		Example: `  # Merge the shards downloaded from four CI jobs.
  gobench-dyn merge -o merged.jsonl shard-1/raw.jsonl shard-2/raw.jsonl shard-3/raw.jsonl shard-4/raw.jsonl

  # Merge three machines that each ran the whole suite with --instance,
  # then report on all of them.
  gobench-dyn merge -o all.jsonl vm-a.jsonl vm-b.jsonl vm-c.jsonl
  gobench-dyn report --html report.html all.jsonl`,
		Args: atLeastOneArg("merge needs at least one raw file"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Inputs = args
			opts.ErrOut = ios.ErrOut
			if runF != nil {
				return runF(opts)
			}
			return mergeRun(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Out, "out", "o", "", "merged raw `file` to write (required)")
	return cmd
}

// mergeRun reads opts.Inputs, merges them and writes opts.Out.
func mergeRun(opts *MergeOptions) error {
	if opts.Out == "" {
		return usageErr("merge needs -o OUT, the merged raw file to write")
	}
	if len(opts.Inputs) == 0 {
		return usageErr("merge needs at least one raw file")
	}
	merged, err := record.MergeFiles(opts.Inputs, func(w record.Warning) { fmt.Fprintln(opts.ErrOut, "gobench-dyn: warning:", w) })
	if err != nil {
		return usageErr("%w", err)
	}
	return writeOutputFile("--out", opts.Out, merged.Write)
}
