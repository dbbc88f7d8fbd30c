package record_test

import (
	"fmt"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// A raw file of gobench-dyn run --raw, cut short: a header, then one record
// per slice, but no end event.
const raw = `{"type": "header", "schema": 1, "tool": "gobench-dyn", "go_version": "go1.26", "goos": "linux", "goarch": "amd64", "seed": 1, "start": "2026-01-01T00:00:00Z"}
{"type": "slice", "pkg": "example.com/p", "bench": "BenchmarkParse-8", "suite_run": 1, "iteration": 1, "order": 1, "slice": 1, "warmup": true, "n": 1000, "values": {"ns/op": 1310}, "start": "2026-01-01T00:00:00Z", "wall_ns": 1400000}
{"type": "slice", "pkg": "example.com/p", "bench": "BenchmarkParse-8", "suite_run": 1, "iteration": 1, "order": 1, "slice": 2, "n": 1000, "values": {"ns/op": 1002, "allocs/op": 3}, "start": "2026-01-01T00:00:00Z", "wall_ns": 1100000}
{"type": "slice", "pkg": "example.com/p", "bench": "BenchmarkParse-8", "suite_run": 1, "iteration": 1, "order": 1, "slice": 3, "n": 1000, "values": {"ns/op": 998, "allocs/op": 3}, "start": "2026-01-01T00:00:00Z", "wall_ns": 1000000}
{"type": "slice", "pkg": "example.com/p", "bench": "BenchmarkParse-8", "suite_run": 2, "iteration": 1, "order": 1, "slice": 1, "warmup": true, "n": 1000, "values": {"ns/op": 1290}, "start": "2026-01-01T00:00:01Z", "wall_ns": 1300000}
{"type": "slice", "pkg": "example.com/p", "bench": "BenchmarkParse-8", "suite_run": 2, "iteration": 1, "order": 1, "slice": 2, "n": 1000, "values": {"ns/op": 1005, "allocs/op": 3}, "start": "2026-01-01T00:00:01Z", "wall_ns": 1100000}
`

// Read checks every record and groups the slices by benchmark; Series
// returns one benchmark's values of one unit, iteration by iteration.
func ExampleRead() {
	run, warnings, err := record.Read(strings.NewReader(raw), "parse.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, w := range warnings {
		fmt.Println(w)
	}
	fmt.Println("complete:", run.Complete)
	for _, k := range run.Keys() {
		fmt.Println(k.Bench, run.Units(k))
		for _, it := range run.Series(k, "ns/op") {
			fmt.Printf("  suite run %d: warmup %v, measured %v\n", it.SuiteRun, it.Warmup, it.Values)
		}
	}
	// Output:
	// parse.jsonl: the run did not finish (no end record): results are partial
	// complete: false
	// example.com/p.BenchmarkParse-8 [ns/op allocs/op]
	//   suite run 1: warmup [1310], measured [1002 998]
	//   suite run 2: warmup [1290], measured [1005]
}

// Readers reject a bad record with the file and line.
func ExampleRead_badRecord() {
	bad := strings.Replace(raw, `"slice": 3,`, `"slice": 0,`, 1)
	_, _, err := record.Read(strings.NewReader(bad), "parse.jsonl")
	fmt.Println(err)
	// Output:
	// parse.jsonl:4: slice positions must be ≥ 1 (suite_run 1, iteration 1, slice 0)
}
