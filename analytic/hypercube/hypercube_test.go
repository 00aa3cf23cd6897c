package hypercube

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/flitsim/flitsim/analytic"
	"github.com/flitsim/flitsim/internal/pin"
)

func cube(t *testing.T, n int) Cube {
	t.Helper()
	c, err := New(n)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// docs/models.md#jacquet-distance: P(k) sums to 1, its mean is d = n/(2(1-2^{-n})), the v_k
// sum to 1, and X = sum_k P(k) X_k equals d x1 (the exchange of sums used
// by At), Q = sum_k P(k) Q_k equals d x2.
func TestDistances(t *testing.T) {
	for _, n := range []int{1, 2, 3, 4, 6, 10, 20, 62} {
		c := cube(t, n)
		sp, mean, sv := 0.0, 0.0, 0.0
		for k := 0; k <= n+1; k++ {
			sp += c.HopProb(k)
			mean += float64(k) * c.HopProb(k)
			sv += c.VisitProb(k)
		}
		pin.CheckRel(t, fmt.Sprintf("n=%d sum P(k)", n), sp, 1, 1e-14)
		pin.CheckRel(t, fmt.Sprintf("n=%d d", n), mean, c.MeanHops(), 1e-14)
		pin.CheckRel(t, fmt.Sprintf("n=%d d closed", n), c.MeanHops(), float64(n)/(2*(1-math.Pow(2, -float64(n)))), 1e-15)
		pin.CheckRel(t, fmt.Sprintf("n=%d sum v_k", n), sv, 1, 1e-14)
		if n > 12 {
			continue
		}
		for _, lam := range []float64{0, 0.3 * c.LambdaMax().Lambda, 0.9 * c.LambdaMax().Lambda} {
			l, err := c.At(lam)
			if err != nil {
				t.Fatal(err)
			}
			x, q := 0.0, 0.0
			for k := 1; k <= n; k++ {
				x += c.HopProb(k) * HopService(l.P, k)
				q += c.HopProb(k) * HopSecond(l.P, k)
			}
			pin.CheckRel(t, "X direct", l.X, x, 1e-13)
			pin.CheckRel(t, "Q direct", l.Q, q, 1e-13)
			pin.CheckRel(t, "x1 = X/d", l.X1, x/c.MeanHops(), 1e-13)
		}
	}
	if c := cube(t, 4); c.Nodes() != 16 || c.Dim() != 4 {
		t.Errorf("Nodes/Dim = %d/%d", c.Nodes(), c.Dim())
	}
}

// docs/models.md#jacquet-pins lambda_max table: d, lambda_max, p and X at lambda_max for
// n = 3, 4, 5, 6, 8; X = 1/lambda_max there.
func TestLambdaMaxTable(t *testing.T) {
	rows := []struct {
		n             int
		d, lmax, p, x string
	}{
		{3, "1.714285714", "0.234365279341", "0.6696150838", "4.266843633"},
		{4, "2.133333333", "0.187130351326", "0.6986199783", "5.343868554"},
		{5, "2.580645161", "0.155076412519", "0.7203549485", "6.448433929"},
		{6, "3.047619048", "0.132058922286", "0.7378530261", "7.572377411"},
		{8, "4.015686275", "0.101609181648", "0.7650573677", "9.841630292"},
	}
	for _, r := range rows {
		c := cube(t, r.n)
		m := c.LambdaMax()
		name := fmt.Sprintf("docs/models.md#jacquet-pins n=%d ", r.n)
		pin.Check(t, name+"d", c.MeanHops(), r.d)
		pin.Check(t, name+"lambda_max", m.Lambda, r.lmax)
		pin.Check(t, name+"p", m.P, r.p)
		pin.Check(t, name+"X", m.X, r.x)
		pin.CheckRel(t, name+"lambda_max X", m.Lambda*m.X, 1, 1e-12)
	}
}

// docs/models.md#jacquet-pins Poisson-approximation table (normalised Q). The 0.5
// lambda_max row uses lambda = lambda_max/2 at full precision.
func TestPoissonTable(t *testing.T) {
	rows := []struct {
		n       int
		lambda  float64 // < 0: that fraction of lambda_max
		lam     string
		p, x, q string
		tt      string
	}{
		{4, 0.01, "", "0.037333333", "2.1731555", "2.2558107", "2.1977520"},
		{4, 0.05, "", "0.18666667", "2.39158", "3.0153617", "2.5742418"},
		{4, 0.1, "", "0.37333333", "2.8674589", "5.086062", "3.6280761"},
		{4, -0.5, "0.0935652", "0.34930999", "2.7879257", "4.7031625", "3.4229670"},
		{5, 0.05, "", "0.23225806", "2.9381244", "3.8417439", "3.2286603"},
		{5, 0.1, "", "0.46451613", "3.746541", "7.724093", "5.3403104"},
		{6, 0.05, "", "0.27936508", "3.52907", "4.8061965", "3.9737157"},
		{6, 0.1, "", "0.55873016", "4.9099021", "12.28211", "8.5867657"},
	}
	for _, r := range rows {
		c := cube(t, r.n)
		lam := r.lambda
		if lam < 0 {
			lam = -lam * c.LambdaMax().Lambda
		}
		name := fmt.Sprintf("docs/models.md#jacquet-pins Poisson n=%d lambda=%.7g ", r.n, lam)
		if r.lam != "" {
			pin.Check(t, name+"lambda", lam, r.lam)
		}
		d, err := c.Poisson(lam, PoissonOptions{})
		if err != nil {
			t.Fatal(err)
		}
		pin.Check(t, name+"p", d.P, r.p)
		pin.Check(t, name+"X", d.X, r.x)
		pin.Check(t, name+"Q", d.Q, r.q)
		pin.Check(t, name+"T", d.T, r.tt)
		// T = d (x1 + W) (docs/models.md#jacquet-poisson).
		pin.CheckRel(t, name+"T = d(x1+W)", d.T, c.MeanHops()*(d.X1+d.W), 1e-13)
	}
	// docs/models.md#pins: T(n=4, 0.05) = 2.5742418, T(n=6, 0.1) = 8.5867657 — covered above.
}

// docs/models.md#jacquet-pins Bernoulli table (corrected mu, q'(1), D = M/lambda) and the
// Poisson T beside it; lambda is the printed fraction of lambda_max.
func TestBernoulliTable(t *testing.T) {
	rows := []struct {
		n                         int
		frac                      float64
		lam, mu, q0, qp, m, d, tt string
	}{
		{4, 0.25, "0.046782588", "0.0588985", "0.89908039", "0.10484324", "0.13996482", "2.9918143", "2.5345348"},
		{4, 0.50, "0.093565176", "0.132485", "0.78737142", "0.23431731", "0.35449714", "3.7887723", "3.4229670"},
		{4, 0.75, "0.14034776", "0.227038", "0.62477735", "0.51394952", "0.89965373", "6.4101750", "6.3070852"},
		{5, 0.50, "0.077538206", "0.153219", "0.78812617", "0.2302468", "0.33546704", "4.3264741", "4.0238745"},
		{6, 0.50, "0.066029461", "0.169265", "0.78799122", "0.2279538", "0.32168272", "4.8718059", "4.6365837"},
		{6, 0.75, "0.099044192", "0.290488", "0.63189935", "0.47412537", "0.80751061", "8.1530335", "8.3559662"},
	}
	for _, r := range rows {
		c := cube(t, r.n)
		lam := r.frac * c.LambdaMax().Lambda
		name := fmt.Sprintf("docs/models.md#jacquet-pins Bernoulli n=%d %.2f lambda_max ", r.n, r.frac)
		pin.Check(t, name+"lambda", lam, r.lam)
		b, err := c.Bernoulli(lam, BernoulliOptions{})
		if err != nil {
			t.Fatal(err)
		}
		p, err := c.Poisson(lam, PoissonOptions{})
		if err != nil {
			t.Fatal(err)
		}
		pin.Check(t, name+"mu", b.Mu, r.mu)
		pin.Check(t, name+"q0", b.Q0, r.q0)
		pin.Check(t, name+"q'(1)", b.QPrime, r.qp)
		pin.Check(t, name+"M", b.M, r.m)
		pin.Check(t, name+"D", b.D, r.d)
		pin.Check(t, name+"T", p.T, r.tt)
	}
}

// docs/models.md#jacquet-pins printed-variant values at n = 4, 0.5 lambda_max: q'(1)
// appendix 0.23019999, main text 0.2394961; D printed 2.0206786. docs/models.md#jacquet-poisson: the
// printed (unnormalised) Q gives a T smaller by ~0.1 % at light load and
// up to ~5 % near lambda_max.
func TestPrintedVariants(t *testing.T) {
	c := cube(t, 4)
	lam := 0.5 * c.LambdaMax().Lambda
	get := func(o BernoulliOptions) BernoulliDelay {
		b, err := c.Bernoulli(lam, o)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	pin.Check(t, "docs/models.md#jacquet-pins q'(1) PrintedAppendix", get(BernoulliOptions{QPrime: QPrimePrintedAppendix}).QPrime, "0.23019999")
	pin.Check(t, "docs/models.md#jacquet-pins q'(1) PrintedMain", get(BernoulliOptions{QPrime: QPrimePrintedMain}).QPrime, "0.2394961")
	pin.Check(t, "docs/models.md#jacquet-pins D Printed", get(BernoulliOptions{D: DPrinted}).D, "2.0206786")

	// E9: QPrinted T below the corrected T by a factor growing with load.
	for _, f := range []float64{0.05, 0.5, 0.95} {
		l := f * c.LambdaMax().Lambda
		a, _ := c.Poisson(l, PoissonOptions{})
		p, _ := c.Poisson(l, PoissonOptions{Q: QPrinted})
		rel := (a.T - p.T) / a.T
		if !(rel > 0 && rel < 0.06) {
			t.Errorf("f=%v: QPrinted T %v vs %v (rel %v)", f, p.T, a.T, rel)
		}
		pin.CheckRel(t, "QPrinted Q", p.QUsed, a.Q*15/16, 1e-15)
	}
	// E8: printed mu is negative for n <= 2 (refused), and differs from the
	// corrected one otherwise.
	for _, n := range []int{1, 2} {
		c := cube(t, n)
		if _, err := c.Bernoulli(0.5*c.LambdaMax().Lambda, BernoulliOptions{Mu: MuPrinted}); !errors.Is(err, analytic.ErrDomain) {
			t.Errorf("n=%d printed mu: err = %v, want ErrDomain", n, err)
		}
	}
	if b := get(BernoulliOptions{Mu: MuPrinted}); !(b.Mu > 0 && b.Mu < get(BernoulliOptions{}).Mu) {
		t.Errorf("printed mu %v", b.Mu)
	}
}

// Identity: T -> d as lambda -> 0 (docs/models.md#jacquet-poisson), exactly d at 0, and T
// strictly increasing in lambda up to lambda_max; D likewise increasing.
func TestPoissonLimitAndMonotone(t *testing.T) {
	for _, n := range []int{1, 2, 4, 6, 8, 16} {
		c := cube(t, n)
		d := c.MeanHops()
		p, err := c.Poisson(0, PoissonOptions{})
		if err != nil {
			t.Fatal(err)
		}
		pin.CheckRel(t, "T(0)", p.T, d, 1e-14)
		prev := math.Inf(1)
		for _, lam := range []float64{1e-3, 1e-5, 1e-7, 1e-9} {
			p, _ := c.Poisson(lam, PoissonOptions{})
			e := p.T - d
			if !(e > 0 && e < prev) {
				t.Errorf("n=%d lambda=%v: T - d = %v (previous %v)", n, lam, e, prev)
			}
			prev = e
		}
		lmax := c.LambdaMax().Lambda
		prevT, prevD := 0.0, 0.0
		for i := 1; i < 200; i++ {
			lam := float64(i) / 200 * lmax
			p, err := c.Poisson(lam, PoissonOptions{})
			if err != nil {
				t.Fatalf("n=%d lambda=%v: %v", n, lam, err)
			}
			if !(p.T > prevT) {
				t.Errorf("n=%d: T(%v) = %v not above %v", n, lam, p.T, prevT)
			}
			prevT = p.T
			b, err := c.Bernoulli(lam, BernoulliOptions{})
			if err != nil {
				t.Fatalf("n=%d lambda=%v: %v", n, lam, err)
			}
			if !(b.D > prevD) || b.D < d {
				t.Errorf("n=%d: D(%v) = %v (previous %v, d %v)", n, lam, b.D, prevD, d)
			}
			prevD = b.D
		}
	}
}

// Identity (docs/models.md#jacquet-bernoulli, erratum E8: docs/errata.md#e8): with the corrected mu, 1 - A'(1) =
// 1 + mu - (lambda+mu) x1 equals (1-lambda)(1-lambda X)/(1-lambda d), so
// q0 -> 0 exactly as lambda X -> 1; the next float above lambda_max is
// saturated.
func TestQ0VanishesAtLambdaMax(t *testing.T) {
	for _, n := range []int{3, 4, 6, 8} {
		c := cube(t, n)
		lmax := c.LambdaMax().Lambda
		for _, f := range []float64{0.1, 0.5, 0.9} {
			b, err := c.Bernoulli(f*lmax, BernoulliOptions{})
			if err != nil {
				t.Fatal(err)
			}
			general := 1 + b.Mu - (b.Lambda+b.Mu)*b.X1
			pin.CheckRel(t, "1 - a1 factored vs general", 1-b.A1, general, 1e-12)
		}
		prevQ0, prevRatio := 1.0, 0.0
		for _, eps := range []float64{1e-2, 1e-4, 1e-6, 1e-8} {
			b, err := c.Bernoulli(lmax*(1-eps), BernoulliOptions{})
			if err != nil {
				t.Fatal(err)
			}
			// q0 falls to 0 and q0 / (1 - lambda X) tends to a positive
			// constant: q0 vanishes linearly in the slack of lambda X < 1.
			ratio := b.Q0 / (1 - b.Lambda*b.X)
			if !(b.Q0 > 0 && b.Q0 < prevQ0) || (eps < 1e-5 && math.Abs(ratio-prevRatio) > 1e-2*ratio) {
				t.Errorf("n=%d eps=%v: q0 = %v, q0/(1-lambda X) = %v (previous %v)", n, eps, b.Q0, ratio, prevRatio)
			}
			prevQ0, prevRatio = b.Q0, ratio
		}
		if _, err := c.Bernoulli(lmax, BernoulliOptions{}); err != nil {
			t.Errorf("n=%d: Bernoulli(lambda_max) = %v; lambda_max is the last stable rate", n, err)
		}
		for _, lam := range []float64{math.Nextafter(lmax, 1), lmax * (1 + 1e-12), 1.5 * lmax} {
			if _, err := c.Bernoulli(lam, BernoulliOptions{}); !errors.Is(err, analytic.ErrSaturated) {
				t.Errorf("n=%d Bernoulli(%v): err = %v, want ErrSaturated", n, lam, err)
			}
			if _, err := c.Poisson(lam, PoissonOptions{}); !errors.Is(err, analytic.ErrSaturated) {
				t.Errorf("n=%d Poisson(%v): err = %v, want ErrSaturated", n, lam, err)
			}
		}
	}
}

// Identity (erratum E10, docs/errata.md#e10): the corrected q'(1) equals the central-difference
// derivative of q(z) at z = 1 (h = 1e-4, tolerance 1e-6); the printed forms
// do not. q(1 +- h) -> 1 and the expansion coefficients a1, a2, b1, b2
// match numerical derivatives of A and B.
func TestQPrimeNumerical(t *testing.T) {
	const h = 1e-4
	for _, n := range []int{3, 4, 6, 8} {
		c := cube(t, n)
		lmax := c.LambdaMax().Lambda
		for _, f := range []float64{0.25, 0.5, 0.75, 0.9} {
			b, err := c.Bernoulli(f*lmax, BernoulliOptions{})
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("n=%d %.2f lambda_max ", n, f)
			num := (b.QueuePGF(1+h) - b.QueuePGF(1-h)) / (2 * h)
			if math.Abs(num-b.QPrime) > 1e-6 {
				t.Errorf("%sq'(1) = %.10g, numerical %.10g", name, b.QPrime, num)
			}
			if math.Abs(b.QueuePGF(1+h)-1) > 2*h*b.QPrime+1e-9 {
				t.Errorf("%sq(1+h) = %v", name, b.QueuePGF(1+h))
			}
			a1 := (b.ServicePGF(1+h) - b.ServicePGF(1-h)) / (2 * h)
			a2 := (b.ServicePGF(1+h) - 2*b.ServicePGF(1) + b.ServicePGF(1-h)) / (2 * h * h)
			b1 := (b.IdlePGF(1+h) - b.IdlePGF(1-h)) / (2 * h)
			b2 := (b.IdlePGF(1+h) - 2*b.IdlePGF(1) + b.IdlePGF(1-h)) / (2 * h * h)
			for _, x := range []struct {
				what      string
				got, want float64
			}{{"a1", b.A1, a1}, {"a2", b.A2, a2}, {"b1", b.B1, b1}, {"b2", b.B2, b2}, {"A(1)", 1, b.ServicePGF(1)}} {
				if math.Abs(x.got-x.want) > 1e-6 {
					t.Errorf("%s%s = %.10g, numerical %.10g", name, x.what, x.got, x.want)
				}
			}
			if f == 0.5 {
				for _, v := range []QPrimeVariant{QPrimePrintedMain, QPrimePrintedAppendix} {
					p, _ := c.Bernoulli(f*lmax, BernoulliOptions{QPrime: v})
					if math.Abs(num-p.QPrime) < 1e-4 {
						t.Errorf("%sprinted q'(1) variant %d = %v agrees with the derivative %v", name, v, p.QPrime, num)
					}
				}
			}
		}
	}
}

// Saturation and domain errors name the failed condition.
func TestErrors(t *testing.T) {
	for _, n := range []int{0, -1, MaxDim + 1} {
		if _, err := New(n); !errors.Is(err, analytic.ErrDomain) {
			t.Errorf("New(%d): err = %v", n, err)
		}
	}
	c := cube(t, 4)
	// p >= 1 (lambda >= 15/16/3.5 = 0.2679).
	if _, err := c.At(0.3); !errors.Is(err, analytic.ErrSaturated) {
		t.Errorf("At(0.3): err = %v", err)
	}
	for _, lam := range []float64{-0.1, math.NaN(), math.Inf(1)} {
		if _, err := c.Poisson(lam, PoissonOptions{}); !errors.Is(err, analytic.ErrDomain) {
			t.Errorf("Poisson(%v): err = %v", lam, err)
		}
	}
	for _, lam := range []float64{0, -0.1, math.NaN()} {
		if _, err := c.Bernoulli(lam, BernoulliOptions{}); !errors.Is(err, analytic.ErrDomain) {
			t.Errorf("Bernoulli(%v): err = %v", lam, err)
		}
	}
	for _, o := range []BernoulliOptions{{Mu: 2}, {QPrime: 3}, {D: 2}} {
		if _, err := c.Bernoulli(0.05, o); !errors.Is(err, analytic.ErrDomain) {
			t.Errorf("%+v: err = %v", o, err)
		}
	}
	if _, err := c.Poisson(0.05, PoissonOptions{Q: 2}); !errors.Is(err, analytic.ErrDomain) {
		t.Errorf("Q variant: err = %v", err)
	}
	var de *analytic.DomainError
	_, err := c.Poisson(0.2, PoissonOptions{})
	if !errors.As(err, &de) || de.Model != "hypercube.Poisson" || !errors.Is(err, analytic.ErrSaturated) {
		t.Errorf("Poisson(0.2): err = %v", err)
	}
	// Printed mu saturates where lambda (n/2)(1-2^-n) >= 1 or q0 <= 0,
	// whichever first; never a NaN.
	for i := 1; i < 400; i++ {
		b, err := c.Bernoulli(float64(i)/400*c.LambdaMax().Lambda*1.2, BernoulliOptions{Mu: MuPrinted})
		if err == nil && (math.IsNaN(b.D) || b.D <= 0 || b.Q0 <= 0) {
			t.Fatalf("printed mu: %+v", b)
		}
		if err != nil && !errors.Is(err, analytic.ErrSaturated) {
			t.Fatalf("printed mu: %v", err)
		}
	}
}

func TestHopPanics(t *testing.T) {
	for _, f := range []func(){func() { HopService(1, 2) }, func() { HopSecond(-0.1, 2) }, func() { HopService(0.5, -1) }} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		}()
	}
	pin.CheckRel(t, "X_3(0)", HopService(0, 3), 3, 0)
	pin.CheckRel(t, "Q_3(0)", HopSecond(0, 3), 3, 0)
}

func ExampleCube_Poisson() {
	c, _ := New(6)
	m := c.LambdaMax()
	p, _ := c.Poisson(0.1, PoissonOptions{})
	b, _ := c.Bernoulli(0.1, BernoulliOptions{})
	fmt.Printf("lambda_max = %.12f\nT(0.1) = %.7f slots, D(0.1) = %.7f slots\n", m.Lambda, p.T, b.D)
	// Output:
	// lambda_max = 0.132058922286
	// T(0.1) = 8.5867657 slots, D(0.1) = 8.3607340 slots
}
