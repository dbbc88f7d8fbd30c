// Package leaves holds benchmarks with sub-benchmarks, some of which
// reach Changed, which the tests change, and some of which do not.
package leaves

// Changed is the function the tests change.
func Changed(n int) int { return n + 1 }

// Other is never changed.
func Other(n int) int { return n - 1 }

// Dense calls Changed only for large inputs: a run of small ones never
// executes it.
func Dense(n int) int {
	if n > 1000 {
		return Changed(n)
	}
	return n
}
