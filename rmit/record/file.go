package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sync"
)

// A Writer appends records to a raw file. Every record is written with a
// single write call as soon as it is produced, so a crash or an interrupt
// loses at most the record in flight. A Writer is safe for concurrent use.
type Writer struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

// NewWriter returns a Writer appending to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write appends one record: a *Header, *Slice or *Event. It fills in the
// record's type field. The first error is sticky and returned by every
// later call.
func (w *Writer) Write(rec any) error {
	switch r := rec.(type) {
	case *Header:
		r.Type = TypeHeader
		if r.Schema == 0 {
			r.Schema = Schema
		}
		seal, err := r.seal()
		if err != nil {
			return fmt.Errorf("record: %w", err)
		}
		r.Seal = seal
	case *Slice:
		r.Type = TypeSlice
	case *Event:
		r.Type = TypeEvent
	default:
		return fmt.Errorf("record: cannot write %T", rec)
	}
	line, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	line = append(line, '\n')
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if _, err := w.w.Write(line); err != nil {
		w.err = err
	}
	return w.err
}

// A SyntaxError is a malformed record, located by file and line.
type SyntaxError struct {
	File string
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// maxLine bounds one record. Slices are a few hundred bytes; a header with
// many options and binaries a few kilobytes.
const maxLine = 4 << 20

// A Reader reads records from a raw file one at a time, in the manner of
// bufio.Scanner.
type Reader struct {
	file    string
	sc      *bufio.Scanner
	line    int
	rec     any
	err     error
	torn    bool
	header  bool
	sawData bool
}

// NewReader returns a Reader of r; file names r in error messages.
func NewReader(r io.Reader, file string) *Reader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	sc.Split(scanLinesKeepTorn)
	return &Reader{file: file, sc: sc}
}

// scanLinesKeepTorn is bufio.ScanLines, but it tells a final line without
// newline apart by appending a NUL, which valid JSON can't contain raw.
func scanLinesKeepTorn(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		out := append(bytes.Clone(data), 0)
		return len(data), out, nil
	}
	return 0, nil, nil
}

// Scan advances to the next record. It returns false at the end of the
// input or at the first error; Err tells which.
func (r *Reader) Scan() bool {
	if r.err != nil {
		return false
	}
	for r.sc.Scan() {
		r.line++
		b := r.sc.Bytes()
		torn := len(b) > 0 && b[len(b)-1] == 0
		if torn {
			b = b[:len(b)-1]
		}
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		rec, err := r.parse(b)
		if err != nil {
			if torn && r.header {
				// A crash cut the last record short: everything before
				// it is intact.
				r.torn = true
				return false
			}
			r.err = &SyntaxError{File: r.file, Line: r.line, Msg: err.Error()}
			return false
		}
		r.rec = rec
		return true
	}
	if err := r.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			r.err = &SyntaxError{File: r.file, Line: r.line + 1, Msg: "record longer than 4 MiB"}
		} else {
			r.err = fmt.Errorf("%s: %w", r.file, err)
		}
		return false
	}
	if !r.header {
		r.err = &SyntaxError{File: r.file, Line: max(r.line, 1), Msg: "no header record: not a gobench-dyn raw file"}
	}
	return false
}

// Record returns the record read by the last successful Scan: a *Header,
// *Slice or *Event.
func (r *Reader) Record() any { return r.rec }

// Err returns the first error met, or nil at a clean end of input.
func (r *Reader) Err() error { return r.err }

// Torn reports whether the input ended in a partial record, which was
// dropped.
func (r *Reader) Torn() bool { return r.torn }

// Line returns the line number of the last record read.
func (r *Reader) Line() int { return r.line }

// slicePrefix opens every slice record Writer writes: the type comes first.
var slicePrefix = []byte(`{"type":"` + TypeSlice + `",`)

func (r *Reader) parse(b []byte) (any, error) {
	var probe struct {
		Type string `json:"type"`
	}
	if r.header && bytes.HasPrefix(b, slicePrefix) {
		// Nearly every line is a slice: skip decoding it twice. A line
		// that is not JSON still fails, in strict.
		probe.Type = TypeSlice
	} else if err := json.Unmarshal(b, &probe); err != nil {
		return nil, fmt.Errorf("not a JSON record: %v", jsonMsg(err))
	}
	if !r.header && probe.Type != TypeHeader {
		return nil, fmt.Errorf("first record is %q, want a header", probe.Type)
	}
	switch probe.Type {
	case TypeHeader:
		if r.header {
			return nil, errors.New("second header record")
		}
		h := new(Header)
		if err := strict(b, h); err != nil {
			return nil, err
		}
		if h.Schema < 1 || h.Schema > Schema {
			return nil, fmt.Errorf("schema %d: this gobench-dyn reads schema 1 to %d; upgrade it", h.Schema, Schema)
		}
		r.header = true
		return h, nil
	case TypeSlice:
		s := new(Slice)
		if err := strict(b, s); err != nil {
			return nil, err
		}
		if err := validSlice(s); err != nil {
			return nil, err
		}
		r.sawData = true
		return s, nil
	case TypeEvent:
		e := new(Event)
		if err := strict(b, e); err != nil {
			return nil, err
		}
		if e.Event == "" {
			return nil, errors.New("event record without event kind")
		}
		return e, nil
	case "":
		return nil, errors.New("record has no type")
	default:
		return nil, fmt.Errorf("unknown record type %q", probe.Type)
	}
}

// strict decodes the record b into v. A line that is not JSON at all is
// said to be so: slice lines reach here without the type probe.
func strict(b []byte, v any) error {
	var err error
	if s, ok := v.(*Slice); ok {
		err = decodeSlice(b, s)
	} else {
		err = json.Unmarshal(b, v)
	}
	var se *json.SyntaxError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &se):
		return fmt.Errorf("not a JSON record: %v", jsonMsg(err))
	}
	return errors.New(jsonMsg(err))
}

func jsonMsg(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("field %q: cannot use JSON %s as %s", te.Field, te.Value, te.Type)
	}
	return err.Error()
}

func validSlice(s *Slice) error {
	switch {
	case s.Package == "":
		return errors.New("slice without package")
	case s.Benchmark == "":
		return errors.New("slice without benchmark name")
	case s.SuiteRun < 1 || s.Iteration < 1 || s.Slice < 1:
		return fmt.Errorf("slice positions must be ≥ 1 (suite_run %d, iteration %d, slice %d)", s.SuiteRun, s.Iteration, s.Slice)
	case s.N < 1:
		return fmt.Errorf("slice with n = %d", s.N)
	case len(s.Values) == 0:
		return errors.New("slice without values")
	}
	for u, v := range s.Values {
		if u == "" {
			return errors.New("value with empty unit")
		}
		if err := CheckValue(u, v); err != nil {
			return err
		}
	}
	return nil
}

// CheckValue reports whether v can be a measurement in unit: ns/op is a
// time, finite and not negative; any other unit holds what the benchmark
// reported, NaN and ±Inf included, as b.ReportMetric can report them.
func CheckValue(unit string, v float64) error {
	if unit == "ns/op" && (math.IsNaN(v) || math.IsInf(v, 0) || v < 0) {
		return fmt.Errorf("bad %s value %v", unit, v)
	}
	return nil
}

// A Warning is a problem in a raw file that did not stop it being read.
type Warning struct {
	File string
	// Line is the line the warning is about, or 0 for the whole file.
	Line int
	Msg  string
}

func (w Warning) String() string {
	if w.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Msg)
	}
	return w.File + ": " + w.Msg
}

// ReadFile reads a whole raw file.
func ReadFile(path string) (*Run, []Warning, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads a whole raw file from r, named file in messages.
func Read(r io.Reader, file string) (*Run, []Warning, error) {
	rd := NewReader(r, file)
	run := &Run{}
	var end completion
	for rd.Scan() {
		switch rec := rd.Record().(type) {
		case *Header:
			run.Header = rec
		case *Slice:
			run.Slices = append(run.Slices, *rec)
		case *Event:
			end.see(rec)
			if rec.Event == EventDiscarded {
				discard(run, rec)
			}
			run.Events = append(run.Events, *rec)
		}
	}
	if err := rd.Err(); err != nil {
		return nil, nil, err
	}
	run.Complete = end.complete(rd)
	return run, end.warnings(rd, file, "read", len(run.Slices)+len(run.Events)+1), nil
}

// completion follows the events that say whether a raw file's run ended:
// an end record completes it, an interruption makes it partial, and a
// resumption starts over.
type completion struct {
	ended, interrupted bool
}

func (c *completion) see(ev *Event) {
	switch ev.Event {
	case EventEnd:
		c.ended = true
	case EventInterrupt:
		c.interrupted = true
	case EventResumed:
		c.ended, c.interrupted = false, false
	}
}

// complete reports whether the run read by rd ended normally.
func (c completion) complete(rd *Reader) bool {
	return c.ended && !c.interrupted && !rd.Torn()
}

// warnings says why the run read by rd is partial, if it is; verb and
// records describe what was done with the records before a torn line.
func (c completion) warnings(rd *Reader, file, verb string, records int) []Warning {
	switch {
	case rd.Torn():
		return []Warning{{File: file, Line: rd.Line(), Msg: fmt.Sprintf("last line is incomplete (the run was cut off); %s the %d records before it", verb, records)}}
	case c.interrupted:
		return []Warning{{File: file, Msg: "the run was interrupted: results are partial"}}
	case !c.ended:
		return []Warning{{File: file, Msg: "the run did not finish (no end record): results are partial"}}
	}
	return nil
}

// discard drops the slices and warmup-end events of the iteration that ev
// names, all of which precede ev.
func discard(run *Run, ev *Event) {
	same := func(pkg, bench, version, instance string, k, it int) bool {
		return pkg == ev.Package && bench == ev.Benchmark && version == ev.Version && instance == ev.Instance &&
			k == ev.SuiteRun && it == ev.Iteration
	}
	run.Slices = slices.DeleteFunc(run.Slices, func(s Slice) bool {
		return same(s.Package, s.Benchmark, s.Version, s.Instance, s.SuiteRun, s.Iteration)
	})
	run.Events = slices.DeleteFunc(run.Events, func(e Event) bool {
		return e.Event == EventWarmupEnd && same(e.Package, e.Benchmark, e.Version, e.Instance, e.SuiteRun, e.Iteration)
	})
}
