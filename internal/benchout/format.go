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
	y := math.Abs(x)
	digits := 0
	for digits < len(prettyLimits) && !(y == 0 || y >= prettyLimits[digits]) {
		digits++
	}
	width := 10
	if digits > 0 {
		width = 11 + digits
	}
	return fmt.Sprintf("%*.*f %s", width, digits, x, unit)
}

// prettyLimits[d] is the least magnitude that testing prints with d
// digits after the point; below the last it prints 7 digits.
var prettyLimits = [...]float64{999.95, 99.995, 9.9995, 0.99995, 0.099995, 0.0099995, 0.00099995}

// exact reports whether the number s starts with reads back as x.
func exact(s string, x float64) bool {
	num, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	y, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return false
	}
	return y == x || math.IsNaN(x) && math.IsNaN(y)
}
