package main

import (
	"bytes"
	"strings"
)

// inProcess runs the command line args in this process, as main would,
// and returns its stdout, stderr and exit status.
func inProcess(args ...string) (string, string, int) {
	var stdout, stderr bytes.Buffer
	code := execute(args, &IOStreams{In: strings.NewReader(""), Out: &stdout, ErrOut: &stderr})
	return stdout.String(), stderr.String(), code
}

// exitCode runs args in process and returns the exit status.
func exitCode(args ...string) int {
	_, _, code := inProcess(args...)
	return code
}
