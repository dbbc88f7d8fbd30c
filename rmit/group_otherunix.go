//go:build unix && !linux

package rmit

import (
	"os/exec"
	"syscall"
)

// setGroup starts cmd as the leader of a process group of its own, so that
// killGroup reaches whatever it starts. These systems cannot kill a child
// when its parent dies: a later run kills what a killed run left, through
// ExecStarter.GroupDir.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
