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
	text   string
}

// scanOutput parses the stdout of a test binary as it arrives and calls fn
// for each item, until fn returns true or the output ends. It then drains
// r, so that the process never blocks writing to a full pipe.
func scanOutput(r io.Reader, fn func(outputItem) (stop bool)) error {
	p := benchout.NewParser(r)
	for p.Scan() {
		var it outputItem
		switch x := p.Item().(type) {
		case *benchout.Result:
			it = outputItem{kind: itemResult, name: x.Name, n: x.N, values: x.ValueMap()}
		case *benchout.Log:
			if !x.Failed() {
				continue
			}
			it = outputItem{kind: itemFailure, name: x.Name, text: strings.TrimSpace("--- FAIL: " + x.Name + "\n" + strings.Join(x.Lines, "\n"))}
		case *benchout.Panic:
			it = outputItem{kind: itemPanic, text: x.Message + "\n" + strings.Join(x.Trace, "\n")}
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
