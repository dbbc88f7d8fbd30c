package render

import (
	"encoding/json"
	"math"
)

// JSONFloat is a float64 that JSON output writes as null when it is NaN or
// an infinity, which JSON has no numbers for.
type JSONFloat float64

// MarshalJSON implements json.Marshaler.
func (f JSONFloat) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
}
