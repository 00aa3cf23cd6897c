package validation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// exactFloat is a float64 written as the string of its shortest exact
// form ("NaN", "+Inf" and "-Inf" included), so it reads back bit for bit.
type exactFloat float64

func (f exactFloat) MarshalJSON() ([]byte, error) {
	return json.Marshal(strconv.FormatFloat(float64(f), 'g', -1, 64))
}

func (f *exactFloat) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("validation: number expected, got %s", b)
	}
	*f = exactFloat(v)
	return nil
}

type simValueJSON struct {
	Mean      exactFloat `json:"mean"`
	HalfWidth exactFloat `json:"half_width"`
}

type pointResultJSON struct {
	Rate   exactFloat              `json:"rate"`
	Status string                  `json:"status"`
	Reason string                  `json:"reason,omitempty"`
	Values map[string]simValueJSON `json:"values"` // null for a nil map, {} for an empty one; keys sorted by encoding/json
	Err    string                  `json:"error,omitempty"`
}

// MarshalJSON writes r so that UnmarshalJSON reads back exactly r.
func (r PointResult) MarshalJSON() ([]byte, error) {
	j := pointResultJSON{Rate: exactFloat(r.Point.Rate), Status: r.Point.Status, Reason: r.Point.Reason, Err: r.Err}
	if r.Point.Values != nil {
		j.Values = make(map[string]simValueJSON, len(r.Point.Values))
		for k, v := range r.Point.Values {
			j.Values[k] = simValueJSON{exactFloat(v.Mean), exactFloat(v.HalfWidth)}
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes (unknown fields refused).
func (r *PointResult) UnmarshalJSON(b []byte) error {
	var j pointResultJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return err
	}
	*r = PointResult{Point: SimPoint{Rate: float64(j.Rate), Status: j.Status, Reason: j.Reason}, Err: j.Err}
	if j.Values != nil {
		r.Point.Values = make(map[string]SimValue, len(j.Values))
		for k, v := range j.Values {
			r.Point.Values[k] = SimValue{float64(v.Mean), float64(v.HalfWidth)}
		}
	}
	return nil
}
