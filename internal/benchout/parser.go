package benchout

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxLineBytes bounds the memory one input line may take. Of a longer line
// a Parser keeps the first and the last MaxLineBytes/2 bytes, which hold a
// benchmark's name and its result fields when a benchmark prints a huge
// line of its own in between.
const MaxLineBytes = 64 << 10

// MaxBlockLines bounds the lines kept for one Log or Panic: the last ones,
// which hold the failure message and the innermost frames.
const MaxBlockLines = 200

// A Parser reads the output of a Go test binary running benchmarks.
//
// Its API is modeled on bufio.Scanner: call Scan until it returns false,
// and take each Item as Scan returns true. A Parser hands out a Result as
// soon as its line is complete, so it can read the output of a binary while
// it runs. Items are newly allocated; callers may keep them.
type Parser struct {
	// Accept, when set, says whether a line shaped like a result, of
	// benchmark name over n iterations, is one: a harness that asked
	// for a fixed b.N knows that a line with another N, or naming a
	// benchmark it did not run, is something the benchmark printed
	// itself. Such a line is handed out as an Output, and a benchmark
	// name printed before it still waits for its result.
	Accept func(name string, n int64) bool

	r       *bufio.Reader
	maxLine int
	line    int // lines read so far

	queue   []Item
	item    Item
	pending *Incomplete // a printed name waiting for its result
	log     *Log        // an open "--- FAIL:"-style block
	panic   *Panic      // an open panic and its trace
	eof     bool
	err     error
}

// NewParser returns a Parser reading r.
func NewParser(r io.Reader) *Parser { return newParser(r, MaxLineBytes) }

func newParser(r io.Reader, maxLine int) *Parser {
	return &Parser{r: bufio.NewReaderSize(r, max(maxLine/2, 16)), maxLine: max(maxLine, 32)}
}

// Scan advances to the next item, which Item then returns. It returns false
// at the end of the input or on a read error, which Err then returns.
func (p *Parser) Scan() bool {
	for len(p.queue) == 0 {
		if p.eof {
			p.finish()
			if len(p.queue) == 0 {
				p.item = nil
				return false
			}
			break
		}
		if p.log != nil && p.r.Buffered() == 0 {
			// go test prints a block in one write. Once nothing more
			// is waiting, hand the block out now rather than block
			// until the next slice ends.
			p.flushLog()
			continue
		}
		line, err := p.readLine()
		if err == nil || len(line) > 0 {
			p.line++
			p.process(string(line))
		}
		if err != nil {
			if err != io.EOF {
				p.err = err
			}
			p.eof = true
		}
	}
	p.item = p.queue[0]
	p.queue[0] = nil
	p.queue = p.queue[1:]
	return true
}

// Item returns the item that the last call to Scan read.
func (p *Parser) Item() Item { return p.item }

// Err returns the first read error, or nil at a clean end of the input.
func (p *Parser) Err() error { return p.err }

// readLine returns the next line without its line ending. A line longer
// than p.maxLine keeps its head and its tail, joined by a tab and an
// ellipsis.
func (p *Parser) readLine() ([]byte, error) {
	b, err := p.r.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return trimEOL(b), err
	}
	half := p.maxLine / 2
	line := bytes.Clone(b)
	var tail []byte
	dropped := false
	for err == bufio.ErrBufferFull {
		b, err = p.r.ReadSlice('\n')
		tail = append(tail, b...)
		if len(tail) > half {
			tail = append(tail[:0], tail[len(tail)-half:]...)
			dropped = true
		}
	}
	if dropped {
		line = append(line, "\t…\t"...)
	}
	return append(line, trimEOL(tail)...), err
}

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

func (p *Parser) emit(it Item) { p.queue = append(p.queue, it) }

// finish hands out what is still open at the end of the input.
func (p *Parser) finish() {
	p.flushLog()
	p.flushPanic()
	if p.pending != nil {
		p.emit(p.pending)
		p.pending = nil
	}
}

func (p *Parser) flushLog() {
	if p.log != nil {
		p.emit(p.log)
		p.log = nil
	}
}

func (p *Parser) flushPanic() {
	if p.panic != nil {
		p.emit(p.panic)
		p.panic = nil
	}
}

// process handles one line. A benchmark name can share its line with the
// benchmark's own prints or with a failure header, so after a name the rest
// of the line is handled as a line of its own.
func (p *Parser) process(s string) {
	if p.log != nil {
		if s != "" && (s[0] == ' ' || s[0] == '\t') {
			p.log.Lines, p.log.Dropped = keepLast(p.log.Lines, s, p.log.Dropped)
			return
		}
		p.flushLog()
	}
	if p.panic != nil {
		if !startsBlock(s) {
			p.panic.Trace, p.panic.Dropped = keepLast(p.panic.Trace, s, p.panic.Dropped)
			return
		}
		p.flushPanic()
	}
	for s != "" {
		if !strings.HasPrefix(s, "Benchmark") {
			p.other(s)
			return
		}
		var ok bool
		if s, ok = p.name(s); !ok {
			p.other(s)
			return
		}
	}
}

// startsBlock reports whether s starts something other than a panic's
// trace, which ends the trace.
func startsBlock(s string) bool {
	return strings.HasPrefix(s, "Benchmark") || strings.HasPrefix(s, "--- ") ||
		s == "PASS" || s == "FAIL" || strings.HasPrefix(s, "goos: ")
}

// name handles a line that starts with "Benchmark". It returns the part of
// the line still to be handled, and false if the line does not hold a
// benchmark name after all.
func (p *Parser) name(s string) (rest string, ok bool) {
	end := strings.IndexFunc(s, unicode.IsSpace)
	if end < 0 {
		// "go test -v" prints the bare name as a benchmark starts and
		// repeats it on the result line.
		return "", true
	}
	name, sep := s[:end], s[end:]
	if pre, n, vals, ok := parseFields(sep); ok {
		if p.accepts(name, n) {
			p.displace()
			p.emitResult(name, pre, n, vals)
			return "", true
		}
		if p.pending != nil {
			// The benchmark running printed a line like a result.
			p.emit(&Output{Text: s, Line: p.line})
			return "", true
		}
	}
	rest = strings.TrimLeftFunc(sep, unicode.IsSpace)
	if !strings.Contains(sep[:len(sep)-len(rest)], "\t") {
		// go test pads the name and ends it with a tab; without one,
		// this is some other text that starts with "Benchmark".
		return s, false
	}
	p.displace()
	p.pending = &Incomplete{Name: name, Line: p.line}
	return rest, true
}

// other handles a line that holds no benchmark name.
func (p *Parser) other(s string) {
	switch {
	case strings.HasPrefix(s, "--- "):
		if p.header(s) {
			return
		}
	case strings.HasPrefix(s, "panic: "), strings.HasPrefix(s, "fatal error: "):
		p.panic = &Panic{Message: s, Line: p.line}
		return
	case s == "PASS", strings.HasPrefix(s, "ok  \t"):
		p.emit(&Status{Pass: true, Text: s, Line: p.line})
		return
	case s == "FAIL", strings.HasPrefix(s, "FAIL\t"):
		p.emit(&Status{Pass: false, Text: s, Line: p.line})
		return
	}
	if p.pending != nil {
		if pre, n, vals, ok := parseFields(s); ok && p.accepts(p.pending.Name, n) {
			p.emitResult(p.pending.Name, pre, n, vals)
			p.pending = nil
			return
		}
	} else if p.config(s) {
		return
	}
	if strings.TrimSpace(s) != "" {
		p.emit(&Output{Text: s, Line: p.line})
	}
}

// header handles a "--- FAIL: name" line and its kin.
func (p *Parser) header(s string) bool {
	status, name, ok := strings.Cut(s[len("--- "):], ": ")
	if !ok || (status != StatusFail && status != StatusSkip && status != StatusBench) {
		return false
	}
	if status != StatusBench {
		// The benchmark whose name is pending ended without a result.
		p.pending = nil
	}
	p.log = &Log{Status: status, Name: strings.TrimSpace(name), Line: p.line}
	return true
}

// config handles a "key: value" line. A benchmark that prints without a
// newline before go test prints its labels leaves its text in front of
// "goos:", so that label is looked for anywhere in the line.
func (p *Parser) config(s string) bool {
	if key, val, ok := keyValue(s); ok {
		p.emit(&Config{Key: key, Value: val, Line: p.line})
		return true
	}
	i := strings.Index(s, "goos: ")
	if i <= 0 {
		return false
	}
	key, val, ok := keyValue(s[i:])
	if !ok {
		return false
	}
	p.emit(&Output{Text: strings.TrimSpace(s[:i]), Line: p.line})
	p.emit(&Config{Key: key, Value: val, Line: p.line})
	return true
}

// keyValue parses a configuration line as the Go benchmark format defines
// it: a key that starts with a lower-case letter and holds no space or
// upper-case letter, a colon, and a value after spaces or tabs.
func keyValue(s string) (key, val string, ok bool) {
	for i, r := range s {
		if (i == 0 && !unicode.IsLower(r)) || unicode.IsSpace(r) || unicode.IsUpper(r) {
			return "", "", false
		}
		if i > 0 && r == ':' {
			key, val = s[:i], s[i+1:]
			break
		}
	}
	if key == "" {
		return "", "", false
	}
	trimmed := strings.TrimLeft(val, " \t")
	if val != "" && trimmed == val {
		return "", "", false
	}
	return key, strings.TrimRightFunc(trimmed, unicode.IsSpace), true
}

// accepts reports whether a line shaped like a result of name over n
// iterations is one.
func (p *Parser) accepts(name string, n int64) bool {
	return p.Accept == nil || p.Accept(name, n)
}

// displace hands out the pending name as incomplete: a new name means the
// benchmark it names ended without a result.
func (p *Parser) displace() {
	if p.pending != nil {
		p.emit(p.pending)
		p.pending = nil
	}
}

// emitResult hands out a result, after the text the benchmark printed in
// front of its fields.
func (p *Parser) emitResult(name, pre string, n int64, vals []Value) {
	if pre = strings.TrimSpace(pre); pre != "" {
		p.emit(&Output{Text: pre, Line: p.line})
	}
	p.emit(&Result{Name: name, N: n, Values: vals, Line: p.line})
}

// parseFields finds the result fields at the end of s: an iteration count
// and one or more value-unit pairs. Whatever comes before them is returned
// as prefix. A unit is never a number, so scanning pairs backwards from
// the end stops exactly at the iteration count.
func parseFields(s string) (prefix string, n int64, vals []Value, ok bool) {
	type field struct {
		text string
		at   int
	}
	var fields []field
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			i += size
			continue
		}
		j := i + size
		for j < len(s) {
			r, size := utf8.DecodeRuneInString(s[j:])
			if unicode.IsSpace(r) {
				break
			}
			j += size
		}
		fields = append(fields, field{s[i:j], i})
		i = j
	}
	start := len(fields)
	for start >= 2 && isUnit(fields[start-1].text) && isNumber(fields[start-2].text) {
		start -= 2
	}
	if start == len(fields) || start == 0 {
		return "", 0, nil, false
	}
	count := fields[start-1].text
	if strings.TrimLeft(count, "0123456789") != "" {
		return "", 0, nil, false
	}
	n, err := strconv.ParseInt(count, 10, 64)
	if err != nil {
		return "", 0, nil, false
	}
	for i := start; i < len(fields); i += 2 {
		v, _ := strconv.ParseFloat(fields[i].text, 64)
		vals = append(vals, Value{Value: v, Unit: fields[i+1].text})
	}
	return s[:fields[start-1].at], n, vals, true
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

func isUnit(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	// A number out of range is still a number, not a unit.
	return err != nil && !errors.Is(err, strconv.ErrRange)
}

// keepLast appends s to lines, keeping at most MaxBlockLines of them.
func keepLast(lines []string, s string, dropped int) ([]string, int) {
	if len(lines) < MaxBlockLines {
		return append(lines, s), dropped
	}
	copy(lines, lines[1:])
	lines[len(lines)-1] = s
	return lines, dropped + 1
}
