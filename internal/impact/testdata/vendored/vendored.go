// Package vendored benchmarks a vendored dependency.
package vendored

// Own is the module's own code.
func Own(n int) int { return n - 1 }
