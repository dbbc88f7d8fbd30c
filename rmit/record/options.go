package record

import (
	"fmt"
	"strconv"
	"time"
)

// RunOptions are the options of a run that shape its results: what
// Header.Options holds. One type writes and reads them, so that a
// resumed run, a merge and a report agree on their names and formats.
// On the wire they stay a map of flag name to text, as schema 1 has it.
type RunOptions struct {
	Bench string
	// Stop is the stoppage criterion, "none" for a static
	// configuration; Threshold, Window, Warmup, WarmupMax, Slices and
	// MinIterations are its parameters.
	Stop          string
	Threshold     float64
	Window        int
	Warmup        int
	WarmupMax     int
	Slices        int
	MinIterations int
	SuiteRuns     int
	Iterations    int
	SliceTime     time.Duration
	Budget        time.Duration
	// AutoBudget is whether a run without a Budget was given about one
	// go test -bench pass of its benchmarks (run --budget auto).
	AutoBudget bool
	Config     string // the configuration file
	// Baseline is the revision interleaved with the code under test;
	// Sequential, Looks, MinChange, Rule, Correction, FailOn and
	// Confidence are how the two are compared. Looks are the planned
	// looks of a sequential comparison ("5,8,12,18,20"); EarlyVerdict is
	// Sequential under its former name, kept for readers of older files.
	Baseline     string
	EarlyVerdict bool
	Sequential   bool
	Looks        string
	// Spending is how the looks spend the level; Pairing how the two
	// versions were paired ("slice" or "process"), and TurnTime,
	// Turns and TurnWarmup the shape of a duet iteration.
	Spending string
	Pairing  string
	// Confirm is whether a change the looks found counted only once
	// fresh pairs showed it too (run --confirm).
	Confirm    bool
	TurnTime   time.Duration
	Turns      int
	TurnWarmup time.Duration
	MinChange  float64
	Rule       string
	Correction string
	FailOn     string
	Confidence float64
	Tags       string
	CPU        string
	Race       bool
}

// optionField is one RunOptions field by its flag name; exactly one
// pointer is set.
type optionField struct {
	name string
	s    *string
	i    *int
	f    *float64
	d    *time.Duration
	b    *bool
}

func (o *RunOptions) fields() []optionField {
	return []optionField{
		{name: "bench", s: &o.Bench},
		{name: "stop", s: &o.Stop},
		{name: "threshold", f: &o.Threshold},
		{name: "window", i: &o.Window},
		{name: "warmup", i: &o.Warmup},
		{name: "warmup-max", i: &o.WarmupMax},
		{name: "slices", i: &o.Slices},
		{name: "min-iterations", i: &o.MinIterations},
		{name: "suite-runs", i: &o.SuiteRuns},
		{name: "iterations", i: &o.Iterations},
		{name: "slice-time", d: &o.SliceTime},
		{name: "budget", d: &o.Budget},
		{name: "budget-auto", b: &o.AutoBudget},
		{name: "config", s: &o.Config},
		{name: "baseline", s: &o.Baseline},
		{name: "early-verdict", b: &o.EarlyVerdict},
		{name: "sequential", b: &o.Sequential},
		{name: "looks", s: &o.Looks},
		{name: "spending", s: &o.Spending},
		{name: "confirm", b: &o.Confirm},
		{name: "pairing", s: &o.Pairing},
		{name: "turn-time", d: &o.TurnTime},
		{name: "turns", i: &o.Turns},
		{name: "turn-warmup", d: &o.TurnWarmup},
		{name: "min-change", f: &o.MinChange},
		{name: "rule", s: &o.Rule},
		{name: "correction", s: &o.Correction},
		{name: "fail-on", s: &o.FailOn},
		{name: "confidence", f: &o.Confidence},
		{name: "tags", s: &o.Tags},
		{name: "cpu", s: &o.CPU},
		{name: "race", b: &o.Race},
	}
}

// Encode returns o as Header.Options holds it.
func (o RunOptions) Encode() map[string]string {
	m := map[string]string{}
	for _, f := range o.fields() {
		switch {
		case f.s != nil:
			m[f.name] = *f.s
		case f.i != nil:
			m[f.name] = strconv.Itoa(*f.i)
		case f.f != nil:
			m[f.name] = strconv.FormatFloat(*f.f, 'g', -1, 64)
		case f.d != nil:
			m[f.name] = f.d.String()
		case f.b != nil:
			m[f.name] = strconv.FormatBool(*f.b)
		}
	}
	return m
}

// ParseRunOptions reads the options m holds. A missing option keeps its
// zero value, as in files written before it existed; the error names the
// first value that does not parse, and the others are read all the same.
func ParseRunOptions(m map[string]string) (RunOptions, error) {
	var o RunOptions
	var first error
	for _, f := range o.fields() {
		v, ok := m[f.name]
		if !ok {
			continue
		}
		var err error
		switch {
		case f.s != nil:
			*f.s = v
		case f.i != nil:
			*f.i, err = strconv.Atoi(v)
		case f.f != nil:
			*f.f, err = strconv.ParseFloat(v, 64)
		case f.d != nil:
			*f.d, err = time.ParseDuration(v)
		case f.b != nil:
			*f.b, err = strconv.ParseBool(v)
		}
		if err != nil && first == nil {
			first = fmt.Errorf("option %s: %q is not a valid value", f.name, v)
		}
	}
	return o, first
}
