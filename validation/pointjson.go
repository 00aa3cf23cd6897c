package validation

import (
	"encoding/json"

	"github.com/flitsim/flitsim/sim/sweep"
)

type simValueJSON struct {
	Mean      sweep.JSONFloat `json:"mean"`
	HalfWidth sweep.JSONFloat `json:"half_width"`
}

type pointResultJSON struct {
	Rate   sweep.JSONFloat         `json:"rate"`
	Status string                  `json:"status"`
	Reason string                  `json:"reason,omitempty"`
	Values map[string]simValueJSON `json:"values"` // null for a nil map, {} for an empty one; keys sorted by encoding/json
	Err    string                  `json:"error,omitempty"`
}

// MarshalJSON writes r so that UnmarshalJSON reads back exactly r.
func (r PointResult) MarshalJSON() ([]byte, error) {
	j := pointResultJSON{Rate: sweep.JSONFloat(r.Point.Rate), Status: r.Point.Status, Reason: r.Point.Reason, Err: r.Err}
	if r.Point.Values != nil {
		j.Values = make(map[string]simValueJSON, len(r.Point.Values))
		for k, v := range r.Point.Values {
			j.Values[k] = simValueJSON{sweep.JSONFloat(v.Mean), sweep.JSONFloat(v.HalfWidth)}
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes (unknown fields refused).
func (r *PointResult) UnmarshalJSON(b []byte) error {
	var j pointResultJSON
	if err := sweep.DecodeStrict(b, &j); err != nil {
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
