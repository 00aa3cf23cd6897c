package pin

import "testing"

func TestTolFromPrintedDigits(t *testing.T) {
	for _, c := range []struct {
		s        string
		want     float64
		wantHalf float64
	}{
		{"3.75", 3.75, 0.005},
		{"0.90645816", 0.90645816, 5e-9},
		{"2.048001049e-6", 2.048001049e-6, 2.048001049e-15}, // 1e-9 relative exceeds half a unit (5e-16)
		{"40.249376", 40.249376, 5e-7},
	} {
		got, tol := Tol(t, c.s, Rel)
		if got != c.want || !CloseRel(tol, c.wantHalf, 1e-6) {
			t.Errorf("Tol(%q) = %v ± %v, want %v ± %v", c.s, got, tol, c.want, c.wantHalf)
		}
	}
	// Enough digits: the relative tolerance wins.
	if _, tol := Tol(t, "1.40539932686107", Rel); !CloseRel(tol, 1.40539932686107e-9, 1e-9) {
		t.Errorf("tolerance %v, want 1e-9 relative", tol)
	}
	if !ClosePrinted(43.61255, 43.6126, 4) || ClosePrinted(43.6115, 43.6126, 4) {
		t.Error("ClosePrinted disagrees with rounding to 4 decimals")
	}
	if CloseRel(0.1, 0, 0.01) || !CloseRel(1.0000000001, 1, 1e-9) {
		t.Error("CloseRel wrong")
	}
}
