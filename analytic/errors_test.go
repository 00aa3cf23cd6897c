package analytic

import (
	"errors"
	"testing"
)

func TestDomainErrorsWrapTheirKind(t *testing.T) {
	s := Saturated("queue.MM1", "rho = %.2f >= 1", 1.5)
	if !errors.Is(s, ErrSaturated) || errors.Is(s, ErrDomain) {
		t.Fatalf("Saturated error %v does not wrap ErrSaturated only", s)
	}
	if got, want := s.Error(), "queue.MM1: saturated: rho = 1.50 >= 1"; got != want {
		t.Fatalf("message %q, want %q", got, want)
	}
	d := Domain("reed.LV", "L = %d outside [1, %d]", 9, 6)
	if !errors.Is(d, ErrDomain) || errors.Is(d, ErrSaturated) {
		t.Fatalf("Domain error %v does not wrap ErrDomain only", d)
	}
}
