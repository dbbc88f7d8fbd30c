package known

import "testing"

var sink int

func BenchmarkHot(b *testing.B) {
	var c Counter
	c.Add(Setup())
	for b.Loop() {
		sink = Hot(2000)
		c.Add(1)
	}
}
