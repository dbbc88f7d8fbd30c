package policy

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestPrecisionString(t *testing.T) {
	p := Precision{Width: 0.041, Confidence: 0.95, Target: 0.02, Processes: 14}
	assert.Equal(t, "±4.1%; about 14 processes for ±2%", p.String())
	p.Width = 0.013
	assert.Equal(t, "±1.3%", p.String(), "the target is reached")
	assert.Equal(t, "±0.05%", Precision{Width: 0.0005, Confidence: 0.95}.String())
	assert.Equal(t, "±35%", Precision{Width: 0.351, Confidence: 0.95}.String())
	assert.Equal(t, "", Precision{Width: math.NaN(), Confidence: 0.95}.String())
	assert.Equal(t, "", Precision{}.String(), "no estimate")
	assert.Equal(t, "±35%; over 100 processes for ±3%", Precision{Width: 0.35, Confidence: 0.95, Target: 0.03, Processes: 10001}.String())
	assert.Equal(t, "±20%; over 100 processes for ±3%", Precision{Width: 0.2, Confidence: 0.95, Target: 0.03, Processes: 811}.String(),
		"no projection that no run would reach")
	assert.Equal(t, "±8%; about 100 processes for ±3%", Precision{Width: 0.08, Confidence: 0.95, Target: 0.03, Processes: 100}.String())
	assert.Equal(t, "±3.04%; about 10 processes for ±3%", Precision{Width: 0.0304, Confidence: 0.95, Target: 0.03, Processes: 10}.String(),
		"just past the target, not the same figure as the target")
	assert.Equal(t, "±3%", Precision{Width: 0.0299, Confidence: 0.95, Target: 0.03, Processes: 3}.String())
}

func TestGain(t *testing.T) {
	sec := time.Second
	assert.True(t, math.IsInf(Gain(Precision{}, sec), 1), "unmeasured first")
	p := Precision{Width: 0.05, Next: 0.04, Target: 0.02, Confidence: 0.95}
	assert.InDelta(t, 0.01/2, Gain(p, 2*sec), 1e-12)
	p.Target = 0.045
	assert.InDelta(t, 0.005, Gain(p, sec), 1e-12, "counted down to the target only")
	p.Target = 0.06
	assert.Zero(t, Gain(p, sec), "at its target")
}

// stepPolicy stops every benchmark at its second iteration, and runs two
// measurement slices after one warmup slice.
type stepPolicy struct{ ends map[string]int }

func (stepPolicy) MaxSlices(string) int { return 3 }
func (stepPolicy) NextSlice(_ string, w, m []float64) Step {
	if len(w) < 1 {
		return Step{Warmup: true}
	}
	return Step{Done: len(m) >= 2, Met: true}
}
func (p stepPolicy) EndIteration(b string, it Iteration) Decision {
	p.ends[b]++
	return Decision{Stop: p.ends[b] >= 2, Criterion: "test", Met: len(it.Measured) == 2}
}

func TestLoop(t *testing.T) {
	clock := time.Unix(0, 0)
	now := func() time.Time { clock = clock.Add(time.Millisecond); return clock }
	l := &Loop{Policy: stepPolicy{ends: map[string]int{}}, Now: now}
	f := l.Begin("b")
	assert.True(t, f.Step.Warmup)
	assert.True(t, f.Add(5), "the warmup ends with the first slice")
	assert.True(t, f.Step.Met)
	assert.False(t, f.Add(4))
	assert.False(t, f.Step.Done)
	f.Add(3)
	assert.True(t, f.Step.Done)
	assert.Equal(t, []float64{5}, f.Warmup)
	assert.Equal(t, []float64{4, 3}, f.Measured)
	d := f.End(Iteration{SuiteRun: 1})
	assert.False(t, d.Stop)
	assert.True(t, d.Met, "the feed passes its measured values")
	last, ok := l.Last("b")
	assert.True(t, ok)
	assert.Equal(t, d, last)
	// Four calls in the policy, one tick each: Begin, three Adds, End.
	assert.Equal(t, 5*time.Millisecond, l.Spent("b"))
	assert.True(t, l.End("b", Iteration{SuiteRun: 2, Measured: []float64{1, 2}}).Stop)
	_, ok = l.Last("other")
	assert.False(t, ok)
	assert.Zero(t, (&Loop{Policy: stepPolicy{ends: map[string]int{}}}).Begin("b").loop.Spent("b"), "no clock, no timing")
}
