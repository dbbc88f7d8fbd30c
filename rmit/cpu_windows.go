package rmit

import (
	"time"

	"golang.org/x/sys/windows"
)

// selfCPU returns the user and system CPU time of this process so far.
func selfCPU() time.Duration {
	var creation, exit, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(windows.CurrentProcess(), &creation, &exit, &kernel, &user); err != nil {
		return 0
	}
	// A Filetime counts 100-nanosecond intervals.
	ticks := func(f windows.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }
	return time.Duration((ticks(kernel) + ticks(user)) * 100)
}
