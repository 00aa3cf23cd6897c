package hypercube

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// relTol is the tolerance of MODELS.md §0.2/§7 for closed forms and
// iterative solutions; ratTol the one for exact rationals.
const (
	relTol = 1e-9
	ratTol = 1e-12
)

// pinTol parses a reference value as printed in MODELS.md and returns it
// with its tolerance: relTol relative, or half a unit of the last printed
// digit when the table prints fewer digits than relTol needs (the tables
// round to 8–10 significant digits).
func pinTol(t *testing.T, s string) (want, tol float64) {
	t.Helper()
	want, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("bad pin %q: %v", s, err)
	}
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		if exp, err = strconv.Atoi(s[i+1:]); err != nil {
			t.Fatalf("bad pin %q: %v", s, err)
		}
	}
	dec := 0
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		dec = len(mant) - i - 1
	}
	half := 0.5 * math.Pow(10, float64(exp-dec)) * (1 + 1e-9)
	return want, math.Max(relTol*math.Abs(want), half)
}

// checkPin compares got with a printed reference value.
func checkPin(t *testing.T, what string, got float64, pin string) {
	t.Helper()
	want, tol := pinTol(t, pin)
	if !(math.Abs(got-want) <= tol) {
		t.Errorf("%s = %.15g, want %s (tol %.3g)", what, got, pin, tol)
	}
}

// checkRel compares got with an exact value at relative tolerance tol.
func checkRel(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol*math.Abs(want)) {
		t.Errorf("%s = %.17g, want %.17g (rel tol %.3g, rel err %.3g)", what, got, want, tol, math.Abs(got-want)/math.Abs(want))
	}
}
