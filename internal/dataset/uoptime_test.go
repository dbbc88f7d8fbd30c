package dataset

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

func TestReadUOpTime(t *testing.T) {
	run, err := ReadUOpTime("../../testdata/tiny-v1.0.0.csv")
	require.NoError(t, err)
	require.Len(t, run.Slices, 8)
	assert.True(t, run.Complete)
	assert.Equal(t, UOpTimeTool, run.Header.Tool)
	assert.Equal(t, map[string]string{"slices": "5", "iterations": "5", "suite-runs": "3", "instances": "3", "slice-time": "1s"}, run.Header.Options)

	s := run.Slices[2] // m_id 6
	assert.Equal(t, "tiny-v1.0.0", s.Package)
	assert.Equal(t, "BenchmarkScanComments/1MValid", s.Benchmark)
	assert.Equal(t, "1", s.Instance)
	assert.Equal(t, 1, s.SuiteRun)
	assert.Equal(t, 2, s.Iteration)
	assert.Equal(t, 1, s.Slice)
	assert.Equal(t, int64(427), s.N)
	assert.Equal(t, map[string]float64{"ns/op": 2797244}, s.Values)

	keys := run.Keys()
	require.Len(t, keys, 2)
	series := run.Series(keys[1], "ns/op")
	require.Len(t, series, 2)
	assert.Equal(t, []float64{21.27, 21.26}, series[0].Values)
	assert.Equal(t, []float64{21.25, 21.22}, series[1].Values)
}

const uoptimeHead = "m_id,n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name\n"

func TestParseUOpTimeErrors(t *testing.T) {
	row := func(id int, rest string) string { return fmt.Sprintf("%d,%s\n", id, rest) }
	good := "10,21.5,5,5,3,3,1,1,1,1,BenchmarkX"
	tests := []struct {
		name, in string
		line     int
		msg      string
	}{
		{"empty", "", 1, "empty file"},
		{"header", "a,b,c\n", 1, "header is"},
		{"no rows", uoptimeHead, 1, "no measurements"},
		{"fields", uoptimeHead + row(1, good) + "2,10,21.5\n", 3, "3 fields, want 12"},
		{"n", uoptimeHead + row(1, "x,21.5,5,5,3,3,1,1,1,1,B"), 2, `n "x" is not an integer`},
		{"zero n", uoptimeHead + row(1, "0,21.5,5,5,3,3,1,1,1,1,B"), 2, "n is 0"},
		{"ns", uoptimeHead + row(1, "10,NaN,5,5,3,3,1,1,1,1,B"), 2, "ns_per_op"},
		{"negative ns", uoptimeHead + row(1, "10,-1,5,5,3,3,1,1,1,1,B"), 2, "ns_per_op"},
		{"name", uoptimeHead + row(1, "10,21.5,5,5,3,3,1,1,1,1,"), 2, "b_name is empty"},
		{"position", uoptimeHead + row(1, "10,21.5,5,5,3,3,6,1,1,1,B"), 2, "bed_pos 6 exceeds bed_setup 5"},
		{"setup", uoptimeHead + row(1, good) + row(2, "10,21.5,5,4,3,3,1,1,1,1,B"), 3, "it_setup is 4, but 5"},
		{"duplicate id", uoptimeHead + row(1, good) + row(1, "10,21.5,5,5,3,3,2,1,1,1,BenchmarkX"), 3, "m_id 1 repeats line 2"},
		{"duplicate position", uoptimeHead + row(1, good) + row(2, good), 3, "repeats line 2"},
		{"quote", uoptimeHead + row(1, good) + "2,\"10,x\n", 3, "quote"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseUOpTime(strings.NewReader(tt.in), "dir/p-v1.csv")
			var se *record.SyntaxError
			require.True(t, errors.As(err, &se), "error %v is not a SyntaxError", err)
			assert.Equal(t, "dir/p-v1.csv", se.File)
			assert.Equal(t, tt.line, se.Line)
			assert.Contains(t, se.Msg, tt.msg)
		})
	}
}

func TestParseUOpTimeBOM(t *testing.T) {
	run, err := ParseUOpTime(strings.NewReader("\ufeff"+uoptimeHead+"1,10,21.5,5,5,3,3,1,1,1,2,B\n"), "x.csv")
	require.NoError(t, err)
	assert.Equal(t, "2", run.Slices[0].Instance)
	assert.Equal(t, "x", run.Slices[0].Package)
}

func FuzzParseUOpTime(f *testing.F) {
	f.Add(uoptimeHead + "1,10,21.5,5,5,3,3,1,1,1,1,BenchmarkX\n")
	f.Add(uoptimeHead + "1,10,21.5,5,5,3,3,1,1,1,1,B\n2,10,1e400,5,5,3,3,1,1,1,1,B\n")
	f.Fuzz(func(t *testing.T, in string) {
		run, err := ParseUOpTime(strings.NewReader(in), "f.csv")
		if err != nil {
			var se *record.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a SyntaxError", err)
			}
			return
		}
		for _, s := range run.Slices {
			if s.SuiteRun < 1 || s.Iteration < 1 || s.Slice < 1 || s.N < 1 || s.Benchmark == "" {
				t.Fatalf("bad slice accepted: %+v", s)
			}
		}
	})
}
