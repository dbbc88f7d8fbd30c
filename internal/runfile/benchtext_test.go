package runfile

import (
	"errors"
	"strings"
	"testing"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sample = `goos: linux
goarch: amd64
pkg: example.com/p
cpu: Test CPU
BenchmarkParse/small-8   	  100000	      1000 ns/op	  12.5 MB/s	      96 B/op	       3 allocs/op
BenchmarkParse/small-8   	  100000	      1010 ns/op	  12.4 MB/s	      96 B/op	       3 allocs/op
BenchmarkFormat-8        	  200000	       500 ns/op
Unit score better=higher
BenchmarkScore-8         	       1	        42 score
PASS
ok  	example.com/p	3.2s
`

func TestReadBenchText(t *testing.T) {
	run, units, err := readBenchText(strings.NewReader(sample), "a.txt")
	require.NoError(t, err)
	require.Len(t, run.Slices, 4)
	s := run.Slices[1]
	assert.Equal(t, "example.com/p", s.Package)
	assert.Equal(t, "BenchmarkParse/small-8", s.Benchmark)
	assert.Equal(t, 2, s.Iteration, "each result line is an iteration of its own")
	assert.Equal(t, 1, s.SuiteRun)
	assert.Equal(t, 1, s.Slice)
	assert.Equal(t, int64(100000), s.N)
	assert.Equal(t, map[string]float64{"ns/op": 1010, "MB/s": 12.4, "B/op": 96, "allocs/op": 3}, s.Values)
	assert.Equal(t, 1, run.Slices[2].Iteration)
	assert.Equal(t, "linux", run.Header.GOOS)
	assert.Equal(t, "Test CPU", run.Header.CPU)
	assert.Equal(t, 1, units.GetBetter("score"))
	series := run.Series(run.Keys()[0], "ns/op")
	assert.Equal(t, []float64{1000, 1010}, record.Measurements(series))
}

func TestReadBenchTextErrors(t *testing.T) {
	for _, tc := range []struct{ in, msg string }{
		{"pkg: x\nBenchmarkA-8 10 fast ns/op\n", "b.txt:2: parsing measurement"},
		{"BenchmarkA-8 10\n", "b.txt:1: missing measurements"},
		{"BenchmarkA-8 0 5 ns/op\n", "b.txt:1: iteration count 0"},
		{"BenchmarkA-8 10 NaN ns/op\n", "b.txt:1: bad ns/op value NaN"},
		{"BenchmarkA-8 10 -5 ns/op\n", "b.txt:1: bad ns/op value -5"},
		{"BenchmarkA-8 10 5 ns/op 6 ns/op\n", "b.txt:1: unit ns/op given twice"},
		{"PASS\nok x 1s\n", "b.txt:1: no benchmark results"},
		{"", "b.txt:1: no benchmark results"},
	} {
		_, _, err := readBenchText(strings.NewReader(tc.in), "b.txt")
		require.Error(t, err, tc.in)
		var se *record.SyntaxError
		assert.True(t, errors.As(err, &se), tc.in)
		assert.Contains(t, err.Error(), tc.msg, tc.in)
	}
}

func FuzzReadBenchText(f *testing.F) {
	f.Add(sample)
	f.Add("BenchmarkA-8 10 5 ns/op\n")
	f.Fuzz(func(t *testing.T, in string) {
		run, _, err := readBenchText(strings.NewReader(in), "f.txt")
		if err != nil {
			var se *record.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		for _, s := range run.Slices {
			if s.N < 1 || len(s.Values) == 0 || s.Iteration < 1 {
				t.Fatalf("bad slice %+v", s)
			}
		}
	})
}
