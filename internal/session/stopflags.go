package session

import (
	"errors"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// CheckStop completes and checks the stopping policy c that the flags of
// run and replay set: changed reports whether a flag was given, and target
// is the value of --target. It fills in the criterion's default threshold
// when --threshold was not given and its warmup cap when --warmup-max was
// not. Its errors are usage errors naming the flag of the first bad value,
// except an invalid field no flag sets.
func CheckStop(c *stopper.Config, changed func(flag string) bool, target float64) error {
	interval := c.Criterion == stopper.Interval
	if !changed("warmup-max") {
		c.WarmupMax = stopper.Default(c.Criterion).WarmupMax
	}
	switch {
	case interval && changed("threshold"):
		return usage.Errorf("threshold", "--stop interval takes --target")
	case !interval && changed("target"):
		return usage.Errorf("target", "only --stop interval has a target; got --stop %s", c.Criterion)
	case interval:
		if target <= 0 {
			return usage.Errorf("target", "must be positive (0.03 is ±3%%), got %v", target)
		}
		if err := gate.CheckFraction("target", target); err != nil {
			return err
		}
		c.Threshold = target
	case !changed("threshold"):
		c.Threshold = c.Criterion.DefaultThreshold()
	case c.Threshold <= 0 && c.Criterion != stopper.None:
		return usage.Errorf("threshold", "must be positive, got %v", c.Threshold)
	case c.Criterion.RelativeThreshold():
		if err := gate.CheckFraction("threshold", c.Threshold); err != nil {
			return err
		}
	}
	if c.Criterion != stopper.None && c.MinIterations < stopper.MinProcesses && changed("min-iterations") {
		return usage.Errorf("min-iterations", "no criterion judges a benchmark on fewer than %d processes, got %d", stopper.MinProcesses, c.MinIterations)
	}
	err := c.Validate()
	var ce *stopper.ConfigError
	if !errors.As(err, &ce) {
		return err
	}
	if ce.Flag == "" {
		return usage.Errorf("", "%w", err)
	}
	return usage.Errorf(ce.Flag, "%s", ce.Msg)
}
