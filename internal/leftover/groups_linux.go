package leftover

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// killGroup kills process group pgid, whose leader ran a binary under bin.
// The kernel does not give a group's number to a new process while the
// group has members; so if no process has the number, the group is the
// one recorded. If one has, it is the recorded leader only if its binary
// lies under bin (a zombie shows none, and is the leader too).
func killGroup(pgid int, bin string) {
	if alive(pgid) {
		exe, err := os.Readlink("/proc/" + strconv.Itoa(pgid) + "/exe")
		if err == nil && !strings.HasPrefix(exe, bin+string(os.PathSeparator)) {
			return
		}
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}
