package queue

import (
	"math"

	"github.com/flitsim/flitsim/analytic"
)

// MG1 is an M/G/1 queue: Poisson arrivals of rate lambda, one FCFS server
// whose service times are independent with mean E[S] and second moment
// E[S^2], rho = lambda E[S] < 1. Its mean wait is the Pollaczek–Khinchine
// formula (Kleinrock 1975, Vol. I, ch. 5):
//
//	W = lambda E[S^2] / (2 (1 - rho))
type MG1 struct {
	lambda, mean, second float64
}

// NewMG1 returns the M/G/1 queue with arrival rate lambda and service-time
// mean and second moment. All three must be finite and > 0, and
// secondMoment >= mean^2 (a variance cannot be negative), otherwise the error
// wraps analytic.ErrDomain; rho = lambda*mean >= 1 wraps analytic.ErrSaturated.
func NewMG1(lambda, mean, secondMoment float64) (MG1, error) {
	return newMG1("queue.MG1", lambda, mean, secondMoment)
}

func newMG1(model string, lambda, mean, second float64) (MG1, error) {
	if err := checkPositive(model, "lambda", lambda); err != nil {
		return MG1{}, err
	}
	if err := checkPositive(model, "E[S]", mean); err != nil {
		return MG1{}, err
	}
	if err := checkPositive(model, "E[S^2]", second); err != nil {
		return MG1{}, err
	}
	// Relative slack of a few ulp so that E[S^2] = E[S]^2 computed in
	// float64 (deterministic service) is accepted.
	if second < mean*mean*(1-4*0x1p-52) {
		return MG1{}, analytic.Domain(model, "E[S^2] = %g < E[S]^2 = %g (negative variance)", second, mean*mean)
	}
	if rho := lambda * mean; rho >= 1 {
		return MG1{}, analytic.Saturated(model, "rho = lambda*E[S] = %g >= 1", rho)
	}
	return MG1{lambda: lambda, mean: mean, second: second}, nil
}

// NewMG1SCV returns the M/G/1 queue whose service time has mean E[S] and
// squared coefficient of variation scv = Var[S]/E[S]^2 >= 0, that is
//
//	E[S^2] = E[S]^2 (1 + scv)
//
// (scv = 0 deterministic, scv = 1 exponential). lambda and mean must be finite
// and > 0 and scv finite and >= 0 (analytic.ErrDomain); rho >= 1 wraps
// analytic.ErrSaturated.
func NewMG1SCV(lambda, mean, scv float64) (MG1, error) {
	const model = "queue.MG1"
	if !(scv >= 0) || math.IsInf(scv, 0) {
		return MG1{}, analytic.Domain(model, "scv = %g, want finite and >= 0", scv)
	}
	if err := checkPositive(model, "E[S]", mean); err != nil {
		return MG1{}, err
	}
	return newMG1(model, lambda, mean, mean*mean*(1+scv))
}

// MG1Wait returns the Pollaczek–Khinchine mean wait of an M/G/1 queue
// (Kleinrock 1975, Vol. I, ch. 5), with the errors of NewMG1:
//
//	W = lambda E[S^2] / (2 (1 - rho)),   rho = lambda E[S]
func MG1Wait(lambda, mean, secondMoment float64) (float64, error) {
	q, err := NewMG1(lambda, mean, secondMoment)
	if err != nil {
		return 0, err
	}
	return q.MeanWait(), nil
}

// MG1WaitSCV returns the Pollaczek–Khinchine mean wait written with the
// squared coefficient of variation of service, with the errors of NewMG1SCV:
//
//	W = rho E[S] (1 + scv) / (2 (1 - rho))
func MG1WaitSCV(lambda, mean, scv float64) (float64, error) {
	q, err := NewMG1SCV(lambda, mean, scv)
	if err != nil {
		return 0, err
	}
	return q.MeanWait(), nil
}

// Lambda returns the arrival rate.
func (q MG1) Lambda() float64 { return q.lambda }

// MeanService returns E[S].
func (q MG1) MeanService() float64 { return q.mean }

// SecondMoment returns E[S^2].
func (q MG1) SecondMoment() float64 { return q.second }

// SCV returns the squared coefficient of variation of service,
// E[S^2]/E[S]^2 - 1 (clamped at 0 against rounding).
func (q MG1) SCV() float64 { return max(q.second/(q.mean*q.mean)-1, 0) }

// Rho returns the utilisation lambda E[S].
func (q MG1) Rho() float64 { return q.lambda * q.mean }

// MeanWait returns the Pollaczek–Khinchine mean wait before service
// (Kleinrock 1975, Vol. I, ch. 5):
//
//	W = lambda E[S^2] / (2 (1 - rho))
func (q MG1) MeanWait() float64 { return q.lambda * q.second / (2 * (1 - q.Rho())) }

// MeanTime returns the mean sojourn, T = W + E[S].
func (q MG1) MeanTime() float64 { return q.MeanWait() + q.mean }

// MeanQueue returns the mean number waiting, by Little's law N_q = lambda W.
func (q MG1) MeanQueue() float64 { return q.lambda * q.MeanWait() }

// MeanNumber returns the mean number in the system, by Little's law
// N = lambda T = N_q + rho.
func (q MG1) MeanNumber() float64 { return q.lambda * q.MeanTime() }

// MD1 is an M/D/1 queue: Poisson arrivals of rate lambda and a constant
// service time D, rho = lambda D < 1. It is the scv = 0 case of MG1, so its
// wait is half the M/M/1 wait at the same rho and mean service:
//
//	W = rho D / (2 (1 - rho))
type MD1 struct {
	g MG1
}

// NewMD1 returns the M/D/1 queue with arrival rate lambda and service time d,
// both finite and > 0 (analytic.ErrDomain); rho = lambda d >= 1 wraps
// analytic.ErrSaturated.
func NewMD1(lambda, d float64) (MD1, error) {
	const model = "queue.MD1"
	if err := checkPositive(model, "D", d); err != nil {
		return MD1{}, err
	}
	g, err := newMG1(model, lambda, d, d*d)
	return MD1{g: g}, err
}

// Lambda returns the arrival rate.
func (q MD1) Lambda() float64 { return q.g.lambda }

// Service returns the constant service time D.
func (q MD1) Service() float64 { return q.g.mean }

// Rho returns the utilisation lambda D.
func (q MD1) Rho() float64 { return q.g.Rho() }

// MeanWait returns the mean wait before service:
//
//	W = rho D / (2 (1 - rho))
func (q MD1) MeanWait() float64 {
	rho := q.Rho()
	return rho * q.g.mean / (2 * (1 - rho))
}

// MeanTime returns the mean sojourn, T = W + D.
func (q MD1) MeanTime() float64 { return q.MeanWait() + q.g.mean }

// MeanQueue returns the mean number waiting, N_q = lambda W.
func (q MD1) MeanQueue() float64 { return q.g.lambda * q.MeanWait() }

// MeanNumber returns the mean number in the system, N = lambda T.
func (q MD1) MeanNumber() float64 { return q.g.lambda * q.MeanTime() }

// MG1 returns the same queue as an M/G/1 value (E[S^2] = D^2).
func (q MD1) MG1() MG1 { return q.g }
