package queue

import (
	"math"

	"github.com/flitsim/flitsim/analytic"
)

// MM1L is an M/M/1/L queue: Poisson arrivals of rate lambda, one exponential
// server of rate mu, room for L customers counting the one in service
// (docs/models.md#mm1l). An arrival that finds L customers is lost, so the
// queue is stable at every rho > 0, rho >= 1 included.
//
// With rho = lambda/mu, for rho != 1 (docs/models.md#mm1l, Eq. (1.1)):
//
//	p_k = (1 - rho) rho^k / (1 - rho^{L+1}),   k = 0..L
//
// and p_k = 1/(L+1) at rho = 1. Internally every formula is written in
// x = ln(rho) with expm1 so that it is exact to a few ulp across rho = 1 and
// does not overflow for large rho^L.
type MM1L struct {
	lambda, mu float64
	l          int
	x          float64 // ln(rho)
}

// NewMM1L returns the M/M/1/L queue with arrival rate lambda, service rate mu
// and capacity l (places, including the one in service). lambda and mu must
// be finite and > 0 and l >= 1, otherwise the error wraps analytic.ErrDomain.
func NewMM1L(lambda, mu float64, l int) (MM1L, error) {
	const model = "queue.MM1L"
	if err := checkPositive(model, "lambda", lambda); err != nil {
		return MM1L{}, err
	}
	if err := checkPositive(model, "mu", mu); err != nil {
		return MM1L{}, err
	}
	if l < 1 {
		return MM1L{}, analytic.Domain(model, "L = %d, want >= 1", l)
	}
	rho := lambda / mu
	if rho == 0 || math.IsInf(rho, 0) {
		return MM1L{}, analytic.Domain(model, "rho = lambda/mu = %g not representable", rho)
	}
	return MM1L{lambda: lambda, mu: mu, l: l, x: math.Log(rho)}, nil
}

// Lambda returns the offered arrival rate.
func (q MM1L) Lambda() float64 { return q.lambda }

// Mu returns the service rate.
func (q MM1L) Mu() float64 { return q.mu }

// L returns the capacity, counting the customer in service.
func (q MM1L) L() int { return q.l }

// Rho returns the offered load lambda/mu (not the utilisation; see Utilisation).
func (q MM1L) Rho() float64 { return q.lambda / q.mu }

// P returns the stationary probability of k customers in the system,
// 0 outside k = 0..L (docs/models.md#mm1l, Eq. (1.1)):
//
//	p_k = (1 - rho) rho^k / (1 - rho^{L+1}) = rho^k / sum_{j=0}^{L} rho^j
func (q MM1L) P(k int) float64 {
	if k < 0 || k > q.l {
		return 0
	}
	x, l := q.x, float64(q.l)
	switch {
	case x == 0:
		return 1 / (l + 1)
	case x < 0:
		return math.Exp(float64(k)*x) * math.Expm1(x) / math.Expm1((l+1)*x)
	default: // divide numerator and denominator by rho^{L+1}: no overflow
		return math.Exp(float64(k-q.l)*x) * math.Expm1(-x) / math.Expm1(-(l+1)*x)
	}
}

// Probabilities appends p_0, ..., p_L to dst and returns the extended slice.
func (q MM1L) Probabilities(dst []float64) []float64 {
	for k := 0; k <= q.l; k++ {
		dst = append(dst, q.P(k))
	}
	return dst
}

// Blocking returns the probability that an arrival is lost, which by PASTA
// is the probability that the queue is full (docs/models.md#mm1l):
//
//	p_L = (1 - rho) rho^L / (1 - rho^{L+1});   1/(L+1) at rho = 1
func (q MM1L) Blocking() float64 { return q.P(q.l) }

// acceptance returns 1 - p_L without cancellation:
//
//	1 - p_L = (1 - rho^L) / (1 - rho^{L+1})
func (q MM1L) acceptance() float64 {
	x, l := q.x, float64(q.l)
	switch {
	case x == 0:
		return l / (l + 1)
	case x < 0:
		return math.Expm1(l*x) / math.Expm1((l+1)*x)
	default:
		return math.Exp(-x) * math.Expm1(-l*x) / math.Expm1(-(l+1)*x)
	}
}

// Accepted returns the rate of customers that enter (and leave) the queue
// (docs/models.md#mm1l):
//
//	lambda_eff = lambda (1 - p_L) = mu (1 - p_0)
func (q MM1L) Accepted() float64 { return q.lambda * q.acceptance() }

// Utilisation returns the probability that the server is busy:
//
//	U = 1 - p_0 = lambda_eff / mu
func (q MM1L) Utilisation() float64 { return q.Accepted() / q.mu }

// Bernoulli-number coefficients B_{2n}/(2n)! of (y/2) coth(y/2) - 1, n = 1..5,
// used by the series of MeanNumber.
var cothCoef = [...]float64{1.0 / 12, -1.0 / 720, 1.0 / 30240, -1.0 / 1209600, 1.0 / 47900160}

// MeanNumber returns the mean number in the system (docs/models.md#mm1l, Eq. (2)):
//
//	E[N] = rho/(1-rho) - (L+1) rho^{L+1}/(1-rho^{L+1}),   rho != 1;   L/2 at rho = 1
//
// It is evaluated as E[N] = (L+1)/(1 - e^{-(L+1)x}) - 1/(1 - e^{-x}),
// x = ln rho, and, where that cancels ((L+1)|x| < 0.1), by its series
//
//	E[N] = L/2 + sum_{n>=1} B_{2n}/(2n)! ((L+1)^{2n} - 1) x^{2n-1}
//	     = L/2 + L(L+2) x/12 - ((L+1)^4 - 1) x^3/720 + ...
//
// truncated after five terms (remainder below 1e-17 relative).
func (q MM1L) MeanNumber() float64 {
	x, l := q.x, float64(q.l)
	if x == 0 {
		return l / 2
	}
	a := (l + 1) * x
	if math.Abs(a) >= 0.1 {
		return (l+1)/-math.Expm1(-a) - 1/-math.Expm1(-x)
	}
	y, z := a*a, x*x
	yn, zn := y, z
	s := 0.0
	for _, c := range cothCoef {
		s += c * (yn - zn)
		yn *= y
		zn *= z
	}
	return l/2 + s/x
}

// MeanQueue returns the mean number waiting, not in service:
//
//	E[N_q] = E[N] - (1 - p_0) = sum_{k=2}^{L} (k-1) p_k
//
// For rho < 1/4 the positive sum is used, so the small-rho value keeps full
// relative precision.
func (q MM1L) MeanQueue() float64 {
	rho := q.Rho()
	if rho >= 0.25 {
		return q.MeanNumber() - q.Utilisation()
	}
	p0 := q.P(0)
	s, rk := 0.0, rho
	for k := 2; k <= q.l; k++ {
		rk *= rho
		t := float64(k-1) * rk
		s += t
		if t < 1e-18*s {
			break
		}
	}
	return p0 * s
}

// MeanTime returns the mean sojourn of an accepted customer, by Little's law
// with the accepted rate (docs/models.md#mm1l):
//
//	E[T] = E[N] / (lambda (1 - p_L))
//	     = [1 - (L+1) rho^L + L rho^{L+1}] / (mu (1-rho)(1 - rho^L)),   rho != 1
//	E[T] = (L+1) / (2 mu),   rho = 1
func (q MM1L) MeanTime() float64 {
	if q.x == 0 {
		return (float64(q.l) + 1) / (2 * q.mu)
	}
	return q.MeanNumber() / q.Accepted()
}

// MeanWait returns the mean time an accepted customer waits before service:
//
//	E[W] = E[N_q] / (lambda (1 - p_L)) = E[T] - 1/mu
func (q MM1L) MeanWait() float64 { return q.MeanQueue() / q.Accepted() }
