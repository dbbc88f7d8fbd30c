package steady

import (
	"encoding/json"
	"fmt"
	"gonum.org/v1/gonum/stat"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/dataset"
)

// published is Traini et al.'s classification of one benchmark.
type published struct {
	Run    string   `json:"run"`
	Forks  []string `json:"forks"`
	Starts []int    `json:"steady_state_starts"`
}

// tolerance of a steady-state start: 5% of a series of 3,000 values.
const startTolerance = 150

// publishedFork is one analysed fork of the published data.
type publishedFork struct {
	bench, fork int
	got         Series
	wantStart   int   // −1: not steady
	wantCpts    []int // last index of each published segment
}

var (
	publishedOnce  sync.Once
	publishedForks []publishedFork
	publishedRuns  map[int]string
)

// analysePublished runs the rules on the 40 published forks once, in
// parallel, for every test that reads them.
func analysePublished(t *testing.T) []publishedFork {
	t.Helper()
	publishedOnce.Do(func() {
		publishedRuns = map[int]string{}
		var wg sync.WaitGroup
		var mu sync.Mutex
		// One fork per CPU: each CROPS search holds a 36 MB cost memo.
		sem := make(chan struct{}, runtime.GOMAXPROCS(0))
		for b := 1; b <= 4; b++ {
			forks, err := dataset.ReadSeries(fmt.Sprintf("testdata/traini/bench%d.json.gz", b))
			require.NoError(t, err)
			var pub published
			readJSON(t, fmt.Sprintf("testdata/traini/bench%d.classification.json", b), &pub)
			var cpts [][]int
			readJSON(t, fmt.Sprintf("testdata/traini/bench%d.changepoints.json", b), &cpts)
			require.Len(t, forks, 10)
			publishedRuns[b] = pub.Run
			for f, xs := range forks {
				wg.Add(1)
				go func() {
					defer wg.Done()
					sem <- struct{}{}
					defer func() { <-sem }()
					// Values are seconds of 100 ms JMH iterations.
					opts := Options{Skip: SkipFor(200, 0.1/stat.Mean(xs, nil))}
					s := Analyze(xs, opts, rand.New(rand.NewPCG(uint64(b), uint64(f))))
					mu.Lock()
					publishedForks = append(publishedForks, publishedFork{b, f, s, pub.Starts[f], cpts[f]})
					mu.Unlock()
				}()
			}
		}
		wg.Wait()
	})
	require.Len(t, publishedForks, 40)
	return publishedForks
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, v))
}

// TestPublishedClassification is the agreement with Traini et al.'s
// published results on the 40 forks of their four example benchmarks:
// at least 38 forks get their class, and the steady-state start of at
// least 90% of the forks steady in both lies within 5% of the series
// length of theirs.
func TestPublishedClassification(t *testing.T) {
	forks := analysePublished(t)
	agree, steady, near := 0, 0, 0
	for _, f := range forks {
		wantSteady := f.wantStart >= 0
		if (f.got.Class == Steady) == wantSteady {
			agree++
		} else {
			t.Logf("bench%d fork %d: got %v, published %v", f.bench, f.fork, f.got.Class, f.wantStart)
		}
		if wantSteady && f.got.Class == Steady {
			steady++
			// The published start is the last index of the segment before
			// the steady state; ours is the first index of the steady state.
			if math.Abs(float64(f.got.Start-(f.wantStart+1))) <= startTolerance {
				near++
			} else {
				t.Logf("bench%d fork %d: start %d, published %d", f.bench, f.fork, f.got.Start, f.wantStart)
			}
		}
	}
	t.Logf("class agrees on %d of 40 forks; start within %d values on %d of %d steady forks", agree, startTolerance, near, steady)
	assert.GreaterOrEqual(t, agree, 38)
	assert.GreaterOrEqual(t, float64(near), 0.9*float64(steady))

	// Benchmark verdicts.
	byBench := map[int][]Series{}
	for _, f := range forks {
		byBench[f.bench] = append(byBench[f.bench], f.got)
	}
	for b, ss := range byBench {
		want := map[string]Class{"steady state": Steady, "no steady state": NotSteady, "inconsistent": Inconsistent}[publishedRuns[b]]
		assert.Equal(t, want, Benchmark(ss), "bench%d", b)
	}
}

// TestPublishedChangePoints compares the segmentations with the published
// ones: the same outlier filter, cost, pruning, CROPS range and elbow
// rule give the very same change points on most forks. The rest differ
// where two segmentations tie at the elbow penalty, which rounding
// decides.
func TestPublishedChangePoints(t *testing.T) {
	forks := analysePublished(t)
	same := 0
	for _, f := range forks {
		got := make([]int, len(f.got.Ends))
		for i, e := range f.got.Ends {
			// Published change points are the last kept index of a segment.
			got[i] = lastKeptBefore(f.got.Kept, e)
		}
		if assert.ObjectsAreEqual(f.wantCpts, got) {
			same++
		}
	}
	t.Logf("the same change points on %d of 40 forks", same)
	assert.GreaterOrEqual(t, same, 24)
}

func lastKeptBefore(kept []int, end int) int {
	last := -1
	for _, k := range kept {
		if k >= end {
			break
		}
		last = k
	}
	return last
}
