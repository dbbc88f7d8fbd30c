package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// wireEntry is an Entry as one JSON line: optional numbers are left out
// rather than written as NaN, which JSON cannot hold.
type wireEntry struct {
	Commit      string    `json:"commit"`
	CommitTime  time.Time `json:"commit_time"`
	Branch      string    `json:"branch,omitempty"`
	Parents     []string  `json:"parents,omitempty"`
	Position    int       `json:"position,omitempty"`
	Machine     string    `json:"machine"`
	Options     string    `json:"options,omitempty"`
	Package     string    `json:"pkg,omitempty"`
	Benchmark   string    `json:"bench"`
	Unit        string    `json:"unit"`
	Mean        float64   `json:"mean"`
	Lo          *float64  `json:"lo,omitempty"`
	Hi          *float64  `json:"hi,omitempty"`
	Confidence  float64   `json:"confidence,omitempty"`
	Processes   int       `json:"processes"`
	AllocsPerOp *float64  `json:"allocs_op,omitempty"`
	BytesPerOp  *float64  `json:"bytes_op,omitempty"`
}

func optional(x float64) *float64 {
	if math.IsNaN(x) {
		return nil
	}
	return &x
}

func orNaN(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

func toWire(e *Entry) wireEntry {
	return wireEntry{
		Commit: e.Commit, CommitTime: e.CommitTime.UTC(), Branch: e.Branch, Parents: e.Parents, Position: e.Position, Machine: e.Machine, Options: e.Options,
		Package: e.Package, Benchmark: e.Benchmark, Unit: e.Unit,
		Mean: e.Mean, Lo: optional(e.Lo), Hi: optional(e.Hi), Confidence: e.Confidence, Processes: e.Processes,
		AllocsPerOp: optional(e.AllocsPerOp), BytesPerOp: optional(e.BytesPerOp),
	}
}

func (w *wireEntry) entry() Entry {
	return Entry{
		Commit: w.Commit, CommitTime: w.CommitTime, Branch: w.Branch, Parents: w.Parents, Position: w.Position, Machine: w.Machine, Options: w.Options,
		Package: w.Package, Benchmark: w.Benchmark, Unit: w.Unit,
		Mean: w.Mean, Lo: orNaN(w.Lo), Hi: orNaN(w.Hi), Confidence: w.Confidence, Processes: w.Processes,
		AllocsPerOp: orNaN(w.AllocsPerOp), BytesPerOp: orNaN(w.BytesPerOp),
	}
}

// WriteJSONL writes entries to w as JSON Lines, one entry a line.
func WriteJSONL(w io.Writer, entries []Entry) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range entries {
		if err := enc.Encode(toWire(&entries[i])); err != nil {
			return err
		}
	}
	return nil
}

// A SyntaxError is a line of a JSON Lines file that is not a valid entry,
// located as a malformed raw record is.
type SyntaxError = record.SyntaxError

// maxLine bounds one line of an import, so that a file that is not JSON
// Lines at all fails at its first line instead of filling memory.
const maxLine = 1 << 20

// ReadJSONL reads the entries of a JSON Lines file named file for
// messages. Blank lines are skipped; the first bad line stops the read
// with a *SyntaxError naming file and line.
func ReadJSONL(r io.Reader, file string) ([]Entry, error) {
	var out []Entry
	err := ScanJSONL(r, file, func(e Entry) error {
		out = append(out, e)
		return nil
	})
	return out, err
}

// ScanJSONL calls fn with each entry of a JSON Lines file as it is read,
// stopping at the first bad line (a *SyntaxError) or error of fn.
func ScanJSONL(r io.Reader, file string, fn func(Entry) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		e, err := parseLine(b)
		if err != nil {
			return &SyntaxError{File: file, Line: line, Msg: err.Error()}
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return &SyntaxError{File: file, Line: line + 1, Msg: err.Error()}
	}
	return nil
}

func parseLine(b []byte) (Entry, error) {
	var w wireEntry
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return Entry{}, fmt.Errorf("not a history entry: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	if dec.More() {
		return Entry{}, fmt.Errorf("more than one JSON value on the line")
	}
	e := w.entry()
	if err := e.Validate(); err != nil {
		return Entry{}, err
	}
	return e, nil
}
