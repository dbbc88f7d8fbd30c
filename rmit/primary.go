package rmit

import "github.com/gobench-dyn/gobench-dyn/rmit/record"

// PrimaryUnit returns the unit by which a benchmark's slices are judged,
// given the units of one of its results: ns/op, or for a benchmark that
// reports no time (b.ReportMetric(0, "ns/op") leaves ns/op out of its
// results) its first unit of its own in the order go test prints them,
// then MB/s, B/op and allocs/op. The stopping policy sees the values of
// this unit, so that such a benchmark stops on what it reports; "" when
// values holds nothing.
func PrimaryUnit(values map[string]float64) string {
	rank := func(u string) int {
		switch u {
		case "ns/op":
			return 0
		case "MB/s": // derives from time; a unit of its own says more
			return 2
		case "B/op":
			return 3
		case "allocs/op":
			return 4
		}
		return 1
	}
	best := ""
	for u := range values {
		if best == "" || rank(u) < rank(best) || rank(u) == rank(best) && u < best {
			best = u
		}
	}
	return best
}

// primaryValue returns the value of values in its PrimaryUnit, or 0.
func primaryValue(values map[string]float64) float64 {
	return values[PrimaryUnit(values)]
}

// timePerOp returns the wall time of one operation of slice s: its ns/op,
// or for a benchmark that reports none, the slice's wall time over its N,
// which is what b.N is calibrated by.
func timePerOp(s *record.Slice) float64 {
	if ns := s.Values["ns/op"]; ns > 0 {
		return ns
	}
	if s.N <= 0 {
		return 0
	}
	return float64(s.WallNs) / float64(s.N)
}
