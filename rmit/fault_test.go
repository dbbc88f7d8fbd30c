package rmit

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

func TestFaultyBenchmarkFailsAlone(t *testing.T) {
	pkg := suite(t)
	bs := discover(t, pkg, "Fast|Faulty")
	require.Len(t, bs, 2)
	for _, fault := range []struct{ env, reason, detail string }{
		{"fatal", "suite_test.go:51: fatal failure", ""}, // the message is the reason, once
		{"panic", "exit status 2", "panic: boom"},
	} {
		t.Run(fault.env, func(t *testing.T) {
			t.Setenv("SUITE_FAULT", fault.env)
			obs, sum, run := runSuite(t, bs, 3, Static{Slices: 2})
			require.Len(t, sum.Failed, 1)
			f := sum.Failed[0]
			assert.Equal(t, "BenchmarkFaulty", f.Bench.Base)
			assert.Contains(t, f.Reason, fault.reason)
			assert.Contains(t, f.Detail, fault.detail)
			// The healthy benchmark ran its whole configuration.
			fast := run.Series(record.Key{Bench: bs[0].Bench()}, "ns/op")
			assert.Len(t, fast, 4)
			var failures int
			for _, e := range run.Events {
				if e.Event == record.EventFailure {
					failures++
				}
			}
			assert.Equal(t, 1, failures)
			assert.Len(t, obs.done, 1)
		})
	}
}

// children lists the processes whose parent is this test process.
func children(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("ps", "-o", "pid=,comm=", "--ppid", strconv.Itoa(os.Getpid())).Output()
	if err != nil && len(out) == 0 {
		return nil // ps exits 1 when it lists nothing
	}
	var procs []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasSuffix(l, " ps") {
			procs = append(procs, l)
		}
	}
	return procs
}

func TestHangingBenchmarkIsKilled(t *testing.T) {
	pkg := suite(t)
	bs := discover(t, pkg, "Fast|Faulty")
	t.Setenv("SUITE_FAULT", "hang")
	for _, b := range bs {
		b.Config = Config{SuiteRuns: 1, Iterations: 1}
	}
	// Long enough that the healthy benchmark never reaches it, however
	// loaded the machine: the hanging one sleeps for an hour.
	r := &Runner{Benchmarks: bs, Policy: Static{Slices: 1}, Seed: 1, Timeout: 2 * time.Second}
	sum, err := r.Run(context.Background())
	require.NoError(t, err)
	require.Len(t, sum.Failed, 1)
	assert.Equal(t, "timeout", sum.Failed[0].Reason)
	assert.Contains(t, sum.Failed[0].Detail, "--timeout")
	assert.Empty(t, children(t), "no test binary is left running")
}

func TestInterruptStopsTheChild(t *testing.T) {
	pkg := suite(t)
	bs := discover(t, pkg, "Faulty")
	t.Setenv("SUITE_FAULT", "hang")
	bs[0].Config = Config{SuiteRuns: 1, Iterations: 1}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	r := &Runner{Benchmarks: bs, Policy: Static{Slices: 1}, Seed: 1}
	sum, err := r.Run(ctx)
	assert.ErrorIs(t, err, ErrInterrupted)
	assert.True(t, sum.Interrupted)
	assert.Empty(t, children(t))
}
