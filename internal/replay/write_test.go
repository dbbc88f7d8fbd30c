package replay

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The replay of TestReplayStopsAndSavings: 2 of 4 iterations, 4 warmup
// slices each, 14 of 40 slices, 65% saved.
func writeFixture(t *testing.T) *Result {
	t.Helper()
	it := []float64{300, 100, 100, 100, 100, 100, 100, 100, 100, 100}
	res, err := Run(synthetic(2, it, it, it, it), Options{Config: cvConfig(), FullWarmup: -1, Resamples: 1000})
	require.NoError(t, err)
	return res
}

func TestWriteTable(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, WriteTable(&buf, writeFixture(t), 3))
	out := buf.String()
	assert.Contains(t, out, "replay: --stop cv --threshold ")
	assert.Contains(t, out, "; full result without the first 3 slices of each iteration\n")
	assert.Regexp(t, `(?m)^BenchmarkX +2/4 +4\.0 +yes +65\.0% +0\.0% +same +`, out)
	assert.Contains(t, out, "suite: 1 benchmarks, 14 of 40 slices, time saved 65.0% (slices alone; --process-cost adds the processes)\n")

	buf.Reset()
	require.NoError(t, WriteTable(&buf, writeFixture(t), -1))
	assert.NotContains(t, buf.String(), "full result without", "-1 is the recorded warmup")
}

func TestWriteJSON(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, WriteJSON(&buf, writeFixture(t)))
	var got map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &got), "NaNs are written as null:\n%s", buf.String())
	assert.Equal(t, "cv", got["stop"])
	assert.Equal(t, 14.0, got["slices_used"])
	assert.InDelta(t, 0.65, got["time_saved"], 1e-12)
	b := got["benchmarks"].([]any)[0].(map[string]any)
	assert.Equal(t, "BenchmarkX", b["bench"])
	assert.Equal(t, true, b["aa_same"])
	assert.Len(t, b["iterations"], 2)
}
