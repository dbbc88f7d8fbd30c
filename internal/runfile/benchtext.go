// Go benchmark text, the output of go test -bench that benchstat reads,
// read into raw records.
//
// Parsing is done by golang.org/x/perf/benchfmt. Each result line becomes
// one record.Slice. go test -count re-runs a benchmark with a freshly
// ramped b.N for every count, in the same process, so result lines are not
// slices of one fixed-N iteration: each line is treated as an iteration of
// its own (suite run 1, iteration k for the k-th line of the benchmark,
// slice 1). A hierarchical bootstrap of such a record resamples lines, as
// benchstat does.

package runfile

import (
	"errors"
	"fmt"
	"io"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"golang.org/x/perf/benchfmt"
)

// readBenchText reads a benchmark text file from r, named name in error
// messages, with its unit metadata lines ("Unit MB/s better=higher"),
// which say which direction of a unit is better. It returns a
// *record.SyntaxError naming the line of the first malformed result, and
// an error if the input holds no results at all.
func readBenchText(r io.Reader, name string) (*record.Run, benchfmt.UnitMetadataMap, error) {
	rd := benchfmt.NewReader(r, name)
	run := &record.Run{Header: &record.Header{Type: record.TypeHeader, Schema: record.Schema}, Complete: true}
	count := map[record.Key]int{}
	headerSet := false
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			file, line := rec.Pos()
			return nil, nil, &record.SyntaxError{File: file, Line: line, Msg: rec.Msg}
		case *benchfmt.Result:
			s, err := slice(rec)
			if err != nil {
				file, line := rec.Pos()
				return nil, nil, &record.SyntaxError{File: file, Line: line, Msg: err.Error()}
			}
			count[s.Key()]++
			s.Iteration = count[s.Key()]
			s.Order = s.Iteration
			run.Slices = append(run.Slices, s)
			if !headerSet {
				headerSet = true
				run.Header.GOOS = rec.GetConfig("goos")
				run.Header.GOARCH = rec.GetConfig("goarch")
				run.Header.CPU = rec.GetConfig("cpu")
			}
		}
	}
	if err := rd.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(run.Slices) == 0 {
		return nil, nil, &record.SyntaxError{File: name, Line: 1, Msg: "no benchmark results: not a Go benchmark file"}
	}
	return run, rd.Units(), nil
}

// slice converts one result line. Units are kept as go test prints them
// (ns/op, not benchfmt's tidied sec/op), as in raw records.
func slice(res *benchfmt.Result) (record.Slice, error) {
	s := record.Slice{
		Type:      record.TypeSlice,
		Package:   res.GetConfig("pkg"),
		Benchmark: "Benchmark" + res.Name.String(),
		SuiteRun:  1,
		Slice:     1,
		N:         int64(res.Iters),
		Values:    make(map[string]float64, len(res.Values)),
	}
	if s.N < 1 {
		return s, fmt.Errorf("iteration count %d, want ≥ 1", res.Iters)
	}
	for _, v := range res.Values {
		val, unit := v.Value, v.Unit
		if v.OrigUnit != "" {
			val, unit = v.OrigValue, v.OrigUnit
		}
		if err := record.CheckValue(unit, val); err != nil {
			return s, err
		}
		if _, dup := s.Values[unit]; dup {
			return s, fmt.Errorf("unit %s given twice", unit)
		}
		s.Values[unit] = val
	}
	if len(s.Values) == 0 {
		return s, errors.New("missing measurements")
	}
	return s, nil
}
