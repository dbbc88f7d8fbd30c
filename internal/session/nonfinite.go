package session

import (
	"math"
	"slices"
	"strconv"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// A NonFinite is a benchmark unit that reported NaN or an infinity, as
// b.ReportMetric can: the values are recorded as they are, but have no
// mean or interval.
type NonFinite struct {
	Key    record.Key
	Unit   string
	Values []string // the kinds seen: "NaN", "+Inf", "-Inf"
	Slices int      // measurement slices holding one
	Of     int      // measurement slices of the benchmark
}

// nonFinites counts the NaN and infinite values of the measurement slices
// it sees, per benchmark and unit.
type nonFinites struct {
	slices map[record.Key]int
	seen   map[record.Key]map[string]*NonFinite
	order  []*NonFinite
}

// add counts the values of s.
func (n *nonFinites) add(s *record.Slice) {
	if s.Warmup {
		return
	}
	if n.slices == nil {
		n.slices, n.seen = map[record.Key]int{}, map[record.Key]map[string]*NonFinite{}
	}
	k := s.Key()
	n.slices[k]++
	for u, v := range s.Values {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			continue
		}
		if n.seen[k] == nil {
			n.seen[k] = map[string]*NonFinite{}
		}
		nf := n.seen[k][u]
		if nf == nil {
			nf = &NonFinite{Key: k, Unit: u}
			n.seen[k][u] = nf
			n.order = append(n.order, nf)
		}
		nf.Slices++
		if kind := strconv.FormatFloat(v, 'g', -1, 64); !slices.Contains(nf.Values, kind) {
			nf.Values = append(nf.Values, kind)
		}
	}
}

// list returns the units that held a NaN or an infinity, in the order met.
func (n *nonFinites) list() []NonFinite {
	out := make([]NonFinite, len(n.order))
	for i, nf := range n.order {
		out[i] = *nf
		out[i].Of = n.slices[nf.Key]
	}
	return out
}
