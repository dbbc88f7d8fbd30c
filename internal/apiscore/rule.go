package apiscore

import (
	"github.com/gobench-dyn/gobench-dyn/internal/choice"
	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// A Rule is how the two versions of a benchmark are judged.
type Rule string

// The rules.
const (
	// RuleGate (the default) is the regression gate of run --baseline:
	// compare's paired log-ratio interval of the suite runs both versions
	// shared, judged at the looks of a sequential plan, so that a pair
	// stops as soon as its verdict is decided and the undecided run on to
	// the cap. A regression beyond the threshold is a detection, an
	// interval inside ±threshold is no change.
	RuleGate Rule = "gate"
	// RulePaper is the published rule (Laaber & Leitner, MSR'18, §6.2): a
	// rank-sum test at p < 0.01 between the versions, here on process
	// means, and a change of the medians of at least the threshold. Pairs
	// stop when both versions are stable or at the cap.
	RulePaper Rule = "paper"
)

// ParseRule returns the rule named s.
func ParseRule(s string) (Rule, error) {
	return choice.Parse("rule", s, RuleGate, RulePaper)
}

// MinSuiteRuns is the fewest processes per version a pair may be capped
// at. Under RulePaper it is the fewest with which the rank-sum test can
// detect a change (with 4 against 4 its smallest p is 0.029, with 5 it is
// 0.008); under RuleGate it is gate.DefaultFirstLook, the first look of
// the gate's plan.
const MinSuiteRuns = 5

// DefaultSuiteRuns caps each pair: under RuleGate its plan looks after 5,
// 8 and 10 paired suite runs, so a clearly detected (or clearly absent)
// slowdown costs 5 processes per version, as the paper's rule always did,
// and only pairs whose interval still straddles the threshold run on.
const DefaultSuiteRuns = 10

// DefaultSpreadRuns is the runs of the unchanged suite that abs measures
// maxSpread over, and DefaultMinSlowdown the floor abs puts under a
// measured v (Options.MinSlowdown), so that a suite that showed no spread
// in those few runs is still asked to find a slowdown.
const (
	DefaultSpreadRuns  = 5
	DefaultMinSlowdown = 0.01
)

// pairRunOptions returns the comparison and stopping of a pair judged by
// rule at threshold, capped at suiteRuns processes per version, under the
// stopping policy stop. Under RuleGate the comparison is paired and
// sequential, and a pair stops once decided at a look of the gate's plan
// (as run --baseline stops it); under RulePaper a pair stops once both
// versions are stable, but never before MinSuiteRuns, where the rank-sum
// test first can reject.
func pairRunOptions(rule Rule, stop stopper.Config, threshold float64, suiteRuns int) pairOptions {
	o := gate.DefaultOptions()
	o.Threshold = threshold
	if rule == RulePaper {
		o.Rule, o.Confidence = gate.RuleUTest, 0.99
		stop.MinIterations = max(stop.MinIterations, MinSuiteRuns)
		return pairOptions{Stop: stop, Pair: session.PairOptions{Compare: o}, SuiteRuns: suiteRuns}
	}
	o.Paired, o.Plan = true, gate.DefaultPlan(suiteRuns, 0)
	return pairOptions{Stop: stop, Pair: session.PairOptions{Compare: o, Judged: true}, SuiteRuns: suiteRuns}
}
