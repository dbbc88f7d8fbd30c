package policy

import "time"

// A Loop feeds a Policy the slices of iterations, one benchmark iteration
// at a time, and keeps what the caller records: the time spent in the
// policy per benchmark and its last decision. The runner feeds it live
// slices and the replay recorded ones, so both drive a policy the same
// way.
type Loop struct {
	Policy Policy
	// Now reads the clock that times the policy's calls; nil leaves them
	// untimed.
	Now func() time.Time

	spent map[string]time.Duration
	last  map[string]Decision
}

// A Feed is one iteration of one benchmark in progress.
type Feed struct {
	loop  *Loop
	bench string
	// Warmup and Measured hold the iteration's values so far.
	Warmup, Measured []float64
	// Step is the policy's answer for the next slice.
	Step Step
}

// Begin starts an iteration of bench and asks the policy about its first
// slice.
func (l *Loop) Begin(bench string) *Feed {
	f := &Feed{loop: l, bench: bench}
	f.Step = l.next(bench, nil, nil)
	return f
}

// Add records the value of the slice that f.Step announced and asks the
// policy about the next one. It reports whether this slice ended the
// warmup (then f.Step.Met says whether the warmup criterion held).
func (f *Feed) Add(ns float64) (warmupEnded bool) {
	wasWarmup := f.Step.Warmup
	if wasWarmup {
		f.Warmup = append(f.Warmup, ns)
	} else {
		f.Measured = append(f.Measured, ns)
	}
	f.Step = f.loop.next(f.bench, f.Warmup, f.Measured)
	return wasWarmup && !f.Step.Warmup
}

// End completes the iteration with its suite run and measured costs and
// returns the policy's decision.
func (f *Feed) End(it Iteration) Decision {
	it.Measured = f.Measured
	return f.loop.End(f.bench, it)
}

// End gives the policy a completed iteration of bench directly: a resumed
// run's recorded iterations, whose slices need not be fed one by one.
func (l *Loop) End(bench string, it Iteration) Decision {
	start := l.start()
	d := l.Policy.EndIteration(bench, it)
	l.stop(bench, start)
	if l.last == nil {
		l.last = map[string]Decision{}
	}
	l.last[bench] = d
	return d
}

// Next asks the policy about the next slice directly, timed.
func (l *Loop) next(bench string, warmup, measured []float64) Step {
	start := l.start()
	s := l.Policy.NextSlice(bench, warmup, measured)
	l.stop(bench, start)
	return s
}

func (l *Loop) start() time.Time {
	if l.Now == nil {
		return time.Time{}
	}
	return l.Now()
}

func (l *Loop) stop(bench string, start time.Time) {
	if l.Now == nil {
		return
	}
	if l.spent == nil {
		l.spent = map[string]time.Duration{}
	}
	l.spent[bench] += l.Now().Sub(start)
}

// Spent returns the time spent in the policy's calls for bench.
func (l *Loop) Spent(bench string) time.Duration { return l.spent[bench] }

// Last returns the last decision about bench, and false before any.
func (l *Loop) Last(bench string) (Decision, bool) {
	d, ok := l.last[bench]
	return d, ok
}
