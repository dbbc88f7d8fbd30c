package report

import (
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// synthBench describes one synthetic benchmark.
type synthBench struct {
	name     string
	ns       float64 // mean ns/op of the code under test
	noise    float64 // relative sd between slices
	bimodal  float64 // when > 0: the relative offset of a second mode, taken by half the iterations
	baseline float64 // when > 0: the mean ns/op of the baseline version
	stopAt   int     // when > 0: the benchmark stops after this suite run
	stopMet  bool
	fail     bool // one iteration fails
}

// synthRun builds a realistic run of s suite runs × i iterations × (w
// warmup + d) slices, with RMIT order, early stops and a failure.
func synthRun(seed uint64, s, i, w, d int, benches []synthBench) *record.Run {
	rng := rand.New(rand.NewPCG(seed, 1))
	start := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	run := &record.Run{
		Header: &record.Header{
			Type: record.TypeHeader, Schema: record.Schema, Tool: "gobench-dyn devel", GoVersion: "go1.26.0",
			GOOS: "linux", GOARCH: "amd64", CPU: "Synthetic CPU @ 3.0GHz", NumCPU: 2, Host: "ci-1", Seed: seed, Start: start,
			Options: map[string]string{"suite-runs": strconv.Itoa(s), "iterations": strconv.Itoa(i), "slices": strconv.Itoa(d), "warmup": strconv.Itoa(w), "stop": "cv", "slice-time": "100ms"},
		},
		Complete: true,
	}
	now := start
	for sr := 1; sr <= s; sr++ {
		type job struct {
			b       synthBench
			version string
			it      int
		}
		var jobs []job
		for _, b := range benches {
			if b.stopAt > 0 && sr > b.stopAt {
				continue
			}
			for it := 1; it <= i; it++ {
				jobs = append(jobs, job{b, record.VersionHead, it})
				if b.baseline > 0 {
					jobs = append(jobs, job{b, record.VersionBaseline, it})
				}
			}
		}
		rng.Shuffle(len(jobs), func(a, c int) { jobs[a], jobs[c] = jobs[c], jobs[a] })
		for order, j := range jobs {
			mean := j.b.ns
			if j.version == record.VersionBaseline {
				mean = j.b.baseline
			}
			if j.b.bimodal > 0 && rng.IntN(2) == 0 {
				mean *= 1 + j.b.bimodal
			}
			// Each process lands somewhere: a per-iteration offset.
			mean *= 1 + rng.NormFloat64()*j.b.noise/2
			if j.b.fail && sr == 2 && j.it == 1 && j.version == record.VersionHead {
				run.Events = append(run.Events, record.Event{Type: record.TypeEvent, Event: record.EventFailure, Package: "example.com/synth", Benchmark: j.b.name, SuiteRun: sr, Iteration: j.it, Reason: "panic: index out of range [3] with length 3", Time: now})
				continue
			}
			for sl := 1; sl <= w+d; sl++ {
				warm := sl <= w
				v := mean * (1 + rng.NormFloat64()*j.b.noise)
				if warm {
					v *= 1 + 0.25*math.Exp(-float64(sl-1))
				}
				n := int64(1e8 / v)
				wall := time.Duration(float64(n)*v) + 3*time.Millisecond
				run.Slices = append(run.Slices, record.Slice{
					Type: record.TypeSlice, Package: "example.com/synth", Benchmark: j.b.name, Version: j.version,
					SuiteRun: sr, Iteration: j.it, Order: order + 1, Slice: sl, Warmup: warm, N: n,
					Values: map[string]float64{"ns/op": v, "B/op": 512, "allocs/op": 3},
					Start:  now, WallNs: int64(wall),
				})
				now = now.Add(wall)
			}
			if w > 0 {
				run.Events = append(run.Events, record.Event{Type: record.TypeEvent, Event: record.EventWarmupEnd, Package: "example.com/synth", Benchmark: j.b.name, Version: j.version, SuiteRun: sr, Iteration: j.it, Slice: w, Met: true, Time: now})
			}
			if j.b.stopAt == sr && j.it == i {
				run.Events = append(run.Events, record.Event{Type: record.TypeEvent, Event: record.EventStop, Package: "example.com/synth", Benchmark: j.b.name, Version: j.version, SuiteRun: sr, Iteration: j.it, Met: j.b.stopMet, CriterionNs: 2e6, Time: now})
			}
		}
	}
	run.Events = append(run.Events, record.Event{Type: record.TypeEvent, Event: record.EventEnd, Time: now})
	return run
}

// demoRun is the run of the screenshot and the browser test: a stable
// benchmark, a noisy one, a bimodal one, one that fails, and a baseline
// comparison with a regression and an improvement.
func demoRun() *record.Run {
	return synthRun(7, 3, 3, 2, 5, []synthBench{
		{name: "BenchmarkParse/small-2", ns: 1520, noise: 0.01, baseline: 1250, stopAt: 2, stopMet: true},
		{name: "BenchmarkParse/large-2", ns: 48200, noise: 0.015, baseline: 52100, stopAt: 2, stopMet: true},
		{name: "BenchmarkEncode-2", ns: 880, noise: 0.006, baseline: 884},
		{name: "BenchmarkMapIter-2", ns: 23100, noise: 0.01, bimodal: 0.18, baseline: 23000, stopAt: 3, stopMet: false},
		{name: "BenchmarkHash/sha256-2", ns: 310, noise: 0.04, baseline: 305, fail: true},
	})
}
