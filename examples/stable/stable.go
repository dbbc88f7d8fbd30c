// Package stable is CPU-bound work on a fixed input: hashing and sorting.
// Its timings vary only with machine noise, so every stoppage criterion
// should call it stable after a few slices. It is the control case.
package stable

import (
	"crypto/sha256"
	"slices"
)

// Input returns n deterministic pseudo-random bytes.
func Input(n int) []byte {
	b := make([]byte, n)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

// Hash returns the SHA-256 digest of b.
func Hash(b []byte) [32]byte { return sha256.Sum256(b) }

// SortInts sorts a copy of in into buf, which must have the same length.
func SortInts(buf, in []int) {
	copy(buf, in)
	slices.Sort(buf)
}
