package queue

import (
	"math"

	"github.com/flitsim/flitsim/analytic"
)

// checkPositive returns an analytic.ErrDomain error unless v is finite and
// strictly positive.
func checkPositive(model, name string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return analytic.Domain(model, "%s = %g, want finite and > 0", name, v)
	}
	return nil
}

// MM1 is an M/M/1 queue: Poisson arrivals of rate lambda, one exponential
// server of rate mu, unlimited FCFS buffer, rho = lambda/mu < 1
// (Kleinrock 1975, Vol. I, §3.2).
type MM1 struct {
	lambda, mu float64
}

// NewMM1 returns the M/M/1 queue with arrival rate lambda and service rate mu.
// lambda and mu must be finite and > 0 (analytic.ErrDomain); the queue must be
// stable, rho = lambda/mu < 1 (analytic.ErrSaturated).
func NewMM1(lambda, mu float64) (MM1, error) {
	const model = "queue.MM1"
	if err := checkPositive(model, "lambda", lambda); err != nil {
		return MM1{}, err
	}
	if err := checkPositive(model, "mu", mu); err != nil {
		return MM1{}, err
	}
	if rho := lambda / mu; rho >= 1 {
		return MM1{}, analytic.Saturated(model, "rho = lambda/mu = %g >= 1", rho)
	}
	return MM1{lambda: lambda, mu: mu}, nil
}

// Lambda returns the arrival rate.
func (q MM1) Lambda() float64 { return q.lambda }

// Mu returns the service rate.
func (q MM1) Mu() float64 { return q.mu }

// Rho returns the utilisation, the probability that the server is busy:
//
//	rho = lambda / mu
func (q MM1) Rho() float64 { return q.lambda / q.mu }

// P returns the stationary probability of n customers in the system
// (Kleinrock 1975, Vol. I, §3.2); it is 0 for n < 0:
//
//	p_n = (1 - rho) rho^n
func (q MM1) P(n int) float64 {
	if n < 0 {
		return 0
	}
	rho := q.Rho()
	return (1 - rho) * math.Pow(rho, float64(n))
}

// MeanNumber returns the mean number in the system, waiting and in service
// (Kleinrock 1975, Vol. I, §3.2):
//
//	E[N] = rho / (1 - rho)
func (q MM1) MeanNumber() float64 {
	rho := q.Rho()
	return rho / (1 - rho)
}

// MeanQueue returns the mean number waiting, not in service:
//
//	E[N_q] = rho^2 / (1 - rho) = lambda E[W]
func (q MM1) MeanQueue() float64 {
	rho := q.Rho()
	return rho * rho / (1 - rho)
}

// MeanTime returns the mean sojourn time, waiting plus service
// (Kleinrock 1975, Vol. I, §3.2):
//
//	E[T] = 1 / (mu - lambda) = (1/mu) / (1 - rho)
func (q MM1) MeanTime() float64 { return 1 / (q.mu - q.lambda) }

// MeanWait returns the mean time spent waiting before service:
//
//	E[W] = rho / (mu - lambda) = E[T] - 1/mu
func (q MM1) MeanWait() float64 { return q.Rho() / (q.mu - q.lambda) }
