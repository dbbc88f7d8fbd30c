// Package loop is written with b.Loop (Go 1.24 and later) rather than a
// loop over b.N. b.Loop keeps the benchmark body from being optimized away
// and excludes the setup before the loop; it must honour a fixed
// -test.benchtime=<N>x like any other benchmark.
package loop

import "strconv"

// Format appends the decimal forms of xs to buf.
func Format(buf []byte, xs []float64) []byte {
	for _, x := range xs {
		buf = strconv.AppendFloat(buf, x, 'g', -1, 64)
		buf = append(buf, ' ')
	}
	return buf
}
