package kinds_test

import (
	"testing"

	"example.com/kinds"
)

var sink int

func BenchmarkTotal(b *testing.B) {
	shapes := []kinds.Shape{kinds.Square{S: 2}}
	for b.Loop() {
		sink = kinds.Total(shapes)
	}
}
