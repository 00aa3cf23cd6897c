// Package pin compares computed model values with the reference values of
// docs/models.md, which are printed with a limited number of digits. It is
// test support for the analytic packages: one definition of "agrees with the
// printed number" for all of them.
//
// A printed value agrees when it is within a relative tolerance
// (docs/models.md#numerics: 1e-9 for closed forms and iterative solutions,
// 1e-12 for exact rationals) or, when the table prints fewer digits than
// that needs, within half a unit of its last printed digit.
package pin

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// Tolerances of docs/models.md#numerics and docs/models.md#pins.
const (
	Rel      = 1e-9  // closed forms, MVA, iterative solutions
	Rational = 1e-12 // exact rationals
)

// Tol parses a reference value as printed and returns it with its
// tolerance: rel relative, or half a unit of the last printed digit,
// whichever is larger.
func Tol(t testing.TB, s string, rel float64) (want, tol float64) {
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
	return want, math.Max(rel*math.Abs(want), half)
}

// Check reports an error unless got agrees with the printed value (Tol
// with relative tolerance Rel).
func Check(t testing.TB, what string, got float64, printed string) {
	t.Helper()
	want, tol := Tol(t, printed, Rel)
	if !(math.Abs(got-want) <= tol) {
		t.Errorf("%s = %.15g, want %s (tol %.3g)", what, got, printed, tol)
	}
}

// CheckRel reports an error unless |got - want| <= tol |want|.
func CheckRel(t testing.TB, what string, got, want, tol float64) {
	t.Helper()
	if !CloseRel(got, want, tol) {
		t.Errorf("%s = %.17g, want %.17g (rel tol %.3g, rel err %.3g)", what, got, want, tol, math.Abs(got-want)/math.Abs(want))
	}
}

// CloseRel reports whether |got - want| <= tol |want| (tol absolute when
// want is 0). NaN never agrees.
func CloseRel(got, want, tol float64) bool {
	if want == 0 {
		return math.Abs(got) <= tol
	}
	return math.Abs(got-want) <= tol*math.Abs(want)
}

// ClosePrinted reports whether got rounds to want printed with the given
// number of decimals: |got - want| <= half a unit in the last place.
func ClosePrinted(got, want float64, decimals int) bool {
	return math.Abs(got-want) <= 0.5*math.Pow(10, -float64(decimals))+1e-12
}
