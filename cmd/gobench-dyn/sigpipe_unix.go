//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
)

// catchSIGPIPE turns a write to a closed pipe on stdout (gobench-dyn run
// | head) from a SIGPIPE that kills the process on the spot into an EPIPE
// error: the command then fails as on any other output failure, with its
// records ended, its temporary files removed, a message and exit 1. The
// signal is caught, not ignored, so the test binaries do not inherit an
// ignored SIGPIPE.
func catchSIGPIPE() {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
}
