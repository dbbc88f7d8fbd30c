package gate

import "github.com/gobench-dyn/gobench-dyn/rmit/record"

// FromHeader returns opts with the comparison settings that a run
// --baseline recorded in its header (the threshold, level, rule,
// correction, sequential plan, its spending and its confirmation), so
// that judging the run's records again decides as the run did. A value
// that does not parse is left out, as if absent; a header without a
// plan leaves opts's.
func FromHeader(h *record.Header, opts Options) Options {
	if h == nil {
		return opts
	}
	ro, _ := record.ParseRunOptions(h.Options)
	valid := func(name string) bool {
		v, ok := h.Options[name]
		if !ok {
			return false
		}
		_, err := record.ParseRunOptions(map[string]string{name: v})
		return err == nil
	}
	if valid("min-change") {
		opts.Threshold = ro.MinChange
	}
	if valid("confidence") && ro.Confidence > 0 && ro.Confidence < 1 {
		opts.Confidence = ro.Confidence
	}
	if r, err := ParseRule(ro.Rule); err == nil && ro.Rule != "" {
		opts.Rule = r
	}
	if c, err := ParseCorrection(ro.Correction); err == nil && ro.Correction != "" {
		opts.Correction = c
	}
	if p, err := ParsePlan(ro.Looks); err == nil {
		if sp, err := ParseSpending(ro.Spending); err == nil {
			p.Spending = sp
		}
		p.Confirm = valid("confirm") && ro.Confirm
		opts.Plan = p
	}
	return opts
}
