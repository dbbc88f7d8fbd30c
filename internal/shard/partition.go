package shard

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// unit returns the identity b is sharded by: its package and its name
// without the GOMAXPROCS suffix. Jobs on machines with different CPU
// counts see "BenchmarkX-4" and "BenchmarkX-8"; both must land in the same
// shard. It also keeps the -cpu variants of one benchmark together.
func unit(b record.Bench) record.Bench {
	return record.Bench{Package: b.Package, Benchmark: TrimProcs(b.Benchmark)}
}

// TrimProcs returns name without the "-N" GOMAXPROCS suffix go test adds to
// a benchmark name when GOMAXPROCS is not 1.
//
// A name is not marked when a suffix was added, so a sub-benchmark whose
// own name ends in "-digits" and runs with GOMAXPROCS=1 loses those digits
// too. That only makes the identity coarser: such benchmarks share a shard.
func TrimProcs(name string) string {
	i := strings.LastIndexByte(name, '-')
	if i < 0 || i == len(name)-1 {
		return name
	}
	for _, c := range name[i+1:] {
		if c < '0' || c > '9' {
			return name
		}
	}
	return name[:i]
}

// Partition splits benchmarks into n shards; shard K of N is parts[K-1].
// Every benchmark lands in exactly one shard, and benchmarks that differ
// only in their GOMAXPROCS suffix land in the same one. Each shard lists its
// benchmarks sorted by package and name. Duplicates in benchmarks are kept
// once.
//
// With expected times for some of the benchmarks (see ExpectedTimes), the
// shards are balanced by time: longest processing time first, which gives a
// longest shard within 4/3 of the best possible. Benchmarks without an
// expected time are counted at the median of the known times. That
// balances best, but a change in any time can move many benchmarks.
//
// Without expected times, the sorted benchmarks are cut into n contiguous
// runs whose sizes differ by at most one. Adding or removing a benchmark
// moves at most one benchmark across each cut, and the benchmarks of one
// package stay together, so each job builds few test binaries. A hash of the
// name would move nothing when a benchmark is added, but it scatters every
// package over every job, and its shard sizes vary by chance.
//
// Every job of a sharded run must call Partition with the same benchmarks
// and expected times.
func Partition(benchmarks []record.Bench, n int, expected map[record.Bench]time.Duration) [][]record.Bench {
	if n < 1 {
		n = 1
	}
	units, members := group(benchmarks)
	var assign []int // shard index per unit
	if times, ok := unitTimes(units, members, expected); ok {
		assign = byTime(units, times, n)
	} else {
		assign = byCount(len(units), n)
	}
	parts := make([][]record.Bench, n)
	for i, u := range units {
		parts[assign[i]] = append(parts[assign[i]], members[u]...)
	}
	for _, p := range parts {
		slices.SortFunc(p, record.Bench.Compare)
	}
	return parts
}

// Select returns the benchmarks of shard s, as Partition computes it. The
// zero Spec selects every benchmark.
func Select(benchmarks []record.Bench, s Spec, expected map[record.Bench]time.Duration) []record.Bench {
	if s.IsZero() {
		all := slices.Clone(benchmarks)
		slices.SortFunc(all, record.Bench.Compare)
		return slices.CompactFunc(all, func(a, b record.Bench) bool { return a == b })
	}
	return Partition(benchmarks, s.N, expected)[s.K-1]
}

// group returns the sharding units of benchmarks, sorted, and the distinct
// benchmarks of each.
func group(benchmarks []record.Bench) ([]record.Bench, map[record.Bench][]record.Bench) {
	members := map[record.Bench][]record.Bench{}
	for _, b := range benchmarks {
		u := unit(b)
		if !slices.Contains(members[u], b) {
			members[u] = append(members[u], b)
		}
	}
	units := make([]record.Bench, 0, len(members))
	for u := range members {
		units = append(units, u)
	}
	slices.SortFunc(units, record.Bench.Compare)
	return units, members
}

// unitTimes returns the expected time of each unit, and false if none of
// them is known.
func unitTimes(units []record.Bench, members map[record.Bench][]record.Bench, expected map[record.Bench]time.Duration) ([]time.Duration, bool) {
	if len(expected) == 0 {
		return nil, false
	}
	// Expected times may be keyed with or without a GOMAXPROCS suffix,
	// from a machine with another CPU count: look them up by unit.
	byUnit := map[record.Bench]time.Duration{}
	for b, t := range expected {
		if t > 0 {
			byUnit[unit(b)] += t
		}
	}
	times := make([]time.Duration, len(units))
	var known []time.Duration
	for i, u := range units {
		if t, ok := byUnit[u]; ok {
			times[i] = t
			known = append(known, t)
		}
	}
	if len(known) == 0 {
		return nil, false
	}
	slices.Sort(known)
	median := known[len(known)/2]
	if len(known)%2 == 0 {
		median = (known[len(known)/2-1] + median) / 2
	}
	for i, u := range units {
		if _, ok := byUnit[u]; !ok {
			times[i] = median * time.Duration(len(members[u]))
		}
	}
	return times, true
}

// byCount cuts m sorted units into n contiguous runs whose sizes differ by
// at most one, the longer runs first.
func byCount(m, n int) []int {
	assign := make([]int, m)
	q, r := m/n, m%n
	i := 0
	for k := range n {
		size := q
		if k < r {
			size++
		}
		for range size {
			assign[i] = k
			i++
		}
	}
	return assign
}

// byTime assigns units to n shards longest first, each to the shard with
// the least time so far; ties go to the unit first by name and to the
// lowest shard, so that every job computes the same assignment.
func byTime(units []record.Bench, times []time.Duration, n int) []int {
	order := make([]int, len(units))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(times[b], times[a]) })
	load := make([]time.Duration, n)
	assign := make([]int, len(units))
	for _, u := range order {
		k := 0
		for j := 1; j < n; j++ {
			if load[j] < load[k] {
				k = j
			}
		}
		assign[u] = k
		load[k] += times[u]
	}
	return assign
}

// ExpectedTimes returns the time each benchmark of run took: the total
// wall time of its slices, warmup included, over every version, instance
// and suite run. Partition balances shards with it.
func ExpectedTimes(run *record.Run) map[record.Bench]time.Duration {
	out := map[record.Bench]time.Duration{}
	for i := range run.Slices {
		s := &run.Slices[i]
		b := s.Key().Bench
		out[b] += time.Duration(s.WallNs)
	}
	return out
}

// Loads returns the total expected time of each shard of parts, counting
// benchmarks without an expected time as zero.
func Loads(parts [][]record.Bench, expected map[record.Bench]time.Duration) []time.Duration {
	loads := make([]time.Duration, len(parts))
	for k, p := range parts {
		for _, b := range p {
			loads[k] += expected[b]
		}
	}
	return loads
}
