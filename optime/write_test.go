package optime

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteTable(t *testing.T) {
	res, err := Optimize([]Benchmark{
		synthetic("Stable", 3, 5, 5, func(s, i, d int) float64 { return 100 }),
		synthetic("Noisy", 3, 5, 5, func(s, i, d int) float64 { return float64(1 + (s*7+i*3+d)%5) }),
	}, Options{Metric: CV, Threshold: 0.01})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, res.WriteTable(&buf))
	out := buf.String()
	assert.Contains(t, out, "metric cv, threshold 0.01, instances ")
	assert.Contains(t, out, "\npkg: p\n")
	assert.Regexp(t, `(?m)^Stable +1 +3 +1 +1 +3/75 +0 +\+0\.00%$`, out)
	assert.Regexp(t, `(?m)^Noisy \(unstable\) +3 +5 +5 +1 +75/75 `, out)
	assert.Contains(t, out, "suite: 78 of 150 slices per instance, 48.00% saved")
	assert.Contains(t, out, "1 benchmark has no stable configuration and keeps the full one\n")
}
