package reed

import (
	"math"

	"github.com/flitsim/flitsim/analytic"
)

// CrossingLow returns the population at which the balanced-job lower bounds
// (7) of networks a and b cross (Reed 1983, "Approximate Intersection
// Points"), equating n/(R_0 + (n-1) D_b) for both:
//
//	N_low_cross = (R^_0 - R_0) / (D_b - D^_b) + 1
//
// with (R_0, D_b) of a and (R^_0, D^_b) of b. The result is real-valued. If
// D_b = D^_b or the value is not > 1 the lower bounds do not cross at any
// population above one, and the error wraps analytic.ErrDomain.
func CrossingLow(a, b Workload) (float64, error) {
	const model = "reed.CrossingLow"
	if len(a.types) == 0 || len(b.types) == 0 {
		return 0, analytic.Domain(model, "empty workload (use NewWorkload)")
	}
	den := a.Db() - b.Db()
	if den == 0 {
		return 0, analytic.Domain(model, "equal bottleneck demands D_b = %g: lower bounds parallel", a.Db())
	}
	n := (b.R0()-a.R0())/den + 1
	if !(n > 1) {
		return 0, analytic.Domain(model, "N_low_cross = %g <= 1: lower bounds do not cross for N > 1", n)
	}
	return n, nil
}

// RingBusCrossingLow returns N_low_cross of Reed's example, a uniform
// bidirectional ring of odd k >= 3 nodes (half duplex) against k nodes on a
// single bus, equal S_PE and S_CL, both communication limited
// (S_PE <= S_CL (K+1)/4), where S_PE and S_CL cancel. Corrected (docs/models.md#reed-crossing, erratum E3, docs/errata.md#e3),
// from D_b = S_CL (K+1)/(4K), D^_b = S_CL,
// R_0 = S_PE + S_CL (K+1)/4, R^_0 = S_PE + S_CL:
//
//	N_low_cross = (K^2 - 1) / (3K - 1)          (K = 15: 5.0909)
//
// Printed (Reed 1983, not reproducible from the stated demands under any
// pairing of bounds):
//
//	N_low_cross = (4K^2 - 9K - 1) / (3K - 1)    (K = 15: 17.36)
//
// Even or k < 3 is refused with analytic.ErrDomain (use CrossingLow).
func RingBusCrossingLow(k int, v Variant) (float64, error) {
	const model = "reed.RingBusCrossingLow"
	if k < 3 || k%2 == 0 {
		return 0, analytic.Domain(model, "K = %d, want odd K >= 3", k)
	}
	if !v.valid() {
		return 0, analytic.Domain(model, "unknown variant %d", int(v))
	}
	kf := float64(k)
	if v == Printed {
		return (4*kf*kf - 9*kf - 1) / (3*kf - 1), nil
	}
	return (kf*kf - 1) / (3*kf - 1), nil
}

// CrossingHigh returns the smallest population n > 1 at which the
// balanced-job upper bounds (7) of a and b cross, the N_high_cross Reed (1983)
// mentions without a formula. Each upper bound is min{1/D_b, h(n)} with
// h(n) = n/(R_0 + (n-1) D_a) increasing, so a crossing is one of
//
//	h_a = h_b:      n = (R^_0 - R_0) / (D_a - D^_a) + 1
//	h_a = 1/D^_b:   n = (R_0 - D_a) / (D^_b - D_a)
//	h_b = 1/D_b:    n = (R^_0 - D^_a) / (D_b - D^_a)
//
// and a candidate is kept when both full bounds agree there (to 1e-12
// relative) and their difference changes sign across it. Ring vs bus,
// unit service: (K+5)(2K-1)/(7K-5), 5.8 at K = 15 (docs/models.md#reed-crossing). No
// crossing above one wraps analytic.ErrDomain.
func CrossingHigh(a, b Workload) (float64, error) {
	const model = "reed.CrossingHigh"
	if len(a.types) == 0 || len(b.types) == 0 {
		return 0, analytic.Domain(model, "empty workload (use NewWorkload)")
	}
	ra, daa, dba := a.R0(), a.Da(), a.Db()
	rb, dab, dbb := b.R0(), b.Da(), b.Db()
	cands := [3]float64{math.NaN(), math.NaN(), math.NaN()}
	if daa != dab {
		cands[0] = (rb-ra)/(daa-dab) + 1
	}
	if dbb != daa {
		cands[1] = (ra - daa) / (dbb - daa)
	}
	if dba != dab {
		cands[2] = (rb - dab) / (dba - dab)
	}
	best := math.Inf(1)
	for _, n := range cands {
		if !(n > 1) || math.IsInf(n, 0) {
			continue
		}
		if !isClose(a.bjb(n).Upper, b.bjb(n).Upper, 1e-12) {
			continue
		}
		// A crossing changes which network is ahead; curves that merely
		// meet (or coincide) there are not one.
		e := 1e-6 * n
		below := a.bjb(n-e).Upper - b.bjb(n-e).Upper
		above := a.bjb(n+e).Upper - b.bjb(n+e).Upper
		if below*above < 0 {
			best = math.Min(best, n)
		}
	}
	if math.IsInf(best, 1) {
		return 0, analytic.Domain(model, "balanced-job upper bounds do not cross for N > 1")
	}
	return best, nil
}

// CrossingMVA returns where the exact MVA curves X_0(N) of a and b cross,
// searching N = 1..nmax: the first N at which X_a - X_b changes sign (or is
// 0), interpolated linearly between the two integer populations around it.
// Reed (1983) notes that MVA, being an algorithm, can only be searched this
// way. No crossing up to nmax wraps analytic.ErrDomain.
//
// Reed states (and docs/models.md#reed-crossing repeats) that the true crossing lies
// between N_low_cross and N_high_cross. That does not hold for his own
// example: ring vs bus, unit service, gives MVA crossings 6.2026 (K = 15),
// 11.4960 (31), 22.1353 (63), all above both bound crossings (5.0909 and
// 5.8; 10.4348 and 10.3585; 21.1064 and 19.4954). The bus's X_0 reaches its
// bound 1/D_b quickly while the ring's stays well below its BJB upper bound,
// so the bound crossings are estimates, not a bracket.
func CrossingMVA(a, b Workload, nmax int) (float64, error) {
	const model = "reed.CrossingMVA"
	pa, err := a.MVA(nmax)
	if err != nil {
		return 0, err
	}
	pb, err := b.MVA(nmax)
	if err != nil {
		return 0, err
	}
	prev := pa[0].X0 - pb[0].X0
	if prev == 0 {
		return 1, nil
	}
	for i := 1; i < nmax; i++ {
		d := pa[i].X0 - pb[i].X0
		if d == 0 {
			return float64(i + 1), nil
		}
		if (d > 0) != (prev > 0) {
			return float64(i) + prev/(prev-d), nil
		}
		prev = d
	}
	return 0, analytic.Domain(model, "MVA curves do not cross for N = 1..%d", nmax)
}

// isClose reports |a-b| <= tol max(|a|, |b|).
func isClose(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))
}
