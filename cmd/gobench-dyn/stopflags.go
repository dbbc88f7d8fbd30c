package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gobench-dyn/gobench-dyn/internal/choice"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// bindStopFlags binds the flags of the stopping policy, shared by run and
// replay, to c. The values in c are the defaults shown in help.
func bindStopFlags(fs *pflag.FlagSet, c *stopper.Config) {
	fs.Var(&c.Criterion, "stop", stopHelp())
	fs.Float64("target", stopper.IntervalTarget, "with --stop interval, the relative half-width of the 95% interval of each mean to reach")
	fs.Float64Var(&c.Threshold, "threshold", 0, thresholdHelp())
	fs.IntVar(&c.Window, "window", c.Window, "sliding window of the criterion, in slices")
	fs.IntVar(&c.WarmupMin, "warmup", c.WarmupMin, "warmup slices per iteration; with a --stop criterion the minimum")
	fs.IntVar(&c.WarmupMax, "warmup-max", c.WarmupMax, fmt.Sprintf("most warmup slices per iteration with a --stop criterion: under --stop interval, those of a benchmark's first process, which learns the warmup its later processes take; %d under the other criteria", stopper.Default(stopper.CV).WarmupMax))
	fs.IntVar(&c.Measure, "slices", c.Measure, "measurement slices per iteration")
	fs.IntVar(&c.MinIterations, "min-iterations", c.MinIterations, "iterations of a benchmark before the criterion may stop it")
}

// stopHelp is the help of --stop: every criterion, with what it measures.
func stopHelp() string {
	var each []string
	for _, c := range stopper.Criteria() {
		each = append(each, fmt.Sprintf("%s (%s)", c, c.Help()))
	}
	return "stoppage criterion: " + choice.List(each...)
}

// thresholdHelp is the help of --threshold: the criteria that take one,
// with their defaults. Interval's threshold is --target.
func thresholdHelp() string {
	var names, defaults []string
	for _, c := range stopper.Criteria() {
		if c.DefaultThreshold() == 0 || c == stopper.Interval {
			continue
		}
		names = append(names, c.String())
		defaults = append(defaults, fmt.Sprintf("%v for %s", c.DefaultThreshold(), c))
	}
	return fmt.Sprintf("threshold of --stop %s (default %s)", choice.List(names...), strings.Join(defaults, ", "))
}

// validateStopFlags fills in the criterion's default threshold when
// --threshold was not given and its warmup cap when --warmup-max was not,
// and checks c, naming the flag of the first
// bad value.
func validateStopFlags(fs *pflag.FlagSet, c *stopper.Config) error {
	interval := c.Criterion == stopper.Interval
	if !fs.Changed("warmup-max") {
		c.WarmupMax = stopper.Default(c.Criterion).WarmupMax
	}
	switch {
	case interval && fs.Changed("threshold"):
		return usageErr("--threshold: --stop interval takes --target")
	case !interval && fs.Changed("target"):
		return usageErr("--target: only --stop interval has a target; got --stop %s", c.Criterion)
	case interval:
		target, _ := fs.GetFloat64("target")
		if target <= 0 {
			return usageErr("--target: must be positive (0.03 is ±3%%), got %v", target)
		}
		if err := fractionFlag("target", target); err != nil {
			return err
		}
		c.Threshold = target
	case !fs.Changed("threshold"):
		c.Threshold = c.Criterion.DefaultThreshold()
	case c.Threshold <= 0 && c.Criterion != stopper.None:
		return usageErr("--threshold: must be positive, got %v", c.Threshold)
	case c.Criterion.RelativeThreshold():
		if err := fractionFlag("threshold", c.Threshold); err != nil {
			return err
		}
	}
	if c.Criterion != stopper.None && c.MinIterations < stopper.MinProcesses && fs.Changed("min-iterations") {
		return usageErr("--min-iterations: no criterion judges a benchmark on fewer than %d processes, got %d", stopper.MinProcesses, c.MinIterations)
	}
	err := c.Validate()
	var ce *stopper.ConfigError
	if !errors.As(err, &ce) {
		return err
	}
	if ce.Flag == "" {
		return usageErr("%w", err)
	}
	return usageErr("--%s: %s", ce.Flag, ce.Msg)
}
