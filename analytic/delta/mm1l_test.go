package delta

import (
	"math"
	"testing"
)

// MODELS.md §2.2, exact check: rho = 1/2, L = 2 gives p = (4/7, 2/7, 1/7),
// E[N] = 4/7, E[T] = 4/3 (mu = 1).
func TestMM1LExact(t *testing.T) {
	q := mm1l{rho: 0.5, L: 2}
	checkRel(t, "p0", q.p0(), 4.0/7, ratTol)
	checkRel(t, "pL", q.pL(), 1.0/7, ratTol)
	checkRel(t, "E[N]", q.meanN(), 4.0/7, ratTol)
	checkRel(t, "E[T]", q.meanT(1), 4.0/3, ratTol)
	checkRel(t, "E[T] mu=2", q.meanT(2), 2.0/3, ratTol)
}

// MODELS.md §2.2: at rho = 1, p_k = 1/(L+1), E[N] = L/2, E[T] = (L+1)/(2 mu);
// at rho = 0, E[T] = 1/mu (the sum form has no singularity at either).
func TestMM1LLimits(t *testing.T) {
	for _, L := range []int{1, 2, 7, 32, 1000} {
		q := mm1l{rho: 1, L: L}
		fl := float64(L)
		checkRel(t, "p0(1)", q.p0(), 1/(fl+1), ratTol)
		checkRel(t, "pL(1)", q.pL(), 1/(fl+1), ratTol)
		checkRel(t, "E[N](1)", q.meanN(), fl/2, ratTol)
		checkRel(t, "E[T](1)", q.meanT(3), (fl+1)/6, ratTol)
		z := mm1l{rho: 0, L: L}
		if z.pL() != 0 || z.meanN() != 0 || z.p0() != 1 || z.meanT(4) != 0.25 {
			t.Errorf("L=%d rho=0: pL=%v N=%v p0=%v T=%v", L, z.pL(), z.meanN(), z.p0(), z.meanT(4))
		}
	}
}

// The sums agree with the closed forms of MODELS.md §2.2 (Eqs. (1.1), (2),
// reading R8) away from rho = 1, on both sides of it, and are continuous
// across rho = 1 where the closed forms cancel catastrophically.
func TestMM1LClosedForms(t *testing.T) {
	for _, L := range []int{1, 2, 4, 8, 30} {
		for _, rho := range []float64{0.05, 0.3, 0.9, 0.99, 1.01, 1.5, 2, 7} {
			q := mm1l{rho: rho, L: L}
			fl := float64(L)
			rL, rL1 := math.Pow(rho, fl), math.Pow(rho, fl+1)
			p0 := (1 - rho) / (1 - rL1)
			pL := (1 - rho) * rL / (1 - rL1)
			en := rho * (1 - (fl+1)*rL + fl*rL1) / ((1 - rho) * (1 - rL1))
			et := (1 - (fl+1)*rL + fl*rL1) / ((1 - rho) * (1 - rL))
			checkRel(t, "p0", q.p0(), p0, 1e-10)
			checkRel(t, "pL", q.pL(), pL, 1e-10)
			checkRel(t, "E[N]", q.meanN(), en, 1e-9)
			checkRel(t, "E[T]", q.meanT(1), et, 1e-9)
			// Little's law with the accepted rate.
			checkRel(t, "Little", q.meanN(), rho*(1-q.pL())*q.meanT(1), 1e-13)
		}
		lo, hi := mm1l{rho: 1 - 1e-9, L: L}, mm1l{rho: 1 + 1e-9, L: L}
		checkRel(t, "E[T] across 1", lo.meanT(1), hi.meanT(1), 1e-7)
		checkRel(t, "pL across 1", lo.pL(), hi.pL(), 1e-7)
	}
}

// Large L at rho > 1 must neither overflow nor lose the blocking
// probability: as L -> inf, p_L -> 1 - 1/rho and E[N] -> L - 1/(rho-1)
// (the empty places form a geometric law of ratio 1/rho).
func TestMM1LLargeL(t *testing.T) {
	q := mm1l{rho: 2, L: 5000}
	checkRel(t, "pL", q.pL(), 0.5, 1e-12)
	checkRel(t, "E[N]", q.meanN(), 5000-1, 1e-12)
	if v := q.meanT(1); math.IsNaN(v) || math.IsInf(v, 0) {
		t.Fatalf("E[T] = %v", v)
	}
}
