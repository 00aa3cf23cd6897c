package delta

import (
	"math"

	"github.com/flitsim/flitsim/analytic"
)

// EmptyProb selects the probability that a departure leaves the station
// empty in [InterdepartureDensity] (erratum E6, docs/errata.md#e6).
type EmptyProb int

const (
	// EmptyTimeAverage (the report's choice, the default) uses the
	// time-average p_0 = (1-rho)/(1-rho^{L+1}); the resulting density does
	// not have mean 1/(lambda(1-p_L)).
	EmptyTimeAverage EmptyProb = iota
	// EmptyAtDeparture uses the exact departure-epoch probability
	// pi_0 = p_0/(1-p_L) = (1-rho)/(1-rho^L); the mean interdeparture time
	// is then exactly 1/(lambda(1-p_L)).
	EmptyAtDeparture
)

// InterdepartureDensity returns the density at t >= 0 of the time between
// departures of an M/M/1/L station with arrival rate lambda > 0, service
// rate mu > 0 and capacity L >= 1 (§3.1 Eqs. (3.1), (3.2); docs/models.md#makrucki-interdeparture).
// After a departure that empties the station the next one is an Exp(lambda)
// idle time plus an Exp(mu) service, otherwise an Exp(mu) service:
//
//	f_T(t) = w lambda e^{-lambda t} + (1-w) mu e^{-mu t},  w = p_0/(1-rho) = 1/(1-rho^{L+1})    (3.1)
//	f_T(t) = (1/(L+1)) mu^2 t e^{-mu t} + (L/(L+1)) mu e^{-mu t},              rho = 1          (3.2)
//
// (with EmptyAtDeparture, w = pi_0/(1-rho) = 1/(1-rho^L) and (3.2) becomes
// (1/L) mu^2 t e^{-mu t} + ((L-1)/L) mu e^{-mu t}). (3.1) is evaluated as
//
//	f_T(t) = mu e^{-mu t} [ 1 + w (delta e^{-delta mu t} + expm1(-delta mu t)) ],
//	w = -1/expm1(m log1p(delta)),  delta = rho - 1,  m = L+1 (or L)
//
// which is accurate for rho arbitrarily close to 1 and equals (3.2) in the
// limit. The report uses it only to justify the three cases; so does flitsim
// (documentation and tests). Case III's weight C of the mu-exponential term
// is the coefficient L/(L+1) of (3.2).
func InterdepartureDensity(t, lambda, mu float64, L int, e EmptyProb) (float64, error) {
	const model = "delta.InterdepartureDensity"
	if !(t >= 0) {
		return 0, analytic.Domain(model, "t = %v, want t >= 0", t)
	}
	m, delta, w, err := interdeparture(model, lambda, mu, L, e)
	if err != nil {
		return 0, err
	}
	base := mu * math.Exp(-mu*t)
	if delta == 0 {
		// (3.2): base * [1 - (1 - mu t)/m]
		return base * (1 - (1-mu*t)/float64(m)), nil
	}
	x := -delta * mu * t
	return base * (1 + w*(delta*math.Exp(x)+math.Expm1(x))), nil
}

// InterdepartureMean returns the mean of [InterdepartureDensity]:
//
//	w/lambda + (1-w)/mu          (3.1)
//	1/mu + 1/(m mu)              (3.2), m = L+1 (or L with EmptyAtDeparture)
//
// With EmptyAtDeparture it equals 1/(lambda(1-p_L)), the mean time between
// departures of the station; with the report's p_0 it does not (erratum E6,
// docs/errata.md#e6). Same domain as InterdepartureDensity.
func InterdepartureMean(lambda, mu float64, L int, e EmptyProb) (float64, error) {
	m, delta, w, err := interdeparture("delta.InterdepartureMean", lambda, mu, L, e)
	if err != nil {
		return 0, err
	}
	if delta == 0 {
		return (1 + 1/float64(m)) / mu, nil
	}
	return 1/mu - w*delta/lambda, nil // w/lambda + (1-w)/mu, as 1/lambda - 1/mu = -delta/lambda
}

// interdeparture checks the parameters and returns the exponent m of the
// empty probability, delta = rho - 1 and the weight w of (3.1) (0 when
// delta = 0).
func interdeparture(model string, lambda, mu float64, L int, e EmptyProb) (m int, delta, w float64, err error) {
	switch {
	case !(lambda > 0) || math.IsInf(lambda, 1):
		return 0, 0, 0, analytic.Domain(model, "lambda = %v, want 0 < lambda < inf", lambda)
	case !(mu > 0) || math.IsInf(mu, 1):
		return 0, 0, 0, analytic.Domain(model, "mu = %v, want 0 < mu < inf", mu)
	case L < 1:
		return 0, 0, 0, analytic.Domain(model, "L = %d, want L >= 1", L)
	case e != EmptyTimeAverage && e != EmptyAtDeparture:
		return 0, 0, 0, analytic.Domain(model, "unknown EmptyProb %d", e)
	}
	m = L + 1
	if e == EmptyAtDeparture {
		m = L
	}
	delta = (lambda - mu) / mu
	if delta != 0 {
		w = -1 / math.Expm1(float64(m)*math.Log1p(delta))
	}
	return m, delta, w, nil
}
