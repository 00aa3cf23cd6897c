package analytic

import (
	"errors"
	"fmt"
)

// ErrSaturated reports that the offered load is at or beyond the model's
// stability limit (a utilisation reached 1, a fixed point diverged).
var ErrSaturated = errors.New("saturated")

// ErrDomain reports parameters outside the model's stated domain: invalid
// values, or an approximation used outside its validity region.
var ErrDomain = errors.New("outside the model's domain")

// DomainError says which model refused which condition. It wraps
// ErrSaturated or ErrDomain, so callers test with errors.Is.
type DomainError struct {
	Model     string // e.g. "reed.MVA", "delta.CaseI"
	Condition string // the condition that failed, e.g. "rho = lambda*S_INJ >= 1"
	Kind      error  // ErrSaturated or ErrDomain
}

func (e *DomainError) Error() string {
	return fmt.Sprintf("%s: %v: %s", e.Model, e.Kind, e.Condition)
}

func (e *DomainError) Unwrap() error { return e.Kind }

// Saturated returns a *DomainError of kind ErrSaturated; the condition is
// formatted with fmt.Sprintf.
func Saturated(model, format string, args ...any) error {
	return &DomainError{Model: model, Condition: fmt.Sprintf(format, args...), Kind: ErrSaturated}
}

// Domain returns a *DomainError of kind ErrDomain; the condition is
// formatted with fmt.Sprintf.
func Domain(model, format string, args ...any) error {
	return &DomainError{Model: model, Condition: fmt.Sprintf(format, args...), Kind: ErrDomain}
}
