package session

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/fakebin"
)

// TestRunsALoopsSlicesInOneCall runs, without a baseline, a b.Loop
// benchmark and a b.N loop whose every call spends 400 ms in setup, on
// the fake clock: each process of the loop calls its setup once for all
// its 2 warmup and 4 measured slices, and the b.N loop's once a slice.
func TestRunsALoopsSlicesInOneCall(t *testing.T) {
	f := newFake("BenchmarkLoop", "BenchmarkN")
	f.NsPerOp = func(fakebin.Slice) float64 { return 1000 }
	f.Setup = map[string]time.Duration{"BenchmarkLoop": 400 * time.Millisecond, "BenchmarkN": 400 * time.Millisecond}
	f.Loops = map[string]bool{"BenchmarkLoop": true}
	o := testOptions(t.TempDir())
	_, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	assert.Equal(t, o.SuiteRuns, f.Setups("BenchmarkLoop"), "one setup a process")
	assert.Equal(t, o.SuiteRuns*(2+4), f.Setups("BenchmarkN"), "one setup a slice")
}
