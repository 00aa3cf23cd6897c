package wormhole

import (
	"math"

	"github.com/flitsim/flitsim/analytic"
)

// Dally1990Result is the Dally (1990) contention estimate at one load.
type Dally1990Result struct {
	// T0 is the zero-load latency n k_d + B (cycles).
	T0 float64
	// Rho is the channel utilisation lambda B k_d.
	Rho float64
	// Latency is the contention-corrected latency T (cycles).
	Latency float64
}

// Dally1990 evaluates the closed-form contention model attributed to Dally
// (1990) for a unidirectional k-ary n-cube with dimension-order wormhole
// routing, uniform traffic, messages of B flits and lambda messages per
// node per cycle (docs/models.md#dally-1990; T_0 and rho [RECON-M], the contention
// term [RECON-L]: the commonly cited form, not checked against the
// original, so use it as a sanity curve only):
//
//	k_d = (k - 1) / 2
//	T_0 = n k_d + B
//	rho = lambda B k_d
//	T   = [1 + (rho B / (1 - rho)) ((k_d - 1) / k_d^2) (1 + 1/n)] n k_d + B
//
// k = 2 (or less) is refused with ErrDomain, since k_d - 1 < 0 makes the
// contention term negative; rho >= 1 returns ErrSaturated.
func Dally1990(k, n int, B, lambda float64) (Dally1990Result, error) {
	const model = "wormhole.Dally1990"
	switch {
	case k < 3:
		return Dally1990Result{}, analytic.Domain(model, "k = %d < 3 (k_d - 1 < 0)", k)
	case n < 1:
		return Dally1990Result{}, analytic.Domain(model, "n = %d < 1", n)
	case !(B > 0) || math.IsInf(B, 0):
		return Dally1990Result{}, analytic.Domain(model, "B = %g not in (0, inf)", B)
	case !(lambda >= 0) || math.IsInf(lambda, 0):
		return Dally1990Result{}, analytic.Domain(model, "lambda = %g not in [0, inf)", lambda)
	}
	kd := float64(k-1) / 2
	nf := float64(n)
	r := Dally1990Result{T0: nf*kd + B, Rho: lambda * B * kd}
	if r.Rho >= 1 {
		return Dally1990Result{}, analytic.Saturated(model, "rho = lambda*B*k_d = %g >= 1", r.Rho)
	}
	r.Latency = (1+(r.Rho*B/(1-r.Rho))*((kd-1)/(kd*kd))*(1+1/nf))*nf*kd + B
	return r, nil
}

// Dally1990Saturation returns the throughput bound of Dally1990, the rate
// at which rho = lambda B k_d reaches 1: 1 / (B (k-1)/2).
func Dally1990Saturation(k int, B float64) (float64, error) {
	if k < 3 || !(B > 0) || math.IsInf(B, 0) {
		return 0, analytic.Domain("wormhole.Dally1990", "k = %d, B = %g: need k >= 3, B > 0", k, B)
	}
	return 1 / (B * float64(k-1) / 2), nil
}
