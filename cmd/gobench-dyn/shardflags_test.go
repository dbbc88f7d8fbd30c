package main

import (
	"errors"
	"testing"

	"github.com/gobench-dyn/gobench-dyn/internal/shard"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func parseShardFlags(t *testing.T, env map[string]string, args ...string) (*ShardOptions, error) {
	t.Helper()
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	o := &ShardOptions{}
	bindShardFlags(fs, o)
	require.NoError(t, fs.Parse(args))
	return o, o.resolve(func(k string) string { return env[k] })
}

func TestShardFlags(t *testing.T) {
	for _, tc := range []struct {
		name     string
		env      map[string]string
		args     []string
		shard    shard.Spec
		instance string
	}{
		{"none", nil, nil, shard.Spec{}, ""},
		{"flags", nil, []string{"--shard", "2/3", "--instance", "vm-1"}, shard.Spec{K: 2, N: 3}, "vm-1"},
		{"matrix env", map[string]string{"GOBENCH_DYN_SHARD": "3/3", "GOBENCH_DYN_INSTANCE": "a.b_c"}, nil, shard.Spec{K: 3, N: 3}, "a.b_c"},
		{"indexed job", map[string]string{"JOB_COMPLETION_INDEX": "1", "GOBENCH_DYN_SHARDS": "5"}, nil, shard.Spec{K: 2, N: 5}, ""},
		{"flag beats env", map[string]string{"GOBENCH_DYN_SHARD": "9/3", "GOBENCH_DYN_INSTANCE": "bad name"}, []string{"--shard=1/4", "--instance=ok"}, shard.Spec{K: 1, N: 4}, "ok"},
	} {
		o, err := parseShardFlags(t, tc.env, tc.args...)
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.shard, o.Shard, tc.name)
		assert.Equal(t, tc.instance, o.Instance, tc.name)
	}
}

func TestShardFlagsErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		msg  string
	}{
		{"shard range", nil, []string{"--shard", "4/3"}, `--shard "4/3": shard 4 of 3 does not exist`},
		{"shard syntax", nil, []string{"--shard", "2"}, `--shard "2": want K/N`},
		{"env shard", map[string]string{"GOBENCH_DYN_SHARD": "0/2"}, nil, `GOBENCH_DYN_SHARD "0/2"`},
		{"env index", map[string]string{"GOBENCH_DYN_SHARDS": "2", "JOB_COMPLETION_INDEX": "2"}, nil, "JOB_COMPLETION_INDEX=2: index 2 is outside 0 to 1"},
		{"instance chars", nil, []string{"--instance", "a/b"}, `--instance "a/b": '/' is not allowed`},
		{"instance env", map[string]string{"GOBENCH_DYN_INSTANCE": "a b"}, nil, `GOBENCH_DYN_INSTANCE "a b": ' ' is not allowed`},
		{"instance length", nil, []string{"--instance", string(make([]byte, 65))}, "at most 64 characters"},
	} {
		_, err := parseShardFlags(t, tc.env, tc.args...)
		require.Error(t, err, tc.name)
		var ex *exitError
		require.True(t, errors.As(err, &ex), tc.name)
		assert.Equal(t, 2, ex.code, tc.name)
		assert.Contains(t, ex.msg, tc.msg, tc.name)
	}
}
