//go:build unix

package rmit

import (
	"os"
	"syscall"
)

// killGroup kills the process group p leads: a negative pid signals the
// group.
func killGroup(p *os.Process) { _ = syscall.Kill(-p.Pid, syscall.SIGKILL) }
