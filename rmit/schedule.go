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
	// PairedWithNext marks the first iteration of a pair: the next entry
	// is the same benchmark's iteration in the other version, which must
	// run right after it.
	PairedWithNext bool
}

// A Pairing names the two versions of each benchmark in a run that
// interleaves a baseline with the code under test.
type Pairing struct {
	// Partner maps a benchmark ID to the ID of the same benchmark in the
	// other version. Benchmarks without a partner run on their own.
	Partner map[string]string
	// Base holds the IDs of the baseline version's benchmarks.
	Base map[string]bool
}

// NewPairing pairs the benchmarks of base and head with the same package
// and name.
func NewPairing(base, head []*Benchmark) Pairing {
	p := Pairing{Partner: Pair(base, head), Base: map[string]bool{}}
	for _, b := range base {
		p.Base[b.ID] = true
	}
	return p
}

// PairedSchedule is Schedule for a run of two versions: every iteration of
// a benchmark's baseline runs right next to the same iteration of its
// head, and the pairs, not the single iterations, are shuffled, so that
// the two share the machine's state of that moment. Which version goes
// first is counterbalanced ABBA over the benchmark's pairs (AB, BA, BA,
// AB, … counted across suite runs), so that a steady drift or a
// first-in-pair effect weighs on both alike. Iteration j of the baseline
// and iteration j of the head of suite run k form one pair, which is how
// the raw records pair them. Benchmarks whose partner is not in benches
// run unpaired, as Schedule places them.
func PairedSchedule(seed uint64, k int, benches []*Benchmark, iterations func(*Benchmark) int, p Pairing) []Entry {
	sorted := slices.Clone(benches)
	slices.SortFunc(sorted, func(a, b *Benchmark) int { return cmp.Compare(a.ID, b.ID) })
	present := map[string]*Benchmark{}
	for _, b := range sorted {
		present[b.ID] = b
	}
	type unit struct{ base, head *Benchmark }
	var units []unit
	for _, b := range sorted {
		partner, paired := present[p.Partner[b.ID]]
		switch {
		case paired && p.Base[b.ID]:
			for range iterations(b) {
				units = append(units, unit{b, partner})
			}
		case paired: // the head, listed with its baseline
		default:
			for range iterations(b) {
				units = append(units, unit{base: b})
			}
		}
	}
	rng := rand.New(rand.NewPCG(seed, uint64(k)))
	rng.Shuffle(len(units), func(i, j int) { units[i], units[j] = units[j], units[i] })
	seen := map[*Benchmark]int{}
	var entries []Entry
	for _, u := range units {
		seen[u.base]++
		j := seen[u.base]
		if u.head == nil {
			entries = append(entries, Entry{Bench: u.base, Iteration: j})
			continue
		}
		seen[u.head]++
		first, second := u.base, u.head
		// The pair's index across suite runs, for the ABBA pattern.
		if q := (k-1)*iterations(u.base) + j - 1; q%4 == 1 || q%4 == 2 {
			first, second = second, first
		}
		entries = append(entries, Entry{Bench: first, Iteration: j, PairedWithNext: true}, Entry{Bench: second, Iteration: j})
	}
	return entries
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
		if pos > 0 && entries[pos-1].PairedWithNext {
			pos-- // before the pair, not between its two halves
		}
		entries = slices.Insert(entries, pos, Entry{Bench: b, Iteration: 1, Padding: true})
	}
	return entries, added
}
