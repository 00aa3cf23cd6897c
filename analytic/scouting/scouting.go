package scouting

import (
	"fmt"
	"math"

	"github.com/flitsim/flitsim/analytic"
	"github.com/flitsim/flitsim/analytic/wormhole"
)

// Variant selects the reading of Eq. (8).
type Variant int

const (
	// Corrected (the default) uses Pj_i = 0 for i < kbar: before any
	// dimension can be finished the header may use the VCs of both
	// dimensions, as the seed's own text says (docs/models.md#safaei-readings item 1, erratum E13: docs/errata.md#e13).
	Corrected Variant = iota
	// Printed uses Pj_i = 1 for i < kbar as printed in seed 004 Eq. (8);
	// at i = kbar both printed cases apply and the second, 2/(Dbar-i+1),
	// is used in either variant.
	Printed
)

// Params are the inputs of the model (docs/models.md#safaei-inputs). The model counts
// the header's hops twice (erratum E16, docs/errata.md#e16) and uses 2K - 1 literally at K = 0 (erratum E15, docs/errata.md#e15);
// both are kept.
type Params struct {
	// Radix is k of the bidirectional k-ary 2-cube (N = k^2); k even,
	// k >= 4, so that Dbar = k/2 is an integer.
	Radix int
	// M is the message length in flits (>= 1).
	M int
	// V is the number of virtual channels per physical channel, all
	// usable by the adaptive router (>= 1; docs/models.md#safaei-readings item 2, erratum E14: docs/errata.md#e14).
	V int
	// K is the scouting distance (>= 0); K = 0 is wormhole switching.
	K int
	// Variant selects the reading of Eq. (8); the zero value is Corrected.
	Variant Variant
}

// Result is the converged solution of the model at one load.
type Result struct {
	// Latency is the mean message latency (Sbar + Wbar_s) Vbar, Eq. (1), cycles.
	Latency float64
	// Sbar is the mean network latency Cbar + Dbar + M, Eq. (4), cycles.
	Sbar float64
	// Cbar is the mean path set-up time, Eq. (7), cycles.
	Cbar float64
	// Lc is the message rate of one network channel, Eq. (3), messages/cycle.
	Lc float64
	// PV is the probability that all V VCs of a channel are busy, Eq. (12).
	PV float64
	// P holds P_v for v = 0..V, Eq. (12).
	P []float64
	// Pb holds the blocking probabilities Pb_i, i = 0..Dbar-1, Eq. (9).
	Pb []float64
	// Ws is the mean wait in the source queue, Eq. (11), cycles.
	Ws float64
	// Vbar is the mean degree of VC multiplexing, Eq. (13).
	Vbar float64
	// Iterations is the number of fixed-point passes made (docs/models.md#safaei-solution).
	Iterations int
}

const (
	model   = "scouting.Solve"
	maxIter = 10000
	tol     = 1e-12
	// satRelWidth is the relative width at which Saturation stops
	// bisecting: 1e-7 of l_g,sat (about 1e-9 messages/node/cycle for the
	// paper's tori), far inside the 1e-6 absolute docs/models.md#safaei-pins pins it
	// to. Narrower brackets cost the most: near l_g,sat the fixed point
	// needs ~1/sqrt(distance) iterations and every probe above it runs to
	// maxIter.
	satRelWidth = 1e-7
)

// Distances returns the mean distances of a bidirectional k-ary 2-cube
// under uniform traffic (Agarwal, seed 004 Eq. (2)):
//
//	kbar = k/4,   Dbar = 2 kbar = k/2
//
// k must be even and >= 4 (Dbar an integer, as Eq. (5) needs), else
// ErrDomain.
func Distances(k int) (kbar float64, dbar int, err error) {
	if k < 4 || k%2 != 0 {
		return 0, 0, analytic.Domain(model, "radix k = %d: need k even and >= 4 (Dbar = k/2 integer)", k)
	}
	return float64(k) / 4, k / 2, nil
}

// ChannelRate is the message rate of one network channel, seed 004 Eq. (3):
//
//	l_c = l_g (Dbar + sum_{i=0}^{Dbar-1} i Pb_i) / 4
//
// with len(pb) = Dbar (4 output channels per router; the sum counts the
// extra channel visits of backtracking headers).
func ChannelRate(lg float64, pb []float64) float64 {
	s := float64(len(pb))
	for i, p := range pb {
		s += float64(i) * p
	}
	return lg * s / 4
}

// BacktrackProb is P^t_j of seed 004 Eq. (6), the probability used for a
// backtrack after j of at most t backtracks on a Dbar-hop path:
//
//	P^t_j = C(t-j+Dbar-2, Dbar-1) / C(t-j+Dbar-1, Dbar-1) = (t-j) / (t-j+Dbar-1)   (j < t)
//	P^t_t = 0
func BacktrackProb(t, j, dbar int) float64 {
	if j >= t {
		return 0
	}
	return float64(t-j) / float64(t-j+dbar-1)
}

// SetupTime returns C^t_{0,0}, the expected time for the header to reach
// the destination from the source when at most t backtracks are allowed,
// by solving the difference equations of seed 004 Eq. (5) exactly
// (len(pb) = Dbar, Pb_0 cancels):
//
//	C^t_{0,j}    = C^t_{1,j} + 1
//	C^t_{i,j}    = (1 - P^t_j Pb_i) C^t_{i+1,j} + P^t_j Pb_i C^t_{i-1,j+1} + 1    (0 < i < Dbar)
//	C^t_{Dbar,j} = 0
//
// C_{i,j} depends on C_{i+1,j} and C_{i-1,j+1} only, so j is swept from t
// down to 0 and, within j, i from Dbar-1 down to 1 (docs/models.md#safaei-solution); the
// C_{.,t+1} row is never needed because P^t_t = 0. scratch, if it has
// capacity 2(Dbar+1), is used for the two rows and nothing is allocated.
func SetupTime(t int, pb []float64, scratch []float64) float64 {
	d := len(pb)
	if cap(scratch) < 2*(d+1) {
		scratch = make([]float64, 2*(d+1))
	}
	next := scratch[:d+1]         // row j+1
	cur := scratch[d+1 : 2*(d+1)] // row j
	for j := t; j >= 0; j-- {
		p := BacktrackProb(t, j, d)
		cur[d] = 0
		for i := d - 1; i >= 1; i-- {
			q := p * pb[i]
			c := (1-q)*cur[i+1] + 1
			if q != 0 {
				c += q * next[i-1]
			}
			cur[i] = c
		}
		cur[0] = cur[1] + 1
		if d == 0 {
			cur[0] = 0
		}
		next, cur = cur, next
	}
	return next[0]
}

// MeanSetupTime is Cbar of seed 004 Eq. (7), every t = 0..K weighted
// equally and 2K - 1 taken literally (-1 at K = 0, erratum E15: docs/errata.md#e15):
//
//	Cbar = (1/(K+1)) sum_{t=0}^{K} (C^t_{0,0} + 2K - 1)
func MeanSetupTime(K int, pb []float64, scratch []float64) float64 {
	var s float64
	for t := 0; t <= K; t++ {
		s += SetupTime(t, pb, scratch) + float64(2*K-1)
	}
	return s / float64(K+1)
}

// JoinProb is Pj_i of seed 004 Eq. (8), the probability that after i hops
// only one dimension remains (kbar = k/4, Dbar = k/2):
//
//	Pj_i = 0 (Corrected) or 1 (Printed)   0 <= i < kbar
//	Pj_i = 2 / (Dbar - i + 1)             kbar <= i <= Dbar - 1
func JoinProb(i int, kbar float64, dbar int, v Variant) float64 {
	if float64(i) < kbar {
		if v == Printed {
			return 1
		}
		return 0
	}
	return 2 / float64(dbar-i+1)
}

// BlockingProb is Pb_i of seed 004 Eqs. (9)-(10), the probability that a
// header is blocked after i hops when a channel has all V VCs busy with
// probability pV:
//
//	Q^0_i = 1 - Pj_i,  Q^1_i = Pj_i
//	Pb_i  = Q^0_i pV^2 + Q^1_i pV
func BlockingProb(i int, kbar float64, dbar int, pV float64, v Variant) float64 {
	pj := JoinProb(i, kbar, dbar, v)
	return (1-pj)*pV*pV + pj*pV
}

// SourceWait is Wbar_s of seed 004 Eq. (11): the M/G/1 wait of the source
// queue with arrival rate l_g/V, mean service Sbar and the Draper–Ghosh
// variance approximation (Sbar - Smin)^2, Smin = M + 2K - 1 + Dbar:
//
//	Wbar_s = l_g [Sbar^2 + (Sbar - M - (2K-1) - Dbar)^2] / (2 (V - l_g Sbar))
//
// Kept here rather than in analytic/queue because Smin is model specific.
// l_g Sbar >= V returns ErrSaturated.
func SourceWait(lg, sbar float64, M, K, dbar, V int) (float64, error) {
	den := float64(V) - lg*sbar
	if den <= 0 {
		return 0, analytic.Saturated(model, "source queue: l_g*Sbar = %g >= V = %d", lg*sbar, V)
	}
	d := sbar - float64(M+2*K-1+dbar)
	return lg * (sbar*sbar + d*d) / (2 * den), nil
}

func (p Params) check() (kbar float64, dbar int, err error) {
	kbar, dbar, err = Distances(p.Radix)
	switch {
	case err != nil:
		return 0, 0, err
	case p.M < 1:
		return 0, 0, analytic.Domain(model, "M = %d < 1", p.M)
	case p.V < 1:
		return 0, 0, analytic.Domain(model, "V = %d < 1", p.V)
	case p.K < 0:
		return 0, 0, analytic.Domain(model, "scouting distance K = %d < 0", p.K)
	case p.Variant != Corrected && p.Variant != Printed:
		return 0, 0, analytic.Domain(model, "unknown Variant %d", p.Variant)
	}
	return kbar, dbar, nil
}

// Solve evaluates the model at generation rate lg (messages/node/cycle)
// by the fixed-point iteration of docs/models.md#safaei-solution: starting from Pb = 0,
// repeat l_c (3), Cbar (5)-(7), Sbar (4), the VC occupancy (12) with
// rho_c = l_c Sbar, Pb (8)-(10), until Pb and Sbar change by less than
// 1e-12; then Wbar_s (11), Vbar (13) and the latency (1):
//
//	Latency = (Sbar + Wbar_s) Vbar
//
// Errors wrap analytic.ErrSaturated for rho_c >= 1 ("channel"),
// l_g Sbar >= V ("source") or no convergence in 10 000 passes, and
// analytic.ErrDomain for invalid parameters.
func Solve(p Params, lg float64) (Result, error) {
	kbar, dbar, err := p.check()
	if err != nil {
		return Result{}, err
	}
	if !(lg >= 0) || math.IsInf(lg, 0) {
		return Result{}, analytic.Domain(model, "l_g = %g not in [0, inf)", lg)
	}
	pb := make([]float64, dbar)
	nb := make([]float64, dbar)
	scratch := make([]float64, 2*(dbar+1))
	occBuf := make([]float64, p.V+1)
	M := float64(p.M)
	var r Result
	prevS := math.Inf(1)
	for it := 1; ; it++ {
		if it > maxIter {
			return Result{}, analytic.Saturated(model, "no convergence in %d iterations at l_g = %g", maxIter, lg)
		}
		lc := ChannelRate(lg, pb)
		cbar := MeanSetupTime(p.K, pb, scratch)
		sbar := cbar + float64(dbar) + M
		// rho_c >= 1 is the channel saturation of docs/models.md#safaei-solution step 3; a rho_c one
		// ulp below 1 for which Eq. (12) would divide by 0 is refused by
		// VCOccupancy itself (TestSaturationRoundingAtRhoOne).
		if rho := lc * sbar; rho >= 1 {
			return Result{}, analytic.Saturated(model, "channel: rho_c = l_c*Sbar = %.17g >= 1", rho)
		}
		occ, err := wormhole.VCOccupancyInto(occBuf, lc, sbar, p.V)
		if err != nil {
			return Result{}, fmt.Errorf("%s: channel: VC occupancy (12): %w", model, err)
		}
		pV := occ.P[p.V]
		change := math.Abs(sbar - prevS)
		for i := range nb {
			nb[i] = BlockingProb(i, kbar, dbar, pV, p.Variant)
			change = math.Max(change, math.Abs(nb[i]-pb[i]))
		}
		r = Result{Sbar: sbar, Cbar: cbar, Lc: lc, PV: pV, Vbar: occ.Vbar, Iterations: it}
		pb, nb = nb, pb
		prevS = sbar
		if change < tol {
			break
		}
	}
	r.Pb = pb
	r.P = append([]float64(nil), occBuf...) // the last pass's occupancy (Eq. 12)
	ws, err := SourceWait(lg, r.Sbar, p.M, p.K, dbar, p.V)
	if err != nil {
		return Result{}, err
	}
	r.Ws = ws
	r.Latency = (r.Sbar + r.Ws) * r.Vbar
	return r, nil
}

// Saturation returns the largest generation rate l_g at which Solve does
// not report saturation, by bisection on (0, V/Sbar_0) to a relative width
// of satRelWidth (Sbar_0 = M + 2 Dbar + 2K - 1, the zero-load network
// latency, so l_g Sbar_0 >= V is saturated whatever the blocking): well
// inside the 1e-6 absolute pin of docs/models.md#safaei-pins, and Solve saturates
// just above the returned rate.
func Saturation(p Params) (float64, error) {
	_, dbar, err := p.check()
	if err != nil {
		return 0, err
	}
	return analytic.SaturationPoint(func(lg float64) error {
		_, err := Solve(p, lg)
		return err
	}, float64(p.V)/float64(p.M+2*dbar+2*p.K-1), satRelWidth)
}
