package record_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

func TestRunOptionsRoundTrip(t *testing.T) {
	o := record.RunOptions{
		Bench: "Parse|Encode", Stop: "cv", Threshold: 0.01, Window: 3, Warmup: 1, WarmupMax: 4, Slices: 5, MinIterations: 2,
		SuiteRuns: 5, Iterations: 1, SliceTime: 100 * time.Millisecond, Budget: 90 * time.Second, AutoBudget: true, Config: "bench.conf",
		Baseline: "origin/main", EarlyVerdict: true, Sequential: true, Looks: "5,8,12,18,20", Spending: "wang-tsiatis", Confirm: true, Pairing: "slice", TurnTime: time.Millisecond, Turns: 100, TurnWarmup: 20 * time.Millisecond, MinChange: 0.03, Rule: "ci", Correction: "holm", FailOn: "time,allocs",
		Confidence: 0.99, Tags: "purego", CPU: "1,4", Race: true,
	}
	m := o.Encode()
	// The text of schema 1, as runs before this type wrote it.
	assert.Equal(t, "0.01", m["threshold"])
	assert.Equal(t, "100ms", m["slice-time"])
	assert.Equal(t, "1m30s", m["budget"])
	assert.Equal(t, "true", m["early-verdict"])
	assert.Equal(t, "5,8,12,18,20", m["looks"])
	assert.Equal(t, "true", m["confirm"])
	assert.Len(t, m, 32)
	back, err := record.ParseRunOptions(m)
	require.NoError(t, err)
	assert.Equal(t, o, back)
}

func TestParseRunOptionsLenient(t *testing.T) {
	o, err := record.ParseRunOptions(map[string]string{"suite-runs": "3", "slices": "many", "rule": "utest"})
	require.EqualError(t, err, `option slices: "many" is not a valid value`)
	assert.Equal(t, 3, o.SuiteRuns, "the others are read")
	assert.Equal(t, "utest", o.Rule)
	assert.Zero(t, o.Window, "missing options stay zero")
}

// FuzzParseRunOptions reads header options of any text: it never panics,
// and what it reads without error encodes back to what it read.
func FuzzParseRunOptions(f *testing.F) {
	f.Add("slices", "5", "slice-time", "100ms")
	f.Add("threshold", "0.03", "early-verdict", "true")
	f.Add("budget", "-1h", "confidence", "NaN")
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2 string) {
		o, err := record.ParseRunOptions(map[string]string{k1: v1, k2: v2})
		if err != nil {
			return
		}
		back, err := record.ParseRunOptions(o.Encode())
		require.NoError(t, err)
		if o.Threshold == o.Threshold && o.MinChange == o.MinChange && o.Confidence == o.Confidence { // NaN ≠ NaN
			assert.Equal(t, o, back)
		}
	})
}
