package session

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/stopper"
)

func none(string) bool { return false }

// The checks of run's flags name the flag at fault.
func TestFlagChecksNameTheFlag(t *testing.T) {
	_, err := LayoutsOf("moved")
	assert.EqualError(t, err, `--layout: want random or fixed, got "moved"`)
	assert.EqualError(t, CheckPairing("slice", time.Millisecond, 1, 0), "--turns: must be at least 2, got 1")
	_, err = ExplainDir(true, "", time.Second, "", none)
	assert.EqualError(t, err, "--explain: only meaningful with --baseline")
	c := stopper.Default(stopper.Interval)
	assert.EqualError(t, CheckStop(&c, none, 3), "--target 3: a relative change is a fraction (0.03 = 3%); for 3% use 0.03")
}

// Profiles go beside the first output file, else to DefaultExplainDir.
func TestExplainDir(t *testing.T) {
	dir, err := ExplainDir(true, "HEAD", time.Second, "", none, "-", "out/raw.jsonl")
	require.NoError(t, err)
	assert.Equal(t, "out/explain", dir)
	dir, err = ExplainDir(false, "", time.Second, "", none)
	require.NoError(t, err)
	assert.Equal(t, DefaultExplainDir, dir)
}
