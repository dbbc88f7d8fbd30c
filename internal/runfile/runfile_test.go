package runfile

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// Small files of every format, written by hand in the shape of the
// published files (dataset's tests hold the same rows).
const (
	rawFile = `{"type":"header","schema":1,"tool":"t","seed":1}
{"type":"slice","pkg":"p","bench":"BenchmarkX","suite_run":1,"iteration":1,"slice":1,"n":10,"values":{"ns/op":21.5}}
`
	textFile    = "goos: linux\npkg: p\n\nBenchmarkX-2 \t 10\t 21.5 ns/op\n# BenchmarkX-2: mean over 1 processes ±1% (95%)\nUnit ns/op assume=exact\n"
	jmhFile     = "m_id,n,ns_per_op,it_setup,fork_setup,it_pos,fork_pos,b_name\n0,10.0,21.5,100,5,1,1,p#C.m#\n"
	uoptimeFile = "m_id,n,ns_per_op,bed_setup,it_setup,sr_setup,ir_setup,bed_pos,it_pos,sr_pos,ir_pos,b_name\n1,10,21.5,5,5,3,3,1,1,1,1,BenchmarkX\n"
	seriesFile  = "[[1.5, 1.2, 1.0],\n [1.4, 1.0, 1.0]]\n"
)

func gz(t *testing.T, s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	_, err := w.Write([]byte(s))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return b.String()
}

func write(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

func TestDetect(t *testing.T) {
	for in, want := range map[string]Format{
		rawFile:                             Raw,
		"\ufeff\n\n  " + rawFile:            Raw,
		textFile:                            Text,
		"":                                  Text,
		jmhFile:                             JMH,
		"\ufeff" + jmhFile:                  JMH,
		uoptimeFile:                         UOpTime,
		"m_id,n\r\n":                        Text,
		seriesFile:                          Series,
		"\n" + seriesFile:                   Series,
		"BenchmarkX 1 2 ns/op\n{not raw}\n": Text,
	} {
		assert.Equal(t, want, Detect([]byte(in)), "%q", in)
	}
	assert.Equal(t, Series, Detect([]byte(gz(t, seriesFile))))
}

func TestReadFileEveryFormat(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		format        Format
	}{
		{"raw.jsonl", rawFile, Raw},
		{"old.txt", textFile, Text},
		{"laaber_p.csv", jmhFile, JMH},
		{"p-v1.csv", uoptimeFile, UOpTime},
	} {
		f, _, err := ReadFile(write(t, tc.name, tc.content))
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.format, f.Format, tc.name)
		require.NotNil(t, f.Run, tc.name)
		require.NotEmpty(t, f.Run.Slices, tc.name)
		assert.Equal(t, 21.5, f.Run.Slices[0].Values["ns/op"], tc.name)
	}
	f, _, err := ReadFile(write(t, "s.json.gz", gz(t, seriesFile)))
	require.NoError(t, err)
	assert.Equal(t, [][]float64{{1.5, 1.2, 1.0}, {1.4, 1.0, 1.0}}, f.Series)

	f, _, err = ReadFile(write(t, "old.txt", textFile))
	require.NoError(t, err)
	assert.Len(t, f.Units, 1, "the Unit line of benchmark text")
}

// A file's warnings come in the stream just before it, located by line
// when they concern one.
func TestFilesStreamsWarningsBeforeTheirFile(t *testing.T) {
	torn := write(t, "torn.jsonl", rawFile+`{"type":"slice","pkg":"p","bench":"Bench`)
	text := write(t, "new.txt", textFile)
	fs := &Files{Paths: []string{torn, text}}
	var got []string
	for fs.Scan() {
		switch r := fs.Result().(type) {
		case *Warning:
			got = append(got, "warning "+r.String())
		case *File:
			got = append(got, "file "+r.Path)
		}
	}
	require.NoError(t, fs.Err())
	require.Len(t, got, 3)
	assert.Regexp(t, `^warning .*torn\.jsonl:3: last line is incomplete`, got[0])
	assert.Equal(t, []string{"file " + torn, "file " + text}, got[1:])
}

// Bad input stops the stream with an error at its file and line, whatever
// the format; a format not accepted is refused at line 1.
func TestFilesErrorsNameFileAndLine(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		accept        []Format
		line          int
		msg           string
	}{
		{"bad.jsonl", rawFile + `{"type":"slice","pkg":"p","bench":"BenchmarkX","n":-1}` + "\n", nil, 3, ""},
		{"bad.txt", "BenchmarkX 10 1 ns/op\nBenchmarkY x 1 ns/op\n", nil, 2, ""},
		{"bad.csv", jmhFile + "1,10.0\n", nil, 3, "2 fields, want 8"},
		{"bad.json", "[[1, 2],\n [3, \"x\"]]\n", nil, 2, ""},
		{"other.txt", textFile, []Format{Raw, JMH, UOpTime}, 1, "not a raw record file, a JMH CSV file or a µOpTime CSV file"},
	} {
		path := write(t, tc.name, tc.content)
		fs := &Files{Paths: []string{path}, Accept: tc.accept}
		for fs.Scan() {
		}
		var se *record.SyntaxError
		require.True(t, errors.As(fs.Err(), &se), "%s: %v", tc.name, fs.Err())
		assert.Equal(t, path, se.File, tc.name)
		assert.Equal(t, tc.line, se.Line, "%s: %v", tc.name, se)
		assert.Contains(t, se.Msg, tc.msg, tc.name)
	}
}

func TestMissingFile(t *testing.T) {
	_, _, err := ReadFile(filepath.Join(t.TempDir(), "none.jsonl"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}
