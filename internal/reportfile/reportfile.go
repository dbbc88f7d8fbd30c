// Package reportfile writes what a command reports where its flags say:
// standard output, or a file replaced only once complete, so that readers
// and a crash never see half a file.
//
// Every command that writes a report takes one flag per format, --json,
// --markdown or --html, naming the file to write; "-" is standard output.
// A command with a table prints it on standard output unless a report goes
// there instead. A path that cannot be created is bad input (a usage
// error); a write that fails once the file is open is a runtime failure,
// the same in every command.
package reportfile

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/atomicfile"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
)

// A File is one format of a command's report and where its flag says it
// goes: nowhere (""), standard output ("-") or a file.
type File struct {
	// Flag is the flag as the user types it: "--json".
	Flag, Path string
	Write      func(io.Writer) error
}

// Check refuses two reports on standard output, where they would run into
// each other.
func Check(files ...File) error {
	var onStdout []string
	for _, f := range files {
		if f.Path == "-" {
			onStdout = append(onStdout, f.Flag+" -")
		}
	}
	if len(onStdout) > 1 {
		return usage.Errorf("", "%s: only one report can go to standard output", strings.Join(onStdout, " and "))
	}
	return nil
}

// WriteAll writes table (if any) to stdout unless one of files goes
// there, then each of files where its flag says, a file replaced only once
// complete.
func WriteAll(stdout io.Writer, table func(io.Writer) error, files ...File) error {
	if err := Check(files...); err != nil {
		return err
	}
	toStdout := slices.ContainsFunc(files, func(f File) bool { return f.Path == "-" })
	if table != nil && !toStdout {
		if err := table(stdout); err != nil {
			return fmt.Errorf("writing the table: %w", err)
		}
	}
	for _, f := range files {
		switch f.Path {
		case "":
		case "-":
			if err := f.Write(stdout); err != nil {
				return fmt.Errorf("%s: %w", f.Flag, err)
			}
		default:
			if err := Write(f.Flag, f.Path, f.Write); err != nil {
				return err
			}
		}
	}
	return nil
}

// Write writes the file path of flag ("--out") through write: into a
// temporary file in the same directory, renamed to path once complete.
func Write(flag, path string, write func(io.Writer) error) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return usage.Errorf(strings.TrimPrefix(flag, "--"), "%w", err)
	}
	defer f.Abandon()
	bw := bufio.NewWriterSize(f, 1<<20)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Commit()
	}
	if err != nil {
		return fmt.Errorf("%s: writing %s: %w", flag, path, err)
	}
	return nil
}
