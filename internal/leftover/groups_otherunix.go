//go:build unix && !linux

package leftover

import "syscall"

// killGroup kills process group pgid if its leader is gone: the group is
// then the one recorded, as a group's number is not reused while it has
// members. A leader still alive cannot be told from a new process that
// took its number, and is left alone.
func killGroup(pgid int, _ string) {
	if alive(pgid) {
		return
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}
