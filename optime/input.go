package optime

import (
	"strconv"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// Benchmarks collects the ns/op measurements of every benchmark in runs,
// in order of first appearance. ids[k] is the source ID of runs[k]; a nil
// ids numbers the runs from 1.
//
// The instances of a benchmark keep the order of runs, and within one run
// the order of Run.Series (by instance name), so the first instance is
// that of the first run that holds the benchmark. An instance name that an
// earlier run already used for the benchmark (two runs of one unnamed
// machine, say) is given the suffix "#ID", so that the runs stay separate
// instances. Slices of a baseline
// version (interleaved by run --baseline) are left out: they measure other
// code. A benchmark's warmup is the most warmup slices any of its
// iterations ran.
func Benchmarks(runs []*record.Run, ids []int) []Benchmark {
	index := map[record.Key]int{}
	var out []Benchmark
	// instances[j] maps the instance names benchmark j has so far to the
	// run that introduced them.
	var instances []map[string]int
	for k, run := range runs {
		id := k + 1
		if ids != nil {
			id = ids[k]
		}
		for _, key := range run.Keys() {
			if key.Version != record.VersionHead {
				continue
			}
			series := run.Series(key, "ns/op")
			if len(series) == 0 {
				continue
			}
			key.Version = ""
			j, ok := index[key]
			if !ok {
				j = len(out)
				index[key] = j
				out = append(out, Benchmark{Package: key.Package, Name: key.Benchmark})
				instances = append(instances, map[string]int{})
			}
			b := &out[j]
			for n := range series {
				name := series[n].Instance
				if first, ok := instances[j][name]; ok && first != k {
					name += "#" + strconv.Itoa(id)
				} else {
					instances[j][name] = k
				}
				series[n].Instance = name
			}
			b.Series = append(b.Series, series...)
			b.Sources = append(b.Sources, id)
			for _, it := range series {
				b.Warmup = max(b.Warmup, len(it.Warmup))
			}
		}
	}
	return out
}
