package stopper

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/stopper/policy"
)

// fixed is a policy that decides nothing from the data, as a static
// configuration does, and answers with decision.
type fixed struct{ decision policy.Decision }

func (fixed) MaxSlices(string) int                                    { return 3 }
func (fixed) NextSlice(string, []float64, []float64) policy.Step      { return policy.Step{} }
func (f fixed) EndIteration(string, policy.Iteration) policy.Decision { return f.decision }

func TestIntervalsAddTheProcessLevelInterval(t *testing.T) {
	p := NewIntervals(fixed{})
	procs := [][]float64{{100, 102, 98}, {104, 106, 105}, {97, 99, 98}}
	var d policy.Decision
	for i, vals := range procs {
		d = p.EndIteration("A", policy.Iteration{SuiteRun: i + 1, Measured: vals})
		assert.False(t, d.Stop, "a static configuration never stops early")
	}
	want := stats.FitComponents(procs).Interval(IntervalConfidence).RelHalfWidth()
	require.True(t, d.Precision.Known())
	assert.InDelta(t, want, d.Precision.Width, 1e-12)
	assert.Equal(t, IntervalConfidence, d.Precision.Confidence)
	assert.Equal(t, IntervalTarget, d.Precision.Target)
	assert.Greater(t, d.Precision.Processes, 3, "a spread this wide needs more processes for ±3%")
	assert.True(t, math.IsNaN(d.Precision.Next), "no expected width: a budget keeps the static order")

	// Another benchmark keeps its own processes.
	d = p.EndIteration("B", policy.Iteration{SuiteRun: 1, Measured: []float64{5, 5}})
	assert.False(t, d.Precision.Known(), "one process has no interval")

	// A decision that has its interval passes unchanged.
	own := policy.Decision{Stop: true, Precision: policy.Precision{Width: 0.01, Confidence: 0.95, Target: 0.03, Next: 0.009}}
	assert.Equal(t, own, NewIntervals(fixed{own}).EndIteration("A", policy.Iteration{Measured: []float64{1, 2}}))
}
