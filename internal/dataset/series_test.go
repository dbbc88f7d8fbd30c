package dataset

import (
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

func TestParseSeries(t *testing.T) {
	in := "[[1.5, 2, 3e-5],\n [4]]\n"
	got, err := ParseSeries(strings.NewReader(in), "s.json")
	require.NoError(t, err)
	assert.Equal(t, [][]float64{{1.5, 2, 3e-5}, {4}}, got)

	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(in))
	zw.Close()
	got, err = ParseSeries(&buf, "s.json.gz")
	require.NoError(t, err)
	assert.Equal(t, [][]float64{{1.5, 2, 3e-5}, {4}}, got)
}

func TestParseSeriesErrors(t *testing.T) {
	for _, c := range []struct {
		in   string
		line int
		msg  string
	}{
		{"", 1, "unexpected end"},
		{"{}", 1, "want an array of forks"},
		{"[1]", 1, "want an array of numbers"},
		{"[[1,\n2,\n\"x\"]]", 3, `want a number, got the string "x"`},
		{"[[1,\n-2]]", 2, "not a positive finite number"},
		{"[[1,\n0]]", 2, "not a positive finite number"},
		{"[[1e999]]", 1, "not a positive finite number"},
		{"[[1],\n[]]", 2, "fork 1 is empty"},
		{"[]", 1, "no forks"},
		{"[[1]]\n[[2]]", 2, "data after"},
		{"[[1,\n2", 2, "unexpected end"},
		{"[[1,,2]]", 1, "invalid character"},
	} {
		_, err := ParseSeries(strings.NewReader(c.in), "bad.json")
		var se *record.SyntaxError
		require.True(t, errors.As(err, &se), "%q: %v", c.in, err)
		assert.Equal(t, "bad.json", se.File)
		assert.Equal(t, c.line, se.Line, "%q: %v", c.in, err)
		assert.Contains(t, se.Msg, c.msg, "%q", c.in)
	}
}

func FuzzParseSeries(f *testing.F) {
	f.Add("[[1.5, 2, 3e-5],\n [4]]\n")
	f.Add("[[4.0699228285933916e-05, 3.0043590854392296e-05]]")
	f.Add("[[1,\n2,\n\"x\"]]")
	f.Fuzz(func(t *testing.T, in string) {
		forks, err := ParseSeries(strings.NewReader(in), "fuzz.json")
		if err != nil {
			var se *record.SyntaxError
			require.True(t, errors.As(err, &se), "%v", err)
			require.Positive(t, se.Line)
			require.LessOrEqual(t, se.Line, 1+strings.Count(in, "\n"))
			return
		}
		require.NotEmpty(t, forks)
		for _, f := range forks {
			require.NotEmpty(t, f)
			for _, v := range f {
				require.Positive(t, v)
			}
		}
	})
}
