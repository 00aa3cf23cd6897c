package delta

import (
	"errors"
	"testing"

	"github.com/flitsim/flitsim/analytic"
	"github.com/flitsim/flitsim/internal/pin"
)

// docs/models.md#makrucki-domain table (Figure 3, p0max = D = 0.05, C = 0.95): rho_I,
// rho_0 and L/(L+1) for each printed L.
func TestValidityTable(t *testing.T) {
	var v Validity // zero value = Figure 3 parameters
	rows := []struct {
		L          int
		rhoI, rho0 string
	}{
		{1, "0.21821789", "19.0"},
		{2, "0.36246012", "3.8874822"},
		{4, "0.54394644", "1.7341440"},
		{8, "0.71299543", "1.1908927"},
		{16, "0.83603103", "1.0199274"},
		{19, "0.85879407", "1.0"},
		{30, "0.90645816", "0.96859317"},
		{32, "0.91186962", "0.96592685"},
	}
	for _, r := range rows {
		ri, err := v.RhoI(r.L)
		if err != nil {
			t.Fatal(err)
		}
		r0, err := v.Rho0(r.L)
		if err != nil {
			t.Fatal(err)
		}
		pin.Check(t, "docs/models.md#makrucki-domain rho_I", ri, r.rhoI)
		pin.Check(t, "docs/models.md#makrucki-domain rho_0", r0, r.rho0)
	}
	// docs/models.md#makrucki-domain exact: rho_0(1) = 19 (1 + rho = 20), rho_0(19) = 1 (p_0(1) = 1/20 = p0max).
	r0, _ := v.Rho0(1)
	pin.CheckRel(t, "rho_0(L=1)", r0, 19, 1e-12)
	r0, _ = v.Rho0(19)
	pin.CheckRel(t, "rho_0(L=19)", r0, 1, 1e-12)
	// docs/models.md#makrucki-domain / docs/models.md#pins: Case III needs L >= 19 for C = 0.95.
	if m, err := v.CaseIIIMinL(); err != nil || m != 19 {
		t.Errorf("CaseIIIMinL = %d, %v; want 19", m, err)
	}
	if m, _ := (Validity{C: 0.5}).CaseIIIMinL(); m != 1 {
		t.Errorf("CaseIIIMinL(C=0.5) = %d, want 1", m)
	}
	if m, _ := (Validity{C: 0.9}).CaseIIIMinL(); m != 9 {
		t.Errorf("CaseIIIMinL(C=0.9) = %d, want 9", m)
	}
}

// rho_0 is the root of p0max (1 - rho^{L+1}) + rho = 1 (reading R6) and
// lies below 1 exactly when 1/(L+1) < p0max.
func TestRho0Identity(t *testing.T) {
	for _, p0max := range []float64{0.01, 0.05, 0.2} {
		v := Validity{P0Max: p0max}
		for L := 1; L <= 120; L++ {
			r, err := v.Rho0(L)
			if err != nil {
				t.Fatal(err)
			}
			pin.CheckRel(t, "p_0(rho_0)", p0(r, L), p0max, 1e-12)
			if (r < 1) != (1/float64(L+1) < p0max) && r != 1 {
				t.Errorf("p0max=%v L=%d: rho_0 = %v on the wrong side of 1", p0max, L, r)
			}
		}
	}
}

func TestSelect(t *testing.T) {
	var v Validity
	cases := []struct {
		L    int
		rho  float64
		want Case
	}{
		{2, 0.2, CaseI},
		{4, 2, CaseII},
		{32, 1, CaseIII},
		{30, 0.97, CaseII},
		{8, 0.71, CaseI},
	}
	for _, c := range cases {
		got, err := v.Select(c.L, c.rho)
		if err != nil || got != c.want {
			t.Errorf("Select(%d, %v) = %v, %v; want %v", c.L, c.rho, got, err, c.want)
		}
	}
	// Between rho_I and rho_0, and at rho = 1 with a short queue, nothing holds.
	for _, c := range []struct {
		L   int
		rho float64
	}{{2, 0.5}, {8, 1}, {30, 0.95}} {
		if _, err := v.Select(c.L, c.rho); !errors.Is(err, analytic.ErrDomain) {
			t.Errorf("Select(%d, %v) err = %v, want ErrDomain", c.L, c.rho, err)
		}
	}
}

func TestValidityErrors(t *testing.T) {
	for _, v := range []Validity{{D: -1}, {P0Max: 1}, {P0Max: -0.1}, {C: 1}, {C: 2}} {
		if _, err := v.RhoI(4); !errors.Is(err, analytic.ErrDomain) {
			t.Errorf("%+v: err = %v, want ErrDomain", v, err)
		}
	}
	var v Validity
	if _, err := v.Rho0(0); !errors.Is(err, analytic.ErrDomain) {
		t.Errorf("Rho0(0) err = %v", err)
	}
	if _, err := v.Contains(CaseI, 4, -1); !errors.Is(err, analytic.ErrDomain) {
		t.Errorf("Contains(rho=-1) err = %v", err)
	}
}
