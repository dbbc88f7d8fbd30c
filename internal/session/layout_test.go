package session

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// layoutOptions is a baseline run in duets of 4 suite runs whose
// versions are each linked in 3 layouts.
func layoutOptions(dir string) Options {
	o := testOptions(dir)
	o.SuiteRuns, o.Baseline, o.Layouts = 4, "main", 3
	o.TurnTime, o.Turns = time.Millisecond, rmit.TurnPlan{Warmup: 1, Turns: 4}
	return o
}

// layouts returns the layout seed of each process of run, and checks
// that all slices of a process name the same one.
func layouts(t *testing.T, run *record.Run) map[string]uint64 {
	t.Helper()
	m := map[string]uint64{}
	for _, s := range run.Slices {
		p := fmt.Sprintf("%s %d/%d %s", s.Version, s.SuiteRun, s.Iteration, s.Benchmark)
		if seed, ok := m[p]; ok {
			require.Equal(t, seed, s.Layout, "slices of one process, %s", p)
		}
		m[p] = s.Layout
	}
	return m
}

// Each process of a baseline run runs one of its version's links, named
// in the header, and records its seed in its slices; the processes that
// ran each link are as many as the raw file says.
func TestLayoutsRecordedPerProcess(t *testing.T) {
	f := newFake("BenchmarkA", "BenchmarkB")
	o := layoutOptions(t.TempDir())
	_, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	run, _, err := record.ReadFile(o.Raw)
	require.NoError(t, err)

	h := run.Header
	// Three are linked while preparing, and up to MaxLayouts as
	// processes draw them: the header names every seed.
	require.Len(t, h.Layouts["head"], MaxLayouts)
	require.Len(t, h.Layouts["baseline"], MaxLayouts)
	assert.Equal(t, h.Layouts["head"], h.Layouts["baseline"], "both versions link the same seeds")
	assert.Equal(t, "3", h.Options["layouts"])
	dir := map[string]string{"head": "", "baseline": "baseline"}
	starts := map[string]int{}
	seen := map[uint64]bool{}
	for p, seed := range layouts(t, run) {
		version := "head"
		if p[0] != ' ' {
			version = "baseline"
		}
		require.Contains(t, h.Layouts[version], seed, p)
		starts[fmt.Sprintf("%s/p-%d.test", dir[version], seed)]++
		seen[seed] = true
	}
	for bin, n := range starts {
		assert.Equal(t, n, f.Starts(bin), "processes of %s", bin)
	}
	assert.Greater(t, len(seen), 2, "processes draw different links: %v", seen)
	// Each pair runs its two versions on one seed.
	byPair := map[string][]uint64{}
	for _, s := range run.Slices {
		p := fmt.Sprintf("%d/%d %s", s.SuiteRun, s.Iteration, s.Benchmark)
		if !slices.Contains(byPair[p], s.Layout) {
			byPair[p] = append(byPair[p], s.Layout)
		}
	}
	require.NotEmpty(t, byPair)
	for p, seeds := range byPair {
		assert.Len(t, seeds, 1, "pair %s", p)
	}
}

// A resumed run links the layouts its header names, and its processes
// draw the links an uninterrupted run with the same seed draws.
func TestLayoutsReusedOnResume(t *testing.T) {
	full := newFake("BenchmarkA", "BenchmarkB")
	want := layoutOptions(t.TempDir())
	_, err := runFake(t, context.Background(), full, want)
	require.NoError(t, err)
	wantRun, _, err := record.ReadFile(want.Raw)
	require.NoError(t, err)

	f := newFake("BenchmarkA", "BenchmarkB")
	o := layoutOptions(t.TempDir())
	interrupted(t, f, o, 20)
	before, _, err := record.ReadFile(o.Raw)
	require.NoError(t, err)
	require.Less(t, len(before.Slices), len(wantRun.Slices), "interrupted before the end")

	f.ResetStarts()
	o.Resume, o.SeedSet = o.Raw, false
	got, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err, got.log)
	run, _, err := record.ReadFile(o.Raw)
	require.NoError(t, err)
	require.True(t, run.Complete)
	assert.Equal(t, before.Header.Layouts, run.Header.Layouts)
	assert.Equal(t, layouts(t, wantRun), layouts(t, run))
	for bin := range f.Binaries() {
		if bin == "p.test" || bin == "baseline/p.test" {
			continue // discovery
		}
		var seed uint64
		var d string
		if _, err := fmt.Sscanf(bin, "/p-%d.test", &seed); err != nil {
			_, err = fmt.Sscanf(bin, "baseline/p-%d.test", &seed)
			require.NoError(t, err, bin)
			d = "baseline"
		}
		key := map[string]string{"": "head", "baseline": "baseline"}[d]
		assert.Contains(t, run.Header.Layouts[key], seed, bin)
	}
}

// With --layout fixed, each version runs its one link, and the records
// name no layout.
func TestLayoutFixed(t *testing.T) {
	f := newFake("BenchmarkA")
	o := layoutOptions(t.TempDir())
	o.Layouts = 0
	_, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err)
	run, _, err := record.ReadFile(o.Raw)
	require.NoError(t, err)
	assert.Empty(t, run.Header.Layouts)
	assert.NotContains(t, run.Header.Options, "layouts")
	for _, seed := range layouts(t, run) {
		assert.Zero(t, seed)
	}
}

// A run of one version draws a link for each process, as a baseline run
// does, so that the layout's spread is part of each mean's interval; it
// links a benchmark's least processes' worth while preparing, and the
// others as its processes draw them.
func TestLayoutsOfARunOfOneVersion(t *testing.T) {
	f := newFake("BenchmarkA", "BenchmarkB")
	o := testOptions(t.TempDir())
	o.SuiteRuns, o.Layouts, o.Stop.MinIterations = 4, DefaultLayouts, 3
	env := fakeEnv(f)
	prepare := env.Prepare
	eager := -1
	env.Prepare = func(ctx context.Context, opts rmit.PrepareOptions) (*rmit.Suite, error) {
		eager = opts.LinkedLayouts
		return prepare(ctx, opts)
	}
	var out buffer
	_, err := Run(context.Background(), o, Outputs{Results: &out, Log: io.Discard}, env)
	require.NoError(t, err)
	assert.Equal(t, 3, eager, "linked while preparing")
	run, _, err := record.ReadFile(o.Raw)
	require.NoError(t, err)
	h := run.Header
	require.Len(t, h.Layouts["head"], MaxLayouts)
	assert.Equal(t, "8", h.Options["layouts"])
	byBench := map[string][]uint64{}
	for p, seed := range layouts(t, run) {
		require.Contains(t, h.Layouts["head"], seed, p)
		b := p[strings.LastIndex(p, " ")+1:]
		byBench[b] = append(byBench[b], seed)
	}
	require.Len(t, byBench, 2)
	for b, seeds := range byBench {
		slices.Sort(seeds)
		assert.Len(t, slices.Compact(seeds), 4, "%s: each of its 4 processes on a link of its own", b)
	}
}

// A run of one version recorded before such runs drew links resumes on
// its one link: the processes it has ran there.
func TestResumeOfOneLinkStaysOnIt(t *testing.T) {
	f := newFake("BenchmarkA")
	o := testOptions(t.TempDir())
	o.Layouts = 0
	interrupted(t, f, o, 5)
	o.Resume, o.SeedSet, o.Layouts = o.Raw, false, DefaultLayouts
	got, err := runFake(t, context.Background(), f, o)
	require.NoError(t, err, got.log)
	run, _, err := record.ReadFile(o.Raw)
	require.NoError(t, err)
	require.True(t, run.Complete)
	assert.Empty(t, run.Header.Layouts)
	for p, seed := range layouts(t, run) {
		assert.Zero(t, seed, p)
	}
}
