package stopper

// Interval, the default, states a guarantee instead of a steadiness: the
// relative half-width of the 95% Student-t interval of the mean over
// process means (IntervalConfidence). The benchmark stops once it is at
// most t (t = IntervalTarget: ±3%) at HoldProcesses consecutive
// processes, after at least MinProcesses; the slices per process adapt to
// the measured variance components and costs. Its warmup is learned
// once per benchmark, in its first process, by the rule of Precision
// (WarmupSettled), and the processes after it warm up as long; a
// WarmupMax at WarmupMin fixes it instead. Policy describes the rule.
var Interval = Criterion{&intervalDef}

var intervalDef = definition{
	name:      "interval",
	help:      "95% interval of the mean over processes",
	threshold: IntervalTarget,
	relative:  true,
	interval:  true,
	learns:    true,
	settled:   func(warmup []float64) bool { return WarmupSettled(warmup, WarmupTolerance) },
}
