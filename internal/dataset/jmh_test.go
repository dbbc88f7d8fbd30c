package dataset

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

func TestReadJMH(t *testing.T) {
	run, err := ReadJMH("../../testdata/protostuff-subset.csv")
	require.NoError(t, err)
	require.Len(t, run.Slices, 1000)
	assert.True(t, run.Complete)
	assert.Equal(t, JMHTool, run.Header.Tool)
	assert.Equal(t, map[string]string{"suite-runs": "1", "iterations": "5", "slices": "100", "slice-time": "1s"}, run.Header.Options)

	keys := run.Keys()
	require.Len(t, keys, 2)
	assert.Equal(t, record.Key{Bench: record.Bench{Package: "protostuff", Benchmark: "io.protostuff.benchmarks.StringSerializerBenchmark.builtInSerializer/stringLength=10000"}}, keys[0])
	assert.Equal(t, "io.protostuff.benchmarks.RuntimeSchemaBenchmark.baseline", keys[1].Benchmark)

	s := run.Slices[0] // m_id 0
	assert.Equal(t, 1, s.SuiteRun)
	assert.Equal(t, 1, s.Iteration)
	assert.Equal(t, 1, s.Slice)
	assert.False(t, s.Warmup)
	assert.Equal(t, int64(16476), s.N)
	assert.Equal(t, map[string]float64{"ns/op": 15726.44476814761}, s.Values)

	series := run.Series(keys[0], "ns/op")
	require.Len(t, series, 5, "one iteration per fork")
	for i, it := range series {
		assert.Equal(t, i+1, it.Iteration)
		assert.Len(t, it.Values, 100)
		assert.Empty(t, it.Warmup)
	}
}

const jmhHead = "m_id,n,ns_per_op,it_setup,fork_setup,it_pos,fork_pos,b_name\n"

func TestParseJMHErrors(t *testing.T) {
	good := "0,10.0,21.5,100,5,1,1,p#C.m#\n"
	tests := []struct {
		name, in string
		line     int
		msg      string
	}{
		{"empty", "", 1, "empty file"},
		{"header", "a,b\n", 1, "header is"},
		{"no rows", jmhHead, 1, "no measurements"},
		{"fields", jmhHead + good + "1,10.0\n", 3, "2 fields, want 8"},
		{"m_id", jmhHead + "x,10.0,21.5,100,5,1,1,p#C.m#\n", 2, "m_id"},
		{"dup m_id", jmhHead + good + "0,10.0,21.5,100,5,2,1,p#C.m#\n", 3, "m_id 0 repeats line 2"},
		{"n", jmhHead + "0,0.0,21.5,100,5,1,1,p#C.m#\n", 2, `n "0.0"`},
		{"fractional n", jmhHead + "0,1.5,21.5,100,5,1,1,p#C.m#\n", 2, `n "1.5"`},
		{"ns", jmhHead + "0,10,Inf,100,5,1,1,p#C.m#\n", 2, "ns_per_op"},
		{"negative ns", jmhHead + "0,10,-2,100,5,1,1,p#C.m#\n", 2, "ns_per_op"},
		{"pos", jmhHead + "0,10,2,100,5,0,1,p#C.m#\n", 2, "it_pos"},
		{"exceeds", jmhHead + "0,10,2,100,5,1,6,p#C.m#\n", 2, "fork_pos 6 exceeds fork_setup 5"},
		{"setup", jmhHead + good + "1,10,2,50,5,2,1,p#C.m#\n", 3, "it_setup is 50, but 100"},
		{"name", jmhHead + "0,10,2,100,5,1,1,p.C.m\n", 2, "b_name"},
		{"empty name", jmhHead + "0,10,2,100,5,1,1,##\n", 2, "b_name"},
		{"dup position", jmhHead + good + "1,10.0,21.5,100,5,1,1,p#C.m#\n", 3, "repeats line 2"},
		{"quote", jmhHead + "0,10,\"2,100,5,1,1,p#C.m#\n", 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseJMH(strings.NewReader(tt.in), "f.csv")
			var se *record.SyntaxError
			require.True(t, errors.As(err, &se), "got %v", err)
			assert.Equal(t, "f.csv", se.File)
			assert.Equal(t, tt.line, se.Line)
			assert.Contains(t, se.Msg, tt.msg)
		})
	}
}

func TestParseJMHParams(t *testing.T) {
	run, err := ParseJMH(strings.NewReader(jmhHead+"0,10,2,100,5,1,1,p#C.m#size=1 KB\n"), "f.csv")
	require.NoError(t, err)
	assert.Equal(t, "C.m/size=1_KB", run.Slices[0].Benchmark)
}

func FuzzParseJMH(f *testing.F) {
	f.Add(jmhHead + "0,10.0,21.5,100,5,1,1,p#C.m#\n1,11.0,20.5,100,5,2,1,p#C.m#a=1\n")
	f.Add(jmhHead + "0,10.0,21.5,100,5,1,1,p#C.m\n")
	f.Fuzz(func(t *testing.T, in string) {
		run, err := ParseJMH(strings.NewReader(in), "fuzz.csv")
		if err != nil {
			var se *record.SyntaxError
			if errors.As(err, &se) {
				require.Positive(t, se.Line)
			}
			return
		}
		require.NotEmpty(t, run.Slices)
		for _, s := range run.Slices {
			require.Positive(t, s.N)
			require.Positive(t, s.Iteration)
			require.Positive(t, s.Slice)
			require.NotEmpty(t, s.Package)
			require.NotEmpty(t, s.Benchmark)
		}
	})
}
