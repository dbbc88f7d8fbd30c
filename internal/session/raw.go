package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// rawFile is the --raw output: appended to and flushed record by record,
// and locked so that two runs cannot write one file. A new run's file is
// emptied only by its first record, so that a run that fails before it
// measures anything leaves an old file as it was, and a file it created
// for nothing is removed again.
type rawFile struct {
	f       *os.File
	path    string
	created bool // the file did not exist before this run
	fresh   bool // the old content goes at the first write
	written bool
	size    int64  // bytes of complete records
	lines   int    // complete records
	last    []byte // the last complete record
	err     error
	closed  bool
}

// openLocked opens path with flag and takes an exclusive lock on it, or
// fails at once if another run holds one.
func openLocked(path string, flag int) (*os.File, error) {
	f, err := os.OpenFile(path, flag, 0o644)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f); err != nil {
		f.Close()
		if errors.Is(err, errLocked) {
			return nil, fmt.Errorf("%s is being written by another gobench-dyn run", path)
		}
		return nil, err
	}
	return f, nil
}

// errLocked is lockFile's error when another process holds the lock.
var errLocked = errors.New("locked")

// ErrUnfinished is why a new run does not replace a raw file: it holds a
// run that was not finished, which a resumed run can complete, and the
// options do not force its replacement.
var ErrUnfinished = errors.New("the file holds an unfinished run")

// createRaw opens the raw file of a new run. A file that holds an
// unfinished run, which --resume could continue, is refused unless force
// is set.
func createRaw(path string, force bool) (*rawFile, error) {
	_, err := os.Lstat(path)
	created := os.IsNotExist(err)
	f, err := openLocked(path, os.O_WRONLY|os.O_CREATE)
	if err != nil {
		return nil, err
	}
	r := &rawFile{f: f, path: path, created: created, fresh: true}
	if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() {
		// A pipe or a device (/dev/stdout) holds no old run, and cannot
		// be emptied.
		r.fresh, r.created = false, false
		return r, nil
	}
	// Read the old content only once the lock is ours: another run may
	// be writing it.
	if !created && !force {
		if why := unfinished(path); why != "" {
			r.Close()
			return nil, fmt.Errorf("%w (%s)", ErrUnfinished, why)
		}
	}
	return r, nil
}

// appendRaw opens the raw file of an interrupted run to append to it,
// locked as createRaw locks. A last record cut short by a crash is cut
// off, so that the records appended start on a line of their own.
func appendRaw(path string) (*rawFile, error) {
	f, err := openLocked(path, os.O_RDWR)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(f)
	end := int64(bytes.LastIndexByte(data, '\n') + 1)
	if err == nil && end < int64(len(data)) {
		err = f.Truncate(end)
	}
	if err == nil {
		_, err = f.Seek(end, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	r := &rawFile{f: f, path: path, written: true, size: end, lines: bytes.Count(data[:end], []byte{'\n'})}
	if start := bytes.LastIndexByte(data[:max(end-1, 0)], '\n') + 1; end > 0 {
		r.last = bytes.Clone(data[start:end])
	}
	return r, nil
}

// Write writes one or more whole records. A write that fails cuts off
// what it wrote of its record, so that the file ends with its last
// complete record, and fails every later write.
func (r *rawFile) Write(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if r.fresh {
		r.fresh = false
		if err := r.f.Truncate(0); err != nil {
			r.err = r.writeError(err)
			return 0, r.err
		}
	}
	n, err := r.f.Write(p)
	if err != nil {
		_ = r.f.Truncate(r.size)
		r.err = r.writeError(err)
		return n, r.err
	}
	r.written = true
	r.size += int64(n)
	r.lines += bytes.Count(p, []byte{'\n'})
	if len(p) > 1 {
		if i := bytes.LastIndexByte(p[:len(p)-1], '\n'); i >= 0 {
			p = p[i+1:]
		}
		r.last = append(r.last[:0], p...)
	}
	return n, nil
}

// writeError says which file failed, and what it holds.
func (r *rawFile) writeError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	msg := fmt.Sprintf("writing the raw file %s failed: %v", r.path, err)
	if r.lines > 0 {
		msg += fmt.Sprintf("; it is readable up to line %d, its last complete record (%s), and a resumed run continues it", r.lines, describeRecord(r.last))
	}
	return &rawError{msg: msg, err: err}
}

// A rawError is a write to the raw file that failed.
type rawError struct {
	msg string
	err error
}

func (e *rawError) Error() string { return e.msg }
func (e *rawError) Unwrap() error { return e.err }

// describeRecord names the record line holds for a person: which slice
// or event it is.
func describeRecord(line []byte) string {
	var rec struct {
		Type      string `json:"type"`
		Event     string `json:"event"`
		Package   string `json:"pkg"`
		Benchmark string `json:"bench"`
		Version   string `json:"version"`
		SuiteRun  int    `json:"suite_run"`
		Iteration int    `json:"iteration"`
		Slice     int    `json:"slice"`
	}
	if json.Unmarshal(line, &rec) != nil {
		return "unreadable"
	}
	name := record.Bench{Package: rec.Package, Benchmark: rec.Benchmark}.String()
	if rec.Version != "" {
		name += " (" + rec.Version + ")"
	}
	switch {
	case rec.Type == record.TypeSlice:
		return fmt.Sprintf("slice %d of %s, suite run %d, iteration %d", rec.Slice, name, rec.SuiteRun, rec.Iteration)
	case rec.Type == record.TypeEvent && rec.Benchmark != "":
		return fmt.Sprintf("%s event of %s", rec.Event, name)
	case rec.Type == record.TypeEvent:
		return rec.Event + " event"
	}
	return rec.Type
}

// unfinished says why the raw file at path holds a run that did not end
// and could be resumed, or returns "" when it does not: it is complete,
// merged, empty or not a raw file at all. It reads the first and the last
// line only.
func unfinished(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head, err := bufio.NewReader(f).ReadSlice('\n')
	if err != nil {
		return "" // empty, or no whole header line: not resumable
	}
	var h struct {
		Type    string            `json:"type"`
		Sources []json.RawMessage `json:"sources"`
	}
	if json.Unmarshal(head, &h) != nil || h.Type != record.TypeHeader || len(h.Sources) > 0 {
		return ""
	}
	fi, err := f.Stat()
	if err != nil {
		return ""
	}
	const tail = 64 << 10
	off := max(fi.Size()-tail, 0)
	buf := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(buf, off); err != nil {
		return ""
	}
	if !bytes.HasSuffix(buf, []byte{'\n'}) {
		return "its last record is cut short"
	}
	lines := strings.Split(strings.TrimRight(string(buf), "\n"), "\n")
	var ev struct {
		Type  string `json:"type"`
		Event string `json:"event"`
	}
	if json.Unmarshal([]byte(lines[len(lines)-1]), &ev) == nil && ev.Type == record.TypeEvent {
		switch ev.Event {
		case record.EventEnd:
			return ""
		case record.EventInterrupt:
			return "it was interrupted"
		}
	}
	return "it has no end record"
}

// Close closes the file once; later calls do nothing. A file this run
// created and never wrote is removed.
func (r *rawFile) Close() error {
	if r == nil || r.closed {
		return nil
	}
	r.closed = true
	if r.created && !r.written {
		os.Remove(r.path)
	}
	return r.f.Close()
}
