package gate

import "github.com/gobench-dyn/gobench-dyn/internal/usage"

// ParseOptions returns the options and failing units of a comparison from
// the values of its flags: --rule, --correction, --fail-on, --confidence,
// and the flag named threshold (compare's --threshold, run's
// --min-change). Its errors are usage errors naming the first bad flag.
func ParseOptions(rule, correction, failOn string, confidence float64, threshold string, thresholdValue float64) (Options, FailOn, error) {
	o := DefaultOptions()
	r, err := ParseRule(rule)
	if err != nil {
		return o, nil, usage.Errorf("rule", "%w", err)
	}
	c, err := ParseCorrection(correction)
	if err != nil {
		return o, nil, usage.Errorf("correction", "%w", err)
	}
	fail, err := ParseFailOn(failOn)
	if err != nil {
		return o, nil, usage.Errorf("fail-on", "%w", err)
	}
	if !(confidence > 0 && confidence < 1) {
		return o, nil, usage.ValueErrorf("confidence", confidence, "want a level between 0 and 1, such as 0.99")
	}
	if !(thresholdValue >= 0) {
		return o, nil, usage.ValueErrorf(threshold, thresholdValue, "want a relative change ≥ 0, such as 0.03")
	}
	if err := CheckFraction(threshold, thresholdValue); err != nil {
		return o, nil, err
	}
	o.Rule, o.Correction, o.Threshold, o.Confidence = r, c, thresholdValue, confidence
	return o, fail, nil
}

// CheckFraction refuses a relative threshold of 1 or more given to flag:
// such a value is almost surely a percentage typed for a fraction, and
// would let every change below 100% pass unseen.
func CheckFraction(flag string, v float64) error {
	if v < 1 {
		return nil
	}
	return usage.ValueErrorf(flag, v, "a relative change is a fraction (0.03 = 3%%); for %v%% use %v", v, v/100)
}
