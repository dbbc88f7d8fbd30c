package optime

import (
	"cmp"
	"math"
	"math/rand/v2"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
)

// OptionsFromFlags returns the strategy and options of a search from the
// values of gobench-dyn optimize's flags: --metric, --threshold,
// --instances, --strategy (empty: search), --resamples and --seed. Its
// errors name the flag of the first bad value, as gobench-dyn reports
// bad flags.
func OptionsFromFlags(metric string, threshold float64, instances, strategy string, resamples int, seed uint64) (Strategy, Options, error) {
	var o Options
	m, err := ParseMetric(metric)
	if err != nil {
		return "", o, usage.Errorf("metric", "%w", err)
	}
	if !(threshold > 0) || math.IsInf(threshold, 0) {
		return "", o, usage.Errorf("threshold", "must be a positive number, got %v", threshold)
	}
	if err := gate.CheckFraction("threshold", threshold); err != nil {
		return "", o, err
	}
	inst, err := ParseInstances(instances)
	if err != nil {
		return "", o, usage.Errorf("instances", "%w", err)
	}
	st, err := ParseStrategy(cmp.Or(strategy, string(StrategySearch)))
	if err != nil {
		return "", o, usage.Errorf("strategy", "%w", err)
	}
	if resamples < 100 {
		return "", o, usage.Errorf("resamples", "must be at least 100, got %d", resamples)
	}
	return st, Options{Metric: m, Threshold: threshold, Instances: inst, Resamples: resamples, Rand: rand.New(rand.NewPCG(seed, 0))}, nil
}
