package rmit_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/fakebin"
	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// TestFamilyMemberSetupStretchesItsSlices: a member of a family whose
// every call spends far longer outside the timer than a slice gets
// slices long enough to spend TimerShare inside it, up to 30 slice times,
// as a benchmark run alone does; its sibling keeps its b.N. A family
// whose members were never stretched spent most of its time in setups
// (docs/GATE.md, "Time inside the timer").
func TestFamilyMemberSetupStretchesItsSlices(t *testing.T) {
	f := &fakebin.Binaries{Clock: fakebin.NewClock(), Names: []string{"BenchmarkF/setup", "BenchmarkF/b"},
		Setup:      map[string]time.Duration{"BenchmarkF/setup": 50 * time.Millisecond},
		FailsAlone: map[string]int{"BenchmarkF/b": 1},
		NsPerOp:    func(fakebin.Slice) float64 { return 1000 }}
	pkg := &rmit.Package{ImportPath: "example.com/p", Dir: "head", Binary: "head/p.test", Hooked: true}
	fam := &rmit.Family{Top: "BenchmarkF", Pattern: "^BenchmarkF$"}
	var bs []*rmit.Benchmark
	for _, name := range f.Names {
		b := rmit.NewBenchmark(pkg, name, 1, false)
		b.N, b.Family, b.Config = 1000, fam, rmit.Config{SuiteRuns: 3, Iterations: 1}
		fam.Members = append(fam.Members, b)
		bs = append(bs, b)
	}
	r := &rmit.Runner{Benchmarks: bs, Policy: rmit.Static{Warmup: 1, Slices: 2}, Seed: 1, SliceTime: time.Millisecond,
		Timeout: time.Minute, Starter: f, Clock: f.Clock.Now}
	sum, err := r.Run(context.Background())
	require.NoError(t, err)
	assert.Equal(t, int64(30*1000), bs[0].N, "30 slice times of 1 µs ops: the stretch's cap, short of the 117 ms that 70% would take")
	assert.Equal(t, int64(1000), bs[1].N, "no setup: its slices stay at the slice time")
	t.Logf("time inside the timer: %.1f%% of the measuring phase", 100*sum.TimerShare())
	assert.Greater(t, sum.TimerShare(), 0.12, "time inside the timer, of the measuring phase")
}
