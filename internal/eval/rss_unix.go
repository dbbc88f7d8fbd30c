//go:build unix

package main

import (
	"os"
	"syscall"
)

// maxRSS returns the peak resident set size of an exited process, in KiB
// on Linux, or 0 when the system does not say.
func maxRSS(ps *os.ProcessState) int64 {
	if ps == nil {
		return 0
	}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss)
	}
	return 0
}
