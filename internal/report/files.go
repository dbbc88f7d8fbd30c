package report

import (
	"github.com/gobench-dyn/gobench-dyn/internal/runfile"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// FromFiles builds the report of the raw record files as Build does. A
// file without slices, and records in which no benchmark reports the
// unit, are bad input, so that an empty report is never written.
func FromFiles(files []*runfile.File, opts Options) (*Report, error) {
	var runs []*record.Run
	for _, f := range files {
		if len(f.Run.Slices) == 0 {
			return nil, usage.Errorf("", "%s: no slice records to report on", f.Path)
		}
		runs = append(runs, f.Run)
	}
	rep, err := Build(runs, opts)
	if err != nil {
		return nil, usage.Wrap(err)
	}
	if len(rep.Benchmarks) == 0 || !rep.hasUnit() {
		return nil, usage.ValueErrorf("unit", opts.Unit, "no benchmark in the records reports it")
	}
	return rep, nil
}

// hasUnit reports whether any benchmark of r has a measurement in the
// report's unit.
func (r *Report) hasUnit() bool {
	for _, b := range r.Benchmarks {
		if b.Head != nil && b.Head.Samples > 0 || b.Baseline != nil && b.Baseline.Samples > 0 {
			return true
		}
	}
	return false
}

// CheckFlags checks the --confidence and --unit of report, naming the
// first bad one, before any file is read.
func CheckFlags(confidence float64, unit string) error {
	if !(confidence > 0 && confidence < 1) {
		return usage.ValueErrorf("confidence", confidence, "want a level between 0 and 1, such as 0.99")
	}
	if unit == "" {
		return usage.Errorf("unit", "want a unit such as ns/op")
	}
	return nil
}
