package benchout

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestResultLineMatchesGoTest formats results as the testing package does
// and checks that the fields match, number for number and column for
// column: large times as integers, not 1.8458547e+07.
func TestResultLineMatchesGoTest(t *testing.T) {
	for _, tc := range []struct {
		n      int
		nsop   float64
		extra  map[string]float64 // go test prints these sorted, as SortUnits does
		perOpB uint64
		allocs uint64
	}{
		{n: 64, nsop: 18458547},
		{n: 1000, nsop: 1234, perOpB: 48, allocs: 3},
		{n: 300000, nsop: 123.4},
		{n: 1000000, nsop: 12.35, extra: map[string]float64{"widgets/op": 2, "hits/op": 0.5}},
		{n: 1000000000, nsop: 0.2505},
		{n: 1000000000, nsop: 0.0001234},
		{n: 5, nsop: 3e12, extra: map[string]float64{"misses/op": 1234567}},
	} {
		r := testing.BenchmarkResult{N: tc.n, T: time.Duration(tc.nsop * float64(tc.n)),
			MemBytes: tc.perOpB * uint64(tc.n), MemAllocs: tc.allocs * uint64(tc.n), Extra: map[string]float64{"ns/op": tc.nsop}}
		values := []value{{tc.nsop, "ns/op"}}
		for _, u := range []string{"hits/op", "misses/op", "widgets/op"} {
			if v, ok := tc.extra[u]; ok {
				r.Extra[u] = v
				values = append(values, value{v, u})
			}
		}
		want := r.String()
		if tc.perOpB > 0 {
			want += "\t" + r.MemString()
			values = append(values, value{float64(tc.perOpB), "B/op"}, value{float64(tc.allocs), "allocs/op"})
		}
		assert.Equal(t, "BenchmarkX\t"+want+"\n", resultLine("X", tc.n, values))
	}
}

func TestFormatValue(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		unit string
		want string
	}{
		{18458547, "ns/op", "  18458547 ns/op"},
		{100, "ns/op", "       100.0 ns/op"},
		{0, "ns/op", "         0 ns/op"},
		{48, "B/op", "      48 B/op"},
		{812.34, "MB/s", " 812.34 MB/s"},
		{math.NaN(), "x/op", "               NaN x/op"},
		// Values go test would round keep their digits: merged or
		// converted results, never printed by go test.
		{1234.5678, "ns/op", "1234.5678 ns/op"},
		{2.5, "allocs/op", "2.5 allocs/op"},
		{1e-9, "s/op", "0.000000001 s/op"},
		{1e22, "ns/op", "10000000000000000000000 ns/op"},
	} {
		assert.Equal(t, tc.want, formatValue(tc.x, tc.unit))
	}
}
