package shard

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

var update = flag.Bool("update", false, "rewrite testdata/scaling.md from the simulation")

// The cost model of the scaling simulation, documented in docs/SCALE.md.
const (
	simBenchmarks = 500
	simPackages   = 25
	simSeed       = 2024

	sliceTime    = time.Second            // the published data ran 1 s per sample
	warmupSlices = 1                      // per iteration
	processStart = 50 * time.Millisecond  // exec of the test binary, per iteration
	calibration  = 100 * time.Millisecond // one probe at slice/10, per benchmark

	jobSetup  = 45 * time.Second // runner start, checkout, setup-go, go install gobench-dyn
	jobBuild  = 60 * time.Second // go test -c of the suite's packages, in every job
	jobUpload = 5 * time.Second  // upload of the raw file
	mergeJob  = 30 * time.Second // a second job: start, download, merge, report, compare
)

// simSuite draws a suite of simBenchmarks from the recorded benchmarks
// with replacement and returns the time each takes: with µOpTime's minimal
// configuration (minimal) or the full (3, 5, 5) configuration.
func simSuite(t testing.TB, minimal bool) ([]record.Bench, map[record.Bench]time.Duration) {
	rec := readRecorded(t)
	rng := rand.New(rand.NewPCG(simSeed, 0))
	var bs []record.Bench
	times := map[record.Bench]time.Duration{}
	for j := range simBenchmarks {
		r := rec[rng.IntN(len(rec))]
		b := record.Bench{Package: fmt.Sprintf("example.com/suite/p%02d", j%simPackages), Benchmark: fmt.Sprintf("Benchmark%03d", j)}
		bs = append(bs, b)
		iters := r.s * r.i
		measure := time.Duration(r.s*r.i*r.d) * sliceTime
		if !minimal {
			iters = 3 * 5
			measure = r.full // 75 one-second samples, as measured
		}
		times[b] = measure + time.Duration(iters)*(warmupSlices*sliceTime+processStart) + calibration
	}
	return bs, times
}

type simRow struct {
	jobs                   int
	longestByTime, byCount time.Duration // longest job, fixed overheads included
	wall, machine          time.Duration
}

func simulate(bs []record.Bench, times map[record.Bench]time.Duration, jobs int) simRow {
	fixed := jobSetup + jobBuild + jobUpload
	longest := func(parts [][]record.Bench) time.Duration {
		var top time.Duration
		for _, l := range Loads(parts, times) {
			top = max(top, l)
		}
		return fixed + top
	}
	row := simRow{jobs: jobs, longestByTime: longest(Partition(bs, jobs, times)), byCount: longest(Partition(bs, jobs, nil))}
	row.wall = row.longestByTime
	var total time.Duration
	for _, d := range times {
		total += d
	}
	row.machine = time.Duration(jobs)*fixed + total
	if jobs > 1 {
		row.wall += mergeJob
		row.machine += mergeJob
	}
	return row
}

func minutes(d time.Duration) string { return fmt.Sprintf("%.1f", d.Minutes()) }

// scalingTable returns the simulated wall time against the number of jobs,
// as a Markdown table.
func scalingTable(t testing.TB) string {
	var b strings.Builder
	for _, sc := range []struct {
		title   string
		minimal bool
	}{
		{"µOpTime minimal configurations (run --config)", true},
		{"full (3, 5, 5) configuration", false},
	} {
		bs, times := simSuite(t, sc.minimal)
		var total, top time.Duration
		for _, d := range times {
			total += d
			top = max(top, d)
		}
		fmt.Fprintf(&b, "%d benchmarks, %s: %s min of benchmark time, the longest benchmark %s min.\n\n",
			len(bs), sc.title, minutes(total), minutes(top))
		b.WriteString("| jobs | longest job, by time (min) | longest job, by count (min) | wall time (min) | speed-up | machine time (min) |\n")
		b.WriteString("|---:|---:|---:|---:|---:|---:|\n")
		var base time.Duration
		for _, n := range []int{1, 2, 4, 8, 16, 32} {
			r := simulate(bs, times, n)
			if n == 1 {
				base = r.wall
			}
			fmt.Fprintf(&b, "| %d | %s | %s | %s | %.1f× | %s |\n", n, minutes(r.longestByTime), minutes(r.byCount),
				minutes(r.wall), float64(base)/float64(r.wall), minutes(r.machine))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestScalingSimulation recomputes the table of docs/SCALE.md. Run it with
// -update after changing the model, and copy the table into the doc.
func TestScalingSimulation(t *testing.T) {
	got := scalingTable(t)
	const golden = "testdata/scaling.md"
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), got)

	// The model's claims, checked on the simulated suites: wall time falls
	// with every doubling up to 16 jobs, and balancing by time is never
	// worse than cutting by count.
	for _, minimal := range []bool{true, false} {
		bs, times := simSuite(t, minimal)
		prev := simulate(bs, times, 1)
		for _, n := range []int{2, 4, 8, 16, 32} {
			r := simulate(bs, times, n)
			if n <= 16 {
				assert.Less(t, r.wall, prev.wall, "minimal=%v n=%d", minimal, n)
			}
			assert.LessOrEqual(t, r.longestByTime, r.byCount+time.Second, "minimal=%v n=%d", minimal, n)
			prev = r
		}
	}
}
