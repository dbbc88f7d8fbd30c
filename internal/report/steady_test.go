package report

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/steady"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// probeRun is one benchmark probed as gobench-dyn steady does: three
// processes of 150 slices, no warmup, that fall from 1.5× to 1× over
// their first 30 slices.
func probeRun() *record.Run {
	rng := rand.New(rand.NewPCG(4, 4))
	run := &record.Run{Header: &record.Header{Type: record.TypeHeader, Schema: 1, Tool: "gobench-dyn test"}, Complete: true}
	for sr := 1; sr <= 3; sr++ {
		for sl := range 150 {
			m := 1.0
			if sl < 30 {
				m = 1.5 - 0.5*float64(sl)/30
			}
			v := 400 * m * (1 + 0.01*rng.NormFloat64())
			run.Slices = append(run.Slices, record.Slice{Type: record.TypeSlice, Package: "p", Benchmark: "BenchmarkWarm", SuiteRun: sr, Iteration: 1, Order: 1, Slice: sl + 1, N: 1000, Values: map[string]float64{"ns/op": v}, WallNs: 1e7})
		}
	}
	return run
}

// TestTimelineSegments checks that long processes get their segments and
// steady-state start on the plot, and that their drift is reported.
func TestTimelineSegments(t *testing.T) {
	rep, err := Build([]*record.Run{probeRun()}, Options{Seed: 1, Segments: steady.Segments})
	require.NoError(t, err)
	b := rep.Benchmarks[0]
	steadyMarks := 0
	for _, m := range b.marks {
		if m.Kind == markSteady {
			steadyMarks++
			// Each process starts 150 slices after the last; its steady
			// state within 30 slices of the end of its fall.
			off := int(m.X+0.5-1) % 150
			assert.InDelta(t, 27, off, 15)
		}
	}
	assert.Equal(t, 3, steadyMarks)
	require.NotEmpty(t, b.segments)
	last := b.segments[len(b.segments)-1]
	assert.True(t, last.Steady)
	assert.InDelta(t, 400, last.Mean, 8)
	assert.True(t, strings.Contains(b.SVG, "#2CA02C"), "the steady state is drawn in green")

	// The drift inside each process is a warning.
	require.NotEmpty(t, rep.Warnings)
	assert.True(t, strings.Contains(strings.Join(rep.Warnings, "\n"), "p.BenchmarkWarm is not steady"))

	assert.NotContains(t, strings.Join(rep.Warnings, "\n"), "two speeds", "its processes read alike")

	// Short processes are not segmented.
	rep, err = Build([]*record.Run{smallRun()}, Options{Seed: 1, Segments: steady.Segments})
	require.NoError(t, err)
	assert.Empty(t, rep.Benchmarks[0].segments)
}

// A run of one version whose fourth process read three times the other
// three's warns of it, with both speeds; the same slices as a baseline's
// and its code under test's, paired, do not.
func TestTwoSpeedsWarn(t *testing.T) {
	run := &record.Run{Header: &record.Header{Type: record.TypeHeader, Schema: 1, Tool: "gobench-dyn test"}, Complete: true}
	for p, ns := range []float64{440, 463, 450, 1372} {
		for sl := range 3 {
			run.Slices = append(run.Slices, record.Slice{Type: record.TypeSlice, Package: "p", Benchmark: "BenchmarkEqual", SuiteRun: p + 1, Iteration: 1, Order: 1, Slice: sl + 1, N: 1000, Values: map[string]float64{"ns/op": ns}, WallNs: 1e7})
		}
	}
	rep, err := Build([]*record.Run{run}, Options{Seed: 1})
	require.NoError(t, err)
	assert.Contains(t, strings.Join(rep.Warnings, "\n"), "p.BenchmarkEqual reads at two speeds: 3 processes at 440.0ns–463.0ns and 1 at 1.372µs, 3.0× apart")

	base := append([]record.Slice(nil), run.Slices...)
	for i := range base {
		base[i].Version = record.VersionBaseline
	}
	run.Slices = append(run.Slices, base...)
	rep, err = Build([]*record.Run{run}, Options{Seed: 1})
	require.NoError(t, err)
	assert.NotContains(t, strings.Join(rep.Warnings, "\n"), "two speeds")
}
