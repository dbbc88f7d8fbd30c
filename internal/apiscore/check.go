package apiscore

import (
	"regexp"

	"github.com/gobench-dyn/gobench-dyn/internal/usage"
)

// Check checks the bounds of an evaluation, naming the flag of abs of the
// first bad one, so that a bad value fails before anything is built.
func (o *Options) Check() error {
	switch {
	case o.Top < 0:
		return usage.Errorf("top", "must not be negative, got %d", o.Top)
	case o.Slowdown < 0:
		return usage.Errorf("slowdown", "must not be negative, got %v", o.Slowdown)
	case o.Budget < 0:
		return usage.Errorf("budget", "must not be negative, got %v", o.Budget)
	case o.SliceTime <= 0:
		return usage.Errorf("slice-time", "must be positive, got %v", o.SliceTime)
	case o.SuiteRuns < MinSuiteRuns:
		return usage.Errorf("suite-runs", "must be at least %d (the gate's first look; the fewest processes per version the rank-sum test can detect with), got %d", MinSuiteRuns, o.SuiteRuns)
	case o.SpreadRuns < 2:
		return usage.Errorf("spread-runs", "maxSpread needs at least 2 runs, got %d", o.SpreadRuns)
	case o.Timeout < 0:
		return usage.Errorf("timeout", "must not be negative, got %v", o.Timeout)
	}
	return nil
}

// ParseFlags returns the function filter and rule of abs's --func and
// --rule, naming the first bad one.
func ParseFlags(fn, rule string) (*regexp.Regexp, Rule, error) {
	var re *regexp.Regexp
	if fn != "" {
		var err error
		if re, err = regexp.Compile(fn); err != nil {
			return nil, "", usage.Errorf("func", "%w", err)
		}
	}
	r, err := ParseRule(rule)
	if err != nil {
		return nil, "", usage.Errorf("rule", "%w", err)
	}
	return re, r, nil
}
