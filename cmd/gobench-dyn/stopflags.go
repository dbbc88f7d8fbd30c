package main

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gobench-dyn/gobench-dyn/internal/choice"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// bindStopFlags binds the flags of the stopping policy, shared by run and
// replay, to c. The values in c are the defaults shown in help.
func bindStopFlags(fs *pflag.FlagSet, c *stopper.Config) {
	fs.Var(&c.Criterion, "stop", stopHelp())
	fs.Float64("target", stopper.IntervalTarget, "with --stop interval, the relative half-width of the 95% interval of each mean to reach")
	fs.Float64Var(&c.Threshold, "threshold", 0, thresholdHelp())
	fs.IntVar(&c.Window, "window", c.Window, "sliding window of the criterion, in slices")
	fs.IntVar(&c.WarmupMin, "warmup", c.WarmupMin, "warmup slices per iteration; with a --stop criterion the minimum, except that a benchmark measured cold (an op of a second or more, or a setup in every call) takes none unless this is above 1")
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

// validateStopFlags completes and checks c as session.CheckStop does,
// naming the flag of the first bad value.
func validateStopFlags(fs *pflag.FlagSet, c *stopper.Config) error {
	target, _ := fs.GetFloat64("target")
	return exitStatus(session.CheckStop(c, fs.Changed, target))
}
