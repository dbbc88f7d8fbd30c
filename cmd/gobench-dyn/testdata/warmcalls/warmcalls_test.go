// Package warmcalls is examples/warmup with its warmup counted in calls:
// a cache that fills with use makes the first slices of every process
// slow, and here the first Warmup calls of the benchmark function report
// ten times the time of the rest. Its values are fixed, not measured, so
// where the warmup ends is the same on any machine and under any load.
package warmcalls

import "testing"

// Warmup is the number of slow calls (slices) at the start of a process.
const Warmup = 12

var (
	sink  uint64
	calls int // calls of BenchmarkLookup with b.N > 1 in this process
)

// BenchmarkLookup reports 1000 ns/op in its first Warmup slices and 100
// ns/op after, each with a repeating ±2% spread so that a segment has a
// variance. The N = 1 call the testing package makes before every slice to
// size it is not a slice and is not counted.
func BenchmarkLookup(b *testing.B) {
	x := uint64(1)
	for range b.N {
		for range 50 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	sink += x
	if b.N == 1 {
		return
	}
	calls++
	ns := 100.0
	if calls <= Warmup {
		ns = 1000
	}
	b.ReportMetric(ns*(1+0.01*float64(calls%5-2)), "ns/op")
}
