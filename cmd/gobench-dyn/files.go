package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/gobench-dyn/gobench-dyn/internal/reportfile"
	"github.com/gobench-dyn/gobench-dyn/internal/runfile"
)

// Every command reads its files through readInputs and writes them
// through writeOutputFile or writeReports, so that bad input and failed
// writes exit alike.

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

// writeOutputFile writes the file path of flag through write, replaced
// only once complete (reportfile.Write).
func writeOutputFile(flag, path string, write func(io.Writer) error) error {
	return exitStatus(reportfile.Write(flag, path, write))
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

// reportFiles returns files as package reportfile takes them.
func reportFiles(files []reportFile) []reportfile.File {
	out := make([]reportfile.File, len(files))
	for i, f := range files {
		out[i] = reportfile.File{Flag: f.flag, Path: f.path, Write: f.write}
	}
	return out
}

// checkReportFiles refuses two reports on standard output.
func checkReportFiles(files ...reportFile) error {
	return exitStatus(reportfile.Check(reportFiles(files)...))
}

// writeReports writes table (if any) to stdout unless one of files goes
// there, then each of files where its flag says.
func writeReports(stdout io.Writer, table func(io.Writer) error, files ...reportFile) error {
	return exitStatus(reportfile.WriteAll(stdout, table, reportFiles(files)...))
}
