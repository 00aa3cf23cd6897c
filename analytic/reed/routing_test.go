package reed

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/flitsim/flitsim/analytic"
	"github.com/flitsim/flitsim/internal/pin"
)

func TestProfiles(t *testing.T) {
	cases := []struct {
		name       string
		p          func() (Profile, error)
		k, lmax    int
		reach      []int // l = 0..lmax
		half, full int
	}{
		// Reed 1983, Reach(l, ring): 2 for 1 <= l <= floor(K/2), odd K.
		{"ring 15", func() (Profile, error) { return Ring(15) }, 15, 7, []int{1, 2, 2, 2, 2, 2, 2, 2}, 15, 30},
		// Even ring: one antipode.
		{"ring 8", func() (Profile, error) { return Ring(8) }, 8, 4, []int{1, 2, 2, 2, 1}, 8, 16},
		{"ring 3", func() (Profile, error) { return Ring(3) }, 3, 1, []int{1, 2}, 3, 6},
		// Single bus: every node one crossing away, one device.
		{"bus 15", func() (Profile, error) { return Bus(15) }, 15, 1, []int{1, 14}, 1, 1},
		// 4-ary 2-cube: (1,2,1) * (1,2,1) = (1,4,6,4,1).
		{"torus 4^2", func() (Profile, error) { return Torus(4, 2) }, 16, 4, []int{1, 4, 6, 4, 1}, 32, 64},
		// 5-ary 2-cube: (1,2,2) * (1,2,2) = (1,4,8,8,4).
		{"torus 5^2", func() (Profile, error) { return Torus(5, 2) }, 25, 4, []int{1, 4, 8, 8, 4}, 50, 100},
		// 2-ary 3-cube is the binary 3-cube.
		{"torus 2^3", func() (Profile, error) { return Torus(2, 3) }, 8, 3, []int{1, 3, 3, 1}, 12, 24},
		// Binary n-cube: C(n, l).
		{"hypercube 4", func() (Profile, error) { return Hypercube(4) }, 16, 4, []int{1, 4, 6, 4, 1}, 32, 64},
		{"hypercube 6", func() (Profile, error) { return Hypercube(6) }, 64, 6, []int{1, 6, 15, 20, 15, 6, 1}, 192, 384},
	}
	for _, c := range cases {
		p := must(c.p())
		if p.K() != c.k || p.LMax() != c.lmax || p.Numlinks(HalfDuplex) != c.half || p.Numlinks(FullDuplex) != c.full {
			t.Errorf("%s: K=%d lmax=%d links=%d/%d, want %d %d %d/%d", c.name, p.K(), p.LMax(),
				p.Numlinks(HalfDuplex), p.Numlinks(FullDuplex), c.k, c.lmax, c.half, c.full)
		}
		for l := -1; l <= c.lmax+1; l++ {
			want := 0
			if l >= 0 && l <= c.lmax {
				want = c.reach[l]
			}
			if got := p.Reach(l); got != want {
				t.Errorf("%s: Reach(%d) = %d, want %d", c.name, l, got, want)
			}
		}
	}
}

// The convolution of Torus agrees with brute-force distances over all node
// pairs (Lee distance sum of per-dimension ring distances).
func TestTorusReachBruteForce(t *testing.T) {
	for _, kn := range [][2]int{{3, 3}, {4, 3}, {5, 2}, {6, 2}, {7, 1}, {8, 2}} {
		k, n := kn[0], kn[1]
		p := must(Torus(k, n))
		nodes := p.K()
		count := make([]int, n*k+1)
		for v := range nodes { // distance from node 0 to v
			d, x := 0, v
			for range n {
				c := x % k
				x /= k
				d += min(c, k-c)
			}
			count[d]++
		}
		for l := range count {
			if count[l] != p.Reach(l) {
				t.Errorf("torus %d^%d: Reach(%d) = %d, brute force %d", k, n, l, p.Reach(l), count[l])
			}
		}
	}
}

// docs/models.md#reed-pins LV table, 15-node ring (l_max = 7), and the printed
// variants; docs/models.md#pins Reed pins. Decay values computed with python3 fractions
// (docs/models.md#reference-calculations) and agree with the table to all printed digits.
func TestLVPins15NodeRing(t *testing.T) {
	p := must(Ring(15))
	pin.CheckRel(t, "LV uniform", must(Uniform(p)).LV(), 4, pin.Rational)
	loc := []struct {
		phi    float64
		radius int
		lv     float64
	}{
		{0.5, 1, 2.75}, {0.5, 2, 3.25}, {0.8, 1, 1.70}, {0.8, 2, 2.20}, {0.9, 3, 2.35},
	}
	for _, c := range loc {
		name := fmt.Sprintf("LV locality phi=%g L=%d", c.phi, c.radius)
		pin.CheckRel(t, name, must(Locality(p, c.phi, c.radius)).LV(), c.lv, pin.Rational)
		pin.CheckRel(t, name+" Eq.(2)", must(LocalityLV(p, c.phi, c.radius)), c.lv, pin.Rational)
		pin.CheckRel(t, name+" ring closed form", must(RingLocalityLV(15, c.phi, c.radius, Corrected)), c.lv, pin.Rational)
	}
	dec := []struct {
		d, lv float64
		tol   float64
	}{
		{0.10, 1.111110411111041, pin.Rel},
		{0.25, 1.3329060611609596, pin.Rel},
		{0.50, 247.0 / 127, pin.Rational},
		{0.75, 2.921673593012608, pin.Rel},
		{0.90, 3.582406736705222, pin.Rel},
		{0.99, 3.959802040109886, pin.Rel},
	}
	for _, c := range dec {
		name := fmt.Sprintf("LV decay d=%g", c.d)
		pin.CheckRel(t, name, must(Decay(p, c.d, Corrected)).LV(), c.lv, c.tol)
		pin.CheckRel(t, name+" Eq.(3)", must(RingDecayLV(15, c.d, Corrected)), c.lv, c.tol)
	}
	// docs/models.md#reed-pins printed (wrong) forms, errata E1 and E2 (docs/errata.md#e1, docs/errata.md#e2):
	// locality phi=.5 L=2 -> 0.893333 (= 0.75 + 0.5*172/600), decay d=.5 -> 0.972441 (= 247/254).
	pin.CheckRel(t, "printed ring locality", must(RingLocalityLV(15, 0.5, 2, Printed)), 0.75+0.5*172.0/600, pin.Rational)
	pin.CheckRel(t, "printed decay Eq.(3)", must(RingDecayLV(15, 0.5, Printed)), 247.0/254, pin.Rational)
	pin.CheckRel(t, "printed decay Phi sum", must(Decay(p, 0.5, Printed)).LV(), 247.0/254, pin.Rational)
}

// docs/models.md#reed-pins, cumulative Phi (Figure I) on the 15-node ring, l = 1..7.
// Decay row: exact (2^7 - 2^{7-l})/127, printed to 6 digits in docs/models.md.
func TestCumulativePhiRows(t *testing.T) {
	p := must(Ring(15))
	uni := must(Uniform(p))
	loc := must(Locality(p, 0.8, 2))
	dec := must(Decay(p, 0.5, Corrected))
	locRow := []float64{0.40, 0.80, 0.84, 0.88, 0.92, 0.96, 1.00}
	for l := 1; l <= 7; l++ {
		pin.CheckRel(t, fmt.Sprintf("uniform CDF(%d)", l), uni.CDF(l), float64(l)/7, pin.Rational)
		pin.CheckRel(t, fmt.Sprintf("locality CDF(%d)", l), loc.CDF(l), locRow[l-1], pin.Rational)
		pin.CheckRel(t, fmt.Sprintf("decay CDF(%d)", l), dec.CDF(l), float64(128-(int(1)<<(7-l)))/127, pin.Rational)
	}
	// 6-digit values as printed in docs/models.md#reed-pins.
	for i, want := range []float64{0.503937, 0.755906, 0.881890, 0.944882, 0.976378, 0.992126, 1} {
		if math.Abs(dec.CDF(i+1)-want) > 5e-7 {
			t.Errorf("decay CDF(%d) = %.7f, docs/models.md prints %.6f", i+1, dec.CDF(i+1), want)
		}
	}
	if dec.CDF(100) != dec.CDF(7) || dec.Phi(0) != 0 || dec.Phi(8) != 0 {
		t.Errorf("CDF/Phi outside 1..l_max not flat/zero")
	}
}

// The ring closed forms equal the generic Eq. (1) sums, odd and even K.
func TestRingClosedFormsEqualGeneric(t *testing.T) {
	for k := 3; k <= 41; k++ {
		p := must(Ring(k))
		pin.CheckRel(t, fmt.Sprintf("K=%d uniform", k), must(RingUniformLV(k)), must(Uniform(p)).LV(), pin.Rational)
		pin.CheckRel(t, fmt.Sprintf("K=%d UniformLV", k), must(UniformLV(p)), must(Uniform(p)).LV(), pin.Rational)
		u, eq1 := must(Uniform(p)), 0.0
		for l := 1; l <= p.LMax(); l++ {
			eq1 += float64(l) * u.Phi(l)
		}
		pin.CheckRel(t, fmt.Sprintf("K=%d uniform Eq.(1) sum", k), eq1, must(RingUniformLV(k)), pin.Rational)
		for radius := 1; radius <= k/2-1; radius++ {
			for _, phi := range []float64{0, 0.3, 0.5, 0.9, 1} {
				name := fmt.Sprintf("K=%d phi=%g L=%d", k, phi, radius)
				gen := must(Locality(p, phi, radius)).LV()
				pin.CheckRel(t, name+" ring closed", must(RingLocalityLV(k, phi, radius, Corrected)), gen, pin.Rational)
				pin.CheckRel(t, name+" Eq.(2)", must(LocalityLV(p, phi, radius)), gen, pin.Rational)
			}
		}
		for _, d := range []float64{0.05, 0.3, 0.5, 0.7, 0.95, 0.999, 1} {
			for _, v := range []Variant{Corrected, Printed} {
				name := fmt.Sprintf("K=%d d=%g %v", k, d, v)
				pin.CheckRel(t, name, must(RingDecayLV(k, d, v)), must(Decay(p, d, v)).LV(), pin.Rational)
			}
		}
	}
}

// Generic Eq. (2) against the Phi sum on tori and hypercubes; normalisation
// of every distribution (sum Phi = 1; the printed decay sums to d).
func TestDistributionsOnOtherNetworks(t *testing.T) {
	ps := []Profile{must(Torus(4, 2)), must(Torus(5, 3)), must(Hypercube(5)), must(Bus(9)), must(Ring(16))}
	for _, p := range ps {
		rs := []Routing{must(Uniform(p)), must(Decay(p, 0.6, Corrected))}
		for radius := 1; radius < p.LMax(); radius++ {
			r := must(Locality(p, 0.7, radius))
			rs = append(rs, r)
			pin.CheckRel(t, p.Name()+" Eq.(2)", must(LocalityLV(p, 0.7, radius)), r.LV(), pin.Rational)
		}
		for _, r := range rs {
			pin.CheckRel(t, p.Name()+" "+r.Name()+" sum Phi", r.CDF(p.LMax()), 1, pin.Rational)
			if lv := r.LV(); lv < 1 || lv > float64(p.LMax()) {
				t.Errorf("%s %s: LV = %g outside [1, l_max]", p.Name(), r.Name(), lv)
			}
		}
		pin.CheckRel(t, p.Name()+" printed decay sum", must(Decay(p, 0.6, Printed)).CDF(p.LMax()), 0.6, pin.Rational)
		pin.CheckRel(t, p.Name()+" decay Eq.(3)", must(DecayLV(p.LMax(), 0.6, Corrected)), must(Decay(p, 0.6, Corrected)).LV(), pin.Rational)
	}
	// Bus: every message crosses the bus once.
	b := must(Bus(15))
	pin.CheckRel(t, "bus uniform LV", must(Uniform(b)).LV(), 1, pin.Rational)
	pin.CheckRel(t, "bus decay LV", must(Decay(b, 0.3, Corrected)).LV(), 1, pin.Rational)
	// Hypercube uniform: n 2^{n-1} / (2^n - 1).
	pin.CheckRel(t, "6-cube uniform LV", must(Uniform(must(Hypercube(6)))).LV(), 6*32.0/63, pin.Rational)
	// Locality with L = l_max is accepted only with phi = 1 (docs/models.md#reed-routing).
	p := must(Ring(15))
	pin.CheckRel(t, "L=l_max phi=1", must(Locality(p, 1, 7)).LV(), 4, pin.Rational)
}

// d -> 1 limits of Eq. (3) (docs/models.md#reed-routing): LV -> (l_max+1)/2 continuously,
// with no cancellation; l_max = 1 gives 1 (the test that rejects the printed
// factor d).
func TestDecayLimits(t *testing.T) {
	for _, lmax := range []int{1, 2, 7, 50} {
		lim := float64(lmax+1) / 2
		pin.CheckRel(t, fmt.Sprintf("l_max=%d d=1", lmax), must(DecayLV(lmax, 1, Corrected)), lim, pin.Rational)
		for _, e := range []float64{1e-15, 1e-12, 1e-9, 1e-6} {
			// LV = (l_max+1)/2 - (l_max^2-1)/12 e + O(e^2) at d = 1 - e.
			want := lim - float64(lmax*lmax-1)/12*e
			pin.CheckRel(t, fmt.Sprintf("l_max=%d d=1-%g", lmax, e), must(DecayLV(lmax, 1-e, Corrected)), want, 1e-11)
		}
	}
	pin.CheckRel(t, "l_max=1 corrected", must(DecayLV(1, 0.3, Corrected)), 1, pin.Rational)
	pin.CheckRel(t, "l_max=1 printed", must(DecayLV(1, 0.3, Printed)), 0.3, pin.Rational)
}

func TestRoutingDomainErrors(t *testing.T) {
	r15 := must(Ring(15))
	bus := must(Bus(5))
	errs := map[string]error{}
	add := func(name string, err error) { errs[name] = err }
	_, e := Ring(2)
	add("Ring(2)", e)
	_, e = Bus(1)
	add("Bus(1)", e)
	_, e = Torus(1, 2)
	add("Torus k=1", e)
	_, e = Torus(4, 0)
	add("Torus n=0", e)
	_, e = Torus(1024, 4)
	add("Torus too big", e)
	_, e = Hypercube(0)
	add("Hypercube(0)", e)
	_, e = NewProfile("bad", 5, func(int) int { return 3 }, 5, 10)
	add("NewProfile sum != K-1", e)
	_, e = NewProfile("neg", 5, func(l int) int { return []int{0, 5, -1}[min(l, 2)] }, 5, 10)
	add("NewProfile negative", e)
	_, e = NewProfile("nolinks", 5, func(l int) int { return 4 * btoi(l == 1) }, 0, 1)
	add("NewProfile no links", e)
	_, e = Uniform(Profile{})
	add("Uniform zero Profile", e)
	_, e = Locality(r15, 1.2, 2)
	add("phi > 1", e)
	_, e = Locality(r15, math.NaN(), 2)
	add("phi NaN", e)
	_, e = Locality(r15, 0.5, 0)
	add("L = 0", e)
	_, e = Locality(r15, 0.5, 7)
	add("L = l_max, phi < 1", e)
	_, e = Locality(bus, 1, 2)
	add("L > l_max on bus", e)
	_, e = Decay(r15, 0, Corrected)
	add("d = 0", e)
	_, e = Decay(r15, 1.5, Corrected)
	add("d > 1", e)
	_, e = Decay(r15, 0.5, Variant(7))
	add("bad variant", e)
	_, e = DecayLV(0, 0.5, Corrected)
	add("DecayLV l_max=0", e)
	_, e = RingLocalityLV(15, 0.5, 7, Corrected)
	add("RingLocalityLV L too big", e)
	_, e = RingLocalityLV(15, -0.1, 2, Corrected)
	add("RingLocalityLV phi<0", e)
	_, e = RingUniformLV(2)
	add("RingUniformLV(2)", e)
	_, e = RingDecayLV(15, -1, Corrected)
	add("RingDecayLV d<0", e)
	for name, err := range errs {
		if !errors.Is(err, analytic.ErrDomain) {
			t.Errorf("%s: error %v, want analytic.ErrDomain", name, err)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
