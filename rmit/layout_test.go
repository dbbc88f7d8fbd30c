package rmit

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLayoutFlagsMergesLinkerFlags(t *testing.T) {
	for _, tc := range []struct {
		name    string
		flags   []string
		goflags string
		want    []string
	}{
		{"none", []string{"-tags=x"}, "", []string{"-tags=x", "-ldflags=-randlayout=7"}},
		{"joined", []string{"-ldflags=-s -w", "-race"}, "", []string{"-ldflags=-s -w -randlayout=7", "-race"}},
		{"separate", []string{"-ldflags", "-X main.v=1"}, "", []string{"-ldflags=-X main.v=1 -randlayout=7"}},
		{"the last wins", []string{"--ldflags=-s", "-ldflags=-w"}, "", []string{"-ldflags=-w -randlayout=7"}},
		{"GOFLAGS", nil, "-mod=mod -ldflags=-s", []string{"-ldflags=-s -randlayout=7"}},
		{"command line over GOFLAGS", []string{"-ldflags=-w"}, "-ldflags=-s", []string{"-ldflags=-w -randlayout=7"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := LayoutFlags(tc.flags, tc.goflags, 7)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	_, err := LayoutFlags([]string{"-ldflags=all=-s"}, "", 7)
	assert.ErrorContains(t, err, "some packages only")
	_, err = LayoutFlags(nil, "-ldflags=example.com/...=-s", 7)
	assert.ErrorContains(t, err, "GOFLAGS")
	_, err = LayoutFlags([]string{"-ldflags"}, "", 7)
	assert.ErrorContains(t, err, "no value")
}

func TestLayoutSeeds(t *testing.T) {
	head, base := LayoutSeeds(1, "", 8), LayoutSeeds(1, "baseline", 8)
	assert.Equal(t, head, LayoutSeeds(1, "", 8), "the run's seed decides them")
	assert.NotEqual(t, head, base)
	assert.NotEqual(t, head, LayoutSeeds(2, "", 8))
	distinct := map[uint64]bool{}
	for _, s := range append(head, base...) {
		assert.NotZero(t, s)
		assert.Less(t, s, uint64(1)<<63, "a positive int64 for the linker")
		distinct[s] = true
	}
	assert.Len(t, distinct, 16)
}

// The two versions of a pair draw the same index among their links, so
// that with the same seeds a pair runs one layout; across pairs every
// link comes up, and the draw of a process is the same whenever it is
// asked for.
func TestLayoutOfGivesAPairOneSeed(t *testing.T) {
	r := &Runner{Seed: 3}
	pkg := func(version string) *Package {
		p := &Package{ImportPath: "p", Version: version, Binary: "first"}
		for i, s := range LayoutSeeds(3, "", 4) {
			p.Layouts = append(p.Layouts, Layout{Seed: s, Binary: version + string(rune('a'+i))})
		}
		return p
	}
	head, base := NewBenchmark(pkg(""), "BenchmarkX", 1, false), NewBenchmark(pkg("baseline"), "BenchmarkX", 1, false)
	seeds := map[uint64]int{}
	for k := 1; k <= 200; k++ {
		h, b := r.layoutOf(head, k, 1), r.layoutOf(base, k, 1)
		assert.Equal(t, h, r.layoutOf(head, k, 1))
		assert.Equal(t, h.Seed, b.Seed, "pair %d", k)
		assert.Equal(t, "baseline"+h.Binary, b.Binary, "each version runs its own binary")
		seeds[h.Seed]++
	}
	assert.Len(t, seeds, 4, "%v", seeds)
	for _, n := range seeds {
		assert.Equal(t, 50, n, "each link once a round")
	}
	fixed := NewBenchmark(&Package{ImportPath: "p", Binary: "only"}, "BenchmarkX", 1, false)
	assert.Equal(t, Layout{Binary: "only"}, r.layoutOf(fixed, 1, 1))
}

// A benchmark's processes take a link each before any repeats, so that no
// two of its first len(Layouts) processes share one; a link left for later
// is linked once, when first drawn, and one whose link fails gives way to
// the first link.
func TestLayoutsLinkedAsProcessesDrawThem(t *testing.T) {
	linked := map[int]int{}
	p := &Package{ImportPath: "p", Binary: "first"}
	for i, s := range LayoutSeeds(5, "", 6) {
		l := Layout{Seed: s}
		if i < 2 {
			l.Binary = string(rune('a' + i))
		}
		p.Layouts = append(p.Layouts, l)
	}
	p.eager = 2
	p.linkLayout = func(i int) (string, error) {
		linked[i]++
		if i == 5 {
			return "", errors.New("the linker failed")
		}
		return "lazy-" + strconv.Itoa(i), nil
	}
	b := NewBenchmark(p, "BenchmarkX", 1, false)
	b.Config = Config{Iterations: 2}
	r := &Runner{Seed: 5}
	seen := map[uint64]bool{}
	for k := 1; k <= 3; k++ {
		for it := 1; it <= 2; it++ {
			l := r.layoutOf(b, k, it)
			assert.Equal(t, l, r.layoutOf(b, k, it), "the same draw each time")
			assert.NotEmpty(t, l.Binary)
			seen[l.Seed] = true
		}
	}
	assert.Equal(t, map[int]int{2: 1, 3: 1, 4: 1, 5: 1}, linked, "each link left for later linked once")
	assert.Len(t, seen, 5, "six processes, six links, of which the failed one gave way to the first")
	assert.Equal(t, p.Layouts[0], p.Layouts[5])
}

// Before a suite run starts, the links its processes will draw and that
// were left for later are linked, several at a time: both versions' links
// of a pair at once, each once, and none for a benchmark that is stopped
// or no longer runs.
func TestLinkAheadLinksASuiteRunsLinksTogether(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("links run one at a time on one CPU")
	}
	var mu sync.Mutex
	linked := map[string]int{}
	var arrived sync.WaitGroup
	arrived.Add(2)
	together := make(chan struct{})
	go func() { arrived.Wait(); close(together) }()
	pkg := func(version string) *Package {
		p := &Package{ImportPath: "p", Version: version, Binary: "first"}
		for i, s := range LayoutSeeds(5, version, 4) {
			l := Layout{Seed: s}
			if i < 2 {
				l.Binary = version + strconv.Itoa(i)
			}
			p.Layouts = append(p.Layouts, l)
		}
		p.eager = 2
		p.linkLayout = func(i int) (string, error) {
			mu.Lock()
			linked[version+strconv.Itoa(i)]++
			first := linked[version+strconv.Itoa(i)] == 1
			mu.Unlock()
			if first {
				arrived.Done()
			}
			select {
			case <-together:
			case <-time.After(time.Minute):
				return "", errors.New("the other version's link never started")
			}
			return "lazy-" + version + strconv.Itoa(i), nil
		}
		return p
	}
	head, base := pkg(""), pkg("baseline")
	a, b := NewBenchmark(head, "BenchmarkX", 1, false), NewBenchmark(base, "BenchmarkX", 1, false)
	stopped := NewBenchmark(base, "BenchmarkY", 1, false)
	clock := time.Unix(0, 0)
	r := &Runner{Seed: 5, state: map[*Benchmark]*benchState{a: {}, b: {}, stopped: {stopped: true}}, familyRan: map[familyIteration]bool{},
		now: func() time.Time { clock = clock.Add(time.Second); return clock }}
	// Suite run 3 is the first to draw the links left for later.
	entries := []Entry{{Bench: a, Iteration: 1}, {Bench: b, Iteration: 1}, {Bench: stopped, Iteration: 1}}
	var sum Summary
	r.linkAhead(entries, 3, &sum)
	assert.Equal(t, 2, sum.Linked)
	assert.Equal(t, time.Second, sum.Linking, "the clock read before and after the links")
	i := r.layoutSlot(a, 3, 1)
	require.GreaterOrEqual(t, i, 2, "suite run 3 draws a link left for later")
	assert.Equal(t, map[string]int{strconv.Itoa(i): 1, "baseline" + strconv.Itoa(i): 1}, linked)
	assert.Equal(t, "lazy-"+strconv.Itoa(i), r.layoutOf(a, 3, 1).Binary)
	assert.Equal(t, "lazy-baseline"+strconv.Itoa(i), r.layoutOf(b, 3, 1).Binary)
	r.linkAhead(entries, 3, &sum)
	assert.Len(t, linked, 2, "a link is linked once")
	assert.Equal(t, 2, sum.Linked, "nothing left to link")
}

// Prepare links the package once per layout seed, the last one when it is
// first drawn: the links differ, the
// first is the binary benchmarks were discovered with, and each runs.
func TestPrepareLinksEachLayout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	dir, err := filepath.Abs("testdata/suite")
	require.NoError(t, err)
	seeds := []uint64{11, 12, 13, 14}
	s, err := Prepare(context.Background(), PrepareOptions{Dir: dir, Patterns: []string{"."}, BinDir: t.TempDir(), LayoutSeeds: seeds, LinkedLayouts: 2,
		Discover: DiscoverOptions{Bench: "BenchmarkFast", SliceTime: 2 * time.Millisecond, Timeout: time.Minute}})
	require.NoError(t, err)
	require.Empty(t, s.Failures)
	assert.Positive(t, s.Building, "the build a go test pass pays too")
	require.Len(t, s.Packages, 1)
	p := s.Packages[0]
	require.Len(t, p.Layouts, 4)
	assert.Equal(t, p.Binary, p.Layouts[0].Binary)
	assert.Empty(t, p.Layouts[2].Binary, "the third is linked when a process first draws it")
	p.link(2)
	require.NotNil(t, p.relink.cmd, "the second link kept the linker's command line")
	assert.True(t, strings.HasPrefix(filepath.Base(filepath.Dir(p.Layouts[2].Binary)), "layout-"), "linked by the linker alone, not by go test -c: %s", p.Layouts[2].Binary)
	// The linker alone makes the binary go test -c made, but for the
	// build ID the go command writes into it afterwards.
	again := filepath.Join(t.TempDir(), "again.test")
	require.NoError(t, p.relink.cmd.run(context.Background(), seeds[1], again))
	want, err := os.ReadFile(p.Layouts[1].Binary)
	require.NoError(t, err)
	got, err := os.ReadFile(again)
	require.NoError(t, err)
	require.Len(t, got, len(want))
	differ := 0
	for i := range got {
		if got[i] != want[i] {
			differ++
		}
	}
	assert.LessOrEqual(t, differ, 64, "bytes that differ from go test -c's link of the same seed")
	// A linker that fails leaves the link to go test -c.
	p.relink.cmd.tool = filepath.Join(t.TempDir(), "no-linker")
	p.link(3)
	assert.Equal(t, "go", filepath.Base(filepath.Dir(p.Layouts[3].Binary)), "linked by go test -c")
	hashes := map[string]bool{}
	for i, l := range p.Layouts {
		assert.Equal(t, seeds[i], l.Seed)
		h, err := hashFile(l.Binary)
		require.NoError(t, err)
		hashes[h] = true
		out, err := exec.Command(l.Binary, "-test.list=^BenchmarkFast$").Output()
		require.NoError(t, err, l.Binary)
		assert.Equal(t, "BenchmarkFast\n", string(out))
	}
	assert.Len(t, hashes, 4, "each seed lays the code out its own way")
}
