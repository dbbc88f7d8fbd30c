package rmit

import (
	"math"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// A Setup is what a call of a benchmark function at b.N = n spends
// outside its timer: Fixed, plus PerOp for each of its n ops, for a
// benchmark that builds its data op by op before b.ResetTimer. go test's
// ramp grows b.N a hundredfold a call, so a setup that grows with b.N
// costs go test far more than one seen at a probe's small b.N.
type Setup struct {
	Fixed time.Duration
	// PerOp is in nanoseconds, so that a setup of well under a
	// nanosecond an op still adds up over a billion ops.
	PerOp float64
}

// At returns the setup of one call at b.N = n.
func (s Setup) At(n float64) time.Duration {
	return s.Fixed + time.Duration(s.PerOp*n)
}

// FitSetup returns the setup through what calls spent outside the timer
// at two b.N: s1 at n1 (a probe's) and s2 at a larger n2 (a run's
// slices). A setup that grew between them grows op by op; one that did
// not is fixed at s2, the larger b.N's, which a probe's first leaf does
// not inflate with its process's start.
func FitSetup(n1 float64, s1 time.Duration, n2 float64, s2 time.Duration) Setup {
	if !(n2 > n1) || s2 <= s1 {
		return Setup{Fixed: max(0, s2)}
	}
	perOp := float64(s2-s1) / (n2 - n1)
	return Setup{Fixed: max(0, s1-time.Duration(perOp*n1)), PerOp: perOp}
}

// GoTestTime returns about how long go test -bench spends measuring a
// benchmark of nsPerOp whose every call spends setup outside its timer,
// at -benchtime d: the calls of its ramp (GoTestRamp), each with its
// setup. It leaves out the process start, so it errs short.
func GoTestTime(nsPerOp float64, setup, d time.Duration) time.Duration {
	return GoTestTimeOf(nsPerOp, Setup{Fixed: setup}, d)
}

// GoTestTimeOf is GoTestTime for a setup that may grow with b.N: each
// call of the ramp pays the setup at its own b.N.
func GoTestTimeOf(nsPerOp float64, setup Setup, d time.Duration) time.Duration {
	var total time.Duration
	for _, n := range goTestCalls(nsPerOp, d) {
		total += time.Duration(n*nsPerOp) + setup.At(n)
	}
	return total
}

// GoTestLoopTime is GoTestTimeOf for a benchmark whose function runs a
// b.Loop loop: B.Loop ramps inside the one call go test makes, to the
// b.N of the ramp's last call, and the setup before the loop runs once,
// at b.N = 1.
func GoTestLoopTime(nsPerOp float64, setup Setup, d time.Duration) time.Duration {
	calls := goTestCalls(nsPerOp, d)
	if len(calls) == 0 {
		return 0
	}
	return time.Duration(calls[len(calls)-1]*nsPerOp) + setup.At(1)
}

// GoTestRamp returns the calls of a benchmark function of nsPerOp that go
// test -bench makes at -benchtime d, and the time their timed ops take:
// the one-op run, then the runs whose b.N it predicts from the last
// one's time, growing at most 100 times and aiming 20% past d, until one
// lasts d, as package testing's B.launch does.
func GoTestRamp(nsPerOp float64, d time.Duration) (calls int, timed time.Duration) {
	ns := goTestCalls(nsPerOp, d)
	total := 0.0
	for _, n := range ns {
		total += n * nsPerOp
	}
	return len(ns), time.Duration(total)
}

// goTestCalls returns the b.N of each call of go test's ramp
// (GoTestRamp).
func goTestCalls(nsPerOp float64, d time.Duration) []float64 {
	if !(nsPerOp > 0) || math.IsInf(nsPerOp, 0) {
		return nil
	}
	goal := float64(d.Nanoseconds())
	n, took := 1.0, nsPerOp
	calls := []float64{n}
	for took < goal && n < 1e9 {
		last := n
		next := math.Floor(goal * n / max(took, 1))
		next += math.Floor(next / 5)
		next = min(next, 100*last)
		next = max(next, last+1)
		next = min(next, 1e9)
		n, took = next, next*nsPerOp
		calls = append(calls, n)
	}
	return calls
}

// GoTestPassTime returns about how long one go test -bench pass of the
// benchmarks bs would take at the default -benchtime, each call's setup
// included, and without building: the sum of their GoTestTimeOf, or
// GoTestLoopTime for a b.Loop loop. A benchmark's setup is refitted
// (FitSetup) from what its measured slices in run spent outside the
// timer at the largest b.N they ran, since a setup that grows with b.N
// shows there and go test's ramp pays it at ten times a slice's b.N.
// Without slices in run (run may be nil), it is its probe's; a b.Loop
// loop's always is, since its slices are turns of one call and show none
// of the setup go test pays once.
func GoTestPassTime(bs []*Benchmark, run *record.Run) time.Duration {
	seen := seenSetups(run)
	var d time.Duration
	for _, b := range bs {
		price, setup := GoTestTimeOf, Setup{Fixed: b.Setup}
		if s := seen[b.Key()]; s != nil {
			setup = FitSetup(b.SetupN, b.Setup, float64(s.n), s.median())
		}
		if b.Loop {
			price, setup = GoTestLoopTime, Setup{Fixed: b.Setup}
		}
		d += price(b.Probed, setup, DefaultBenchtime)
	}
	return d
}

// seenSetups returns what each benchmark's measured slices in run spent
// outside the timer (record.Slice's wall beyond its ops) at the largest
// b.N it ran.
func seenSetups(run *record.Run) map[record.Key]*seenSetup {
	seen := map[record.Key]*seenSetup{}
	if run == nil {
		return seen
	}
	for i := range run.Slices {
		s := &run.Slices[i]
		ns, ok := s.Values["ns/op"]
		if s.Warmup || s.Turn != 0 || !ok || s.N <= 0 {
			continue
		}
		k := s.Key()
		if seen[k] == nil {
			seen[k] = &seenSetup{}
		}
		seen[k].add(s.N, time.Duration(s.WallNs)-time.Duration(float64(s.N)*ns))
	}
	return seen
}

// seenSetup holds what a benchmark's slices at its largest b.N, n, spent
// outside the timer.
type seenSetup struct {
	n      int64
	setups []float64 // nanoseconds
}

func (s *seenSetup) add(n int64, setup time.Duration) {
	switch {
	case n > s.n:
		s.n, s.setups = n, []float64{float64(setup)}
	case n == s.n:
		s.setups = append(s.setups, float64(setup))
	}
}

func (s *seenSetup) median() time.Duration { return time.Duration(stats.MedianInPlace(s.setups)) }
