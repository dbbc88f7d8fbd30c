package main

import (
	"bufio"
	"fmt"
	"io"

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
