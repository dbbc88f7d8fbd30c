package session

import (
	"path/filepath"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/choice"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
)

// The values of --layout: each pair of processes runs a fresh link of each
// version with a random code layout, or each version is linked once.
const (
	LayoutRandom = "random"
	LayoutFixed  = "fixed"
)

// LayoutsOf returns the links of each version that --layout asks for.
func LayoutsOf(layout string) (int, error) {
	switch layout {
	case LayoutRandom:
		return DefaultLayouts, nil
	case LayoutFixed:
		return 0, nil
	}
	return 0, usage.Errorf("layout", "want random or fixed, got %q", layout)
}

// CheckPairing checks the pairing flags of run --baseline and abs,
// naming the first bad one.
func CheckPairing(pairing string, turnTime time.Duration, turns int, turnWarmup time.Duration) error {
	if _, err := choice.Parse("pairing", pairing, PairSlices, PairProcesses, PairTogether); err != nil {
		return usage.Errorf("pairing", "%w", err)
	}
	switch {
	case turnTime <= 0:
		return usage.Errorf("turn-time", "must be positive, got %v", turnTime)
	case turns < 2:
		return usage.Errorf("turns", "must be at least 2, got %d", turns)
	case turnWarmup < 0:
		return usage.Errorf("turn-warmup", "must not be negative, got %v", turnWarmup)
	}
	return nil
}

// ExplainDir checks the flags of run --explain (changed reports whether a
// flag was given) and returns the directory its profiles go to: dir, or
// explain/ beside the first of outputs that is a file, or
// DefaultExplainDir.
func ExplainDir(explain bool, baseline string, explainTime time.Duration, dir string, changed func(flag string) bool, outputs ...string) (string, error) {
	switch {
	case explain && baseline == "":
		return dir, usage.Errorf("explain", "only meaningful with --baseline")
	case changed("explain-time") && !explain:
		return dir, usage.Errorf("explain-time", "only meaningful with --explain")
	case changed("explain-dir") && !explain:
		return dir, usage.Errorf("explain-dir", "only meaningful with --explain")
	case explainTime <= 0:
		return dir, usage.Errorf("explain-time", "must be positive, got %v", explainTime)
	case changed("explain-dir") && dir == "":
		return dir, usage.Errorf("explain-dir", "empty directory name")
	case dir != "":
		return dir, nil
	}
	for _, f := range outputs {
		if f != "" && f != "-" {
			return filepath.Join(filepath.Dir(f), "explain"), nil
		}
	}
	return DefaultExplainDir, nil
}
