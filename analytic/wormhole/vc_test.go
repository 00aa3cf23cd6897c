package wormhole

import (
	"errors"
	"math"
	"testing"

	"github.com/flitsim/flitsim/analytic"
	"github.com/flitsim/flitsim/internal/pin"
)

// The recursive chain of seed 004 Eq. (12) against the closed form
// P_v = (1-rho) rho^v (v < V), P_V = rho^V (docs/models.md#dally-1992), 1e-12 relative.
func TestVCOccupancyMatchesClosedForm(t *testing.T) {
	for _, V := range []int{1, 2, 3, 6, 16} {
		for _, rho := range []float64{0, 1e-6, 0.01, 0.39, 0.5, 0.9, 0.999} {
			const S = 39.0
			occ, err := VCOccupancy(rho/S, S, V)
			if err != nil {
				t.Fatalf("V=%d rho=%g: %v", V, rho, err)
			}
			if len(occ.P) != V+1 {
				t.Fatalf("V=%d: len(P) = %d", V, len(occ.P))
			}
			var sum, num, den float64
			for v, p := range occ.P {
				want := (1 - rho) * math.Pow(rho, float64(v))
				if v == V {
					want = math.Pow(rho, float64(V))
				}
				if !pin.CloseRel(p, want, 1e-12) && math.Abs(p-want) > 1e-300 {
					t.Errorf("V=%d rho=%g: P_%d = %.17g, want %.17g", V, rho, v, p, want)
				}
				sum += p
				num += float64(v*v) * p
				den += float64(v) * p
			}
			if !pin.CloseRel(sum, 1, 1e-12) {
				t.Errorf("V=%d rho=%g: sum P = %.17g", V, rho, sum)
			}
			if den > 0 && !pin.CloseRel(occ.Vbar, num/den, 1e-12) {
				t.Errorf("V=%d rho=%g: Vbar = %g, want %g", V, rho, occ.Vbar, num/den)
			}
			if occ.Vbar < 1 || occ.Vbar > float64(V)+1e-12 {
				t.Errorf("V=%d rho=%g: Vbar = %g outside [1, V]", V, rho, occ.Vbar)
			}
			switch V {
			case 1:
				if occ.Vbar != 1 {
					t.Errorf("V=1 rho=%g: Vbar = %g, want 1", rho, occ.Vbar)
				}
			case 2:
				if want := (1 + 3*rho) / (1 + rho); !pin.CloseRel(occ.Vbar, want, 1e-12) {
					t.Errorf("V=2 rho=%g: Vbar = %.17g, want (1+3rho)/(1+rho) = %.17g", rho, occ.Vbar, want)
				}
			}
		}
	}
}

// docs/models.md#safaei-check P_v check: l_c = 0.01, S = 39, V = 2 gives
// P = (0.61, 0.2379, 0.1521) (exact decimals, 1e-12 relative) and
// Vbar = 1.5611511 (printed to 7 decimals, half-unit tolerance).
func TestVCOccupancyPin(t *testing.T) {
	occ, err := VCOccupancy(0.01, 39, 2)
	if err != nil {
		t.Fatal(err)
	}
	for v, want := range []float64{0.61, 0.2379, 0.1521} {
		if !pin.CloseRel(occ.P[v], want, 1e-12) {
			t.Errorf("P_%d = %.17g, want %g", v, occ.P[v], want)
		}
	}
	if !pin.ClosePrinted(occ.Vbar, 1.5611511, 7) {
		t.Errorf("Vbar = %.10f, want 1.5611511", occ.Vbar)
	}
}

func TestVCOccupancyErrors(t *testing.T) {
	for _, c := range []struct {
		lc, S float64
		V     int
		kind  error
	}{
		{1.0 / 39, 39, 2, analytic.ErrSaturated},
		{0.05, 39, 1, analytic.ErrSaturated},
		{0.01, 39, 0, analytic.ErrDomain},
		{0.01, 0, 2, analytic.ErrDomain},
		{-0.01, 39, 2, analytic.ErrDomain},
		{math.NaN(), 39, 2, analytic.ErrDomain},
		{0.01, math.Inf(1), 2, analytic.ErrDomain},
	} {
		if _, err := VCOccupancy(c.lc, c.S, c.V); !errors.Is(err, c.kind) {
			t.Errorf("VCOccupancy(%g, %g, %d) error %v, want %v", c.lc, c.S, c.V, err, c.kind)
		}
	}
}
