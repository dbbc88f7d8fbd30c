package rmit

// startSlices starts the process of an iteration of b that runs slices
// slices of binary bin. A binary built with the turn hook's overlay runs
// them as a worker with every slice free, so that nothing waits for a
// grant while its loop hook still acts: a b.Loop benchmark runs all its
// slices in one call, which runs its setup once, and a b.N loop skips go
// test's run1 before each repetition after the first, which only ran its
// setup once more (docs/GATE.md, "Time inside the timer").
//
// Named in FixedNEnv too, its first call runs at its b.N: go test's
// one-op run1 before it would only learn what discovery knows, that it
// has no sub-benchmarks, and would pay its setup once more. When warmup
// is set, its first slice is a warmup that runs at warmupN's b.N
// (WarmNEnv, Runner.halfWarmup); startSlices returns the b.N that slice
// runs at, 0 when it runs at b.N as the others do.
func (r *Runner) startSlices(b *Benchmark, bin string, slices int, warmup bool) (*process, int64, error) {
	var w Worker
	var err error
	var warmN int64
	ts, turns := r.Starter.(TurnStarter)
	switch ws, env := r.envWorkers(b.Package); {
	case env:
		vars := []string{FixedNEnv + "=" + loneFixedN(b)}
		if warmup {
			warmN = warmupN(b.N)
			vars = append(vars, WarmNEnv+"="+namedValue(warmN, b))
		}
		w, err = ws.StartWorkerEnv(bin, b.Package.Dir, b.args(slices), vars, slices)
	case turns && b.Package.Hooked:
		w, err = ts.StartWorker(bin, b.Package.Dir, b.args(slices), slices)
	default:
		p, err := startProcess(r.Starter, bin, b.Package.Dir, b.args(slices))
		return p, 0, err
	}
	if err != nil {
		return nil, 0, err
	}
	return &process{proc: w, stdout: w.Stdout(), stderr: stderrTail{w}}, warmN, nil
}

// envWorkers returns the starter of workers with an environment of
// their own, if the runner's starter is one (a nil starter is
// ExecStarter) and pkg's binaries have the hook that makes them workers:
// lone processes (startSlices) and family processes (startFamily) are
// then started through it.
func (r *Runner) envWorkers(pkg *Package) (EnvWorkerStarter, bool) {
	ws, ok := r.Starter.(EnvWorkerStarter)
	if r.Starter == nil {
		ws, ok = ExecStarter{}, true
	}
	return ws, ok && pkg.Hooked
}
