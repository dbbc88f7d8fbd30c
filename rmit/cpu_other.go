//go:build !unix && !windows

package rmit

import "time"

// selfCPU returns 0: this system does not tell a process its CPU time.
func selfCPU() time.Duration { return 0 }
