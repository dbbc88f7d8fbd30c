package shard

import (
	"encoding/csv"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorded is one benchmark of testdata/uoptime_times.csv.
type recorded struct {
	version, name string
	full          time.Duration // measured time of the full (3, 5, 5) configuration
	s, i, d       int           // µOpTime's minimal configuration, CV at 0.01
	minimal       time.Duration // s·i·d one-second runs
}

func readRecorded(t testing.TB) []recorded {
	f, err := os.Open("testdata/uoptime_times.csv")
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	var out []recorded
	for _, r := range rows[1:] {
		full, err := strconv.ParseFloat(r[3], 64)
		require.NoError(t, err)
		var b recorded
		_, err = fmt.Sscanf(r[4], "(%d,%d,%d)", &b.s, &b.i, &b.d)
		require.NoError(t, err, r[4])
		secs, err := strconv.Atoi(r[5])
		require.NoError(t, err)
		require.Equal(t, b.s*b.i*b.d, secs, r)
		b.version, b.name = r[0], r[1]
		b.full = time.Duration(full * 1e9)
		b.minimal = time.Duration(secs) * time.Second
		out = append(out, b)
	}
	require.Len(t, out, 463)
	return out
}

// suite returns the recorded benchmarks of one version with their times.
func suite(t testing.TB, version string, minimal bool) ([]record.Bench, map[record.Bench]time.Duration) {
	var bs []record.Bench
	times := map[record.Bench]time.Duration{}
	for _, r := range readRecorded(t) {
		if r.version != version {
			continue
		}
		b := record.Bench{Package: "example.com/" + version, Benchmark: r.name}
		bs = append(bs, b)
		times[b] = r.full
		if minimal {
			times[b] = r.minimal
		}
	}
	require.NotEmpty(t, bs)
	return bs, times
}

// checkPartition checks that parts covers benchmarks exactly once.
func checkPartition(t *testing.T, benchmarks []record.Bench, parts [][]record.Bench, n int) {
	t.Helper()
	require.Len(t, parts, n)
	seen := map[record.Bench]int{}
	for k, p := range parts {
		assert.True(t, slices.IsSortedFunc(p, record.Bench.Compare), "shard %d unsorted", k+1)
		for _, b := range p {
			if prev, dup := seen[b]; dup {
				t.Errorf("%v is in shards %d and %d", b, prev+1, k+1)
			}
			seen[b] = k
		}
	}
	for _, b := range benchmarks {
		_, ok := seen[b]
		assert.True(t, ok, "%v is in no shard", b)
	}
	assert.Len(t, seen, len(benchmarks))
}

func TestPartitionCoversOnce(t *testing.T) {
	bs, times := suite(t, "zap-v1.23.0", true)
	for _, n := range []int{1, 2, 3, 4, 7, 8, 16, 45, 46, 47, 100} {
		for _, exp := range []map[record.Bench]time.Duration{nil, times} {
			parts := Partition(bs, n, exp)
			checkPartition(t, bs, parts, n)
			for k := range n {
				assert.Equal(t, parts[k], Select(bs, Spec{K: k + 1, N: n}, exp), "shard %d/%d", k+1, n)
			}
		}
	}
}

func TestPartitionByCount(t *testing.T) {
	var bs []record.Bench
	for i := range 10 {
		bs = append(bs, pb(fmt.Sprintf("BenchmarkB%02d", 9-i)))
	}
	parts := Partition(bs, 3, nil)
	names := func(p []record.Bench) (out []string) {
		for _, b := range p {
			out = append(out, b.Benchmark[len("BenchmarkB"):])
		}
		return out
	}
	assert.Equal(t, []string{"00", "01", "02", "03"}, names(parts[0]))
	assert.Equal(t, []string{"04", "05", "06"}, names(parts[1]))
	assert.Equal(t, []string{"07", "08", "09"}, names(parts[2]))

	// More shards than benchmarks: one each, the rest empty.
	parts = Partition(bs[:2], 4, nil)
	assert.Equal(t, [][]record.Bench{{bs[1]}, {bs[0]}, nil, nil}, parts)
}

// Adding a benchmark moves at most one benchmark across each cut.
func TestPartitionByCountStable(t *testing.T) {
	bs, _ := suite(t, "toml-v2.0.5", false)
	const n = 6
	before := shardOf(Partition(bs, n, nil))
	more := append(slices.Clone(bs), record.Bench{Package: bs[0].Package, Benchmark: "BenchmarkNew"})
	after := shardOf(Partition(more, n, nil))
	moved := 0
	for _, b := range bs {
		if before[b] != after[b] {
			moved++
		}
	}
	assert.LessOrEqual(t, moved, n-1)
}

func shardOf(parts [][]record.Bench) map[record.Bench]int {
	m := map[record.Bench]int{}
	for k, p := range parts {
		for _, b := range p {
			m[b] = k
		}
	}
	return m
}

// pb returns benchmark name of package p.
func pb(name string) record.Bench { return record.Bench{Package: "p", Benchmark: name} }

func TestPartitionKeepsProcsVariantsTogether(t *testing.T) {
	bs := []record.Bench{
		pb("BenchmarkA"), pb("BenchmarkA-4"), pb("BenchmarkA-8"),
		pb("BenchmarkB-4"), pb("BenchmarkC/sub-4"), pb("BenchmarkC/sub"),
		pb("BenchmarkD"), pb("BenchmarkA"),
	}
	for _, n := range []int{2, 3, 4} {
		parts := Partition(bs, n, nil)
		at := shardOf(parts)
		assert.Equal(t, at[bs[0]], at[bs[1]])
		assert.Equal(t, at[bs[0]], at[bs[2]])
		assert.Equal(t, at[bs[4]], at[bs[5]])
		total := 0
		for _, p := range parts {
			total += len(p)
		}
		assert.Equal(t, 7, total, "the duplicate BenchmarkA is kept once")
	}
	// Expected times recorded on an 8-CPU machine apply on a 4-CPU one.
	exp := map[record.Bench]time.Duration{pb("BenchmarkB-8"): time.Hour, pb("BenchmarkD-8"): time.Second}
	parts := Partition([]record.Bench{pb("BenchmarkB-4"), pb("BenchmarkD-4"), pb("BenchmarkE-4")}, 2, exp)
	assert.Equal(t, [][]record.Bench{{pb("BenchmarkB-4")}, {pb("BenchmarkD-4"), pb("BenchmarkE-4")}}, parts)
}

func TestTrimProcs(t *testing.T) {
	for in, want := range map[string]string{
		"BenchmarkA-8":        "BenchmarkA",
		"BenchmarkA":          "BenchmarkA",
		"BenchmarkA-":         "BenchmarkA-",
		"BenchmarkA-x":        "BenchmarkA-x",
		"BenchmarkA/n-100-16": "BenchmarkA/n-100",
		"BenchmarkA-2/sub":    "BenchmarkA-2/sub",
		"BenchmarkA/#01-4":    "BenchmarkA/#01",
	} {
		assert.Equal(t, want, TrimProcs(in), in)
	}
}

func TestPartitionByTimeLPT(t *testing.T) {
	bs := []record.Bench{pb("A"), pb("B"), pb("C"), pb("D"), pb("E"), pb("F")}
	s := time.Second
	exp := map[record.Bench]time.Duration{bs[0]: 7 * s, bs[1]: 5 * s, bs[2]: 4 * s, bs[3]: 3 * s, bs[4]: 3 * s, bs[5]: 2 * s}
	parts := Partition(bs, 3, exp)
	// LPT: A→1, B→2, C→3, D→3 (7,5,7), E→2 (7,8,7), F→1 (9,8,7).
	assert.Equal(t, [][]record.Bench{{bs[0], bs[5]}, {bs[1], bs[4]}, {bs[2], bs[3]}}, parts)
	assert.Equal(t, []time.Duration{9 * s, 8 * s, 7 * s}, Loads(parts, exp))

	// A benchmark without a time counts at the median of the known ones.
	delete(exp, bs[0])
	parts = Partition(bs, 3, exp)
	// Median of {5,4,3,3,2} is 3: B(5)→1, C(4)→2, A(3)→3, D(3)→3? no: loads
	// (5,4,3) after B, C, A; D→3 (5,4,6); E→2 (5,7,6); F→1 (7,7,6).
	assert.Equal(t, [][]record.Bench{{bs[1], bs[5]}, {bs[2], bs[4]}, {bs[0], bs[3]}}, parts)
}

// The largest shard stays within 1.5× the mean on recorded suites, balanced
// by the measured full-run times and by µOpTime's minimal configurations.
// Cut by count instead, the same suites stray beyond that.
func TestPartitionBalancedOnRecordedSuite(t *testing.T) {
	for _, tc := range []struct {
		version string
		minimal bool
		ns      []int
	}{
		{"zap-v1.23.0", false, []int{2, 3, 4, 8, 16}},
		{"zap-v1.23.0", true, []int{2, 3, 4, 8}},
		{"toml-v2.0.5", true, []int{2, 3, 4, 8}},
		{"prometheus-v0.39.0", false, []int{2, 4, 8, 16}},
	} {
		bs, times := suite(t, tc.version, tc.minimal)
		worstByCount := 0.0
		for _, n := range tc.ns {
			ratio := maxOverMean(Loads(Partition(bs, n, times), times))
			assert.LessOrEqual(t, ratio, 1.5, "%s minimal=%v n=%d", tc.version, tc.minimal, n)
			worstByCount = max(worstByCount, maxOverMean(Loads(Partition(bs, n, nil), times)))
		}
		if tc.minimal {
			assert.Greater(t, worstByCount, 1.5, "%s: cutting by count was expected to be unbalanced", tc.version)
		}
	}
}

func maxOverMean(loads []time.Duration) float64 {
	var sum, top time.Duration
	for _, l := range loads {
		sum += l
		top = max(top, l)
	}
	return float64(top) / (float64(sum) / float64(len(loads)))
}

func TestExpectedTimes(t *testing.T) {
	run := &record.Run{Slices: []record.Slice{
		{Package: "p", Benchmark: "BenchmarkA-4", WallNs: 100, Warmup: true},
		{Package: "p", Benchmark: "BenchmarkA-4", WallNs: 200},
		{Package: "p", Benchmark: "BenchmarkA-4", WallNs: 300, Version: record.VersionBaseline, Instance: "b"},
		{Package: "q", Benchmark: "BenchmarkA-4", WallNs: 5},
	}}
	assert.Equal(t, map[record.Bench]time.Duration{
		pb("BenchmarkA-4"):                        600,
		{Package: "q", Benchmark: "BenchmarkA-4"}: 5,
	}, ExpectedTimes(run))
}
