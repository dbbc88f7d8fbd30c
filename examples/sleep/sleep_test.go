package sleep

import (
	"testing"
	"time"
)

// BenchmarkNap sleeps 100µs per operation.
func BenchmarkNap(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Nap(100 * time.Microsecond)
	}
}
