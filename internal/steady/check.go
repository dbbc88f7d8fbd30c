package steady

import (
	"math"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/usage"
)

// Check checks o as the flags of steady set it, naming the flag of the
// first bad value. A flag sets every field, so a zero, which in Options
// means the default, is refused here as any other bad value is.
func (o *Options) Check() error {
	p := o.Changepoint.Penalty
	switch {
	case p < 0 || math.IsNaN(p) || math.IsInf(p, 0):
		return usage.Errorf("penalty", "must be 0 or a positive number, got %v", p)
	case o.Changepoint.MinSegment < 1:
		return usage.Errorf("min-segment", "must be at least 1, got %d", o.Changepoint.MinSegment)
	case !(o.MinTailFraction > 0 && o.MinTailFraction < 1):
		return usage.Errorf("min-tail", "must be a share in (0, 1), got %v", o.MinTailFraction)
	case !(o.Tolerance > 0 && o.Tolerance < 1):
		return usage.Errorf("tolerance", "must be in (0, 1), got %v", o.Tolerance)
	case o.Resamples < 100:
		return usage.Errorf("resamples", "must be at least 100, got %d", o.Resamples)
	}
	return nil
}

// CheckFlags checks the flags of steady that are not Options: the
// --run-slice-time the configuration is written for, the
// --iteration-time of published series, the shape of a probe
// (--processes, --slices, --slice-time), and --config, which only a
// configuration written with -o (out) starts from.
func CheckFlags(runSliceTime, iterationTime time.Duration, processes, slices int, sliceTime time.Duration, config, out string) error {
	switch {
	case runSliceTime <= 0:
		return usage.Errorf("run-slice-time", "must be positive, got %v", runSliceTime)
	case iterationTime <= 0:
		return usage.Errorf("iteration-time", "must be positive, got %v", iterationTime)
	case processes < 1:
		return usage.Errorf("processes", "must be at least 1, got %d", processes)
	case slices < 10:
		return usage.Errorf("slices", "must be at least 10, got %d", slices)
	case sliceTime <= 0:
		return usage.Errorf("slice-time", "must be positive, got %v", sliceTime)
	case config != "" && out == "":
		return usage.Errorf("config", "only meaningful with -o")
	}
	return nil
}
