//go:build !unix

package rmit

import (
	"os"
	"os/exec"
)

// setGroup leaves cmd as it is: these systems (Windows) have no process
// groups that a kill reaches.
func setGroup(*exec.Cmd) {}

// killGroup kills the binary p. What it started itself is not reached.
func killGroup(p *os.Process) { _ = p.Kill() }
