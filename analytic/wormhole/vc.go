package wormhole

import (
	"math"

	"github.com/flitsim/flitsim/analytic"
)

// Occupancy is the stationary virtual-channel occupancy of one physical
// channel in Dally's (1992) model.
type Occupancy struct {
	// Rho is the channel load lambda_c S (dimensionless, < 1).
	Rho float64
	// P holds P_v, the probability that v virtual channels are busy,
	// for v = 0..V (len(P) = V+1; the entries sum to 1).
	P []float64
	// Vbar is the mean degree of virtual-channel multiplexing seen by a
	// transmitting message, Eq. (13); 1 <= Vbar <= V.
	Vbar float64
}

// VCOccupancy returns the busy-VC distribution P_v (v = 0..V) and the mean
// multiplexing degree Vbar of a physical channel with V virtual channels,
// message arrival rate lambdaC (messages/cycle) and mean VC holding time S
// (cycles). It evaluates Dally's (1992) birth-death chain as restated by
// Safaei et al. (seed 004, Eq. (12)), recursively as printed:
//
//	q_0 = 1,  q_v = q_{v-1} lambda_c S            (0 < v < V)
//	q_V = q_{V-1} lambda_c / (1/S - lambda_c)
//	P_v = q_v / sum_{u=0}^{V} q_u
//
// and the multiplexing degree of seed 004, Eq. (13):
//
//	Vbar = sum_{v=1}^{V} v^2 P_v / sum_{v=1}^{V} v P_v
//
// The chain is an M/M/1 queue with states >= V lumped into V, so
// P_v = (1-rho) rho^v for v < V and P_V = rho^V (docs/models.md#dally-1992; used as
// the test oracle). At rho = 0 Eq. (13) is 0/0; its limit 1 is returned.
// rho = lambda_c S >= 1 returns an error wrapping analytic.ErrSaturated;
// V < 1, S <= 0, lambdaC < 0 or non-finite inputs return analytic.ErrDomain.
func VCOccupancy(lambdaC, S float64, V int) (Occupancy, error) {
	return VCOccupancyInto(nil, lambdaC, S, V)
}

// VCOccupancyInto is VCOccupancy writing P into dst when it has room for
// V+1 values (allocating otherwise), for fixed-point iterations that
// evaluate the chain at every pass. The returned Occupancy.P aliases dst.
func VCOccupancyInto(dst []float64, lambdaC, S float64, V int) (Occupancy, error) {
	const model = "wormhole.VCOccupancy"
	switch {
	case V < 1:
		return Occupancy{}, analytic.Domain(model, "V = %d < 1", V)
	case !(S > 0) || math.IsInf(S, 0):
		return Occupancy{}, analytic.Domain(model, "S = %g not in (0, inf)", S)
	case !(lambdaC >= 0) || math.IsInf(lambdaC, 0):
		return Occupancy{}, analytic.Domain(model, "lambda_c = %g not in [0, inf)", lambdaC)
	}
	rho := lambdaC * S
	if rho >= 1 || !(1/S-lambdaC > 0) {
		// The second test catches rho one ulp below 1 where 1/S - lambda_c,
		// the divisor of P_V in Eq. (12), rounds to 0: Inf/Inf otherwise.
		return Occupancy{}, analytic.Saturated(model, "rho = lambda_c*S = %.17g: not below 1", rho)
	}
	p := dst
	if cap(p) < V+1 {
		p = make([]float64, V+1)
	}
	p = p[:V+1]
	p[0] = 1
	sum := 1.0
	for v := 1; v < V; v++ {
		p[v] = p[v-1] * lambdaC * S
		sum += p[v]
	}
	p[V] = p[V-1] * lambdaC / (1/S - lambdaC)
	sum += p[V]
	var num, den float64
	for v := range p {
		p[v] /= sum
		num += float64(v*v) * p[v]
		den += float64(v) * p[v]
	}
	vbar := 1.0
	if den > 0 {
		vbar = num / den
	}
	return Occupancy{Rho: rho, P: p, Vbar: vbar}, nil
}
