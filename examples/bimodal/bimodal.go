// Package bimodal takes one of two times per operation, chosen once per
// process at random: about half of all iterations (processes) run the fast
// path and half the slow one, twice as long. Slices within one iteration
// agree with each other, so only criteria that look across iterations
// (the fork level, hierarchical bootstrap) see the spread. This is the case
// that one long process, as go test -count runs it, gets wrong.
package bimodal

import "math/rand/v2"

// Slow reports whether this process took the slow path.
var Slow = rand.IntN(2) == 1

// Work does one operation: twice as much work on the slow path.
func Work(buf []uint64) uint64 {
	n := len(buf) / 2
	if Slow {
		n = len(buf)
	}
	var s uint64
	for i := range n {
		s = s*31 + buf[i]
	}
	return s
}
