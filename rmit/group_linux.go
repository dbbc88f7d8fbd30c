package rmit

import (
	"os/exec"
	"syscall"
)

// setGroup starts cmd as the leader of a process group of its own, so that
// killGroup reaches whatever it starts, and has the kernel kill it should
// gobench-dyn die first, even by SIGKILL, which no handler sees.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
