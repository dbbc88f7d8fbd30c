package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// JSON has no NaN or infinity, which b.ReportMetric can report all the
// same. A slice holding one writes it as the string "NaN", "+Inf" or
// "-Inf" in place of the number; every other value is a JSON number.

// sliceJSON is Slice without its JSON methods.
type sliceJSON Slice

// MarshalJSON implements json.Marshaler.
func (s *Slice) MarshalJSON() ([]byte, error) {
	if finite(s.Values) {
		return json.Marshal((*sliceJSON)(s))
	}
	vals := make(map[string]jsonFloat, len(s.Values))
	for u, v := range s.Values {
		vals[u] = jsonFloat(v)
	}
	return json.Marshal(struct {
		*sliceJSON
		Values map[string]jsonFloat `json:"values"`
	}{(*sliceJSON)(s), vals})
}

// UnmarshalJSON implements json.Unmarshaler.
func (s *Slice) UnmarshalJSON(b []byte) error { return decodeSlice(b, s) }

// decodeSlice decodes the slice record b into s. Readers call it rather
// than json.Unmarshal, which would check b once more before calling
// UnmarshalJSON.
func decodeSlice(b []byte, s *Slice) error {
	err := json.Unmarshal(b, (*sliceJSON)(s))
	var te *json.UnmarshalTypeError
	if err == nil || !errors.As(err, &te) || !strings.HasPrefix(te.Field, "values") {
		return err
	}
	// A value that is not a number: NaN or an infinity, or an error
	// to report as the plain decoding would.
	var alt struct {
		*sliceJSON
		Values map[string]jsonFloat `json:"values"`
	}
	alt.sliceJSON = (*sliceJSON)(s)
	if err := json.Unmarshal(b, &alt); err != nil {
		return err
	}
	s.Values = make(map[string]float64, len(alt.Values))
	for u, v := range alt.Values {
		s.Values[u] = float64(v)
	}
	return nil
}

func finite(vals map[string]float64) bool {
	for _, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// jsonFloat is a float64 that encodes NaN and the infinities as strings.
type jsonFloat float64

// MarshalJSON implements json.Marshaler.
func (f jsonFloat) MarshalJSON() ([]byte, error) {
	switch x := float64(f); {
	case math.IsNaN(x):
		return []byte(`"NaN"`), nil
	case math.IsInf(x, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(x, -1):
		return []byte(`"-Inf"`), nil
	default:
		return json.Marshal(x)
	}
}

// UnmarshalJSON implements json.Unmarshaler.
func (f *jsonFloat) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || b[0] != '"' {
		var x float64
		if err := json.Unmarshal(b, &x); err != nil {
			return err
		}
		*f = jsonFloat(x)
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	switch s {
	case "NaN", "+Inf", "-Inf", "Inf":
		x, _ := strconv.ParseFloat(s, 64)
		*f = jsonFloat(x)
		return nil
	}
	return fmt.Errorf("value %q is not a number, NaN, +Inf or -Inf", s)
}
