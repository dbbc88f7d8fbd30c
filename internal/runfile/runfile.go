// Package runfile opens every kind of results file gobench-dyn reads: raw
// records of a run (JSON Lines), Go benchmark text (go test -bench,
// benchstat's input), the preprocessed JMH CSV and the µOpTime Go CSV of
// the published studies, and published time series (a JSON array of
// forks). The format is told by content, in one place, and every file
// yields a record.Run, or the series, with what went wrong located by file
// and line.
//
// Files reads a list of files in the manner of benchfmt.Files: Scan
// advances to the next file or warning, Result returns it, Err says why
// reading stopped.
package runfile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/gobench-dyn/gobench-dyn/internal/dataset"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// A Format is a kind of results file.
type Format int

// The formats, as Detect tells them apart.
const (
	Raw     Format = iota + 1 // raw records of gobench-dyn run
	Text                      // Go benchmark text
	JMH                       // preprocessed JMH CSV (FSE'20)
	UOpTime                   // µOpTime Go measurement CSV
	Series                    // published time series: a JSON array of forks, maybe gzipped
)

var formatNames = map[Format]string{
	Raw: "a raw record file", Text: "Go benchmark text", JMH: "a JMH CSV file",
	UOpTime: "a µOpTime CSV file", Series: "a time-series file",
}

// String names f as messages do.
func (f Format) String() string {
	if s, ok := formatNames[f]; ok {
		return s
	}
	return "an unknown format"
}

// Detect tells the format of a file by its start: a gzip stream or a JSON
// array is a time series, a JSON object a raw record file, a CSV header
// of the JMH or µOpTime columns that CSV file, and anything else Go
// benchmark text, which benchfmt reads leniently. A byte order mark and
// blank lines before the first line are skipped.
func Detect(data []byte) Format {
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		return Series
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		switch {
		case len(line) == 0:
			continue
		case line[0] == '{':
			return Raw
		case line[0] == '[':
			return Series
		case string(line) == strings.Join(dataset.JMHColumns, ","):
			return JMH
		case string(line) == strings.Join(dataset.UOpTimeColumns, ","):
			return UOpTime
		}
		return Text
	}
	return Text
}

// A File is one results file as read.
type File struct {
	Path   string
	Format Format
	// Run holds the file's slices; nil for a time series.
	Run *record.Run
	// Units holds the unit metadata of Go benchmark text ("Unit MB/s
	// better=higher"); nil for the other formats.
	Units benchfmt.UnitMetadataMap
	// Series holds the forks of a time series, in seconds per operation.
	Series [][]float64
}

// A Warning is a problem that did not stop a file from being read, such
// as a run cut short. Line is 0 when it concerns the whole file.
type Warning struct {
	File string
	Line int
	Msg  string
}

func (w *Warning) String() string {
	if w.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Msg)
	}
	return w.File + ": " + w.Msg
}

// Files reads files one after another. Any of Accept's formats is read
// (all of them when Accept is empty); a file of another format stops the
// reading with a *record.SyntaxError at its line 1 that says which
// formats were wanted.
type Files struct {
	Paths  []string
	Accept []Format

	next    int
	pending []any // results of the current file not yet returned
	res     any
	err     error
}

// Scan advances to the next file or warning. It returns false at the end
// or at the first error; Err tells which.
func (f *Files) Scan() bool {
	if f.err != nil {
		return false
	}
	for len(f.pending) == 0 {
		if f.next >= len(f.Paths) {
			return false
		}
		path := f.Paths[f.next]
		f.next++
		file, warns, err := f.read(path)
		if err != nil {
			f.err = err
			return false
		}
		for _, w := range warns {
			f.pending = append(f.pending, w)
		}
		f.pending = append(f.pending, file)
	}
	f.res, f.pending = f.pending[0], f.pending[1:]
	return true
}

// Result returns the *File or *Warning Scan advanced to. A file's
// warnings come just before it.
func (f *Files) Result() any { return f.res }

// Err returns the error that stopped Scan, or nil at the end. Malformed
// input is a *record.SyntaxError naming the file and line.
func (f *Files) Err() error { return f.err }

func (f *Files) read(path string) (*File, []*Warning, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	format := Detect(data)
	if len(f.Accept) > 0 && !accepts(f.Accept, format) {
		return nil, nil, &record.SyntaxError{File: path, Line: 1, Msg: "not " + list(f.Accept)}
	}
	return parse(data, path, format)
}

func accepts(fs []Format, f Format) bool {
	for _, a := range fs {
		if a == f {
			return true
		}
	}
	return false
}

// list names formats as "a, b or c".
func list(fs []Format) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.String()
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// parse reads data, of format, from the file path.
func parse(data []byte, path string, format Format) (*File, []*Warning, error) {
	file := &File{Path: path, Format: format}
	var err error
	switch format {
	case Raw:
		var warns []record.Warning
		file.Run, warns, err = record.Read(bytes.NewReader(data), path)
		if err != nil {
			return nil, nil, err
		}
		out := make([]*Warning, len(warns))
		for i, w := range warns {
			out[i] = &Warning{File: w.File, Line: w.Line, Msg: w.Msg}
		}
		return file, out, nil
	case JMH:
		file.Run, err = dataset.ParseJMH(bytes.NewReader(data), path)
	case UOpTime:
		file.Run, err = dataset.ParseUOpTime(bytes.NewReader(data), path)
	case Series:
		file.Series, err = dataset.ParseSeries(bytes.NewReader(data), path)
	default:
		file.Run, file.Units, err = readBenchText(bytes.NewReader(data), path)
	}
	if err != nil {
		return nil, nil, err
	}
	return file, nil, nil
}

// ReadFile reads the one file at path, accepting the formats given (all
// when none is), and returns it with its warnings.
func ReadFile(path string, accept ...Format) (*File, []*Warning, error) {
	fs := &Files{Paths: []string{path}, Accept: accept}
	var warns []*Warning
	for fs.Scan() {
		switch r := fs.Result().(type) {
		case *Warning:
			warns = append(warns, r)
		case *File:
			return r, warns, nil
		}
	}
	if err := fs.Err(); err != nil {
		return nil, warns, err
	}
	return nil, warns, errors.New("input: no file read")
}
