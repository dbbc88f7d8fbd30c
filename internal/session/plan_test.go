package session

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/shard"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// The plan decides from the options alone, before anything is built: a bad
// configuration or shard-times file fails there, and a baseline run's
// pairing, looks and turns are settled, all but the confirmation's level,
// which waits for the benchmarks.
func TestPlanDecidesFromOptionsAlone(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bench.conf")
	require.NoError(t, os.WriteFile(bad, []byte("garbage\n"), 0o600))
	o := BaselineOptions("")
	o.ConfigFile = bad
	_, err := plan(o, io.Discard)
	require.Error(t, err)
	require.NotNil(t, usage.As(err), "%v", err)
	assert.Equal(t, "config", usage.As(err).Flag)

	o = BaselineOptions("")
	o.Shard, o.ShardTimes = shard.Spec{K: 1, N: 2}, bad
	_, err = plan(o, io.Discard)
	require.NotNil(t, usage.As(err), "%v", err)
	assert.Equal(t, "shard-times", usage.As(err).Flag)

	single, err := plan(BaselineOptions(""), io.Discard)
	require.NoError(t, err)
	assert.Zero(t, single.pairs, "a run of one version pairs nothing")
	assert.NotNil(t, single.policy)

	gated, err := plan(BaselineOptions("main"), io.Discard)
	require.NoError(t, err)
	po := gated.pairs
	assert.True(t, po.Compare.Paired)
	assert.True(t, po.Judged, "a sequential run judges its pairs at its looks")
	assert.True(t, po.Compare.Plan.Sequential())
	assert.True(t, po.Compare.Plan.Confirm)
	assert.Zero(t, po.Compare.Plan.ConfirmAlpha, "the confirmation's level waits for the benchmarks")
	require.NotNil(t, po.Turns, "pairing slice runs duets")
	assert.False(t, po.Turns.Together)

	o = BaselineOptions("main")
	o.Sequential, o.Pairing = false, PairTogether
	fixed, err := plan(o, io.Discard)
	require.NoError(t, err)
	assert.False(t, fixed.pairs.Judged)
	assert.False(t, fixed.pairs.Compare.Plan.Sequential())
	require.NotNil(t, fixed.pairs.Turns)
	assert.True(t, fixed.pairs.Turns.Together)

	o = BaselineOptions("main")
	o.Stop = stopper.Config{Criterion: stopper.None, WarmupMin: 1, Measure: 2}
	static, err := plan(o, io.Discard)
	require.NoError(t, err)
	assert.False(t, static.pairs.Judged, "a fixed configuration judges only at the end")
	assert.NotEqual(t, o.Seed, static.opts.Seed, "a run without --seed draws one")
}
