package record_test

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

const (
	testHeader = `{"type":"header","schema":1,"seed":1,"start":"2025-01-01T00:00:00Z"}` + "\n"
	testSlice  = `{"type":"slice","pkg":"p","bench":"BenchmarkA","suite_run":1,"iteration":1,"order":1,"slice":1,"n":10,"values":{"ns/op":5},"start":"2025-01-01T00:00:00Z","wall_ns":1}`
	testEnd    = `{"type":"event","event":"end","time":"2025-01-01T00:00:01Z"}` + "\n"
)

// Slice lines as Writer writes them take a fast path that skips decoding
// the type separately; lines it does not recognise, or that only look like
// a slice, are judged as before.
func TestReadSliceLines(t *testing.T) {
	read := func(lines ...string) (*record.Run, error) {
		run, _, err := record.Read(strings.NewReader(testHeader+strings.Join(lines, "\n")+"\n"+testEnd), "f.jsonl")
		return run, err
	}
	run, err := read(testSlice, `{"pkg":"p","type":"slice","bench":"BenchmarkA","suite_run":1,"iteration":2,"order":2,"slice":1,"n":10,"values":{"ns/op":6}}`)
	require.NoError(t, err)
	require.Len(t, run.Slices, 2, "the type need not come first")
	assert.Equal(t, 6.0, run.Slices[1].Values["ns/op"])

	for name, tc := range map[string]struct{ line, msg string }{
		"cut after the type": {`{"type":"slice","pkg":"p"` + `,"bench":`, "f.jsonl:2: not a JSON record"},
		"garbage after it":   {`{"type":"slice",!!}`, "f.jsonl:2: not a JSON record"},
		"two records":        {testSlice + testSlice, "f.jsonl:2: not a JSON record"},
		"wrong field type":   {strings.Replace(testSlice, `"n":10`, `"n":"ten"`, 1), `f.jsonl:2: field "n"`},
		"invalid slice":      {strings.Replace(testSlice, `"pkg":"p"`, `"pkg":""`, 1), "f.jsonl:2: slice without package"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := read(tc.line)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

// TestNonFiniteValuesRoundTrip writes values JSON has no number for, as
// b.ReportMetric can report them, and reads them back.
func TestNonFiniteValuesRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := record.NewWriter(&buf)
	require.NoError(t, w.Write(&record.Header{Seed: 1}))
	in := &record.Slice{Package: "p", Benchmark: "BenchmarkX", SuiteRun: 1, Iteration: 1, Slice: 1, N: 10,
		Values: map[string]float64{"ns/op": 12.5, "nan/op": math.NaN(), "inf/op": math.Inf(1), "neg/op": math.Inf(-1), "x/op": 3}}
	require.NoError(t, w.Write(in))
	require.NoError(t, w.Write(&record.Slice{Package: "p", Benchmark: "BenchmarkX", SuiteRun: 1, Iteration: 1, Slice: 2, N: 10,
		Values: map[string]float64{"ns/op": 12}}))
	assert.Contains(t, buf.String(), `"nan/op":"NaN"`)
	run, _, err := record.Read(&buf, "f.jsonl")
	require.NoError(t, err)
	require.Len(t, run.Slices, 2)
	got := run.Slices[0].Values
	assert.True(t, math.IsNaN(got["nan/op"]))
	assert.Equal(t, math.Inf(1), got["inf/op"])
	assert.Equal(t, math.Inf(-1), got["neg/op"])
	assert.Equal(t, 12.5, got["ns/op"])
	assert.Equal(t, 3.0, got["x/op"])
	assert.Equal(t, map[string]float64{"ns/op": 12}, run.Slices[1].Values)

	for line, msg := range map[string]string{
		`"values":{"ns/op":"NaN"}`: "bad ns/op value NaN",
		`"values":{"x/op":"lots"}`: `"lots" is not a number`,
	} {
		_, _, err := record.Read(strings.NewReader(`{"type":"header","schema":1,"seed":1}`+"\n"+
			`{"type":"slice","pkg":"p","bench":"BenchmarkX","suite_run":1,"iteration":1,"slice":1,"n":1,`+line+`}`+"\n"), "f.jsonl")
		assert.ErrorContains(t, err, msg, line)
		assert.ErrorContains(t, err, "f.jsonl:2:")
	}
}

// TestEditedHeaderIsTold checks that a header changed after it was
// written, in its seed or options, no longer matches its seal.
func TestEditedHeaderIsTold(t *testing.T) {
	var buf bytes.Buffer
	h := &record.Header{Seed: 42, GOARCH: "amd64", CPU: "Some CPU @ 2.0GHz", Host: "h\xff", Options: map[string]string{"slices": "2", "bench": "<.>&"},
		Binaries: map[string]string{}, Start: time.Date(2025, 1, 2, 3, 4, 5, 6789, time.UTC)}
	require.NoError(t, record.NewWriter(&buf).Write(h))
	line := buf.String()
	read := func(line string) *record.Header {
		run, _, err := record.Read(strings.NewReader(line), "f.jsonl")
		require.NoError(t, err)
		return run.Header
	}
	assert.NotEmpty(t, read(line).Seal)
	assert.False(t, read(line).Edited(), "as written")
	for from, to := range map[string]string{`"seed":42`: `"seed":43`, `"slices":"2"`: `"slices":"3"`, `"goarch":"amd64"`: `"goarch":"arm64"`} {
		edited := strings.Replace(line, from, to, 1)
		require.NotEqual(t, line, edited)
		assert.True(t, read(edited).Edited(), "%s → %s", from, to)
	}
	assert.False(t, read(testHeader).Edited(), "a header without a seal")
}
