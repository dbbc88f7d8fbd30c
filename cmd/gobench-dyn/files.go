package main

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gobench-dyn/gobench-dyn/internal/atomicfile"
	"github.com/gobench-dyn/gobench-dyn/internal/runfile"
)

// Every command reads its files through readInputs and writes them
// through writeOutputFile, so that bad input and failed writes exit alike.

// readInputs reads the files at paths through the input layer, in the
// formats accept allows (all when none is given), printing each warning
// to warn as it comes. Bad input is a usage error (exit 2) naming the file
// and line.
func readInputs(paths []string, warn io.Writer, accept ...runfile.Format) ([]*runfile.File, error) {
	fs := &runfile.Files{Paths: paths, Accept: accept}
	var files []*runfile.File
	for fs.Scan() {
		switch r := fs.Result().(type) {
		case *runfile.Warning:
			fmt.Fprintln(warn, "gobench-dyn: warning:", r)
		case *runfile.File:
			files = append(files, r)
		}
	}
	if err := fs.Err(); err != nil {
		return nil, usageErr("%w", err)
	}
	return files, nil
}

// writeOutputFile writes the file path of flag through write: into a
// temporary file in the same directory, renamed to path once complete, so
// that readers and a crash never see half a file. A path that cannot be
// created is a bad flag (exit 2); a write that fails once the file is open
// is a runtime failure (exit 1), the same in every command.
func writeOutputFile(flag, path string, write func(io.Writer) error) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return usageErr("%s: %w", flag, err)
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
		return failErr("%s: writing %s: %w", flag, path, err)
	}
	return nil
}

// Every command that writes a report takes one flag per format, --json,
// --markdown or --html, naming the file to write; "-" is standard output.
// A command with a table prints it on standard output unless a report
// goes there instead.

// bindReportFlag binds --format (json, markdown or html) to path: the
// file that what is written to as that format.
func bindReportFlag(fs *pflag.FlagSet, path *string, format, what string) {
	fs.StringVar(path, format, "", fmt.Sprintf("write %s as %s to `FILE` (- for standard output)", what, reportFormatNames[format]))
}

// bindBareReportFlag is bindReportFlag for a flag that scripts may give
// bare, as it was a switch that printed the format instead of the table:
// bare, it still writes to standard output, and a file follows an equals
// sign, --json=FILE, so that a bare flag never takes the next argument.
func bindBareReportFlag(fs *pflag.FlagSet, path *string, format, what string) {
	bindReportFlag(fs, path, format, what)
	f := fs.Lookup(format)
	f.NoOptDefVal = "-"
	f.Usage = fmt.Sprintf("write %s as %s to `FILE`, given as --%s=FILE (- or bare: standard output)", what, reportFormatNames[format], format)
}

var reportFormatNames = map[string]string{"json": "JSON", "markdown": "Markdown", "html": "a self-contained HTML page"}

// A reportFile is one format of a command's report and where its flag
// says it goes: nowhere (""), standard output ("-") or a file.
type reportFile struct {
	flag, path string
	write      func(io.Writer) error
}

// checkReportFiles refuses two reports on standard output, where they
// would run into each other.
func checkReportFiles(files ...reportFile) error {
	var onStdout []string
	for _, f := range files {
		if f.path == "-" {
			onStdout = append(onStdout, f.flag+" -")
		}
	}
	if len(onStdout) > 1 {
		return usageErr("%s: only one report can go to standard output", strings.Join(onStdout, " and "))
	}
	return nil
}

// writeReports writes table (if any) to stdout unless one of files goes
// there, then each of files where its flag says, a file replaced only once
// complete.
func writeReports(stdout io.Writer, table func(io.Writer) error, files ...reportFile) error {
	if err := checkReportFiles(files...); err != nil {
		return err
	}
	toStdout := slices.ContainsFunc(files, func(f reportFile) bool { return f.path == "-" })
	if table != nil && !toStdout {
		if err := table(stdout); err != nil {
			return failErr("writing the table: %w", err)
		}
	}
	for _, f := range files {
		switch f.path {
		case "":
		case "-":
			if err := f.write(stdout); err != nil {
				return failErr("%s: %w", f.flag, err)
			}
		default:
			if err := writeOutputFile(f.flag, f.path, f.write); err != nil {
				return err
			}
		}
	}
	return nil
}
