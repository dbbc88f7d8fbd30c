//go:build unix

package session

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f, held until f is closed,
// or returns errLocked at once if another process holds one.
func lockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return err
}
