package record_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/record"
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
