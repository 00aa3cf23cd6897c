package hypercube

import (
	"math"

	"github.com/flitsim/flitsim/analytic"
)

// MuVariant selects the transit Bernoulli rate mu (erratum E8, docs/errata.md#e8).
type MuVariant int

const (
	// MuCorrected (the default): transit receptions per node per slot are
	// lambda (d-1), all in the 1 - lambda d fraction of slots in which the
	// node does not send:
	//
	//	mu = lambda (d - 1) / (1 - lambda d)
	//
	// With it q0 = 0 exactly where lambda X = 1, as the report claims.
	MuCorrected MuVariant = iota
	// MuPrinted is the report's lambda((n/2)(1-2^{-n}) - 1)/(1 -
	// lambda (n/2)(1-2^{-n})), which writes (n/2)(1-2^{-n}) for
	// d = n/(2(1-2^{-n})). It is negative for n <= 2 (an error).
	MuPrinted
)

// QPrimeVariant selects the formula for q'(1), the mean embedded queue
// length (erratum E10, docs/errata.md#e10).
type QPrimeVariant int

const (
	// QPrimeCorrected (the default), re-derived from q(z) and checked
	// against its numerical derivative:
	//
	//	q'(1) = [ b1 a2 + (b1 + b2)(1 - a1) ] / [ (1 - a1)(1 + b1 - a1) ]
	QPrimeCorrected QPrimeVariant = iota
	// QPrimePrintedMain is the report's main-text form:
	//
	//	[ (1-q0)(lambda^2/2 + lambda mu)(x1-1) + (lambda+mu)^2 s + lambda^2/2
	//	  + q0 (lambda + mu + lambda mu) ] / (1 - a1)
	QPrimePrintedMain
	// QPrimePrintedAppendix is the report's appendix form:
	//
	//	[ (1-q0) a2 + (lambda + mu + lambda mu) q0 ] / (1 - a1)
	QPrimePrintedAppendix
)

// DVariant selects the delay formula of the Bernoulli model (erratum E11, docs/errata.md#e11).
type DVariant int

const (
	// DCorrected (the default) is Little's law over the whole network:
	// N M packets in the network, throughput N lambda, so D = M/lambda.
	DCorrected DVariant = iota
	// DPrinted is the report's D = 2M/(lambda n (1-2^{-n})), a time per
	// node visit (below the minimum delay d at every load).
	DPrinted
)

// BernoulliOptions tunes [Cube.Bernoulli]; the zero value is the corrected
// model.
type BernoulliOptions struct {
	Mu     MuVariant
	QPrime QPrimeVariant
	D      DVariant
}

// BernoulliDelay is the result of the Bernoulli model (§III.2 second part
// and appendix; docs/models.md#jacquet-bernoulli). Times in slots, rates per slot.
type BernoulliDelay struct {
	Load
	Mu float64 // transit Bernoulli rate
	// A1 = A'(1), A2 = A''(1)/2: expansion of the arrivals-per-service PGF.
	A1, A2 float64
	// B1 = B'(1) = lambda + mu, B2 = B''(1)/2 = lambda^2/2 + lambda mu:
	// expansion of the arrivals-in-an-idle-slot PGF.
	B1, B2 float64
	Q0     float64 // q0, embedded probability of an empty queue
	QPrime float64 // q'(1), mean embedded queue length (variant of QPrime)
	M      float64 // time-average number of packets at a node
	D      float64 // mean delay, slots (variant of D)

	n int
}

// Bernoulli returns the Bernoulli model at generation rate lambda > 0
// (docs/models.md#jacquet-bernoulli, u = z - 1):
//
//	B(z) = (1 - mu(1-z)) e^{lambda(z-1)}
//	A(z) = sum_{k=1}^{n} v_k (1-p^k) e^{lambda(z-1)} / (1 - p^k (1 - mu(1-z)) e^{lambda(z-1)})
//	q(z) = q0 [ A(z) - z B(z) ] / [ A(z) - z ]
//	a1 = lambda + (lambda + mu)(x1 - 1)
//	a2 = lambda^2/2 + (3 lambda^2/2 + 2 lambda mu)(x1 - 1) + (lambda + mu)^2 s
//	b1 = lambda + mu,  b2 = lambda^2/2 + lambda mu
//	q0 = (1 - a1) / (1 + b1 - a1)
//	M  = [ q'(1) x1 + (lambda/2)((1-q0) x2 + q0) + (mu/2)(1-q0)(x2 - x1) ] / [ (1-q0) x1 + q0 ]
//	D  = M / lambda
//
// With the corrected mu, 1 - a1 = (1 - lambda)(1 - lambda X)/(1 - lambda d),
// evaluated in that form so that q0 vanishes exactly at lambda X = 1.
//
// Errors wrap analytic.ErrSaturated when lambda d >= 1, p >= 1,
// lambda X >= 1 or (printed mu) q0 <= 0; analytic.ErrDomain for lambda <= 0,
// a negative printed mu (n <= 2) or an unknown variant.
func (c Cube) Bernoulli(lambda float64, o BernoulliOptions) (BernoulliDelay, error) {
	const model = "hypercube.Bernoulli"
	switch {
	case o.Mu != MuCorrected && o.Mu != MuPrinted:
		return BernoulliDelay{}, analytic.Domain(model, "unknown mu variant %d", o.Mu)
	case o.QPrime < QPrimeCorrected || o.QPrime > QPrimePrintedAppendix:
		return BernoulliDelay{}, analytic.Domain(model, "unknown q'(1) variant %d", o.QPrime)
	case o.D != DCorrected && o.D != DPrinted:
		return BernoulliDelay{}, analytic.Domain(model, "unknown D variant %d", o.D)
	case !(lambda > 0) || math.IsInf(lambda, 1):
		return BernoulliDelay{}, analytic.Domain(model, "lambda = %v, want 0 < lambda < inf", lambda)
	}
	d := c.MeanHops()
	if lambda*d >= 1 {
		return BernoulliDelay{}, analytic.Saturated(model, "lambda d = %v >= 1 (n = %d)", lambda*d, c.n)
	}
	l, err := c.stable(model, lambda)
	if err != nil {
		return BernoulliDelay{}, err
	}
	r := BernoulliDelay{Load: l, n: c.n}
	var oneMinusA1 float64
	switch o.Mu {
	case MuPrinted:
		h := float64(c.n) / 2 * c.notSelf()
		if lambda*h >= 1 {
			return BernoulliDelay{}, analytic.Saturated(model, "printed mu: lambda (n/2)(1-2^-n) = %v >= 1", lambda*h)
		}
		r.Mu = lambda * (h - 1) / (1 - lambda*h)
		if r.Mu < 0 {
			return BernoulliDelay{}, analytic.Domain(model, "printed mu = %v < 0 (n = %d: (n/2)(1-2^-n) < 1)", r.Mu, c.n)
		}
		oneMinusA1 = 1 + r.Mu - (lambda+r.Mu)*l.X1
	default:
		r.Mu = lambda * (d - 1) / (1 - lambda*d)
		oneMinusA1 = (1 - lambda) * (1 - lambda*l.X) / (1 - lambda*d)
	}
	mu, x1 := r.Mu, l.X1
	r.A1 = 1 - oneMinusA1
	r.A2 = lambda*lambda/2 + (1.5*lambda*lambda+2*lambda*mu)*(x1-1) + (lambda+mu)*(lambda+mu)*l.S
	r.B1 = lambda + mu
	r.B2 = lambda*lambda/2 + lambda*mu
	if !(oneMinusA1 > 0) {
		return BernoulliDelay{}, analytic.Saturated(model, "q0 <= 0: 1 - A'(1) = %v (n = %d, lambda = %v)", oneMinusA1, c.n, lambda)
	}
	r.Q0 = oneMinusA1 / (1 + r.B1 - r.A1)
	switch o.QPrime {
	case QPrimePrintedMain:
		r.QPrime = ((1-r.Q0)*(lambda*lambda/2+lambda*mu)*(x1-1) + (lambda+mu)*(lambda+mu)*l.S +
			lambda*lambda/2 + r.Q0*(lambda+mu+lambda*mu)) / oneMinusA1
	case QPrimePrintedAppendix:
		r.QPrime = ((1-r.Q0)*r.A2 + (lambda+mu+lambda*mu)*r.Q0) / oneMinusA1
	default:
		r.QPrime = (r.B1*r.A2 + (r.B1+r.B2)*oneMinusA1) / (oneMinusA1 * (1 + r.B1 - r.A1))
	}
	q0, x2 := r.Q0, l.X2
	r.M = (r.QPrime*x1 + lambda/2*((1-q0)*x2+q0) + mu/2*(1-q0)*(x2-x1)) / ((1-q0)*x1 + q0)
	switch o.D {
	case DPrinted:
		r.D = 2 * r.M / (lambda * float64(c.n) * c.notSelf())
	default:
		r.D = r.M / lambda
	}
	return r, nil
}

// IdlePGF returns B(z) = (1 - mu(1-z)) e^{lambda(z-1)}, the generating
// function of the arrivals in an idle slot (one Bernoulli transit arrival
// at most, Poisson local arrivals).
func (r BernoulliDelay) IdlePGF(z float64) float64 {
	return (1 - r.Mu*(1-z)) * math.Exp(r.Lambda*(z-1))
}

// ServicePGF returns A(z), the generating function of the arrivals during
// one hop-service: geometric service in slots, no transit arrival in the
// successful slot (the report's sum runs to infinity; it stops at n).
func (r BernoulliDelay) ServicePGF(z float64) float64 {
	e := math.Exp(r.Lambda * (z - 1))
	bz := 1 - r.Mu*(1-z)
	half := float64(r.n) / 2
	b := math.Ldexp(1, -r.n)
	tail, s := 0.0, 0.0
	for k := r.n; k >= 1; k-- {
		tail += b
		pk := math.Pow(r.P, float64(k))
		s += tail / half * (1 - pk) * e / (1 - pk*bz*e)
		b = b * float64(k) / float64(r.n-k+1)
	}
	return s
}

// QueuePGF returns q(z) = q0 [A(z) - z B(z)] / [A(z) - z], the generating
// function of the embedded queue length. It is 0/0 at z = 1 (where
// q(1) = 1); evaluate it near, not at, 1.
func (r BernoulliDelay) QueuePGF(z float64) float64 {
	a := r.ServicePGF(z)
	return r.Q0 * (a - z*r.IdlePGF(z)) / (a - z)
}
