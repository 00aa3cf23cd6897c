package wormhole

import (
	"math"

	"github.com/flitsim/flitsim/analytic"
)

// Options are the knobs of the DG-R model. The zero value is the plain
// reconstruction of docs/models.md#dg-r with c0 = 0; M must be set.
type Options struct {
	// M is the message length in flits (M >= 1). The model assumes the
	// worm spans its whole path (M >= max hops + 1); shorter messages are
	// evaluated all the same.
	M int
	// C0 is the simulator's per-message constant added to T (cycles), set
	// from the measured zero-load latency minus (M + Dbar), never fitted
	// at load.
	C0 float64
	// ExcludeOwnFlow [RECON-L] makes the wait at y seen from x use the
	// arrival rate lambda_y - lambda_{x->y} in the numerator (messages
	// coming from x are serialised on x and cannot queue behind each
	// other); the denominator keeps 1 - rho_y. One reading of Draper and
	// Ghosh's unrecovered "correction factors".
	ExcludeOwnFlow bool
	// VCMultiplexing [RECON-L] multiplies T by the Dally (1992)
	// multiplexing degree: for every physical channel (dimension,
	// coordinate) VCOccupancy with the channel's total rate, the
	// rate-weighted mean holding time of its VC classes and V = its number
	// of VCs (1 on the two unsplit channels, else 2); the factor is the
	// mean of these Vbar over the physical channels (all carry the same
	// total rate). Not believed to be in the original.
	VCMultiplexing bool
}

// ClassResult is the solution of one channel class.
type ClassResult struct {
	Class
	// Lambda is the arrival rate of one instance (messages/cycle).
	Lambda float64
	// S is the mean holding time of the channel (cycles), W the mean wait
	// for it (cycles, as seen by a mixed arrival, i.e. without
	// ExcludeOwnFlow), Rho = Lambda S.
	S, W, Rho float64
}

// Result is the DG-R solution at one load.
type Result struct {
	// Latency is T = (W_INJ + S_INJ + Dbar + c0) Vbar (cycles).
	Latency float64
	// SInj and WInj are the injection channel's holding time and the
	// source-queue wait (cycles).
	SInj, WInj float64
	// SEj = M and WEj are the ejection channel's holding time and wait.
	SEj, WEj float64
	// Dbar is the mean number of hops.
	Dbar float64
	// Vbar is the multiplexing factor (1 unless Options.VCMultiplexing).
	Vbar float64
	// Classes holds every channel class in the Network's order.
	Classes []ClassResult
}

// mg1DetVar is the M/G/1 mean wait with the Draper–Ghosh variance
// approximation sigma^2 = (S - M)^2 (docs/models.md#dg-r, P-K formula of seed
// 002 Eq. (1) with C_b^2 = (S - M)^2 / S^2):
//
//	W = lambdaNum [S^2 + (S - M)^2] / (2 (1 - lambda S))
//
// lambdaNum is the arrival rate in the numerator (lambda, or lambda minus
// the own flow under ExcludeOwnFlow). Kept here rather than in
// analytic/queue because the variance term is model specific.
func mg1DetVar(lambdaNum, lambda, S, M float64) float64 {
	d := S - M
	return lambdaNum * (S*S + d*d) / (2 * (1 - lambda*S))
}

// Latency solves DG-R [RECON-M structure, RECON-L details] at per-node
// generation rate lambda (messages/node/cycle), backwards from the
// destination (docs/models.md#dg-r):
//
//	S_EJ  = M,    W_EJ = lambda M^2 / (2 (1 - lambda M))
//	S_x   = sum_y P(x -> y) [W_y + S_y]
//	W_y   = lambda_y [S_y^2 + (S_y - M)^2] / (2 (1 - lambda_y S_y))
//	S_INJ = sum_y P(INJ -> y) [W_y + S_y]
//	W_INJ = lambda [S_INJ^2 + (S_INJ - M)^2] / (2 (1 - lambda S_INJ))
//	T     = W_INJ + S_INJ + Dbar + c0
//
// At zero load T = M + Dbar + c0. lambda_y S_y >= 1 for some class, the
// ejection channel or the source queue returns an error wrapping
// analytic.ErrSaturated that names the class.
func (nw *Network) Latency(lambda float64, opt Options) (Result, error) {
	const model = "wormhole.DGR"
	if opt.M < 1 {
		return Result{}, analytic.Domain(model, "M = %d < 1", opt.M)
	}
	if !(lambda >= 0) || math.IsInf(lambda, 0) {
		return Result{}, analytic.Domain(model, "lambda = %g not in [0, inf)", lambda)
	}
	M := float64(opt.M)
	nc := len(nw.classes)
	res := Result{Dbar: nw.dbar, SEj: M, Vbar: 1, Classes: make([]ClassResult, nc)}
	// S and lam indexed by class, with the ejection channel at nw.ej.
	S := make([]float64, nc+1)
	lam := make([]float64, nc+1)
	S[nw.ej], lam[nw.ej] = M, lambda
	if lambda*M >= 1 {
		return Result{}, analytic.Saturated(model, "ejection channel: lambda*M = %g >= 1", lambda*M)
	}
	res.WEj = mg1DetVar(lambda, lambda, M, M)
	// through returns the mean time from requesting edge e's target until
	// it is released: the wait seen by the holder of the source channel
	// plus the target's holding time.
	through := func(e edge) float64 {
		ln := lam[e.to]
		if opt.ExcludeOwnFlow {
			ln -= lambda * e.own
		}
		return mg1DetVar(ln, lam[e.to], S[e.to], M) + S[e.to]
	}
	for x, cl := range nw.classes {
		var s float64
		for _, e := range nw.next[x] {
			s += e.p * through(e)
		}
		S[x] = s
		lam[x] = lambda * cl.Rate
		rho := lam[x] * s
		if rho >= 1 {
			return Result{}, analytic.Saturated(model, "class %v: lambda_y*S_y = %g >= 1", cl, rho)
		}
		res.Classes[x] = ClassResult{Class: cl, Lambda: lam[x], S: s, W: mg1DetVar(lam[x], lam[x], s, M), Rho: rho}
	}
	for _, e := range nw.inj {
		res.SInj += e.p * through(e)
	}
	if rho := lambda * res.SInj; rho >= 1 {
		return Result{}, analytic.Saturated(model, "source queue: lambda*S_INJ = %g >= 1", rho)
	}
	res.WInj = mg1DetVar(lambda, lambda, res.SInj, M)
	res.Latency = res.WInj + res.SInj + nw.dbar + opt.C0
	if opt.VCMultiplexing {
		v, err := nw.multiplexing(res.Classes)
		if err != nil {
			return Result{}, err
		}
		res.Vbar = v
		res.Latency *= v
	}
	return res, nil
}

// multiplexing is the Options.VCMultiplexing factor.
func (nw *Network) multiplexing(cr []ClassResult) (float64, error) {
	var sum float64
	var occBuf [3]float64 // P_0..P_nvc, nvc <= 2
	for i := 0; i < nw.n; i++ {
		for c := 0; c < nw.k; c++ {
			var lt, ls float64
			nvc := 0
			for vc := 0; vc < 2; vc++ {
				if (vc == 0 && c == nw.k-1) || (vc == 1 && c == 0) {
					continue
				}
				r := cr[classIndex(nw.k, i, c, vc)]
				lt += r.Lambda
				ls += r.Lambda * r.S
				nvc++
			}
			if lt == 0 {
				sum++
				continue
			}
			occ, err := VCOccupancyInto(occBuf[:], lt, ls/lt, nvc)
			if err != nil {
				return 0, err
			}
			sum += occ.Vbar
		}
	}
	return sum / float64(nw.n*nw.k), nil
}

// Saturation returns the largest per-node rate lambda at which Latency
// does not report saturation, by bisection on (0, 1/M) to a relative
// width of 1e-12. Options as for Latency.
func (nw *Network) Saturation(opt Options) (float64, error) {
	if opt.M < 1 {
		return 0, analytic.Domain("wormhole.DGR", "M = %d < 1", opt.M)
	}
	return analytic.SaturationPoint(func(l float64) error {
		_, err := nw.Latency(l, opt)
		return err
	}, 1/float64(opt.M), 1e-12)
}
