package replay

import (
	"math"

	"github.com/gobench-dyn/gobench-dyn/internal/usage"
)

// CheckFlags checks the flags of gobench-dyn replay that shape Options,
// naming the flag of the first bad value: --full-warmup counts only when
// given (fullWarmupSet), since its zero default stands for the recorded
// warmup.
func CheckFlags(maxIterations, resamples, fullWarmup int, fullWarmupSet bool, processCost float64) error {
	switch {
	case maxIterations < 0:
		return usage.Errorf("max-iterations", "must not be negative, got %d", maxIterations)
	case resamples < 100:
		return usage.Errorf("resamples", "must be at least 100, got %d", resamples)
	case fullWarmupSet && fullWarmup < 0:
		return usage.Errorf("full-warmup", "must not be negative, got %d", fullWarmup)
	case !(processCost >= 0) || math.IsInf(processCost, 0):
		return usage.Errorf("process-cost", "want a finite number of slice times ≥ 0, got %v", processCost)
	}
	return nil
}
