package rmit

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestGoTestTime follows package testing's ramp: b.N of 1, then at most
// 100 times the last, aiming 20% past the benchtime.
func TestGoTestTime(t *testing.T) {
	for _, c := range []struct {
		ns   float64
		want time.Duration
	}{
		// 1, 100, 10⁴, 10⁶ ops of 1µs: the last lasts the second.
		{1000, time.Microsecond + 100*time.Microsecond + 10*time.Millisecond + time.Second},
		// 1, then 100 ops of 10ms.
		{1e7, 10*time.Millisecond + time.Second},
		// 1, then 10⁹/(3·10⁸) = 3 ops (a fifth of 3 is 0 in integers),
		// 0.9 s, short of the second: then 4.
		{3e8, 300*time.Millisecond + 900*time.Millisecond + 1200*time.Millisecond},
		// One op past the benchtime ends the ramp.
		{2e9, 2 * time.Second},
		{0, 0},
	} {
		assert.Equal(t, c.want, GoTestTime(c.ns, DefaultBenchtime), "%v ns/op", c.ns)
	}
}
