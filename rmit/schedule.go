package rmit

import (
	"cmp"
	"math/rand/v2"
	"slices"
)

// An Entry is one iteration in a suite run's schedule.
type Entry struct {
	Bench *Benchmark
	// Iteration is the 1-based index of this iteration among the
	// benchmark's iterations in the suite run.
	Iteration int
	// Padding marks an iteration beyond the benchmark's configuration,
	// added so that the suite run stays interleaved.
	Padding bool
}

// Schedule returns the shuffled schedule of suite run k (1-based): each
// benchmark listed as many times as iterations says, shuffled with a
// generator seeded by seed and k. The same seed, suite run and benchmarks
// give the same order, whatever the order of benches.
func Schedule(seed uint64, k int, benches []*Benchmark, iterations func(*Benchmark) int) []Entry {
	sorted := slices.Clone(benches)
	slices.SortFunc(sorted, func(a, b *Benchmark) int { return cmp.Compare(a.ID, b.ID) })
	var entries []Entry
	for _, b := range sorted {
		for i := range iterations(b) {
			entries = append(entries, Entry{Bench: b, Iteration: i + 1})
		}
	}
	rng := rand.New(rand.NewPCG(seed, uint64(k)))
	rng.Shuffle(len(entries), func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
	// Shuffling swaps entries, not iteration numbers: renumber so that a
	// benchmark's iterations run in order 1, 2, ….
	seen := map[*Benchmark]int{}
	for i := range entries {
		seen[entries[i].Bench]++
		entries[i].Iteration = seen[entries[i].Bench]
	}
	return entries
}

// Pad adds iterations of spare benchmarks to a schedule that holds fewer
// than minDistinct distinct benchmarks, one per spare benchmark, inserted
// at seeded random positions, so that no suite run degenerates into one
// benchmark running alone (which would defeat interleaving). It returns
// the padded schedule and the benchmarks added.
func Pad(entries []Entry, minDistinct int, spare []*Benchmark, seed uint64, k int) ([]Entry, []*Benchmark) {
	distinct := map[*Benchmark]bool{}
	for _, e := range entries {
		distinct[e.Bench] = true
	}
	if len(distinct) == 0 || len(distinct) >= minDistinct {
		return entries, nil
	}
	candidates := slices.Clone(spare)
	slices.SortFunc(candidates, func(a, b *Benchmark) int { return cmp.Compare(a.ID, b.ID) })
	rng := rand.New(rand.NewPCG(seed^0x9e3779b97f4a7c15, uint64(k)))
	rng.Shuffle(len(candidates), func(i, j int) { candidates[i], candidates[j] = candidates[j], candidates[i] })
	var added []*Benchmark
	for _, b := range candidates {
		if len(distinct) >= minDistinct {
			break
		}
		if distinct[b] {
			continue
		}
		distinct[b] = true
		added = append(added, b)
		pos := rng.IntN(len(entries) + 1)
		entries = slices.Insert(entries, pos, Entry{Bench: b, Iteration: 1, Padding: true})
	}
	return entries, added
}
