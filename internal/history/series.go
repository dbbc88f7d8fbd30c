package history

import (
	"cmp"
	"context"
	"math"
	"slices"
	"sync"
	"time"

	"gonum.org/v1/gonum/stat/distuv"
)

// A Point is one commit of a series: the mean of the runs of that commit
// with its interval.
type Point struct {
	Commit string
	Time   time.Time
	Branch string
	// Position is the commit's first-parent position; 0 when unknown.
	Position int
	Mean     float64
	// Lo and Hi bound the interval of Mean at Confidence; NaN when no
	// run of the commit had one.
	Lo, Hi     float64
	Confidence float64
	// SE is the standard error of Mean that the interval implies; NaN
	// without an interval.
	SE        float64
	Processes int
	Runs      int // entries merged into the point
}

// A Series is the history of one benchmark in one unit on one machine
// label with one set of options, in the order of the commit graph.
type Series struct {
	Key    Key
	Points []Point
	// Placement says where commit time placed commits the graph did not,
	// and which commits were left out.
	Placement Placement
}

// orderEntries returns the entries of the commits of the history's line
// in its order (see orderCommits), the entries of one commit together,
// and how the commits were placed.
func orderEntries(es []Entry) ([]Entry, Placement) {
	line, pl := orderCommits(es)
	rank := make(map[string]int, len(line))
	for i, c := range line {
		rank[c] = i
	}
	// Entries are large: they are placed by their commit's rank, not
	// sorted.
	byRank := make([][]int, len(line))
	for i := range es {
		if r, ok := rank[es[i].Commit]; ok {
			byRank[r] = append(byRank[r], i)
		}
	}
	out := make([]Entry, 0, len(es))
	for _, idx := range byRank {
		for _, i := range idx {
			out = append(out, es[i])
		}
	}
	return out, pl
}

// sortForExport orders every entry, those off the line too, by
// first-parent position, then commit time and commit: an order that
// reads well and that an import does not depend on.
func sortForExport(es []Entry) {
	slices.SortStableFunc(es, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Position, b.Position), a.CommitTime.Compare(b.CommitTime), cmp.Compare(a.Commit, b.Commit))
	})
}

// The units derived from the allocation columns of an entry.
const (
	UnitAllocs = "allocs/op"
	UnitBytes  = "B/op"
)

// Build returns the series of entries, which all belong to key, and the
// series of allocations and bytes per op they carry: each in the order
// of the commit graph, the runs of one commit merged into one point.
func Build(key Key, entries []Entry) []*Series {
	entries, pl := orderEntries(entries)
	out := []*Series{{Key: key, Points: merge(entries, func(e *Entry) (float64, float64, float64) { return e.Mean, e.Lo, e.Hi }), Placement: pl}}
	for _, d := range []struct {
		unit string
		get  func(e *Entry) float64
	}{{UnitAllocs, func(e *Entry) float64 { return e.AllocsPerOp }}, {UnitBytes, func(e *Entry) float64 { return e.BytesPerOp }}} {
		var with []Entry
		for i := range entries {
			if !math.IsNaN(d.get(&entries[i])) {
				with = append(with, entries[i])
			}
		}
		if len(with) == 0 || key.Unit == d.unit {
			continue
		}
		k := key
		k.Unit = d.unit
		nan := math.NaN()
		out = append(out, &Series{Key: k, Points: merge(with, func(e *Entry) (float64, float64, float64) { return d.get(e), nan, nan }), Placement: pl})
	}
	return out
}

// merge turns sorted entries into points, one per commit. Several runs
// of one commit are weighted by the inverse of their variance when every
// one has an interval, and equally otherwise.
func merge(entries []Entry, value func(*Entry) (mean, lo, hi float64)) []Point {
	var out []Point
	for i := 0; i < len(entries); {
		j := i + 1
		for j < len(entries) && entries[j].Commit == entries[i].Commit {
			j++
		}
		p := Point{Commit: entries[i].Commit, Time: entries[i].CommitTime, Branch: entries[i].Branch, Position: entries[i].Position, Runs: j - i}
		var sw, swx, sum float64
		withSE := true
		for k := i; k < j; k++ {
			e := &entries[k]
			m, lo, hi := value(e)
			se := seOf(lo, hi, e.Confidence, e.Processes)
			withSE = withSE && se > 0
			if se > 0 {
				sw += 1 / (se * se)
				swx += m / (se * se)
			}
			sum += m
			p.Processes += e.Processes
			p.Confidence = e.Confidence
		}
		p.Mean, p.SE, p.Lo, p.Hi = sum/float64(j-i), math.NaN(), math.NaN(), math.NaN()
		if withSE {
			p.Mean, p.SE = swx/sw, math.Sqrt(1/sw)
			if j-i == 1 {
				_, p.Lo, p.Hi = value(&entries[i])
			} else {
				z := distuv.UnitNormal.Quantile(1 - (1-p.Confidence)/2)
				p.Lo, p.Hi = p.Mean-z*p.SE, p.Mean+z*p.SE
			}
		}
		out = append(out, p)
		i = j
	}
	return out
}

// seOf returns the standard error of a mean whose Student-t interval at
// conf over processes processes is [lo, hi]; NaN when there is none.
func seOf(lo, hi, conf float64, processes int) float64 {
	if math.IsNaN(lo) || math.IsNaN(hi) || processes < 2 || !(conf > 0 && conf < 1) {
		return math.NaN()
	}
	return (hi - lo) / 2 / tQuantile(conf, processes-1)
}

// tQuantile returns the two-sided Student-t quantile at conf with df
// degrees of freedom. A history asks for the same few many times.
func tQuantile(conf float64, df int) float64 {
	k := tKey{conf, df}
	if q, ok := tCache.Load(k); ok {
		return q.(float64)
	}
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(1 - (1-conf)/2)
	tCache.Store(k, q)
	return q
}

type tKey struct {
	conf float64
	df   int
}

var tCache sync.Map

// A Source is a history to analyse: a Store, or Entries read from JSON
// Lines.
type Source interface {
	// Each calls fn with the entries of every series keep accepts (all
	// when keep is nil).
	Each(ctx context.Context, keep func(Key) bool, fn func(Key, []Entry) error) error
}

// Entries is a history held in memory, as read from JSON Lines.
type Entries []Entry

// Each calls fn with the entries of every series keep accepts, in the
// order of their keys.
func (es Entries) Each(ctx context.Context, keep func(Key) bool, fn func(Key, []Entry) error) error {
	groups := map[Key][]Entry{}
	for _, e := range es {
		k := e.Key()
		if keep == nil || keep(k) {
			groups[k] = append(groups[k], e)
		}
	}
	keys := make([]Key, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareKeys)
	for _, k := range keys {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(k, groups[k]); err != nil {
			return err
		}
	}
	return nil
}

// compareKeys orders series by benchmark, unit, machine and options.
func compareKeys(a, b Key) int {
	return cmp.Or(cmp.Compare(a.Package, b.Package), cmp.Compare(a.Benchmark, b.Benchmark), cmp.Compare(a.Unit, b.Unit),
		cmp.Compare(a.Machine, b.Machine), cmp.Compare(a.Options, b.Options))
}
