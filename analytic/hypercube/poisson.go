package hypercube

import "github.com/flitsim/flitsim/analytic"

// QVariant selects the second-moment sum Q used by the Poisson model
// (erratum E9, docs/errata.md#e9).
type QVariant int

const (
	// QNormalised (the default) uses Q = sum_k P(k) Q_k, normalised by
	// 1 - 2^{-n}: the only form for which the report's per-hop second moment
	// 2Q(1-2^{-n})/n, and hence W, is right.
	QNormalised QVariant = iota
	// QPrinted uses the report's Q = sum_k 2^{-n} C(n,k) Q_k; T comes out
	// about 0.1 % (light load) to 5 % (near lambda_max) smaller.
	QPrinted
)

// PoissonOptions tunes [Cube.Poisson]; the zero value is the corrected model.
type PoissonOptions struct {
	Q QVariant
}

// PoissonDelay is the result of the Poisson approximation (§III.2;
// docs/models.md#jacquet-poisson). Times in slots.
type PoissonDelay struct {
	Load
	// Rate is the hop-service arrival rate at a node (local plus transit),
	// Lambda = n lambda/(2(1 - 2^{-n})) = lambda d, per slot.
	Rate float64
	// QUsed is the second-moment sum entering W and T: Load.Q, or the
	// report's unnormalised Q (1 - 2^{-n}) under QPrinted.
	QUsed float64
	// W is the mean wait per hop (Pollaczek–Khinchine), slots.
	W float64
	// T is the mean delay from generation to delivery, slots: d hops of
	// mean service x1 and mean wait W.
	T float64
}

// Poisson returns the mean packet delay of the Poisson approximation at
// generation rate lambda >= 0 (§III.2; docs/models.md#jacquet-poisson): each node is an
// M/G/1 queue of hop-services of rate lambda d, mean x1 = X/d and second
// moment x2 = Q/d, so
//
//	W = Lambda x2 / (2 (1 - Lambda x1)) = (lambda/2) Q / (1 - lambda X)
//	T = d (x1 + W) = X + n lambda Q / (4 (1 - 2^{-n}) (1 - lambda X))
//
// T -> X -> d as lambda -> 0 (T = d exactly at lambda = 0). Errors wrap
// analytic.ErrSaturated when p >= 1 or lambda X >= 1, analytic.ErrDomain
// for a negative lambda or an unknown variant.
func (c Cube) Poisson(lambda float64, o PoissonOptions) (PoissonDelay, error) {
	if o.Q != QNormalised && o.Q != QPrinted {
		return PoissonDelay{}, analytic.Domain("hypercube.Poisson", "unknown Q variant %d", o.Q)
	}
	l, err := c.stable("hypercube.Poisson", lambda)
	if err != nil {
		return PoissonDelay{}, err
	}
	q := l.Q
	if o.Q == QPrinted {
		q *= c.notSelf()
	}
	r := PoissonDelay{Load: l, Rate: lambda * c.MeanHops(), QUsed: q}
	r.W = lambda / 2 * q / (1 - lambda*l.X)
	r.T = l.X + float64(c.n)*lambda*q/(4*c.notSelf()*(1-lambda*l.X))
	return r, nil
}
