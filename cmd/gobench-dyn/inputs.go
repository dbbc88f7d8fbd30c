package main

import (
	"fmt"
	"io"

	"github.com/gobench-dyn/gobench-dyn/input"
)

// readInputs reads the files at paths through the input layer, in the
// formats accept allows (all when none is given), printing each warning
// to warn as it comes. Bad input is a usage error (exit 2) naming the file
// and line.
func readInputs(paths []string, warn io.Writer, accept ...input.Format) ([]*input.File, error) {
	fs := &input.Files{Paths: paths, Accept: accept}
	var files []*input.File
	for fs.Scan() {
		switch r := fs.Result().(type) {
		case *input.Warning:
			fmt.Fprintln(warn, "gobench-dyn: warning:", r)
		case *input.File:
			files = append(files, r)
		}
	}
	if err := fs.Err(); err != nil {
		return nil, usageErr("%v", err)
	}
	return files, nil
}
