package stopper

// Interval, the default, states a guarantee instead of a steadiness: the
// relative half-width of the 95% Student-t interval of the mean over
// process means (IntervalConfidence). The benchmark stops once it is at
// most t (t = IntervalTarget: ±3%) at HoldProcesses consecutive
// processes, after at least MinProcesses; the slices per process adapt to
// the measured variance components and costs. Policy describes the rule.
var Interval = Criterion{&intervalDef}

var intervalDef = definition{
	name:      "interval",
	help:      "95% interval of the mean over processes",
	threshold: IntervalTarget,
	relative:  true,
	interval:  true,
}
