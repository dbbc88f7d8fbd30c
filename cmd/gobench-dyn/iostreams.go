package main

import (
	"io"
	"os"
)

// IOStreams are the standard streams of a command, so that tests run
// commands in process with buffers in place of the terminal.
type IOStreams struct {
	In          io.Reader
	Out, ErrOut io.Writer
}

// systemIO returns the process's own streams.
func systemIO() *IOStreams {
	return &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
}
