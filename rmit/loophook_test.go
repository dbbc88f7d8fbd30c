package rmit

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"
)

// TestLoopHookSetupOncePerWorker builds testdata/loopsetup with and
// without the turn hook's overlay and runs each benchmark for six slices
// at a fixed b.N, counting the calls of its setup: a worker runs a b.Loop
// benchmark's setup once, and a b.N loop's once per turn plus the first
// turn's run1 (none when FixedNEnv names it), where plain go test runs it
// twice a repetition. Each turn
// prints a result line at the same b.N, allocating exactly what go test
// reports. So does a worker with all six slices free, as run starts the
// process of an iteration (Runner.startSlices).
func TestLoopHookSetupOncePerWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	dir, hooked, plain := hookedAndPlain(t, "testdata/loopsetup")

	const slices, free = 6, 2
	run := func(bin *Package, bench string, turns bool, given int, env ...string) (setups int, res []*benchfmt.Result) {
		log := filepath.Join(t.TempDir(), "setups")
		t.Setenv("SETUP_LOG", log)
		args := []string{"-test.run=^$", "-test.bench=^" + bench + "$", "-test.benchtime=20000x", "-test.count=6", "-test.benchmem"}
		var out []byte
		if turns {
			w, err := ExecStarter{}.StartWorkerEnv(bin.Binary, dir, args, env, given)
			require.NoError(t, err)
			for range slices - given {
				require.NoError(t, w.Grant())
			}
			out, err = io.ReadAll(w.Stdout())
			require.NoError(t, err)
			require.NoError(t, w.Wait(), w.StderrTail())
		} else {
			p, err := ExecStarter{}.Start(bin.Binary, dir, args)
			require.NoError(t, err)
			out, err = io.ReadAll(p.Stdout())
			require.NoError(t, err)
			require.NoError(t, p.Wait(), p.StderrTail())
		}
		r := benchfmt.NewReader(bytes.NewReader(out), "out")
		for r.Scan() {
			if x, ok := r.Result().(*benchfmt.Result); ok {
				res = append(res, x.Clone())
			}
		}
		require.NoError(t, r.Err())
		logged, err := os.ReadFile(log)
		require.NoError(t, err)
		return strings.Count(string(logged), "\n"), res
	}
	for _, c := range []struct {
		bench                      string
		hookSetups, named, goTests int
	}{
		{"BenchmarkLoop", 1, 1, slices},
		{"BenchmarkN", 1 + slices, slices, 2 * slices},
	} {
		t.Run(c.bench, func(t *testing.T) {
			setups, withHook := run(hooked, c.bench, true, free)
			assert.Equal(t, c.hookSetups, setups, "setups in one worker")
			setups, allFree := run(hooked, c.bench, true, slices)
			assert.Equal(t, c.hookSetups, setups, "setups in one worker with every slice free")
			// Named in FixedNEnv, as run starts it, its first call is
			// its first slice: no one-op run1 before it.
			setups, named := run(hooked, c.bench, true, slices, FixedNEnv+"=20000 "+c.bench)
			assert.Equal(t, c.named, setups, "setups in one worker that knows it")
			require.Len(t, named, slices)
			for i, r := range named {
				assert.Equal(t, 20000, r.Iters, "slice %d", i+1)
			}
			setups, goTest := run(plain, c.bench, false, 0)
			assert.Equal(t, c.goTests, setups, "setups in go test")
			require.Len(t, withHook, slices)
			require.Len(t, goTest, slices)
			for i, r := range withHook {
				assert.Equal(t, 20000, r.Iters, "slice %d", i+1)
				for _, unit := range []string{"B/op", "allocs/op"} {
					got, ok := r.Value(unit)
					require.True(t, ok, "slice %d has %s", i+1, unit)
					want, _ := goTest[i].Value(unit)
					assert.Equal(t, want, got, "slice %d: %s", i+1, unit)
				}
				ns, _ := r.Value("sec/op")
				assert.Positive(t, ns, "slice %d", i+1)
			}
			require.Len(t, allFree, slices)
			for i, r := range allFree {
				assert.Equal(t, 20000, r.Iters, "slice %d", i+1)
				for _, unit := range []string{"B/op", "allocs/op"} {
					got, _ := r.Value(unit)
					want, _ := goTest[i].Value(unit)
					assert.Equal(t, want, got, "slice %d: %s", i+1, unit)
				}
			}
		})
	}
}

// TestLoopHookCarriesParallelGrain runs a b.RunParallel benchmark for
// several slices at a fixed b.N: under go test each repetition after the
// first hands its goroutines the grain of its one-op run1, a few
// iterations; under the hook, in turns or alone, that of the slice
// before, as go test's ramp gives its last run.
func TestLoopHookCarriesParallelGrain(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	dir, hooked, plain := hookedAndPlain(t, "testdata/grain")
	args := []string{"-test.run=^$", "-test.bench=^BenchmarkParallel$", "-test.benchtime=200000x", "-test.count=4", "-test.cpu=2"}
	grains := func(out []byte) []float64 {
		var gs []float64
		r := benchfmt.NewReader(bytes.NewReader(out), "out")
		for r.Scan() {
			if x, ok := r.Result().(*benchfmt.Result); ok {
				g, ok := x.Value("grain")
				require.True(t, ok)
				gs = append(gs, g)
			}
		}
		require.NoError(t, r.Err())
		require.Len(t, gs, 4)
		return gs
	}
	alone := func(bin *Package) []float64 {
		p, err := ExecStarter{}.Start(bin.Binary, dir, args)
		require.NoError(t, err)
		out, err := io.ReadAll(p.Stdout())
		require.NoError(t, err)
		require.NoError(t, p.Wait(), p.StderrTail())
		return grains(out)
	}
	w, err := ExecStarter{}.StartWorker(hooked.Binary, dir, args, 1)
	require.NoError(t, err)
	for range 3 {
		require.NoError(t, w.Grant())
	}
	out, err := io.ReadAll(w.Stdout())
	require.NoError(t, err)
	require.NoError(t, w.Wait(), w.StderrTail())
	turns := grains(out)
	goTest, hookedAlone := alone(plain), alone(hooked)
	// run1's one op starts the goroutines, which takes far more than
	// 100 ns, so its grain is under 1000; 200000 ops of an empty loop
	// body take far less than 20 ms, so a grain from them is at least
	// 1000 (capped at 10⁴).
	for i := 1; i < 4; i++ {
		assert.Less(t, goTest[i], 1e3, "go test, slice %d: the grain of its one-op run", i+1)
		assert.GreaterOrEqual(t, hookedAlone[i], 1e3, "alone, slice %d", i+1)
		assert.GreaterOrEqual(t, turns[i], 1e3, "in turns, slice %d", i+1)
	}
}

// hookedAndPlain builds the test binary of the fixture module in fixture
// twice, with the turn hook's overlay and without, and returns the
// module's directory and the two builds.
func hookedAndPlain(t *testing.T, fixture string) (dir string, hooked, plain *Package) {
	t.Helper()
	ctx := context.Background()
	dir, err := filepath.Abs(fixture)
	require.NoError(t, err)
	pkgs, _, err := List(ctx, []string{"."}, ListOptions{Dir: dir})
	require.NoError(t, err)
	tmp := t.TempDir()
	ov, err := TurnOverlay(ctx, dir, filepath.Join(tmp, "overlay"), "")
	require.NoError(t, err)
	build := func(out string, flags ...string) *Package {
		p := *pkgs[0]
		built, _, failed := Build(ctx, []*Package{&p}, BuildOptions{Dir: dir, OutDir: filepath.Join(tmp, out), BuildFlags: flags})
		require.Empty(t, failed)
		return built[0]
	}
	return dir, build("hooked", "-overlay="+ov), build("plain")
}

// TestProbeHookEndsRampOfCostlyCall: with ProbeEnv, a probe of a b.N
// benchmark whose one-op call lasts longer than it, nearly all outside
// the timer, reports that op and calls the benchmark once; a cheap
// setup, or no ProbeEnv, ramps to the benchtime as go test does.
func TestProbeHookEndsRampOfCostlyCall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	dir, hooked, _ := hookedAndPlain(t, "testdata/loopsetup")
	probe := func(env ...string) (setups int, n int) {
		log := filepath.Join(t.TempDir(), "setups")
		args := []string{"-test.run=^$", "-test.bench=^BenchmarkN$", "-test.benchtime=10ms", "-test.count=1"}
		p, err := ExecStarter{}.StartEnv(hooked.Binary, dir, args, append(env, "SETUP_LOG="+log))
		require.NoError(t, err)
		out, err := io.ReadAll(p.Stdout())
		require.NoError(t, err)
		require.NoError(t, p.Wait(), p.StderrTail())
		r := benchfmt.NewReader(bytes.NewReader(out), "out")
		for r.Scan() {
			if x, ok := r.Result().(*benchfmt.Result); ok {
				n = x.Iters
			}
		}
		require.NoError(t, r.Err())
		logged, err := os.ReadFile(log)
		require.NoError(t, err)
		return strings.Count(string(logged), "\n"), n
	}
	// The sleep is a floor on the call's wall time whatever the load.
	costly := probeValue(200 * time.Millisecond)
	setups, n := probe(ProbeEnv+"="+costly, "SETUP_SLEEP=400ms")
	assert.Equal(t, 1, setups)
	assert.Equal(t, 1, n)
	setups, n = probe("SETUP_SLEEP=400ms")
	assert.Greater(t, setups, 1, "without ProbeEnv, go test's ramp")
	assert.Greater(t, n, 1)
	setups, n = probe(ProbeEnv + "=" + costly)
	assert.Greater(t, setups, 1, "a cheap setup ramps")
	assert.Greater(t, n, 1)
}
