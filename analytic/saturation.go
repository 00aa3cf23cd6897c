package analytic

import "errors"

// SaturationPoint returns the largest rate found in (0, hi) at which solve
// does not report saturation, by bisection until the bracket is narrower
// than relWidth*hi (hi shrinking as the bisection proceeds). solve must
// return nil below the saturation point and an error wrapping ErrSaturated
// above it; any other error stops the search and is returned. The result
// is the last rate solve accepted (0 if it accepted none), so solve
// saturates within the final bracket above it.
func SaturationPoint(solve func(rate float64) error, hi, relWidth float64) (float64, error) {
	lo := 0.0
	for hi-lo > relWidth*hi {
		mid := 0.5 * (lo + hi)
		switch err := solve(mid); {
		case err == nil:
			lo = mid
		case errors.Is(err, ErrSaturated):
			hi = mid
		default:
			return 0, err
		}
	}
	return lo, nil
}
