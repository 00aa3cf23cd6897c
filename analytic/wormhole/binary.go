package wormhole

import (
	"math"

	"github.com/flitsim/flitsim/analytic"
)

// BinaryResult is the DG-R solution on the binary n-cube in its closed
// form (one class per dimension).
type BinaryResult struct {
	// Latency is T = W_INJ + S_INJ + Dbar + c0 (cycles).
	Latency float64
	// SInj, WInj: injection holding time and source-queue wait (cycles).
	SInj, WInj float64
	// WEj is the ejection wait (cycles); the ejection holding time is M.
	WEj float64
	// Dbar = n 2^(n-1) / (2^n - 1) is the mean number of hops.
	Dbar float64
	// LambdaD = lambda 2^(n-1) / (2^n - 1) is the rate of every channel.
	LambdaD float64
	// S[i] and W[i] are the holding time of and the wait for a
	// dimension-i channel (dimension 0 is resolved last).
	S, W []float64
}

// BinaryCube solves DG-R on the binary n-cube (k = 2, n+2 classes:
// injection, n dimensions, ejection; dimensions resolved n-1 first) by the
// closed form of docs/models.md#dg-r, a second implementation of
// Network.Latency for k = 2 [RECON-M]:
//
//	lambda_d = lambda 2^(n-1) / (2^n - 1)
//	S_i      = 2^-i (W_EJ + M) + sum_{j<i} 2^-(i-j) (W_j + S_j)
//	W_j      = lambda_d [S_j^2 + (S_j - M)^2] / (2 (1 - lambda_d S_j))
//	S_INJ    = sum_{j=0}^{n-1} [2^j / (2^n - 1)] (W_j + S_j)
//	T        = W_INJ + S_INJ + Dbar + c0
//
// with W_EJ and W_INJ as in Network.Latency. Options.ExcludeOwnFlow is
// refused with ErrDomain (its pinned reading is defined on the (dim,
// coord, vc) classes of Network, which split each dimension in two);
// Options.VCMultiplexing is a no-op since every channel of a 2-ring is an
// unsplit dateline channel with one VC.
func BinaryCube(n int, lambda float64, opt Options) (BinaryResult, error) {
	const model = "wormhole.BinaryCube"
	switch {
	case n < 1 || n > 24:
		return BinaryResult{}, analytic.Domain(model, "n = %d not in [1, 24]", n)
	case opt.M < 1:
		return BinaryResult{}, analytic.Domain(model, "M = %d < 1", opt.M)
	case opt.ExcludeOwnFlow:
		return BinaryResult{}, analytic.Domain(model, "ExcludeOwnFlow not supported by the closed form; use NewUniform(2, n)")
	case !(lambda >= 0) || math.IsInf(lambda, 0):
		return BinaryResult{}, analytic.Domain(model, "lambda = %g not in [0, inf)", lambda)
	}
	M := float64(opt.M)
	N := math.Ldexp(1, n)
	r := BinaryResult{
		Dbar:    float64(n) * N / 2 / (N - 1),
		LambdaD: lambda * N / 2 / (N - 1),
		S:       make([]float64, n),
		W:       make([]float64, n),
	}
	if lambda*M >= 1 {
		return BinaryResult{}, analytic.Saturated(model, "ejection channel: lambda*M = %g >= 1", lambda*M)
	}
	r.WEj = mg1DetVar(lambda, lambda, M, M)
	for i := 0; i < n; i++ {
		s := math.Ldexp(r.WEj+M, -i)
		for j := 0; j < i; j++ {
			s += math.Ldexp(r.W[j]+r.S[j], j-i)
		}
		if rho := r.LambdaD * s; rho >= 1 {
			return BinaryResult{}, analytic.Saturated(model, "dimension %d: lambda_d*S_%d = %g >= 1", i, i, rho)
		}
		r.S[i] = s
		r.W[i] = mg1DetVar(r.LambdaD, r.LambdaD, s, M)
	}
	for j := 0; j < n; j++ {
		r.SInj += math.Ldexp(1, j) / (N - 1) * (r.W[j] + r.S[j])
	}
	if rho := lambda * r.SInj; rho >= 1 {
		return BinaryResult{}, analytic.Saturated(model, "source queue: lambda*S_INJ = %g >= 1", rho)
	}
	r.WInj = mg1DetVar(lambda, lambda, r.SInj, M)
	r.Latency = r.WInj + r.SInj + r.Dbar + opt.C0
	return r, nil
}
