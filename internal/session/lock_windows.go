package session

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockFile takes an exclusive lock on f, held until f is closed, or
// returns errLocked at once if another process holds one. Windows locks
// are mandatory, so the lock covers one byte far past any end the file
// will reach, and reads and writes of the file itself are not blocked.
func lockFile(f *os.File) error {
	ol := &windows.Overlapped{Offset: 0, OffsetHigh: 0x7fffffff}
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return errLocked
	}
	return err
}
