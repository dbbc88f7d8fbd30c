// Package grain is a fixture of the loop hook's tests: a b.RunParallel
// benchmark that reports the grain its goroutines take iterations in.
package grain

import (
	"reflect"
	"sync/atomic"
	"testing"
)

var sink atomic.Uint64

// BenchmarkParallel reports, as "grain", the iterations each of its
// goroutines took from the shared counter at a time: package testing
// computes it from the B's previous run, and keeps it in an unexported
// field of PB.
func BenchmarkParallel(b *testing.B) {
	var grain atomic.Uint64
	b.RunParallel(func(pb *testing.PB) {
		grain.Store(reflect.ValueOf(pb).Elem().FieldByName("grain").Uint())
		n := uint64(0)
		for pb.Next() {
			n++
		}
		sink.Add(n)
	})
	b.ReportMetric(float64(grain.Load()), "grain")
}
