// Package custom has a benchmark that reports a unit of its own in place
// of ns/op, which b.ReportMetric(0, "ns/op") leaves out of its results, as
// simulations and quality benchmarks do.
package custom

import "testing"

var sink int

func BenchmarkWidgets(b *testing.B) {
	for i := range b.N {
		for j := range 200 {
			sink += i * j
		}
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(42, "widgets/op")
}
