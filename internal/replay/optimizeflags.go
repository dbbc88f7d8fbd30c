package replay

import (
	"cmp"
	"math"
	"math/rand/v2"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"github.com/gobench-dyn/gobench-dyn/optime"
)

// OptimizeOptions returns the strategy and options of optime's search
// from the values of gobench-dyn optimize's flags: --metric, --threshold,
// --instances, --strategy (empty: search), --resamples and --seed. Its
// errors name the flag of the first bad value, as gobench-dyn reports
// bad flags. It lives beside replay, the other half of the feature, so
// that package optime stays pure: samples in, decisions out.
func OptimizeOptions(metric string, threshold float64, instances, strategy string, resamples int, seed uint64) (optime.Strategy, optime.Options, error) {
	var o optime.Options
	m, err := optime.ParseMetric(metric)
	if err != nil {
		return "", o, usage.Errorf("metric", "%w", err)
	}
	if !(threshold > 0) || math.IsInf(threshold, 0) {
		return "", o, usage.Errorf("threshold", "must be a positive number, got %v", threshold)
	}
	if err := gate.CheckFraction("threshold", threshold); err != nil {
		return "", o, err
	}
	inst, err := optime.ParseInstances(instances)
	if err != nil {
		return "", o, usage.Errorf("instances", "%w", err)
	}
	st, err := optime.ParseStrategy(cmp.Or(strategy, string(optime.StrategySearch)))
	if err != nil {
		return "", o, usage.Errorf("strategy", "%w", err)
	}
	if resamples < 100 {
		return "", o, usage.Errorf("resamples", "must be at least 100, got %d", resamples)
	}
	return st, optime.Options{Metric: m, Threshold: threshold, Instances: inst, Resamples: resamples, Rand: rand.New(rand.NewPCG(seed, 0))}, nil
}
