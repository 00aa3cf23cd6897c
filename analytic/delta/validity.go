package delta

import (
	"math"

	"github.com/flitsim/flitsim/analytic"
	"github.com/flitsim/flitsim/analytic/queue"
)

// Case names one of the report's three stage approximations (§3.1, Figure 3;
// docs/models.md#makrucki-interdeparture).
type Case int

const (
	// CaseAuto (the zero value) asks [Network.Solve] to pick the case with
	// [Validity.Select].
	CaseAuto Case = iota
	// CaseI is the light-load approximation: every stage output is close to
	// Poisson(lambda), so all z stages see rate lambda (p_0 ~ 1 - rho).
	CaseI
	// CaseII is the saturation approximation: stage 1 is saturated
	// (p_0 ~ 0), its output is close to Poisson(mu), so stages 2..z run at
	// rho = 1.
	CaseII
	// CaseIII is the rho = 1 approximation (lambda = mu) with a long queue:
	// the mu-exponential term of Eq. (3.2) dominates and every stage runs at
	// rho = 1.
	CaseIII
)

// String returns "auto", "I", "II" or "III".
func (c Case) String() string {
	switch c {
	case CaseAuto:
		return "auto"
	case CaseI:
		return "I"
	case CaseII:
		return "II"
	case CaseIII:
		return "III"
	}
	return "Case(?)"
}

// Default validity parameters: the values of the report's Figure 3
// (p0max = D = 0.05, C = 0.95).
const (
	DefaultD     = 0.05
	DefaultP0Max = 0.05
	DefaultC     = 0.95
)

// Validity holds the three parameters that bound the regions where the
// report's approximations are accurate (§3.1, Figure 3; docs/models.md#makrucki-domain).
// A zero field means its default ([DefaultD], [DefaultP0Max], [DefaultC]).
type Validity struct {
	// D is the largest relative error of p_0 against M/M/1/inf tolerated by
	// Case I, in (0, inf).
	D float64
	// P0Max is the largest time-average empty probability p_0 tolerated by
	// Case II, in (0, 1).
	P0Max float64
	// C is the smallest weight of the mu-exponential term of Eq. (3.2)
	// tolerated by Case III, in (0, 1).
	C float64
}

// resolved returns v with its zero fields set to their defaults, or an
// error wrapping analytic.ErrDomain if a field lies outside its range.
func (v Validity) resolved() (Validity, error) {
	if v.D == 0 {
		v.D = DefaultD
	}
	if v.P0Max == 0 {
		v.P0Max = DefaultP0Max
	}
	if v.C == 0 {
		v.C = DefaultC
	}
	switch {
	case !(v.D > 0) || math.IsInf(v.D, 1):
		return v, analytic.Domain("delta.Validity", "D = %v, want 0 < D < inf", v.D)
	case !(v.P0Max > 0 && v.P0Max < 1):
		return v, analytic.Domain("delta.Validity", "P0Max = %v, want 0 < P0Max < 1", v.P0Max)
	case !(v.C > 0 && v.C < 1):
		return v, analytic.Domain("delta.Validity", "C = %v, want 0 < C < 1", v.C)
	}
	return v, nil
}

// forQueue is resolved for a bound that depends on the queue length L,
// which must be at least 1; model names the caller in the error.
func (v Validity) forQueue(model string, L int) (Validity, error) {
	w, err := v.resolved()
	if err == nil && L < 1 {
		err = analytic.Domain(model, "L = %d, want L >= 1", L)
	}
	return w, err
}

// RhoI returns the upper end of Case I's validity region for queue length
// L (§3.1 Eq. (4), reading R5):
//
//	|p_0^inf - p_0^L| / p_0^inf = rho^{L+1}/(1 - rho^{L+1}) <= D
//	<=>  rho <= rho_I(L, D) = (D/(1+D))^{1/(L+1)}
//
// Example: rho_I(30, 0.05) = 0.90645816 (docs/models.md#makrucki-domain).
func (v Validity) RhoI(L int) (float64, error) {
	w, err := v.forQueue("delta.RhoI", L)
	if err != nil {
		return 0, err
	}
	d := w.D
	return math.Pow(d/(1+d), 1/float64(L+1)), nil
}

// Rho0 returns the lower end of Case II's validity region for queue length
// L (§3.1, reading R6): the load rho_0 at which the time-average empty
// probability of an M/M/1/L station falls to p0max,
//
//	p_0(rho) = (1-rho)/(1-rho^{L+1}) = p0max
//
// (equivalently p0max (1 - rho^{L+1}) + rho = 1, whose root rho = 1 is
// spurious). p_0 decreases strictly from 1 at rho = 0 to 0 as rho -> inf,
// so rho_0 is found by bisection on [0, p0max^{-1/L}] down to adjacent
// floating-point numbers (bracket far below 1e-12). rho_0 < 1 iff
// 1/(L+1) < p0max. Example: rho_0(1, 0.05) = 19, rho_0(19, 0.05) = 1.
func (v Validity) Rho0(L int) (float64, error) {
	w, err := v.forQueue("delta.Rho0", L)
	if err != nil {
		return 0, err
	}
	target := w.P0Max
	lo, hi := 0.0, math.Pow(target, -1/float64(L))
	for hi > lo {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if p0(mid, L) > target {
			lo = mid
		} else {
			hi = mid
		}
	}
	// Return the endpoint whose p_0 is closer to the target.
	if math.Abs(p0(lo, L)-target) < math.Abs(p0(hi, L)-target) {
		return lo, nil
	}
	return hi, nil
}

// CaseIIIMinL returns the smallest queue length for which Case III is
// valid (§3.1, reading R7):
//
//	C <= L/(L+1)   <=>   L >= C/(1-C)
//
// The comparison is made in the form L/(L+1) >= C, which is exact at the
// boundary (C = 0.95 gives 19, not 20).
func (v Validity) CaseIIIMinL() (int, error) {
	w, err := v.resolved()
	if err != nil {
		return 0, err
	}
	c := w.C
	L := int(math.Floor(c / (1 - c)))
	if L < 1 {
		L = 1
	}
	for L > 1 && float64(L-1)/float64(L) >= c {
		L--
	}
	for float64(L)/float64(L+1) < c {
		L++
	}
	return L, nil
}

// Contains reports whether (L, rho) lies in the validity region of case c:
// rho <= rho_I(L) for Case I, rho >= rho_0(L) for Case II, L >= C/(1-C)
// for Case III (docs/models.md#makrucki-domain). Case III's formulas further assume
// lambda = mu; the report states no tolerance on rho for it, so neither
// does Contains.
func (v Validity) Contains(c Case, L int, rho float64) (bool, error) {
	if !(rho >= 0) || math.IsInf(rho, 1) {
		return false, analytic.Domain("delta.Validity", "rho = %v, want 0 <= rho < inf", rho)
	}
	switch c {
	case CaseI:
		r, err := v.RhoI(L)
		return rho <= r, err
	case CaseII:
		r, err := v.Rho0(L)
		return rho >= r, err
	case CaseIII:
		m, err := v.CaseIIIMinL()
		if err == nil && L < 1 {
			err = analytic.Domain("delta.Validity", "L = %d, want L >= 1", L)
		}
		return L >= m, err
	}
	return false, analytic.Domain("delta.Validity", "case %v has no validity region", c)
}

// Select picks the approximation for (L, rho): Case I if rho <= rho_I(L);
// else Case III if rho = 1 exactly and L >= C/(1-C) (the report defines
// Case III at lambda = mu); else Case II if rho >= rho_0(L). Between
// rho_I and rho_0 (and at rho = 1 with a short queue outside Case II) no
// approximation is valid and Select returns an error wrapping
// analytic.ErrDomain.
func (v Validity) Select(L int, rho float64) (Case, error) {
	for _, c := range [...]Case{CaseI, CaseIII, CaseII} {
		if c == CaseIII && rho != 1 {
			continue
		}
		ok, err := v.Contains(c, L, rho)
		if err != nil {
			return CaseAuto, err
		}
		if ok {
			return c, nil
		}
	}
	return CaseAuto, analytic.Domain("delta.Select", "no case valid at L = %d, rho = %v (between rho_I and rho_0)", L, rho)
}

// p0 is the time-average empty probability of an M/M/1/L station at load
// rho >= 0 (Eq. (1.1), k = 0).
func p0(rho float64, L int) float64 {
	if rho == 0 {
		return 1
	}
	q, err := queue.NewMM1L(rho, 1, L)
	if err != nil {
		panic("delta: p0: " + err.Error())
	}
	return q.P(0)
}
