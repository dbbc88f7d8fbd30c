//go:build unix

package leftover

import (
	"errors"
	"syscall"
)

// alive reports whether a process with this pid exists. One that belongs
// to another user exists too: the signal is refused, not unknown.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
