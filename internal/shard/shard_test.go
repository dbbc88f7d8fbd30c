package shard

import (
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Spec
	}{
		{"1/1", Spec{1, 1}},
		{"2/4", Spec{2, 4}},
		{" 4/4 ", Spec{4, 4}},
		{"1024/1024", Spec{1024, 1024}},
	} {
		got, err := Parse(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
		assert.Equal(t, tc.want.String(), got.String())
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, msg string }{
		{"", "want K/N"},
		{"3", "want K/N"},
		{"a/4", `shard number "a" is not an integer`},
		{"1/b", `shard count "b" is not an integer`},
		{"0/4", "shard 0 of 4 does not exist"},
		{"5/4", "shard 5 of 4 does not exist"},
		{"-1/4", "shard -1 of 4 does not exist"},
		{"1/0", "at least 1"},
		{"1/2000", "at most 1024"},
		{"1/2/3", `"2/3" is not an integer`},
	} {
		_, err := Parse(tc.in)
		require.Error(t, err, tc.in)
		require.NotNil(t, usage.As(err), tc.in)
		assert.Equal(t, "shard", usage.As(err).Flag, tc.in)
		assert.Contains(t, err.Error(), tc.msg, tc.in)
	}
}

func TestSpecString(t *testing.T) {
	assert.Equal(t, "", Spec{}.String())
	assert.True(t, Spec{}.IsZero())
	assert.False(t, Spec{1, 2}.IsZero())
	assert.Equal(t, "3/8", Spec{3, 8}.String())
}

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestFromEnv(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want Spec
		ok   bool
	}{
		{"nothing", nil, Spec{}, false},
		{"github matrix", map[string]string{"GOBENCH_DYN_SHARD": "2/3"}, Spec{2, 3}, true},
		{"indexed job", map[string]string{"JOB_COMPLETION_INDEX": "0", "GOBENCH_DYN_SHARDS": "4"}, Spec{1, 4}, true},
		{"indexed job last", map[string]string{"JOB_COMPLETION_INDEX": "3", "GOBENCH_DYN_SHARDS": "4"}, Spec{4, 4}, true},
		{"explicit wins", map[string]string{"GOBENCH_DYN_SHARD": "1/2", "JOB_COMPLETION_INDEX": "3", "GOBENCH_DYN_SHARDS": "4"}, Spec{1, 2}, true},
		{"index alone replicates", map[string]string{"JOB_COMPLETION_INDEX": "3"}, Spec{}, false},
	} {
		got, ok, err := FromEnv(env(tc.env))
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.ok, ok, tc.name)
		assert.Equal(t, tc.want, got, tc.name)
	}
}

func TestFromEnvErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		msg  string
	}{
		{"bad shard", map[string]string{"GOBENCH_DYN_SHARD": "5/4"}, "GOBENCH_DYN_SHARD \"5/4\": shard 5 of 4 does not exist"},
		{"bad count", map[string]string{"GOBENCH_DYN_SHARDS": "four", "JOB_COMPLETION_INDEX": "0"}, "GOBENCH_DYN_SHARDS=\"four\""},
		{"count without index", map[string]string{"GOBENCH_DYN_SHARDS": "4"}, "JOB_COMPLETION_INDEX is not"},
		{"bad index", map[string]string{"GOBENCH_DYN_SHARDS": "4", "JOB_COMPLETION_INDEX": "x"}, "JOB_COMPLETION_INDEX=\"x\""},
		{"index out of range", map[string]string{"GOBENCH_DYN_SHARDS": "4", "JOB_COMPLETION_INDEX": "4"}, "index 4 is outside 0 to 3"},
		{"zero count", map[string]string{"GOBENCH_DYN_SHARDS": "0", "JOB_COMPLETION_INDEX": "0"}, "must be between 1 and 1024"},
	} {
		_, ok, err := FromEnv(env(tc.env))
		require.Error(t, err, tc.name)
		assert.False(t, ok)
		assert.Contains(t, err.Error(), tc.msg, tc.name)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"1/1", "2/4", "0/0", "-1/3", "x/y", "1/", "/", "99999999999999999999/1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		spec, err := Parse(s)
		if err != nil {
			if spec != (Spec{}) {
				t.Fatalf("Parse(%q) = %v with error %v", s, spec, err)
			}
			return
		}
		if spec.K < 1 || spec.K > spec.N || spec.N > MaxShards {
			t.Fatalf("Parse(%q) = %v, outside 1 ≤ K ≤ N ≤ %d", s, spec, MaxShards)
		}
		again, err := Parse(spec.String())
		if err != nil || again != spec {
			t.Fatalf("Parse(%q) = %v, but Parse(%q) = %v, %v", s, spec, spec.String(), again, err)
		}
	})
}

func FuzzFromEnv(f *testing.F) {
	f.Add("", "", "")
	f.Add("2/4", "", "")
	f.Add("", "3", "4")
	f.Add("", "-1", "4")
	f.Fuzz(func(t *testing.T, shard, index, count string) {
		m := map[string]string{EnvShard: shard, EnvJobIndex: index, EnvShards: count}
		spec, ok, err := FromEnv(env(m))
		if err != nil || !ok {
			if ok || spec != (Spec{}) {
				t.Fatalf("FromEnv(%q) = %v, %v, %v", m, spec, ok, err)
			}
			return
		}
		if spec.K < 1 || spec.K > spec.N || spec.N > MaxShards {
			t.Fatalf("FromEnv(%q) = %v, outside 1 ≤ K ≤ N ≤ %d", m, spec, MaxShards)
		}
	})
}
