package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// abortWait bounds how long an abort waits for the killed benchmarks to
// be reaped before it exits.
const abortWait = 5 * time.Second

// onInterrupt cancels the run on the first SIGINT or SIGTERM, so that it
// stops the running child and writes what it has, and exits at once on
// the second, after running cleanups.
func onInterrupt(cancel func(), stderr io.Writer, cleanups *session.Cleanups) (stop func()) {
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-ch:
		case <-done:
			return
		}
		fmt.Fprintln(stderr, "\ngobench-dyn: interrupted; stopping the running benchmark and writing what was measured (interrupt again to abort at once)")
		cancel()
		select {
		case <-ch:
			fmt.Fprintln(stderr, "gobench-dyn: aborted")
			rmit.KillRunning(abortWait)
			cleanups.Run()
			os.Exit(130)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
