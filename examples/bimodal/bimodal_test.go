package bimodal

import "testing"

var sink uint64

// BenchmarkWork runs 2000 or 4000 multiply-adds, depending on the process.
func BenchmarkWork(b *testing.B) {
	buf := make([]uint64, 4000)
	for i := range buf {
		buf[i] = uint64(i)
	}
	for i := 0; i < b.N; i++ {
		sink += Work(buf)
	}
}
