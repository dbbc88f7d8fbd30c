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
// has no sub-benchmarks, and would pay its setup once more.
func (r *Runner) startSlices(b *Benchmark, bin string, slices int) (*process, error) {
	ts, ok := r.Starter.(TurnStarter)
	if r.Starter == nil {
		ts, ok = ExecStarter{}, true
	}
	if !ok || !b.Package.Hooked {
		return startProcess(r.Starter, bin, b.Package.Dir, b.args(slices))
	}
	var w Worker
	var err error
	if ws, env := ts.(EnvWorkerStarter); env {
		w, err = ws.StartWorkerEnv(bin, b.Package.Dir, b.args(slices), []string{FixedNEnv + "=" + FixedNValue([]*Benchmark{b})}, slices)
	} else {
		w, err = ts.StartWorker(bin, b.Package.Dir, b.args(slices), slices)
	}
	if err != nil {
		return nil, err
	}
	return &process{proc: w, stdout: w.Stdout(), stderr: stderrTail{w}}, nil
}
