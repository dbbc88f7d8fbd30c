package history

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
)

// FuzzReadJSONL: whatever the input, reading never panics, every error
// is a *SyntaxError naming a line of the input, and every entry read
// is valid and reads back the same after writing.
func FuzzReadJSONL(f *testing.F) {
	var buf bytes.Buffer
	_ = WriteJSONL(&buf, entries("c1", 2))
	f.Add(buf.Bytes())
	f.Add([]byte(`{"commit":"a","commit_time":"2026-01-01T00:00:00Z","machine":"m","bench":"B","unit":"ns/op","mean":1,"processes":1}`))
	f.Add([]byte("\n\n{}\n"))
	f.Add([]byte(`{"commit":"a","commit_time":"2026-01-01T00:00:00Z","machine":"m","bench":"B","unit":"ns/op","mean":1,"lo":2,"hi":3,"confidence":0.95,"processes":3}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		es, err := ReadJSONL(bytes.NewReader(data), "in.jsonl")
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Line < 1 || se.Line > strings.Count(string(data), "\n")+2 {
				t.Fatalf("error %v is not a syntax error naming a line of the input", err)
			}
			return
		}
		for i := range es {
			if err := es[i].Validate(); err != nil {
				t.Fatalf("entry %d read but invalid: %v", i, err)
			}
		}
		var out bytes.Buffer
		if err := WriteJSONL(&out, es); err != nil {
			t.Fatal(err)
		}
		back, err := ReadJSONL(&out, "out.jsonl")
		if err != nil {
			t.Fatalf("reading back what was written: %v", err)
		}
		if len(back) != len(es) {
			t.Fatalf("%d entries read back, %d written", len(back), len(es))
		}
		for i := range es {
			a, b := es[i], back[i]
			if a.Commit != b.Commit || !a.CommitTime.Equal(b.CommitTime) || a.Benchmark != b.Benchmark || a.Mean != b.Mean ||
				!same(a.Lo, b.Lo) || !same(a.Hi, b.Hi) || !same(a.AllocsPerOp, b.AllocsPerOp) || a.Processes != b.Processes {
				t.Fatalf("entry %d changed on the way: %+v, then %+v", i, a, b)
			}
		}
	})
}

func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
