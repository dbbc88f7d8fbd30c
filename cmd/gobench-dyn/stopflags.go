package main

import (
	"errors"

	"github.com/spf13/pflag"

	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// bindStopFlags binds the flags of the stopping policy, shared by run and
// replay, to c. The values in c are the defaults shown in help.
func bindStopFlags(fs *pflag.FlagSet, c *stopper.Config) {
	fs.Var(&c.Criterion, "stop", "stoppage criterion: none (a static configuration), cv, rciw, kld or precision")
	fs.Float64Var(&c.Threshold, "threshold", 0, "criterion threshold (default 0.01 for cv, 0.03 for rciw, 0.99 for kld, 0.03 for precision)")
	fs.IntVar(&c.Window, "window", c.Window, "sliding window of the criterion, in slices")
	fs.IntVar(&c.WarmupMin, "warmup", c.WarmupMin, "warmup slices per iteration; with a --stop criterion the minimum")
	fs.IntVar(&c.WarmupMax, "warmup-max", c.WarmupMax, "most warmup slices per iteration with a --stop criterion")
	fs.IntVar(&c.Measure, "slices", c.Measure, "measurement slices per iteration")
	fs.IntVar(&c.MinIterations, "min-iterations", c.MinIterations, "iterations of a benchmark before the criterion may stop it")
}

// validateStopFlags fills in the criterion's default threshold when
// --threshold was not given, and checks c, naming the flag of the first
// bad value.
func validateStopFlags(fs *pflag.FlagSet, c *stopper.Config) error {
	if !fs.Changed("threshold") {
		c.Threshold = c.Criterion.DefaultThreshold()
	} else if c.Threshold <= 0 && c.Criterion != stopper.None {
		return usageErr("--threshold: must be positive, got %v", c.Threshold)
	} else if c.Criterion == stopper.CV || c.Criterion == stopper.RCIW || c.Criterion == stopper.Precision {
		if err := fractionFlag("--threshold", c.Threshold); err != nil {
			return err
		}
	}
	err := c.Validate()
	var ce *stopper.ConfigError
	if !errors.As(err, &ce) {
		return err
	}
	flag := map[string]string{
		"Criterion":     "--stop",
		"Threshold":     "--threshold",
		"Window":        "--window",
		"WarmupMin":     "--warmup",
		"WarmupMax":     "--warmup-max",
		"Measure":       "--slices",
		"MinIterations": "--min-iterations",
	}[ce.Field]
	if flag == "" {
		return usageErr("%v", err)
	}
	return usageErr("%s: %s", flag, ce.Msg)
}
