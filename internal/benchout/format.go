package benchout

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// resultLine formats one result line as go test prints it
// (testing.BenchmarkResult's String and MemString): the iteration count in
// 8 columns, B/op and allocs/op as integers, MB/s with two decimals, and
// every other unit with the precision go test gives a number of its size,
// so that 18458547 ns/op reads as go test printed it, not as
// 1.8458547e+07. Only the padding of the name is left out. A value that
// go test's format would round, which go test itself never printed, keeps
// all its digits instead.
func resultLine(name string, n int, values []value) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Benchmark%s\t%8d", name, n)
	for _, v := range values {
		b.WriteByte('\t')
		b.WriteString(formatValue(v.v, v.unit))
	}
	b.WriteByte('\n')
	return b.String()
}

// A value is one measurement and its unit, in the order they are written.
type value struct {
	v    float64
	unit string
}

// formatValue formats x in unit as go test would.
func formatValue(x float64, unit string) string {
	var s string
	switch unit {
	case "B/op", "allocs/op":
		s = fmt.Sprintf("%8.0f %s", x, unit)
	case "MB/s":
		s = fmt.Sprintf("%7.2f %s", x, unit)
	default:
		s = prettyPrint(x, unit)
	}
	if exact(s, x) {
		return s
	}
	return strconv.FormatFloat(x, 'f', -1, 64) + " " + unit
}

// prettyPrint is testing's prettyPrint: ten places before the decimal
// point, four significant figures for small numbers, decimal points
// aligned.
func prettyPrint(x float64, unit string) string {
	var format string
	switch y := math.Abs(x); {
	case y == 0 || y >= 999.95:
		format = "%10.0f %s"
	case y >= 99.995:
		format = "%12.1f %s"
	case y >= 9.9995:
		format = "%13.2f %s"
	case y >= 0.99995:
		format = "%14.3f %s"
	case y >= 0.099995:
		format = "%15.4f %s"
	case y >= 0.0099995:
		format = "%16.5f %s"
	case y >= 0.00099995:
		format = "%17.6f %s"
	default:
		format = "%18.7f %s"
	}
	return fmt.Sprintf(format, x, unit)
}

// exact reports whether the number s starts with reads back as x.
func exact(s string, x float64) bool {
	num, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	y, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return false
	}
	return y == x || math.IsNaN(x) && math.IsNaN(y)
}
