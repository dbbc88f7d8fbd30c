// Package siblings is a fixture for abs on benchmarks whose leaves
// depend on their siblings, as go test -bench . runs them: Hot is run by
// every leaf's timed loop, and by nothing else.
package siblings

// Hot mixes n steps of a linear congruential generator from x.
func Hot(x uint64, n int) uint64 {
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}
