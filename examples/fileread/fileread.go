// Package fileread benchmarks work on a file that the benchmark reads
// relative to its package directory, testdata/words.txt. It passes only when
// the test binary runs in the package directory, as go test runs it.
package fileread

import "strings"

// Count returns how often each word occurs in text.
func Count(text string) map[string]int {
	m := make(map[string]int)
	for _, w := range strings.Fields(text) {
		m[strings.ToLower(strings.Trim(w, ".,;:!?"))]++
	}
	return m
}
