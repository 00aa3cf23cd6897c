package hypercube

import (
	"testing"

	"github.com/flitsim/flitsim/internal/pin"
)

// relTol and ratTol are the tolerances of MODELS.md §0.2/§7 for closed forms
// and exact rationals; the comparisons live in internal/pin, shared by every
// analytic package.
const (
	relTol = pin.Rel
	ratTol = pin.Rational
)

// pinTol parses a printed reference value and returns it with its tolerance.
func pinTol(t *testing.T, s string) (want, tol float64) {
	t.Helper()
	return pin.Tol(t, s, relTol)
}

// checkPin compares got with a printed reference value.
func checkPin(t *testing.T, what string, got float64, printed string) {
	t.Helper()
	pin.Check(t, what, got, printed)
}

// checkRel compares got with an exact value at relative tolerance tol.
func checkRel(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	pin.CheckRel(t, what, got, want, tol)
}
