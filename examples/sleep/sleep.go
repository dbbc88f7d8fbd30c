// Package sleep waits on a timer in every operation, so its timings follow
// the scheduler and timer slack rather than the CPU: noisy, with outliers,
// and on a loaded machine much longer than asked for. Criteria with a
// tight threshold may never call it stable.
package sleep

import "time"

// Nap sleeps for d.
func Nap(d time.Duration) { time.Sleep(d) }
