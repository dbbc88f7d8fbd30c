package render

import (
	"math"
	"strings"

	"golang.org/x/perf/benchunit"
)

// A Scale formats values of one unit at one common scale, as benchstat
// does: "1.234µ" for 1234 ns/op, "1.2k" for 1200 B/op.
type Scale struct {
	unit   string // as the benchmark reports it: "ns/op"
	tidied string // as benchstat labels it: "sec/op"
	scaler benchunit.Scaler
}

// NewScale returns the scale of unit that suits values, given in unit;
// NaN and infinities do not count.
func NewScale(unit string, values ...float64) Scale {
	_, tidied := benchunit.Tidy(1, unit)
	var scaled []float64
	for _, v := range values {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			t, _ := benchunit.Tidy(v, unit)
			scaled = append(scaled, t)
		}
	}
	return Scale{unit: unit, tidied: tidied, scaler: benchunit.CommonScale(scaled, benchunit.ClassOf(tidied))}
}

// Unit returns the unit as benchstat labels it: "sec/op" for "ns/op".
func (s Scale) Unit() string { return s.tidied }

// Format formats v, given in the scale's unit, with the scale's prefix:
// "1.517µ"; NaN reads as "—".
func (s Scale) Format(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	t, _ := benchunit.Tidy(v, s.unit)
	return s.scaler.Format(t)
}

// Value is Format followed by the unit's dimension where it has one:
// "1.517µs", "512.0B", "3.000" for allocs/op.
func (s Scale) Value(v float64) string {
	out := s.Format(v)
	switch {
	case math.IsNaN(v):
	case strings.HasPrefix(s.tidied, "sec/"):
		out += "s"
	case strings.HasPrefix(s.tidied, "B/"):
		out += "B"
	}
	return out
}
