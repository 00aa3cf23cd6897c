package wormhole

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/analytic"
	"github.com/flitsim/flitsim/internal/pin"
)

func mustUniform(t *testing.T, k, n int) *Network {
	t.Helper()
	nw, err := NewUniform(k, n)
	if err != nil {
		t.Fatal(err)
	}
	return nw
}

func uniformWeights(N int) func(src, dst int) float64 {
	return func(src, dst int) float64 { return 1 / float64(N-1) }
}

// The closed-form class graph of docs/models.md#dg-r against the pair enumeration
// (every route walked), 1e-12 relative: rates, transitions, Dbar.
func TestClosedFormMatchesEnumeration(t *testing.T) {
	for _, c := range [][2]int{{2, 1}, {2, 4}, {3, 2}, {4, 3}, {5, 2}, {8, 2}, {3, 4}} {
		k, n := c[0], c[1]
		cf := mustUniform(t, k, n)
		en := enumerate(k, n, uniformWeights(ipow(k, n)))
		if !pin.CloseRel(cf.Dbar(), en.Dbar(), 1e-12) {
			t.Errorf("k=%d n=%d: Dbar %g vs enumerated %g", k, n, cf.Dbar(), en.Dbar())
		}
		for x := range cf.classes {
			if !pin.CloseRel(cf.classes[x].Rate, en.classes[x].Rate, 1e-12) {
				t.Errorf("k=%d n=%d %v: rate %g vs enumerated %g", k, n, cf.classes[x], cf.classes[x].Rate, en.classes[x].Rate)
			}
			comparePaths(t, cf, cf.next[x], en.next[x], cf.classes[x].String())
		}
		comparePaths(t, cf, cf.inj, en.inj, "injection")
	}
}

func comparePaths(t *testing.T, nw *Network, a, b []edge, what string) {
	t.Helper()
	pa := map[int]float64{}
	var sum float64
	for _, e := range a {
		pa[e.to] += e.p
		sum += e.p
	}
	if !pin.CloseRel(sum, 1, 1e-12) {
		t.Errorf("k=%d n=%d %s: transition probabilities sum to %.17g", nw.k, nw.n, what, sum)
	}
	pb := map[int]float64{}
	for _, e := range b {
		pb[e.to] += e.p
	}
	for to := 0; to <= nw.ej; to++ {
		if math.Abs(pa[to]-pb[to]) > 1e-12 {
			t.Errorf("k=%d n=%d %s -> %d: P = %g, enumerated %g", nw.k, nw.n, what, to, pa[to], pb[to])
		}
	}
}

// Identity (docs/models.md#dg-r): every physical channel carries
// lambda k^n (k-1) / (2(N-1)), independent of dimension and coordinate;
// and sum of all channel rates = N Dbar per unit lambda.
func TestPhysicalChannelRate(t *testing.T) {
	for _, c := range [][2]int{{2, 6}, {3, 3}, {4, 3}, {8, 2}, {16, 2}, {5, 1}} {
		k, n := c[0], c[1]
		nw := mustUniform(t, k, n)
		N := float64(ipow(k, n))
		want := N * float64(k-1) / (2 * (N - 1))
		var all float64
		for i := 0; i < n; i++ {
			for cc := 0; cc < k; cc++ {
				var tot float64
				for _, cl := range nw.classes {
					if cl.Dim == i && cl.Coord == cc {
						tot += cl.Rate
					}
				}
				all += tot
				if !pin.CloseRel(tot, want, 1e-12) {
					t.Errorf("k=%d n=%d channel (%d,%d): rate %.17g, want %.17g", k, n, i, cc, tot, want)
				}
			}
		}
		if got := all * float64(ipow(k, n-1)); !pin.CloseRel(got, N*nw.Dbar(), 1e-12) {
			t.Errorf("k=%d n=%d: total channel rate %g, want N Dbar = %g", k, n, got, N*nw.Dbar())
		}
	}
}

// docs/models.md#dg-pins: per-unit-lambda class rates of the unidirectional 8-ary
// 2-cube, printed to 6 decimals (half-unit tolerance).
func TestClassRates8ary2cube(t *testing.T) {
	nw := mustUniform(t, 8, 2)
	if !pin.ClosePrinted(nw.Dbar(), 7.111111, 6) {
		t.Errorf("Dbar = %.9f, want 7.111111", nw.Dbar())
	}
	vc0 := []float64{3.555556, 3.428571, 3.174603, 2.793651, 2.285714, 1.650794, 0.888889} // c = 0..6
	vc1 := []float64{0.126984, 0.380952, 0.761905, 1.269841, 1.904762, 2.666667, 3.555556} // c = 1..7
	for dim := 0; dim < 2; dim++ {
		for c, want := range vc0 {
			if got := nw.classes[classIndex(8, dim, c, 0)].Rate; !pin.ClosePrinted(got, want, 6) {
				t.Errorf("class (%d,%d,0): rate %.9f, want %.6f", dim, c, got, want)
			}
		}
		for i, want := range vc1 {
			if got := nw.classes[classIndex(8, dim, i+1, 1)].Rate; !pin.ClosePrinted(got, want, 6) {
				t.Errorf("class (%d,%d,1): rate %.9f, want %.6f", dim, i+1, got, want)
			}
		}
	}
}

// docs/models.md#dg-pins, binary 6-cube, M = 32, c0 = 0. T printed to 6 decimals,
// S_INJ and W_INJ to 4 (half-unit tolerance each).
func TestDGRBinary6Cube(t *testing.T) {
	nw := mustUniform(t, 2, 6)
	opt := Options{M: 32}
	for _, c := range []struct{ lambda, sInj, wInj, T float64 }{
		{0.002, 34.9352, 1.3214, 39.304272},
		{0.005, 41.1731, 5.6016, 49.822322},
		{0.008, 52.2205, 21.5434, 76.811527},
		{0.010, 67.0417, 86.8143, 156.903587},
	} {
		r, err := nw.Latency(c.lambda, opt)
		if err != nil {
			t.Fatalf("lambda=%g: %v", c.lambda, err)
		}
		if !pin.ClosePrinted(r.SInj, c.sInj, 4) || !pin.ClosePrinted(r.WInj, c.wInj, 4) || !pin.ClosePrinted(r.Latency, c.T, 6) {
			t.Errorf("lambda=%g: S_INJ %.6f W_INJ %.6f T %.8f, want %.4f %.4f %.6f", c.lambda, r.SInj, r.WInj, r.Latency, c.sInj, c.wInj, c.T)
		}
	}
	// Per-dimension service times at lambda = 0.005 (4 decimals); the
	// two classes of a dimension (0->1 and 1->0) are mirror images.
	r, err := nw.Latency(0.005, opt)
	if err != nil {
		t.Fatal(err)
	}
	wantS := []float64{35.0476, 35.9102, 36.8218, 37.7877, 38.8141, 39.9080}
	for _, cr := range r.Classes {
		if !pin.ClosePrinted(cr.S, wantS[cr.Dim], 4) {
			t.Errorf("%v: S = %.6f, want %.4f", cr.Class, cr.S, wantS[cr.Dim])
		}
	}
	if !pin.ClosePrinted(r.WEj, 3.0476, 4) {
		t.Errorf("W_EJ = %.6f, want 3.0476", r.WEj)
	}
	// Saturation (lambda S_INJ -> 1) ~0.011356 (6 decimals); ExcludeOwnFlow 0.013441.
	for _, c := range []struct {
		opt  Options
		want float64
	}{{opt, 0.011356}, {Options{M: 32, ExcludeOwnFlow: true}, 0.013441}} {
		sat, err := nw.Saturation(c.opt)
		if err != nil {
			t.Fatal(err)
		}
		if !pin.ClosePrinted(sat, c.want, 6) {
			t.Errorf("%+v: saturation %.9f, want %.6f", c.opt, sat, c.want)
		}
	}
}

// docs/models.md#dg-pins, unidirectional 8-ary 2-cube, M = 32, c0 = 0.
func TestDGR8ary2cube(t *testing.T) {
	nw := mustUniform(t, 8, 2)
	plain := Options{M: 32}
	own := Options{M: 32, ExcludeOwnFlow: true}
	for _, c := range []struct{ lambda, T float64 }{
		{1e-4, 40.249376}, {3e-4, 42.918952}, {6e-4, 48.497041}, {1e-3, 63.777929},
	} {
		r, err := nw.Latency(c.lambda, plain)
		if err != nil {
			t.Fatal(err)
		}
		if !pin.ClosePrinted(r.Latency, c.T, 6) {
			t.Errorf("lambda=%g: T = %.8f, want %.6f", c.lambda, r.Latency, c.T)
		}
	}
	sat, err := nw.Saturation(plain)
	if err != nil {
		t.Fatal(err)
	}
	satOwn, err := nw.Saturation(own)
	if err != nil {
		t.Fatal(err)
	}
	if !pin.ClosePrinted(sat, 0.001380, 6) || !pin.ClosePrinted(satOwn, 0.003095, 6) {
		t.Errorf("saturation %.9f / ExcludeOwnFlow %.9f, want 0.001380 / 0.003095", sat, satOwn)
	}
	// The rows printed as 3.45e-4, 6.9e-4, 1.035e-3 are 0.25, 0.5 and 0.75
	// of the plain saturation rate 0.00138027 (at the literal rates T
	// differs in the 4th decimal: 43.6115 vs 43.6126); 4 decimals each.
	for _, c := range []struct{ frac, T, own, dally float64 }{
		{0.25, 43.6126, 40.8247, 41.7567},
		{0.50, 50.7900, 42.8530, 44.7442},
		{0.75, 66.2368, 45.3193, 47.9930},
	} {
		l := c.frac * sat
		r, err := nw.Latency(l, plain)
		if err != nil {
			t.Fatal(err)
		}
		ro, err := nw.Latency(l, own)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Dally1990(8, 2, 32, l)
		if err != nil {
			t.Fatal(err)
		}
		if !pin.ClosePrinted(r.Latency, c.T, 4) || !pin.ClosePrinted(ro.Latency, c.own, 4) || !pin.ClosePrinted(d.Latency, c.dally, 4) {
			t.Errorf("%.2f sat: T %.6f, ExcludeOwnFlow %.6f, Dally %.6f; want %.4f %.4f %.4f",
				c.frac, r.Latency, ro.Latency, d.Latency, c.T, c.own, c.dally)
		}
	}
	if s, err := Dally1990Saturation(8, 32); err != nil || !pin.ClosePrinted(s, 0.008929, 6) {
		t.Errorf("Dally 1990 saturation %.9f (%v), want 0.008929", s, err)
	}
}

// docs/models.md#dg-pins: 4-ary 3-cube and 16-ary 2-cube, M = 32 (6 decimals).
func TestDGROtherCubes(t *testing.T) {
	for _, c := range []struct {
		k, n            int
		lambdas, T      []float64
		sat, satOwn     float64
		checkSaturation bool
	}{
		{4, 3, []float64{1e-4, 3e-4, 6e-4, 1e-3}, []float64{36.967349, 37.798847, 39.158807, 41.230278}, 0, 0, false},
		{16, 2, []float64{1e-4, 3e-4}, []float64{52.563199, 97.031580}, 0.000337, 0.001364, true},
	} {
		nw := mustUniform(t, c.k, c.n)
		for i, l := range c.lambdas {
			r, err := nw.Latency(l, Options{M: 32})
			if err != nil {
				t.Fatal(err)
			}
			if !pin.ClosePrinted(r.Latency, c.T[i], 6) {
				t.Errorf("k=%d n=%d lambda=%g: T = %.8f, want %.6f", c.k, c.n, l, r.Latency, c.T[i])
			}
		}
		if !c.checkSaturation {
			continue
		}
		s, err := nw.Saturation(Options{M: 32})
		if err != nil {
			t.Fatal(err)
		}
		so, err := nw.Saturation(Options{M: 32, ExcludeOwnFlow: true})
		if err != nil {
			t.Fatal(err)
		}
		if !pin.ClosePrinted(s, c.sat, 6) || !pin.ClosePrinted(so, c.satOwn, 6) {
			t.Errorf("k=%d n=%d: saturation %.9f / %.9f, want %.6f / %.6f", c.k, c.n, s, so, c.sat, c.satOwn)
		}
	}
}

// Zero load: every S = M and T = M + Dbar + c0 (exact up to rounding).
// Under load T rises strictly with lambda, for every option set.
func TestDGRZeroLoadAndMonotone(t *testing.T) {
	for _, c := range [][2]int{{2, 3}, {2, 8}, {3, 3}, {4, 2}, {8, 2}, {16, 2}} {
		nw := mustUniform(t, c[0], c[1])
		for _, opt := range []Options{{M: 32}, {M: 20, C0: 1}, {M: 32, ExcludeOwnFlow: true}, {M: 64, VCMultiplexing: true}} {
			r, err := nw.Latency(0, opt)
			if err != nil {
				t.Fatal(err)
			}
			want := float64(opt.M) + nw.Dbar() + opt.C0
			if !pin.CloseRel(r.Latency, want, 1e-12) || r.Vbar != 1 {
				t.Errorf("k=%d n=%d %+v: zero-load T = %.17g (Vbar %g), want M + Dbar + c0 = %.17g", c[0], c[1], opt, r.Latency, r.Vbar, want)
			}
			sat, err := nw.Saturation(opt)
			if err != nil {
				t.Fatal(err)
			}
			prev := r.Latency
			for f := 0.05; f < 1; f += 0.05 {
				r, err := nw.Latency(f*sat, opt)
				if err != nil {
					t.Fatalf("k=%d n=%d %+v at %.2f sat: %v", c[0], c[1], opt, f, err)
				}
				if !(r.Latency > prev) {
					t.Errorf("k=%d n=%d %+v: T(%.2f sat) = %g not above %g", c[0], c[1], opt, f, r.Latency, prev)
				}
				prev = r.Latency
			}
			if _, err := nw.Latency(sat*(1+1e-9), opt); !errors.Is(err, analytic.ErrSaturated) {
				t.Errorf("k=%d n=%d %+v: just above saturation, error %v", c[0], c[1], opt, err)
			}
		}
	}
}

// The closed form of the binary n-cube (n + 2 classes) is a second
// implementation of the general solver: equal to 1e-12 relative.
func TestBinaryCubeEqualsGeneral(t *testing.T) {
	for n := 1; n <= 9; n++ {
		nw := mustUniform(t, 2, n)
		opt := Options{M: 32, C0: 0.5}
		sat, err := nw.Saturation(opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []float64{0, 0.1, 0.5, 0.9, 0.999} {
			g, err := nw.Latency(f*sat, opt)
			if err != nil {
				t.Fatal(err)
			}
			b, err := BinaryCube(n, f*sat, opt)
			if err != nil {
				t.Fatal(err)
			}
			if !pin.CloseRel(b.Latency, g.Latency, 1e-12) || !pin.CloseRel(b.SInj, g.SInj, 1e-12) ||
				!pin.CloseRel(b.WInj, g.WInj, 1e-12) || !pin.CloseRel(b.Dbar, g.Dbar, 1e-12) {
				t.Errorf("n=%d %.3f sat: closed form %+v vs general T %g S_INJ %g", n, f, b, g.Latency, g.SInj)
			}
			for _, cr := range g.Classes {
				if !pin.CloseRel(b.S[cr.Dim], cr.S, 1e-12) || !pin.CloseRel(b.W[cr.Dim], cr.W, 1e-12) || !pin.CloseRel(b.LambdaD, cr.Lambda, 1e-12) {
					t.Errorf("n=%d %v: closed form S %g W %g, general S %g W %g", n, cr.Class, b.S[cr.Dim], b.W[cr.Dim], cr.S, cr.W)
				}
			}
		}
		if _, err := BinaryCube(n, sat*(1+1e-9), opt); !errors.Is(err, analytic.ErrSaturated) {
			t.Errorf("n=%d: closed form above saturation: %v", n, err)
		}
	}
	r, err := BinaryCube(6, 0.005, Options{M: 32})
	if err != nil {
		t.Fatal(err)
	}
	if !pin.ClosePrinted(r.Latency, 49.822322, 6) {
		t.Errorf("BinaryCube(6, 0.005): T = %.8f, want 49.822322", r.Latency)
	}
	if _, err := BinaryCube(6, 0.005, Options{M: 32, ExcludeOwnFlow: true}); !errors.Is(err, analytic.ErrDomain) {
		t.Errorf("BinaryCube with ExcludeOwnFlow: %v, want ErrDomain", err)
	}
}

// Spherically symmetric traffic on the binary n-cube: phi(h) = C(n,h) is
// uniform traffic (equal to NewUniform, 1e-12); a locality pattern keeps
// Dbar = sum h phi(h) and the zero-load identity, and lowers T at equal
// load.
func TestSpherical(t *testing.T) {
	const n = 5
	phi := make([]float64, n+1)
	for h := 1; h <= n; h++ {
		phi[h] = binom(n, h)
	}
	sp, err := NewSpherical(n, phi)
	if err != nil {
		t.Fatal(err)
	}
	un := mustUniform(t, 2, n)
	opt := Options{M: 32}
	for _, l := range []float64{0, 0.005, 0.01} {
		a, err1 := sp.Latency(l, opt)
		b, err2 := un.Latency(l, opt)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !pin.CloseRel(a.Latency, b.Latency, 1e-12) {
			t.Errorf("lambda=%g: spherical-uniform T %.17g, uniform %.17g", l, a.Latency, b.Latency)
		}
	}
	// Reed's decreasing-probability pattern, phi(h) proportional to 0.5^h.
	dec := []float64{0, 0.5, 0.25, 0.125, 0.0625, 0.03125}
	var norm, want float64
	for h := 1; h <= n; h++ {
		norm += dec[h]
	}
	for h := 1; h <= n; h++ {
		want += float64(h) * dec[h] / norm
	}
	loc, err := NewSpherical(n, dec)
	if err != nil {
		t.Fatal(err)
	}
	if !pin.CloseRel(loc.Dbar(), want, 1e-12) {
		t.Errorf("locality Dbar = %.17g, want %.17g", loc.Dbar(), want)
	}
	z, _ := loc.Latency(0, opt)
	if !pin.CloseRel(z.Latency, 32+want, 1e-12) {
		t.Errorf("locality zero-load T = %g, want %g", z.Latency, 32+want)
	}
	a, _ := loc.Latency(0.01, opt)
	b, _ := un.Latency(0.01, opt)
	if !(a.Latency < b.Latency) {
		t.Errorf("locality T %g not below uniform %g", a.Latency, b.Latency)
	}
	for _, bad := range [][]float64{{0, 1}, {0, -1, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0}} {
		if _, err := NewSpherical(n, bad); !errors.Is(err, analytic.ErrDomain) {
			t.Errorf("NewSpherical(%v): %v, want ErrDomain", bad, err)
		}
	}
}

// Saturation errors say which class failed; domain errors are separate.
func TestDGRErrors(t *testing.T) {
	nw := mustUniform(t, 8, 2)
	_, err := nw.Latency(0.002, Options{M: 32})
	if !errors.Is(err, analytic.ErrSaturated) || !strings.Contains(err.Error(), "class (dim") {
		t.Errorf("torus beyond saturation: %v", err)
	}
	_, err = nw.Latency(0.05, Options{M: 32})
	if !errors.Is(err, analytic.ErrSaturated) || !strings.Contains(err.Error(), "ejection") {
		t.Errorf("lambda M >= 1: %v", err)
	}
	hc := mustUniform(t, 2, 6)
	_, err = hc.Latency(0.0114, Options{M: 32})
	if !errors.Is(err, analytic.ErrSaturated) || !strings.Contains(err.Error(), "source queue") {
		t.Errorf("hypercube just above saturation: %v", err)
	}
	for _, f := range []func() error{
		func() error { _, err := NewUniform(1, 2); return err },
		func() error { _, err := NewUniform(4, 0); return err },
		func() error { _, err := nw.Latency(-1, Options{M: 32}); return err },
		func() error { _, err := nw.Latency(1e-4, Options{}); return err },
		func() error { _, err := nw.Saturation(Options{}); return err },
	} {
		if err := f(); !errors.Is(err, analytic.ErrDomain) {
			t.Errorf("got %v, want ErrDomain", err)
		}
	}
}

// VCMultiplexing multiplies T by a factor above 1 on tori under load and is
// a no-op on the binary n-cube, whose channels all have one VC.
func TestVCMultiplexing(t *testing.T) {
	nw := mustUniform(t, 8, 2)
	a, _ := nw.Latency(6e-4, Options{M: 32})
	b, err := nw.Latency(6e-4, Options{M: 32, VCMultiplexing: true})
	if err != nil {
		t.Fatal(err)
	}
	if !(b.Vbar > 1 && b.Vbar < 2) || !pin.CloseRel(b.Latency, a.Latency*b.Vbar, 1e-12) {
		t.Errorf("8-ary 2-cube: Vbar %g, T %g vs plain %g", b.Vbar, b.Latency, a.Latency)
	}
	// 49.822322: docs/models.md#dg-pins, binary 6-cube T(0.005) with M = 32
	// (unchanged, since Vbar = 1 there).
	hc := mustUniform(t, 2, 6)
	c, _ := hc.Latency(0.005, Options{M: 32, VCMultiplexing: true})
	if c.Vbar != 1 || !pin.ClosePrinted(c.Latency, 49.822322, 6) {
		t.Errorf("binary 6-cube: Vbar %g, T %g", c.Vbar, c.Latency)
	}
}

// Dally (1990): T_0 = n k_d + B, rho = lambda B k_d, k = 2 refused.
func TestDally1990(t *testing.T) {
	r, err := Dally1990(8, 2, 32, 0)
	if err != nil || r.T0 != 39 || r.Latency != 39 || r.Rho != 0 {
		t.Errorf("zero load: %+v %v, want T0 = T = 39", r, err)
	}
	r, err = Dally1990(4, 3, 20, 0.01)
	if err != nil || !pin.CloseRel(r.Rho, 0.3, 1e-12) || !pin.CloseRel(r.T0, 24.5, 1e-12) || !(r.Latency > r.T0) {
		t.Errorf("4-ary 3-cube: %+v %v", r, err)
	}
	if _, err := Dally1990(2, 6, 32, 0.001); !errors.Is(err, analytic.ErrDomain) {
		t.Errorf("k = 2: %v, want ErrDomain", err)
	}
	if _, err := Dally1990(8, 2, 32, 0.009); !errors.Is(err, analytic.ErrSaturated) {
		t.Errorf("rho >= 1: %v, want ErrSaturated", err)
	}
	if _, err := Dally1990Saturation(2, 32); !errors.Is(err, analytic.ErrDomain) {
		t.Errorf("saturation k = 2: %v", err)
	}
}
