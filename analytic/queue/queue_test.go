package queue

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/flitsim/flitsim/analytic"
	"github.com/flitsim/flitsim/internal/pin"
)

// Tolerances (docs/models.md#numerics): closed forms 1e-12 relative.
const relTol = 1e-12

// Reference values: textbook M/M/1 formulas (Kleinrock 1975, §3.2) evaluated
// by hand as exact rationals.
func TestMM1Reference(t *testing.T) {
	cases := []struct {
		lambda, mu                float64
		rho, n, nq, tm, w, p0, p2 float64
	}{
		// rho = 1/2: N = 1, Nq = 1/2, T = 2, W = 1, p_2 = 1/8.
		{0.5, 1, 0.5, 1, 0.5, 2, 1, 0.5, 0.125},
		// rho = 3/4 with mu = 4: N = 3, Nq = 9/4, T = 1, W = 3/4, p_2 = 9/64.
		{3, 4, 0.75, 3, 2.25, 1, 0.75, 0.25, 9.0 / 64},
		// rho = 1/10, mu = 10: N = 1/9, T = 1/9, W = 1/90.
		{1, 10, 0.1, 1.0 / 9, 1.0 / 90, 1.0 / 9, 1.0 / 90, 0.9, 0.009},
	}
	for _, c := range cases {
		q, err := NewMM1(c.lambda, c.mu)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("MM1(%g,%g)", c.lambda, c.mu)
		pin.CheckRel(t, name+".Rho", q.Rho(), c.rho, relTol)
		pin.CheckRel(t, name+".MeanNumber", q.MeanNumber(), c.n, relTol)
		pin.CheckRel(t, name+".MeanQueue", q.MeanQueue(), c.nq, relTol)
		pin.CheckRel(t, name+".MeanTime", q.MeanTime(), c.tm, relTol)
		pin.CheckRel(t, name+".MeanWait", q.MeanWait(), c.w, relTol)
		pin.CheckRel(t, name+".P(0)", q.P(0), c.p0, relTol)
		pin.CheckRel(t, name+".P(2)", q.P(2), c.p2, relTol)
		if q.P(-1) != 0 {
			t.Errorf("%s.P(-1) = %g, want 0", name, q.P(-1))
		}
	}
}

// Little's law and T = W + 1/mu for M/M/1 over a grid of loads.
func TestMM1Little(t *testing.T) {
	for _, rho := range []float64{1e-6, 0.01, 0.3, 0.5, 0.9, 0.999} {
		q, err := NewMM1(rho*2.5, 2.5)
		if err != nil {
			t.Fatal(err)
		}
		pin.CheckRel(t, "N = lambda T", q.MeanNumber(), q.Lambda()*q.MeanTime(), relTol)
		pin.CheckRel(t, "Nq = lambda W", q.MeanQueue(), q.Lambda()*q.MeanWait(), relTol)
		pin.CheckRel(t, "T = W + 1/mu", q.MeanTime(), q.MeanWait()+1/q.Mu(), relTol)
		s := 0.0
		for n := 0; n < 200000 && (n < 10 || q.P(n) > 1e-18); n++ {
			s += q.P(n)
		}
		pin.CheckRel(t, "sum p_n", s, 1, 1e-10)
	}
}

// Exact pins of docs/models.md#mm1l / docs/models.md#pins and two more exact rational cases.
func TestMM1LReference(t *testing.T) {
	cases := []struct {
		src           string
		lambda, mu    float64
		l             int
		p             []float64
		n, pl, tm, wt float64
	}{
		// docs/models.md#mm1l exact check, rho = 1/2, L = 2.
		{"docs/models.md#mm1l pin", 0.5, 1, 2, []float64{4.0 / 7, 2.0 / 7, 1.0 / 7}, 4.0 / 7, 1.0 / 7, 4.0 / 3, 1.0 / 3},
		// rho = 2, L = 2: p proportional to 1, 2, 4; E[N] = 10/7; lambda_eff = 6/7; E[T] = 5/3.
		{"rho=2 by hand", 2, 1, 2, []float64{1.0 / 7, 2.0 / 7, 4.0 / 7}, 10.0 / 7, 4.0 / 7, 5.0 / 3, 2.0 / 3},
		// rho = 1 limits (docs/models.md#mm1l): p_k = 1/(L+1), E[N] = L/2, E[T] = (L+1)/(2 mu).
		{"rho=1 limit", 2, 2, 4, []float64{0.2, 0.2, 0.2, 0.2, 0.2}, 2, 0.2, 1.25, 0.75},
		// L = 1 (loss system): p = (1/(1+rho), rho/(1+rho)), E[T] = 1/mu, W = 0.
		{"L=1 by hand", 3, 1, 1, []float64{0.25, 0.75}, 0.75, 0.75, 1, 0},
	}
	for _, c := range cases {
		q, err := NewMM1L(c.lambda, c.mu, c.l)
		if err != nil {
			t.Fatal(err)
		}
		p := q.Probabilities(nil)
		if len(p) != c.l+1 {
			t.Fatalf("%s: %d probabilities, want %d", c.src, len(p), c.l+1)
		}
		for k := range p {
			pin.CheckRel(t, fmt.Sprintf("%s p_%d", c.src, k), p[k], c.p[k], relTol)
		}
		pin.CheckRel(t, c.src+" E[N]", q.MeanNumber(), c.n, relTol)
		pin.CheckRel(t, c.src+" p_L", q.Blocking(), c.pl, relTol)
		pin.CheckRel(t, c.src+" E[T]", q.MeanTime(), c.tm, relTol)
		if c.wt == 0 {
			if w := q.MeanWait(); math.Abs(w) > 1e-15 {
				t.Errorf("%s E[W] = %g, want 0", c.src, w)
			}
		} else {
			pin.CheckRel(t, c.src+" E[W]", q.MeanWait(), c.wt, relTol)
		}
	}
}

// bigMM1L computes p_L, E[N] and 1-p_L of M/M/1/L from the definition
// p_k = rho^k / sum_j rho^j in 256-bit arithmetic, with rho taken exactly.
func bigMM1L(rho float64, l int) (pl, n, acc float64) {
	const prec = 256
	r := new(big.Float).SetPrec(prec).SetFloat64(rho)
	pow := new(big.Float).SetPrec(prec).SetFloat64(1)
	sum := new(big.Float).SetPrec(prec)
	ksum := new(big.Float).SetPrec(prec)
	var last *big.Float
	for k := 0; k <= l; k++ {
		sum.Add(sum, pow)
		kp := new(big.Float).SetPrec(prec).SetInt64(int64(k))
		ksum.Add(ksum, kp.Mul(kp, pow))
		last = new(big.Float).SetPrec(prec).Set(pow)
		pow.Mul(pow, r)
	}
	plb := new(big.Float).SetPrec(prec).Quo(last, sum)
	nb := new(big.Float).SetPrec(prec).Quo(ksum, sum)
	accb := new(big.Float).SetPrec(prec).Sub(new(big.Float).SetPrec(prec).SetFloat64(1), plb)
	pl, _ = plb.Float64()
	n, _ = nb.Float64()
	acc, _ = accb.Float64()
	return
}

// Across rho = 1 (both branches of MeanNumber: the series for (L+1)|ln rho|
// < 0.1 and the expm1 form) the float64 results agree with a 256-bit
// evaluation of the definition to 1e-12 relative: no cancellation.
func TestMM1LNearRhoOneAgainstBigFloat(t *testing.T) {
	rhos := []float64{1 - 1e-12, 1 - 1e-7, 1 + 1e-7, 1 - 1e-6, 1 + 1e-6, 1 - 1e-4, 1 + 1e-4,
		1 - 0.01, 1 + 0.01, 0.95, 1.05, 0.5, 2, 0.1, 10}
	ls := []int{1, 2, 3, 7, 30, 200}
	for _, rho := range rhos {
		for _, l := range ls {
			q, err := NewMM1L(rho, 1, l)
			if err != nil {
				t.Fatal(err)
			}
			pl, n, acc := bigMM1L(rho, l)
			name := fmt.Sprintf("rho=%.17g L=%d", rho, l)
			pin.CheckRel(t, name+" p_L", q.Blocking(), pl, relTol)
			pin.CheckRel(t, name+" E[N]", q.MeanNumber(), n, relTol)
			pin.CheckRel(t, name+" E[T]", q.MeanTime(), n/(rho*acc), relTol)
		}
	}
}

// Identities at every load: sum p_k = 1, Little with the accepted rate,
// flow balance lambda (1-p_L) = mu (1-p_0), T = W + 1/mu, E[N] in [0, L].
func TestMM1LIdentities(t *testing.T) {
	for _, rho := range []float64{1e-9, 1e-3, 0.2, 0.5, 0.999999, 1, 1.0000001, 1.5, 4, 1e3} {
		for _, l := range []int{1, 2, 5, 16, 64, 1000} {
			mu := 3.0
			q, err := NewMM1L(rho*mu, mu, l)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("rho=%g L=%d", rho, l)
			s, busy := 0.0, 0.0 // busy = sum_{k>=1} p_k = 1 - p_0 without cancellation
			for k, p := range q.Probabilities(make([]float64, 0, l+1)) {
				if p < 0 || p > 1 {
					t.Errorf("%s: p = %g outside [0,1]", name, p)
				}
				s += p
				if k > 0 {
					busy += p
				}
			}
			pin.CheckRel(t, name+" sum p_k", s, 1, 1e-13*float64(l+1))
			pin.CheckRel(t, name+" Little", q.MeanNumber(), q.Accepted()*q.MeanTime(), relTol)
			pin.CheckRel(t, name+" flow balance", q.Accepted(), mu*busy, 1e-12*float64(l+1))
			pin.CheckRel(t, name+" Utilisation", q.Utilisation(), busy, 1e-12*float64(l+1))
			pin.CheckRel(t, name+" T = W + 1/mu", q.MeanTime(), q.MeanWait()+1/mu, 1e-11)
			if n := q.MeanNumber(); n < 0 || n > float64(l) {
				t.Errorf("%s: E[N] = %g outside [0, L]", name, n)
			}
		}
	}
}

// M/M/1/L -> M/M/1 as L -> infinity at rho < 1. The gap in E[N] is exactly
// (L+1) rho^{L+1}/(1 - rho^{L+1}) (docs/models.md#mm1l, second form of Eq. (2)).
func TestMM1LConvergesToMM1(t *testing.T) {
	for _, rho := range []float64{0.5, 0.9} {
		inf, err := NewMM1(rho, 1)
		if err != nil {
			t.Fatal(err)
		}
		prev := math.Inf(1)
		for _, l := range []int{1, 2, 5, 10, 20, 50, 100, 200, 400, 1000} {
			q, err := NewMM1L(rho, 1, l)
			if err != nil {
				t.Fatal(err)
			}
			r := math.Pow(rho, float64(l+1))
			gap := inf.MeanNumber() - q.MeanNumber()
			wantGap := float64(l+1) * r / (1 - r)
			if math.Abs(gap-wantGap) > 1e-12*inf.MeanNumber() {
				t.Errorf("rho=%g L=%d: E[N] gap %.6g, want %.6g", rho, l, gap, wantGap)
			}
			if gap < 0 || gap > prev {
				t.Errorf("rho=%g L=%d: gap %g not decreasing from %g", rho, l, gap, prev)
			}
			prev = gap
			if l >= 400 {
				pin.CheckRel(t, fmt.Sprintf("rho=%g L=%d E[T]", rho, l), q.MeanTime(), inf.MeanTime(), 1e-12)
				pin.CheckRel(t, fmt.Sprintf("rho=%g L=%d p_0", rho, l), q.P(0), inf.P(0), 1e-12)
			}
		}
	}
}

// Pollaczek–Khinchine reference values (Kleinrock 1975, Vol. I, ch. 5) and the
// M/D/1 vs M/M/1 identity.
func TestMG1Reference(t *testing.T) {
	// lambda = 1/2, E[S] = 1, E[S^2] = 3 (scv = 2): W = 0.5*3/(2*0.5) = 1.5.
	w, err := MG1Wait(0.5, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	pin.CheckRel(t, "MG1Wait(0.5,1,3)", w, 1.5, relTol)
	w2, err := MG1WaitSCV(0.5, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	pin.CheckRel(t, "MG1WaitSCV(0.5,1,2)", w2, 1.5, relTol)
	// lambda = 0.2, E[S] = 4 (rho = 0.8), scv = 0.25: E[S^2] = 20, W = 0.2*20/0.4 = 10.
	q, err := NewMG1SCV(0.2, 4, 0.25)
	if err != nil {
		t.Fatal(err)
	}
	pin.CheckRel(t, "MG1 SecondMoment", q.SecondMoment(), 20, relTol)
	pin.CheckRel(t, "MG1 W", q.MeanWait(), 10, relTol)
	pin.CheckRel(t, "MG1 T", q.MeanTime(), 14, relTol)
	pin.CheckRel(t, "MG1 N", q.MeanNumber(), 2.8, relTol)
	pin.CheckRel(t, "MG1 SCV", q.SCV(), 0.25, relTol)

	for _, rho := range []float64{0.01, 0.25, 0.5, 0.8, 0.99} {
		const s = 2.0
		mm1, err := NewMM1(rho/s, 1/s)
		if err != nil {
			t.Fatal(err)
		}
		md1, err := NewMD1(rho/s, s)
		if err != nil {
			t.Fatal(err)
		}
		exp, err := NewMG1SCV(rho/s, s, 1)
		if err != nil {
			t.Fatal(err)
		}
		// scv = 1 (exponential) reproduces M/M/1 exactly.
		pin.CheckRel(t, "MG1(scv=1) W vs MM1", exp.MeanWait(), mm1.MeanWait(), relTol)
		pin.CheckRel(t, "MG1(scv=1) N vs MM1", exp.MeanNumber(), mm1.MeanNumber(), relTol)
		// M/D/1 wait is half the M/M/1 wait, and below it.
		pin.CheckRel(t, "MD1 W = MM1 W / 2", md1.MeanWait(), mm1.MeanWait()/2, relTol)
		if !(md1.MeanWait() < mm1.MeanWait()) || !(md1.MeanTime() < mm1.MeanTime()) {
			t.Errorf("rho=%g: M/D/1 not below M/M/1", rho)
		}
		pin.CheckRel(t, "MD1 vs MG1 scv=0", md1.MeanWait(), md1.MG1().MeanWait(), relTol)
		pin.CheckRel(t, "MD1 Little", md1.MeanNumber(), md1.Lambda()*md1.MeanTime(), relTol)
		pin.CheckRel(t, "MD1 T = W + D", md1.MeanTime(), md1.MeanWait()+md1.Service(), relTol)
		pin.CheckRel(t, "MG1 Little q", exp.MeanQueue(), exp.Lambda()*exp.MeanWait(), relTol)
	}
}

// Saturation and domain errors for every constructor.
func TestErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name string
		call func() error
		kind error
	}{
		{"MM1 rho=1", func() error { _, e := NewMM1(1, 1); return e }, analytic.ErrSaturated},
		{"MM1 rho>1", func() error { _, e := NewMM1(2, 1); return e }, analytic.ErrSaturated},
		{"MM1 lambda=0", func() error { _, e := NewMM1(0, 1); return e }, analytic.ErrDomain},
		{"MM1 lambda<0", func() error { _, e := NewMM1(-1, 1); return e }, analytic.ErrDomain},
		{"MM1 mu=0", func() error { _, e := NewMM1(0.5, 0); return e }, analytic.ErrDomain},
		{"MM1 mu NaN", func() error { _, e := NewMM1(0.5, nan); return e }, analytic.ErrDomain},
		{"MM1 mu Inf", func() error { _, e := NewMM1(0.5, inf); return e }, analytic.ErrDomain},
		{"MM1L L=0", func() error { _, e := NewMM1L(0.5, 1, 0); return e }, analytic.ErrDomain},
		{"MM1L lambda=0", func() error { _, e := NewMM1L(0, 1, 3); return e }, analytic.ErrDomain},
		{"MM1L mu<0", func() error { _, e := NewMM1L(1, -1, 3); return e }, analytic.ErrDomain},
		{"MM1L rho underflow", func() error { _, e := NewMM1L(1e-300, 1e300, 3); return e }, analytic.ErrDomain},
		{"MG1 rho=1", func() error { _, e := MG1Wait(1, 1, 2); return e }, analytic.ErrSaturated},
		{"MG1 rho>1", func() error { _, e := MG1Wait(2, 1, 2); return e }, analytic.ErrSaturated},
		{"MG1 E[S^2]<E[S]^2", func() error { _, e := MG1Wait(0.5, 1, 0.5); return e }, analytic.ErrDomain},
		{"MG1 E[S]=0", func() error { _, e := MG1Wait(0.5, 0, 1); return e }, analytic.ErrDomain},
		{"MG1 E[S^2]=0", func() error { _, e := MG1Wait(0.5, 1, 0); return e }, analytic.ErrDomain},
		{"MG1 lambda<0", func() error { _, e := MG1Wait(-0.5, 1, 1); return e }, analytic.ErrDomain},
		{"MG1SCV scv<0", func() error { _, e := MG1WaitSCV(0.5, 1, -0.1); return e }, analytic.ErrDomain},
		{"MG1SCV scv NaN", func() error { _, e := MG1WaitSCV(0.5, 1, nan); return e }, analytic.ErrDomain},
		{"MG1SCV rho=1", func() error { _, e := MG1WaitSCV(0.5, 2, 0); return e }, analytic.ErrSaturated},
		{"MG1SCV mean=0", func() error { _, e := MG1WaitSCV(0.5, 0, 1); return e }, analytic.ErrDomain},
		{"MD1 rho=1", func() error { _, e := NewMD1(0.5, 2); return e }, analytic.ErrSaturated},
		{"MD1 rho>1", func() error { _, e := NewMD1(1, 2); return e }, analytic.ErrSaturated},
		{"MD1 D=0", func() error { _, e := NewMD1(0.5, 0); return e }, analytic.ErrDomain},
		{"MD1 lambda=0", func() error { _, e := NewMD1(0, 1); return e }, analytic.ErrDomain},
	}
	for _, c := range cases {
		err := c.call()
		if !errors.Is(err, c.kind) {
			t.Errorf("%s: error %v, want one wrapping %v", c.name, err, c.kind)
		}
		var de *analytic.DomainError
		if !errors.As(err, &de) || de.Model == "" || de.Condition == "" {
			t.Errorf("%s: error %v is not a *analytic.DomainError naming model and condition", c.name, err)
		}
	}
	// M/M/1/L is stable at rho >= 1: no error.
	for _, rho := range []float64{1, 2, 100} {
		if _, err := NewMM1L(rho, 1, 4); err != nil {
			t.Errorf("NewMM1L(rho=%g): %v, want nil (finite queue is always stable)", rho, err)
		}
	}
	// Deterministic service given as a moment pair is accepted.
	if _, err := MG1Wait(0.1, 0.1, 0.1*0.1); err != nil {
		t.Errorf("MG1Wait with E[S^2] = E[S]^2: %v", err)
	}
}

func BenchmarkMM1LMeanTime(b *testing.B) {
	q, err := NewMM1L(0.9, 1, 16)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	s := 0.0
	for b.Loop() {
		s += q.MeanTime()
	}
	_ = s
}
