package analytic

import (
	"errors"
	"testing"
)

// A model saturating at rate 0.3 exactly: the bisection must stop within
// relWidth of it, below it, and pass domain errors on unchanged.
func TestSaturationPoint(t *testing.T) {
	const sat, rel = 0.3, 1e-12
	solve := func(r float64) error {
		if r >= sat {
			return Saturated("test", "rate %g >= %g", r, sat)
		}
		return nil
	}
	got, err := SaturationPoint(solve, 1, rel)
	if err != nil {
		t.Fatal(err)
	}
	if !(got < sat && sat-got <= 2*rel*sat) {
		t.Errorf("SaturationPoint = %.17g, want within %g below %g", got, 2*rel*sat, sat)
	}
	// Saturated everywhere: nothing accepted.
	if got, err := SaturationPoint(func(float64) error { return Saturated("test", "always") }, 1, rel); got != 0 || err != nil {
		t.Errorf("always saturated: got %g, %v; want 0, nil", got, err)
	}
	bad := Domain("test", "broken")
	if _, err := SaturationPoint(func(float64) error { return bad }, 1, rel); !errors.Is(err, ErrDomain) {
		t.Errorf("domain error not passed on: %v", err)
	}
}
