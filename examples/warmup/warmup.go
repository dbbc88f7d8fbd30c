// Package warmup serves lookups from a lazily built cache, like a
// memoizing resolver. A computed value enters the cache only after its key
// missed a number of times (an admission filter against one-off keys), and
// that number differs per key, so the cache fills gradually: in a fresh
// process the first several hundred thousand operations are up to ten times
// slower, and the first slices of every iteration are slow. A fixed warmup
// of one slice is not enough here; warmup stoppage should find the end.
package warmup

// keys is the number of distinct keys.
const keys = 1024

// cache lives as long as the process, as a real lazily built cache would.
var cache struct {
	vals   [keys]uint64
	ready  [keys]bool
	misses [keys]int
}

var next uint64

// admitAfter returns how many misses key k needs before its value is
// cached: between 1 and 600, spread evenly over the keys.
func admitAfter(k int) int { return 1 + k*37%600 }

func mix(x uint64, rounds int) uint64 {
	for range rounds {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// Lookup returns the value of key k, computing it when it is not cached.
func Lookup(k int) uint64 {
	if cache.ready[k] {
		return cache.vals[k]
	}
	v := mix(uint64(k)+1, 500)
	cache.misses[k]++
	if cache.misses[k] >= admitAfter(k) {
		cache.vals[k], cache.ready[k] = v, true
	}
	return v
}

// Op does one operation: a lookup of the next key and a little work on the
// value.
func Op() uint64 {
	next++
	k := int(next * 2654435761 % keys)
	return mix(Lookup(k), 100)
}
