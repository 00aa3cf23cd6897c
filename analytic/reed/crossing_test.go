package reed

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/flitsim/flitsim/analytic"
	"github.com/flitsim/flitsim/internal/pin"
)

// ringBus returns Reed's example pair: uniform half-duplex ring of k nodes
// and k nodes on one bus, S_PE = S_CL = 1 (docs/models.md#reed-crossing).
func ringBus(k int) (ring, bus Workload) {
	ring = must(NetworkWorkload(must(Uniform(must(Ring(k)))), HalfDuplex, 1, 1))
	bus = must(NetworkWorkload(must(Uniform(must(Bus(k)))), HalfDuplex, 1, 1))
	return ring, bus
}

// docs/models.md#reed-pins / docs/models.md#pins crossing pins: N_low_cross = (K^2-1)/(3K-1)
// (K = 15: 56/11 = 5.0909091, 31: 240/23 = 10.434783, 63: 992/47 = 21.106383);
// the printed (4K^2-9K-1)/(3K-1) (erratum E3, docs/errata.md#e3) as the Printed variant;
// N_high_cross = (K+5)(2K-1)/(7K-5) (15: 5.8); the exact MVA crossing.
func TestCrossingPins(t *testing.T) {
	cases := []struct {
		k                      int
		low, printed, hgh, mva float64
	}{
		{15, 56.0 / 11, 191.0 / 11, 5.8, 6.2026377494994183},
		{31, 240.0 / 23, 3564.0 / 92, 36.0 * 61 / 212, 11.496049977564091},
		{63, 992.0 / 47, 15308.0 / 188, 68.0 * 125 / 436, 22.135349271942051},
	}
	for _, c := range cases {
		ring, bus := ringBus(c.k)
		name := fmt.Sprintf("K=%d", c.k)
		pin.CheckRel(t, name+" CrossingLow(ring, bus)", must(CrossingLow(ring, bus)), c.low, pin.Rational)
		pin.CheckRel(t, name+" CrossingLow(bus, ring)", must(CrossingLow(bus, ring)), c.low, pin.Rational)
		pin.CheckRel(t, name+" closed form", must(RingBusCrossingLow(c.k, Corrected)), c.low, pin.Rational)
		pin.CheckRel(t, name+" printed", must(RingBusCrossingLow(c.k, Printed)), c.printed, pin.Rational)
		hi := must(CrossingHigh(ring, bus))
		pin.CheckRel(t, name+" CrossingHigh", hi, c.hgh, pin.Rational)
		pin.CheckRel(t, name+" CrossingHigh symmetric", must(CrossingHigh(bus, ring)), hi, pin.Rational)
		// Not between N_low and N_high, contrary to Reed 1983 and
		// docs/models.md#reed-crossing (see CrossingMVA); the interpolated MVA crossings were
		// recomputed with python3 fractions.
		mv := must(CrossingMVA(ring, bus, 200))
		pin.CheckRel(t, name+" CrossingMVA", mv, c.mva, pin.Rel)
		if !(mv > c.low && mv > hi) {
			t.Errorf("%s: MVA crossing %.6f no longer above both bound crossings %.6f, %.6f: revisit the CrossingMVA note", name, mv, c.low, hi)
		}
		// The MVA curves change order across the crossing: bus ahead below it,
		// ring ahead above it.
		n := int(math.Floor(mv))
		pr, pb := must(ring.MVA(n+1)), must(bus.MVA(n+1))
		if !(pb[n-1].X0 > pr[n-1].X0 && pr[n].X0 > pb[n].X0) {
			t.Errorf("%s: X_0 order at N=%d,%d does not flip (ring %g,%g bus %g,%g)", name, n, n+1,
				pr[n-1].X0, pr[n].X0, pb[n-1].X0, pb[n].X0)
		}
	}
	// The printed ring-bus value at K = 15 is 17.36 (docs/models.md#reed-crossing).
	if p := must(RingBusCrossingLow(15, Printed)); math.Abs(p-17.36) > 0.005 {
		t.Errorf("printed N_low_cross(15) = %g, want 17.36", p)
	}
}

// CrossingHigh against a dense scan of the upper-bound difference.
func TestCrossingHighByScan(t *testing.T) {
	ws := testWorkloads(t)
	ring, bus := ringBus(15)
	pairs := [][2]Workload{
		{ring, bus},
		{ws["torus(4-ary 2-cube) uniform half-duplex S=[1 1]"], ws["ring(16) uniform half-duplex S=[1 1]"]},
		{ws["hypercube(4) uniform half-duplex S=[10 0.5]"], ws["bus(15) uniform half-duplex S=[1 1]"]},
	}
	for i, pr := range pairs {
		a, b := pr[0], pr[1]
		hi, err := CrossingHigh(a, b)
		// Scan n in (1, 400] in steps of 1e-3 for the first sign change.
		diff := func(n float64) float64 { return a.bjb(n).Upper - b.bjb(n).Upper }
		scan := math.NaN()
		prev := diff(1 + 1e-9)
		for n := 1.001; n <= 400; n += 1e-3 {
			d := diff(n)
			if d == 0 || (d > 0) != (prev > 0) {
				scan = n
				break
			}
			prev = d
		}
		switch {
		case err != nil && math.IsNaN(scan):
		case err != nil:
			t.Errorf("pair %d: CrossingHigh error %v, scan finds %g", i, err, scan)
		case math.IsNaN(scan):
			t.Errorf("pair %d: CrossingHigh = %g, scan finds none", i, hi)
		case math.Abs(hi-scan) > 2e-3:
			t.Errorf("pair %d: CrossingHigh = %g, scan %g", i, hi, scan)
		}
	}
}

func TestCrossingDomainErrors(t *testing.T) {
	ring, bus := ringBus(15)
	calls := map[string]error{}
	_, calls["CrossingLow identical"] = CrossingLow(ring, ring)
	_, calls["CrossingLow empty"] = CrossingLow(Workload{}, ring)
	_, calls["CrossingHigh identical"] = CrossingHigh(ring, ring)
	_, calls["RingBusCrossingLow even"] = RingBusCrossingLow(16, Corrected)
	_, calls["RingBusCrossingLow K=1"] = RingBusCrossingLow(1, Corrected)
	_, calls["CrossingMVA none below 5"] = CrossingMVA(ring, bus, 5)
	// A ring with smaller R_0 and smaller D_b than the bus is ahead at every
	// N: its lower bound never crosses the bus's above N = 1.
	fast := must(NetworkWorkload(must(Uniform(must(Ring(15)))), HalfDuplex, 0.5, 0.1))
	_, calls["CrossingLow no crossing > 1"] = CrossingLow(fast, bus)
	for name, err := range calls {
		if !errors.Is(err, analytic.ErrDomain) {
			t.Errorf("%s: error %v, want analytic.ErrDomain", name, err)
		}
	}
}

// docs/models.md#reed-pins optimal parallelism, 15-node uniform ring, unit service,
// f = g = (1 + beta(N-1))/N. Rates recomputed with python3 fractions:
// beta = 0.05: N* = 18, 5400/5291; 0.1: 13, 325/451 (continuous 12.64);
// 0.2: 8, 50/103; beta = 0: monotone, 200/77 at N = 40.
func TestOptimalParallelismPins(t *testing.T) {
	w := ring15(t)
	cases := []struct {
		beta float64
		n    int
		rate float64
	}{
		{0.05, 18, 5400.0 / 5291},
		{0.1, 13, 325.0 / 451},
		{0.2, 8, 50.0 / 103},
		{0, 40, 200.0 / 77},
	}
	for _, c := range cases {
		f := OverheadScaling(c.beta)
		got := must(OptimalParallelism(w, f, f, 40))
		name := fmt.Sprintf("beta=%g", c.beta)
		if got.N != c.n {
			t.Errorf("%s: search N* = %d, want %d", name, got.N, c.n)
		}
		pin.CheckRel(t, name+" search rate", got.Rate, c.rate, pin.Rational)
		cf, cont := must2(OverheadOptimum(w, c.beta, 40))
		if cf.N != c.n {
			t.Errorf("%s: closed-form N* = %d, want %d", name, cf.N, c.n)
		}
		pin.CheckRel(t, name+" closed-form rate", cf.Rate, c.rate, pin.Rational)
		if c.beta == 0 && !math.IsInf(cont, 1) {
			t.Errorf("beta=0: continuous optimum %g, want +Inf", cont)
		}
	}
	_, cont := must2(OverheadOptimum(w, 0.1, 40))
	// sqrt(0.9 (5 - 4/15) / (0.1 * 4/15)) = sqrt(159.75).
	pin.CheckRel(t, "beta=0.1 continuous N*", cont, math.Sqrt(159.75), pin.Rational)
	// beta = 0: the bound increases with N (no interior optimum).
	f := OverheadScaling(0)
	prev := 0.0
	for n := 1; n <= 200; n++ {
		r := must(ParallelismBound(w, f, f, n))
		if !(r > prev) {
			t.Fatalf("beta=0: bound not increasing at N=%d (%g <= %g)", n, r, prev)
		}
		prev = r
	}
	// N = 1 with f = g = 1 is the BJB lower bound at one message, 1/R_0.
	pin.CheckRel(t, "bound(1)", must(ParallelismBound(w, f, f, 1)), 1/w.R0(), pin.Rational)
}

func must2[A, B any](a A, b B, err error) (A, B) {
	if err != nil {
		panic(err)
	}
	return a, b
}

// The closed form (docs/models.md#reed-parallelism) picks the same integer optimum as the search for a
// grid of beta and workloads, and the search never loses to it.
func TestOverheadOptimumMatchesSearch(t *testing.T) {
	for name, w := range testWorkloads(t) {
		for _, beta := range []float64{0.001, 0.01, 0.03, 0.1, 0.3, 0.7, 1} {
			f := OverheadScaling(beta)
			s := must(OptimalParallelism(w, f, f, 500))
			c, _ := must2(OverheadOptimum(w, beta, 500))
			pin.CheckRel(t, fmt.Sprintf("%s beta=%g rate", name, beta), c.Rate, s.Rate, 1e-12)
			if c.Rate == s.Rate && c.N != s.N {
				t.Errorf("%s beta=%g: closed form N=%d, search N=%d at equal rate", name, beta, c.N, s.N)
			}
		}
	}
}

// A caller-supplied f, g pair with distinct node and link scaling.
func TestOptimalParallelismGeneric(t *testing.T) {
	w := ring15(t)
	// Nodes split ideally with a fixed setup cost; links carry a constant
	// message size: f = 1/N + 0.02, g = 1.
	f := func(n int) float64 { return 1/float64(n) + 0.02 }
	g := func(int) float64 { return 1 }
	got := must(OptimalParallelism(w, f, g, 100))
	// Brute force by hand-expanded Eq. (9): denominator
	// S_PE(N) + LV S_CL(N) + (N-1) max(S_PE(N)/15, 4/15 S_CL(N)).
	best, bestN := 0.0, 0
	for n := 1; n <= 100; n++ {
		spe, scl := f(n), g(n)
		r := 1 / (spe + 4*scl + float64(n-1)*math.Max(spe/15, 4*scl/15))
		if r > best {
			best, bestN = r, n
		}
	}
	if got.N != bestN {
		t.Errorf("N* = %d, want %d", got.N, bestN)
	}
	pin.CheckRel(t, "generic rate", got.Rate, best, pin.Rational)
	calls := map[string]error{}
	_, calls["ncap 0"] = OptimalParallelism(w, f, g, 0)
	_, calls["f negative"] = OptimalParallelism(w, func(int) float64 { return -1 }, g, 3)
	_, _, calls["beta > 1"] = OverheadOptimum(w, 1.5, 10)
	_, calls["bound N=0"] = ParallelismBound(w, f, g, 0)
	for name, err := range calls {
		if !errors.Is(err, analytic.ErrDomain) {
			t.Errorf("%s: error %v, want analytic.ErrDomain", name, err)
		}
	}
}
