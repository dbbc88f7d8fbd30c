package gate

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
)

// timed returns comparisons of time per op with the given ratios new/old.
func timed(ratios ...float64) []Comparison {
	cs := make([]Comparison, len(ratios))
	for i, r := range ratios {
		cs[i] = Comparison{Unit: "ns/op", Ratio: stats.Interval{Center: r}}
	}
	return cs
}

func TestSuiteShiftKnownAnswer(t *testing.T) {
	// 12 of 15 benchmarks 2–3% slower, 3 faster: P(X ≥ 12) for
	// X ~ Binomial(15, ½) is 576/32768, doubled 0.03515625.
	cs := timed(1.02, 1.021, 1.022, 1.023, 1.024, 1.025, 1.026, 1.027, 1.028, 1.029, 1.03, 1.031, 0.99, 0.98, 0.97)
	cs = append(cs, Comparison{Unit: "B/op", Ratio: stats.Interval{Center: 0.5}}) // not time: left out
	s := suiteShift(cs, false, 0.03)
	require.NotNil(t, s)
	assert.Equal(t, 15, s.Benchmarks)
	assert.Equal(t, 12, s.Same)
	assert.InDelta(t, 0.03515625, s.P, 1e-12)
	assert.InDelta(t, 0.024, s.Change, 1e-12, "the median ratio, 1.024: the 8th of 15")

	assert.Nil(t, suiteShift(cs, true, 0.03), "paired by suite run: the pairing cancels a shared shift")
	assert.Nil(t, suiteShift(cs, false, 0.06), "a shift under half the threshold turns no verdict")
	assert.Nil(t, suiteShift(cs[:4], false, 0.03), "too few benchmarks to tell")
	assert.Nil(t, suiteShift(timed(1.03, 1.03, 1.03, 0.97, 0.97, 0.97, 1.03, 0.97, 1.03, 0.97), false, 0.03), "no common direction")
}

func TestShiftIsWrittenAndExplained(t *testing.T) {
	r := &Result{Rule: RuleCI, Threshold: 0.03, Confidence: 0.99,
		Shift: &Shift{Change: -0.021, Same: 13, Benchmarks: 15, P: 0.0074}}
	var text, mdown bytes.Buffer
	require.NoError(t, r.WriteText(&text))
	require.NoError(t, r.WriteMarkdown(&mdown))
	for _, out := range []string{text.String(), mdown.String()} {
		assert.Contains(t, out, "the median time per op changed by -2.10%, 13 of 15 faster (sign test p = 0.0074)")
		assert.Contains(t, out, "run --baseline")
	}
	r.Shift = nil
	text.Reset()
	require.NoError(t, r.WriteText(&text))
	assert.NotContains(t, text.String(), "moved together")
}
