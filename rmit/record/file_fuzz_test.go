package record_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// FuzzRead checks that any input either reads or fails with a SyntaxError
// naming the file and a line, never a panic, and that what reads writes
// back to a file that reads the same.
func FuzzRead(f *testing.F) {
	const header = `{"type":"header","schema":1,"goos":"linux","goarch":"amd64","seed":1,"start":"2025-01-01T00:00:00Z"}` + "\n"
	const slice = `{"type":"slice","pkg":"p","bench":"BenchmarkA","suite_run":1,"iteration":1,"order":1,"slice":1,"n":10,"values":{"ns/op":5},"start":"2025-01-01T00:00:00Z","wall_ns":1}` + "\n"
	f.Add([]byte(header + slice + `{"type":"event","event":"end","time":"2025-01-01T00:00:01Z"}` + "\n"))
	f.Add([]byte(header + slice + slice[:40]))
	f.Add([]byte(header + slice + `{"type":"event","event":"interrupted","time":"2025-01-01T00:00:01Z"}` + "\n" +
		`{"type":"event","event":"resumed","time":"2025-01-01T00:00:02Z"}` + "\n" +
		`{"type":"event","event":"discarded","pkg":"p","bench":"BenchmarkA","suite_run":1,"iteration":1,"time":"2025-01-01T00:00:02Z"}` + "\n" + slice))
	f.Add([]byte(strings.Replace(header, `"schema":1`, `"schema":2`, 1)))
	f.Add([]byte(header + strings.Replace(slice, `"n":10`, `"n":"ten"`, 1)))
	f.Fuzz(func(t *testing.T, data []byte) {
		run, _, err := record.Read(bytes.NewReader(data), "f.jsonl")
		if err != nil {
			var se *record.SyntaxError
			if errors.As(err, &se) && (se.File != "f.jsonl" || se.Line < 1) {
				t.Fatalf("error without file and line: %v", err)
			}
			return
		}
		if run.Header == nil {
			t.Fatal("read without a header")
		}
		for _, e := range run.Events {
			if e.Event == record.EventDiscarded {
				return // written back in another order, it would drop other slices
			}
		}
		var buf bytes.Buffer
		w := record.NewWriter(&buf)
		if err := w.Write(run.Header); err != nil {
			t.Fatal(err)
		}
		for i := range run.Slices {
			if err := w.Write(&run.Slices[i]); err != nil {
				t.Fatal(err)
			}
		}
		for i := range run.Events {
			if err := w.Write(&run.Events[i]); err != nil {
				t.Fatal(err)
			}
		}
		again, _, err := record.Read(&buf, "again.jsonl")
		if err != nil {
			t.Fatalf("written back, the records do not read: %v", err)
		}
		if len(again.Slices) != len(run.Slices) || len(again.Events) != len(run.Events) {
			t.Fatalf("read back %d slices and %d events, want %d and %d", len(again.Slices), len(again.Events), len(run.Slices), len(run.Events))
		}
	})
}
