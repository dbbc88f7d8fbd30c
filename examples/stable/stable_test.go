package stable

import "testing"

// BenchmarkSHA256 hashes 4 KiB and reports throughput in MB/s.
func BenchmarkSHA256(b *testing.B) {
	in := Input(4 << 10)
	b.SetBytes(int64(len(in)))
	for i := 0; i < b.N; i++ {
		Hash(in)
	}
}

// BenchmarkSortInts sorts the same 1000 integers every time.
func BenchmarkSortInts(b *testing.B) {
	raw := Input(4000)
	in := make([]int, 1000)
	for i := range in {
		in[i] = int(raw[4*i])<<24 | int(raw[4*i+1])<<16 | int(raw[4*i+2])<<8 | int(raw[4*i+3])
	}
	buf := make([]int, len(in))
	for i := 0; i < b.N; i++ {
		SortInts(buf, in)
	}
}
