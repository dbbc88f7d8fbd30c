package main

import (
	"bytes"
	"fmt"

	"github.com/gobench-dyn/gobench-dyn/internal/benchout"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// parseGoTest reads go test -bench output into a run where each result
// line is its own iteration of one slice: every -count repetition re-ramps
// b.N, so it is a separate measurement, but all of them share a process.
func parseGoTest(out []byte) (*record.Run, error) {
	p := benchout.NewParser(bytes.NewReader(out))
	run := &record.Run{}
	pkg := ""
	count := map[string]int{}
	for p.Scan() {
		switch it := p.Item().(type) {
		case *benchout.Config:
			if it.Key == "pkg" {
				pkg = it.Value
			}
		case *benchout.Result:
			count[pkg+it.Name]++
			run.Slices = append(run.Slices, record.Slice{Package: pkg, Benchmark: it.Name, SuiteRun: 1,
				Iteration: count[pkg+it.Name], Slice: 1, N: it.N, Values: it.ValueMap()})
		}
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	if len(run.Slices) == 0 {
		return nil, fmt.Errorf("go test printed no results")
	}
	return run, nil
}
