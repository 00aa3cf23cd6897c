package validation

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/flitsim/flitsim/sim"
)

// TestPointResultRoundTrip: a shard's point survives JSON bit for bit: NaN
// half-widths, an empty (non-nil) and a nil Values map, the error text.
func TestPointResultRoundTrip(t *testing.T) {
	for _, r := range []PointResult{
		{Point: SimPoint{Rate: 0.1, Status: sim.StatusOK, Values: map[string]SimValue{QLatency: {Mean: 23.134533898305083, HalfWidth: math.NaN()}, QX0: {Mean: 1.5, HalfWidth: 0.01}}}},
		{Point: SimPoint{Rate: 1.0 / 3, Status: "saturated", Reason: "backlog", Values: map[string]SimValue{}}},
		{Point: SimPoint{Rate: 7, Status: sim.StatusOutOfDomain, Reason: "no simulator"}, Err: "validation: x: no simulator"},
	} {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back PointResult
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		// NaN != NaN: compare the bits of every float.
		if back.Err != r.Err || back.Point.Status != r.Point.Status || back.Point.Reason != r.Point.Reason ||
			math.Float64bits(back.Point.Rate) != math.Float64bits(r.Point.Rate) ||
			(back.Point.Values == nil) != (r.Point.Values == nil) || len(back.Point.Values) != len(r.Point.Values) {
			t.Fatalf("round trip of %s: %+v, want %+v", b, back, r)
		}
		for k, v := range r.Point.Values {
			w := back.Point.Values[k]
			if math.Float64bits(w.Mean) != math.Float64bits(v.Mean) || math.Float64bits(w.HalfWidth) != math.Float64bits(v.HalfWidth) {
				t.Fatalf("%s: %v, want %v", k, w, v)
			}
		}
	}
}
