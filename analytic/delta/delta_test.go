package delta

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/flitsim/flitsim/analytic"
	"github.com/flitsim/flitsim/internal/pin"
)

// fig6 is the network of the report's Figure 6 and of every docs/models.md#makrucki-pins
// pin: n = 64, b = 4 (z = 3), mu = 1 (reading R17).
func fig6(L int) Network { return Network{Sources: 64, Degree: 4, Queue: L, Mu: 1} }

func solve(t *testing.T, nw Network, lambda float64, o Options) Result {
	t.Helper()
	r, err := nw.Solve(lambda, o)
	if err != nil {
		t.Fatalf("Solve(L=%d, lambda=%v, %+v): %v", nw.Queue, lambda, o, err)
	}
	return r
}

// docs/models.md#makrucki-pins, Case I table (mu = 1, n = 64, b = 4, z = 3). Rows with
// rho > rho_I(L) (L = 2 at 0.5, L = 4 at 0.5) lie outside Case I's region
// and need AllowOutsideValidity, as the report's own Figure 6 does.
func TestCaseITable(t *testing.T) {
	rows := []struct {
		L                                  int
		rho                                float64
		pL, N, T, P, U                     string
		pdtPrinted, pdtCorrected, pdtRetry string
		ntp, ntp1                          string
	}{
		{2, 0.2, "0.03225806452", "0.2258064516", "1.166666667", "0.9063139874", "0.1069114833", "3.51105148", "3.617962963", "3.577777778", "11.56129032", "12.38709677"},
		{2, 0.5, "0.1428571429", "0.5714285714", "1.333333333", "0.6297376093", "0.443148688", "4.260555016", "4.703703704", "4.444444444", "18.28571429", "27.42857143"},
		{4, 0.2, "0.001280409731", "0.2483994878", "1.243589744", "0.9961636871", "0.004766724438", "3.730787588", "3.735554312", "3.733957922", "12.75083227", "12.78361076"},
		{4, 0.5, "0.03225806452", "0.8387096774", "1.733333333", "0.9063139874", "0.1588399181", "5.216419341", "5.375259259", "5.315555556", "28.90322581", "30.96774194"},
		{8, 0.2, "2.048001049e-6", "0.249995392", "1.24997952", "0.999993856", "7.679851889e-6", "3.74993856", "3.74994624", "3.74994368", "12.79992136", "12.79997379"},
		{8, 0.5, "0.001956947162", "0.9823874755", "1.968627451", "0.9941406399", "0.01151983353", "5.90595025", "5.917470083", "5.913602461", "31.81213307", "31.93737769"},
	}
	for _, r := range rows {
		t.Run(fmt.Sprintf("L=%d/rho=%v", r.L, r.rho), func(t *testing.T) {
			o := Options{Case: CaseI, AllowOutsideValidity: true}
			c := solve(t, fig6(r.L), r.rho, o)
			o.PDT, o.NTP = PDTPrinted, NTPSingleStage
			p := solve(t, fig6(r.L), r.rho, o)
			for i, s := range c.Stages {
				pin.Check(t, fmt.Sprintf("docs/models.md#makrucki-pins p_L[%d]", i), s.PL, r.pL)
				pin.Check(t, fmt.Sprintf("docs/models.md#makrucki-pins E[N][%d]", i), s.N, r.N)
				pin.Check(t, fmt.Sprintf("docs/models.md#makrucki-pins E[T][%d]", i), s.T, r.T)
			}
			pin.Check(t, "docs/models.md#makrucki-pins P", c.P, r.P)
			pin.Check(t, "docs/models.md#makrucki-pins E[T_rej]=U", c.U, r.U)
			pin.Check(t, "docs/models.md#makrucki-pins PDT printed", p.PDT, r.pdtPrinted)
			pin.Check(t, "docs/models.md#makrucki-pins PDT corrected", c.PDT, r.pdtCorrected)
			pin.Check(t, "docs/models.md#makrucki-pins PDT addendum", c.PDTRetry, r.pdtRetry)
			pin.Check(t, "docs/models.md#makrucki-pins NTP", c.NTP, r.ntp)
			pin.Check(t, "docs/models.md#makrucki-pins NTP_1", p.NTP, r.ntp1)
		})
	}
}

// docs/models.md#makrucki-pins exact rational check, Case I, L = 2, rho = 1/2:
// P = 216/343, U = 152/343, PDT printed = 39457/9261, corrected = 127/27,
// addendum = 40/9; docs/models.md#pins: NTP = 18.28571429 (= 128/7).
func TestCaseIRationals(t *testing.T) {
	o := Options{Case: CaseI, AllowOutsideValidity: true}
	c := solve(t, fig6(2), 0.5, o)
	o.PDT = PDTPrinted
	p := solve(t, fig6(2), 0.5, o)
	pin.CheckRel(t, "P", c.P, 216.0/343, pin.Rational)
	pin.CheckRel(t, "U", c.U, 152.0/343, pin.Rational)
	pin.CheckRel(t, "E[T_rej | loss]", c.TRej, 152.0/127, pin.Rational) // U/(1-P)
	pin.CheckRel(t, "PDT printed", p.PDT, 39457.0/9261, pin.Rational)
	pin.CheckRel(t, "PDT corrected", c.PDT, 127.0/27, pin.Rational)
	pin.CheckRel(t, "PDT addendum", c.PDTRetry, 40.0/9, pin.Rational)
	pin.CheckRel(t, "NTP", c.NTP, 128.0/7, pin.Rational)
}

// docs/models.md#makrucki-pins Figure-6-style sweep: Case I, printed PDT, z-sum NTP,
// n = 64, b = 4, mu = 1 (most points lie outside Case I's region; Figure 6
// plots them anyway).
func TestFigure6Sweep(t *testing.T) {
	rhos := []float64{0.1, 0.3, 0.5, 0.7, 0.9}
	sweep := []struct {
		L        int
		pdt, ntp [5]string
	}{
		{2, [5]string{"3.27353", "3.73989", "4.26056", "4.94747", "5.8318"}, [5]string{"6.22703", "15.4705", "18.2857", "14.7288", "5.95129"}},
		{8, [5]string{"3.33333", "4.28414", "5.90595", "8.54017", "12.0406"}, [5]string{"6.4", "19.1974", "31.8121", "42.3779", "45.4571"}},
		{16, [5]string{"3.33333", "4.28571", "5.99927", "9.83998", "19.111"}, [5]string{"6.4", "19.2", "31.9993", "44.6657", "53.7571"}},
	}
	o := Options{Case: CaseI, PDT: PDTPrinted, AllowOutsideValidity: true}
	for _, s := range sweep {
		for i, rho := range rhos {
			r := solve(t, fig6(s.L), rho, o)
			pin.Check(t, fmt.Sprintf("docs/models.md#makrucki-pins Fig6 L=%d rho=%v PDT", s.L, rho), r.PDT, s.pdt[i])
			pin.Check(t, fmt.Sprintf("docs/models.md#makrucki-pins Fig6 L=%d rho=%v NTP", s.L, rho), r.NTP, s.ntp[i])
		}
	}
}

// docs/models.md#makrucki-pins Case II rows (rho = 2 > rho_0(L): inside the region).
func TestCaseIITable(t *testing.T) {
	rows := []struct {
		L                                       int
		pL1, pL2, T1, T2, P, U, pdt, ntp, retry string
	}{
		{4, "0.5161290323", "0.2", "3.266666667", "2.5", "0.3096774194", "0.7625806452", "9.966586022", "36.33548387", "9.708333333"},
		{8, "0.5009784736", "", "7.031372549", "4.5", "0.3942886135", "0.9582034742", "17.50337741", "49.65253316", "17.47279412"},
	}
	for _, r := range rows {
		c := solve(t, fig6(r.L), 2, Options{Case: CaseII, PDT: PDTPrinted})
		if c.Case != CaseII {
			t.Fatalf("case %v", c.Case)
		}
		name := fmt.Sprintf("docs/models.md#makrucki-pins Case II L=%d rho=2 ", r.L)
		pin.Check(t, name+"p_L1", c.Stages[0].PL, r.pL1)
		if r.pL2 != "" {
			pin.Check(t, name+"p_L2", c.Stages[1].PL, r.pL2)
		}
		pin.CheckRel(t, name+"p_L2 = 1/(L+1)", c.Stages[2].PL, 1/float64(r.L+1), pin.Rational)
		pin.Check(t, name+"E[T_1]", c.Stages[0].T, r.T1)
		pin.Check(t, name+"E[T_2]", c.Stages[1].T, r.T2)
		pin.Check(t, name+"E[T_3]", c.Stages[2].T, r.T2)
		pin.Check(t, name+"P", c.P, r.P)
		pin.Check(t, name+"E[T_rej]=U", c.U, r.U)
		pin.Check(t, name+"PDT (printed)", c.PDT, r.pdt)
		pin.Check(t, name+"NTP", c.NTP, r.ntp)
		pin.Check(t, name+"PDT_add", c.PDTRetry, r.retry)
	}
}

// docs/models.md#makrucki-pins Case III rows (lambda = mu = 1). L = 8 is below
// C/(1-C) = 19 and needs AllowOutsideValidity; L = 32 is inside.
func TestCaseIIITable(t *testing.T) {
	rows := []struct {
		L                   int
		P, U, pdt, ntp, add string
	}{
		{8, "0.7023319616", "1.234567901", "14.0232446", "42.66666667", "14.625"},
		{32, "0.9118179036", "1.425160698", "49.63782758", "58.18181818", "50.53125"},
	}
	for _, r := range rows {
		c := solve(t, fig6(r.L), 1, Options{Case: CaseIII, PDT: PDTPrinted, AllowOutsideValidity: r.L < 19})
		name := fmt.Sprintf("docs/models.md#makrucki-pins Case III L=%d ", r.L)
		pin.Check(t, name+"P", c.P, r.P)
		pin.Check(t, name+"E[T_rej]=U", c.U, r.U)
		pin.Check(t, name+"PDT (printed)", c.PDT, r.pdt)
		pin.Check(t, name+"NTP", c.NTP, r.ntp)
		pin.Check(t, name+"PDT_add", c.PDTRetry, r.add)
		// docs/models.md#makrucki-case-iii closed forms: P = (L/(L+1))^z, NTP = n lambda (1 - z/(L+1)).
		fl := float64(r.L)
		pin.CheckRel(t, name+"P closed", c.P, math.Pow(fl/(fl+1), 3), 1e-13)
		pin.CheckRel(t, name+"NTP closed", c.NTP, 64*(1-3/(fl+1)), 1e-13)
	}
	// At rho = 1 with L >= 19 automatic selection picks Case III.
	if c := solve(t, fig6(32), 1, Options{}); c.Case != CaseIII {
		t.Errorf("auto at L=32, rho=1 chose %v", c.Case)
	}
}

// (CI.1) and (CI.2) of the report (readings R9, R10), and the addendum's
// Case I form (R15): the closed forms equal the finite sums used by Solve
// wherever beta = 1 - p_L is not too close to 1 (the closed forms' removable
// singularity), for z = 2..6.
func TestCaseIClosedForms(t *testing.T) {
	for _, b := range []int{2, 4} {
		for z := 2; z <= 6; z++ {
			n := 1
			for i := 0; i < z; i++ {
				n *= b
			}
			for _, L := range []int{1, 2, 4} {
				for _, rho := range []float64{0.3, 0.6, 0.9} {
					nw := Network{Sources: n, Degree: b, Queue: L, Mu: 1}
					o := Options{Case: CaseI, PDT: PDTPrinted, AllowOutsideValidity: true}
					r, err := nw.Solve(rho, o)
					if errors.Is(err, analytic.ErrDomain) {
						continue // negative NTP at heavy load, tiny L
					}
					if err != nil {
						t.Fatal(err)
					}
					et, pl := r.Stages[0].T, r.Stages[0].PL
					beta, zf := 1-pl, float64(z)
					bz1, bz := math.Pow(beta, zf-1), math.Pow(beta, zf)
					ci1 := beta / (1 - beta) * (1 - zf*bz1 + (zf-1)*bz) * et
					ci2 := (zf + (1-bz)/(bz1*(1-beta))*(1-zf*bz1+(zf-1)*bz)) * et
					add := (1 + (zf-1)/(1-pl)) * et
					name := fmt.Sprintf("b=%d z=%d L=%d rho=%v ", b, z, L, rho)
					pin.CheckRel(t, name+"(CI.1)", r.U, ci1, 1e-11)
					pin.CheckRel(t, name+"(CI.2)", r.PDT, ci2, 1e-11)
					pin.CheckRel(t, name+"addendum", r.PDTRetry, add, 1e-12)
				}
			}
		}
	}
}

// docs/models.md#makrucki-case-ii closed forms of Case II (reading R12) and of the addendum's
// Case II PDT equal the finite sums.
func TestCaseIIClosedForms(t *testing.T) {
	for z := 2; z <= 5; z++ {
		n := 1 << z
		for _, L := range []int{2, 4, 8, 16} {
			for _, rho := range []float64{1.5, 2, 4} {
				nw := Network{Sources: n, Degree: 2, Queue: L, Mu: 1}
				r, err := nw.Solve(rho, Options{Case: CaseII, PDT: PDTPrinted, AllowOutsideValidity: true})
				if err != nil {
					continue // NTP < 0 for short queues
				}
				zf, fl := float64(z), float64(L)
				pl1, t1, t2 := r.Stages[0].PL, r.Stages[0].T, r.Stages[1].T
				pl2 := 1 / (fl + 1)
				b2 := fl / (fl + 1)
				u := t1*(1-pl1)*(1-math.Pow(b2, zf-1)) +
					t2*(1-pl1)*(b2/pl2)*(1-(zf-1)*math.Pow(b2, zf-2)+(zf-2)*math.Pow(b2, zf-1))
				p := (1 - pl1) * math.Pow(b2, zf-1)
				pdt := t1 + (zf-1)*t2 + (1-p)/p*u
				add := t2 + (fl+1)/fl*(t1+(zf-2)*t2)
				ntp := float64(n)*rho*(1-pl1) - float64(n)*(zf-1)/(fl+1)
				name := fmt.Sprintf("z=%d L=%d rho=%v ", z, L, rho)
				pin.CheckRel(t, name+"U", r.U, u, 1e-11)
				pin.CheckRel(t, name+"P", r.P, p, 1e-13)
				pin.CheckRel(t, name+"PDT", r.PDT, pdt, 1e-12)
				pin.CheckRel(t, name+"PDT_add", r.PDTRetry, add, 1e-12)
				pin.CheckRel(t, name+"NTP", r.NTP, ntp, 1e-12)
			}
		}
	}
}

// Identity: PDT -> z/mu as rho -> 0 (docs/models.md#makrucki-case-i), in every PDT variant,
// and exactly z/mu at rho = 0.
func TestPDTZeroLoad(t *testing.T) {
	for _, mu := range []float64{1, 2.5} {
		nw := Network{Sources: 64, Degree: 4, Queue: 4, Mu: mu}
		want := 3 / mu
		for _, v := range []PDTVariant{PDTCorrected, PDTPrinted} {
			r := solve(t, nw, 0, Options{PDT: v})
			pin.CheckRel(t, "PDT(0)", r.PDT, want, 1e-15)
			pin.CheckRel(t, "PDT_add(0)", r.PDTRetry, want, 1e-15)
			prev := math.Inf(1)
			for _, rho := range []float64{1e-2, 1e-4, 1e-6, 1e-8} {
				r := solve(t, nw, rho*mu, Options{PDT: v})
				e := math.Abs(r.PDT - want)
				if !(e < prev) || e > 2*rho*want {
					t.Errorf("mu=%v rho=%v: |PDT - z/mu| = %v (previous %v)", mu, rho, e, prev)
				}
				prev = e
			}
		}
	}
}

// Identities: in Case I, PDT (both variants) and PDT_add increase strictly
// with rho; the corrected PDT lies above the printed one; NTP <= n lambda
// in every case and variant.
func TestMonotoneAndBounds(t *testing.T) {
	for _, L := range []int{1, 2, 4, 8, 16, 32} {
		nw := fig6(L)
		var prev [3]float64
		for i := 1; i < 100; i++ {
			rho := float64(i) / 100
			o := Options{Case: CaseI, AllowOutsideValidity: true}
			c, err := nw.Solve(rho, o)
			if err != nil {
				break // NTP < 0: the approximation is abandoned
			}
			o.PDT = PDTPrinted
			p := solve(t, nw, rho, o)
			cur := [3]float64{c.PDT, p.PDT, c.PDTRetry}
			for k := range cur {
				if !(cur[k] > prev[k]) {
					t.Errorf("L=%d rho=%v: PDT variant %d not increasing (%v after %v)", L, rho, k, cur[k], prev[k])
				}
			}
			prev = cur
			if c.PDT < p.PDT || c.NTP > 64*rho || c.NTP < 0 {
				t.Errorf("L=%d rho=%v: corrected %v printed %v NTP %v", L, rho, c.PDT, p.PDT, c.NTP)
			}
		}
	}
	for _, cs := range []Case{CaseI, CaseII, CaseIII} {
		for _, L := range []int{2, 8, 32} {
			for _, rho := range []float64{0.3, 1, 2, 5} {
				for _, v := range []NTPVariant{NTPZSum, NTPSingleStage} {
					r, err := fig6(L).Solve(rho, Options{Case: cs, NTP: v, AllowOutsideValidity: true})
					if err != nil {
						continue
					}
					if r.NTP > 64*rho*(1+1e-15) || r.NTP < 0 {
						t.Errorf("case %v L=%d rho=%v: NTP %v outside [0, n lambda]", cs, L, rho, r.NTP)
					}
				}
			}
		}
	}
}

// Errors: a case outside its region without the override, a negative NTP
// (Case II with short queues, reading of docs/models.md#makrucki-case-ii), an invalid network.
func TestSolveErrors(t *testing.T) {
	isDomain := func(what string, err error) {
		t.Helper()
		var de *analytic.DomainError
		if !errors.Is(err, analytic.ErrDomain) || !errors.As(err, &de) {
			t.Errorf("%s: err = %v, want a *DomainError wrapping ErrDomain", what, err)
		}
	}
	_, err := fig6(2).Solve(0.5, Options{Case: CaseI})
	isDomain("Case I outside", err)
	_, err = fig6(8).Solve(1, Options{Case: CaseIII})
	isDomain("Case III L=8", err)
	_, err = fig6(4).Solve(1.2, Options{Case: CaseII})
	isDomain("Case II below rho_0", err)
	_, err = fig6(2).Solve(0.5, Options{})
	isDomain("auto in the gap", err)
	// Case II, L = 1, rho = 19 (on rho_0): NTP = 64*19*(1-19/20) - 64*2/2 < 0.
	_, err = fig6(1).Solve(19, Options{Case: CaseII})
	isDomain("Case II NTP < 0", err)
	_, err = fig6(1).Solve(19, Options{Case: CaseII, AllowOutsideValidity: true})
	isDomain("Case II NTP < 0 with override", err)
	_, err = fig6(2).Solve(0, Options{Case: CaseII, AllowOutsideValidity: true})
	isDomain("Case II rho = 0", err)
	for _, nw := range []Network{
		{Sources: 64, Degree: 3, Queue: 2, Mu: 1},
		{Sources: 32, Degree: 4, Queue: 2, Mu: 1},
		{Sources: 1, Degree: 2, Queue: 2, Mu: 1},
		{Sources: 64, Degree: 4, Queue: 0, Mu: 1},
		{Sources: 64, Degree: 4, Queue: 2, Mu: 0},
		{Sources: 64, Degree: 4, Queue: 2, Mu: math.NaN()},
	} {
		_, err := nw.Solve(0.1, Options{})
		isDomain(fmt.Sprintf("%+v", nw), err)
	}
	_, err = Network{Sources: 64, Degree: 4, Queue: 2, Mu: 1e-300}.Solve(1e10, Options{Case: CaseII})
	isDomain("rho overflow", err)
	_, err = Network{Sources: 4, Degree: 4, Queue: 1, Mu: 1}.Solve(1e20, Options{Case: CaseI, AllowOutsideValidity: true})
	if !errors.Is(err, analytic.ErrSaturated) {
		t.Errorf("P = 0: err = %v, want ErrSaturated", err)
	}
	for _, lam := range []float64{-1, math.NaN(), math.Inf(1)} {
		_, err := fig6(2).Solve(lam, Options{})
		isDomain(fmt.Sprint("lambda ", lam), err)
	}
	_, err = fig6(2).Solve(0.1, Options{PDT: 7})
	isDomain("PDT variant", err)
	_, err = fig6(2).Solve(0.1, Options{Case: 9})
	isDomain("case 9", err)
}

// The DomainError names the case that refused.
func TestErrorNamesCase(t *testing.T) {
	_, err := fig6(2).Solve(0.5, Options{Case: CaseI})
	var de *analytic.DomainError
	if !errors.As(err, &de) || de.Model != "delta.CaseI" {
		t.Fatalf("err = %v", err)
	}
}

func ExampleNetwork_Solve() {
	nw := Network{Sources: 64, Degree: 4, Queue: 8, Mu: 1}
	r, err := nw.Solve(0.5, Options{}) // Case I is valid: rho_I(8) = 0.713
	if err != nil {
		panic(err)
	}
	fmt.Printf("case %v: p_L = %.6f, P = %.6f, PDT = %.6f, PDT_add = %.6f, NTP = %.4f\n",
		r.Case, r.Stages[0].PL, r.P, r.PDT, r.PDTRetry, r.NTP)
	// Output:
	// case I: p_L = 0.001957, P = 0.994141, PDT = 5.917470, PDT_add = 5.913602, NTP = 31.8121
}
