package rmit

import (
	"io"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/benchout"
)

type itemKind int

const (
	itemResult  itemKind = iota // a benchmark result: one slice
	itemFailure                 // a --- FAIL block
	itemPanic                   // a runtime panic
	itemStart                   // a benchmark was running when output ended
	itemOther
)

// An outputItem is what the runner needs of one item of test-binary output.
type outputItem struct {
	kind   itemKind
	name   string
	n      int64
	values map[string]float64
	// reason is the first line of a failure's own message ("x_test.go:9:
	// boom", "panic: boom"), and detail the rest of it, so that a report
	// printing both prints the message once.
	reason, detail string
}

// text returns the whole failure message, reason and detail.
func (it outputItem) text() string {
	return strings.TrimSpace(it.reason + "\n" + it.detail)
}

// failureDetail gathers what a test binary printed about its failures,
// for the Detail of the failure they make: of the first, the message
// after its reason (the reason is the failure's own); of every later one,
// the whole message.
type failureDetail struct{ b strings.Builder }

// add records failure item it, the first one of its process if first.
func (f *failureDetail) add(it outputItem, first bool) {
	if first {
		f.b.WriteString(it.detail)
	} else {
		f.b.WriteString(it.text())
	}
	f.b.WriteByte('\n')
}

// with returns the failures' messages followed by the process's stderr.
func (f *failureDetail) with(stderr string) string {
	return strings.TrimSpace(f.b.String() + "\n" + stderr)
}

// scanOutput parses the stdout of a test binary as it arrives and calls fn
// for each item, until fn returns true or the output ends. It then drains
// r, so that the process never blocks writing to a full pipe. accept, if
// not nil, tells the results from lines a benchmark printed that look
// like one (benchout.Parser.Accept).
func scanOutput(r io.Reader, accept func(name string, n int64) bool, fn func(outputItem) (stop bool)) error {
	p := benchout.NewParser(r)
	p.Accept = accept
	for p.Scan() {
		var it outputItem
		switch x := p.Item().(type) {
		case *benchout.Result:
			it = outputItem{kind: itemResult, name: x.Name, n: x.N, values: x.ValueMap()}
		case *benchout.Log:
			if !x.Failed() {
				continue
			}
			reason, detail := "--- FAIL: "+x.Name, x.Lines
			for len(detail) > 0 && strings.TrimSpace(detail[0]) == "" {
				detail = detail[1:]
			}
			if len(detail) > 0 {
				reason, detail = strings.TrimSpace(detail[0]), detail[1:]
			}
			it = outputItem{kind: itemFailure, name: x.Name, reason: reason, detail: strings.Join(detail, "\n")}
		case *benchout.Panic:
			it = outputItem{kind: itemPanic, reason: x.Message, detail: strings.Join(x.Trace, "\n")}
		case *benchout.Incomplete:
			it = outputItem{kind: itemStart, name: x.Name}
		default:
			continue
		}
		if fn(it) {
			_, err := io.Copy(io.Discard, r)
			return err
		}
	}
	return p.Err()
}
