package steady

import (
	"math"

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
