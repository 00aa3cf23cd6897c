package reed

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/flitsim/flitsim/analytic"
	"github.com/flitsim/flitsim/internal/pin"
)

// docs/models.md#reed-visits: ring, uniform, half duplex, unit service: demands 1/15 and
// 4/15, R_0 = 5, D_b = 4/15, D_a = 1/6; full duplex halves the link demand.
func TestRingWorkload(t *testing.T) {
	w := ring15(t)
	ts := w.Types()
	pin.CheckRel(t, "V_PE", ts[0].Visit, 1.0/15, pin.Rational)
	pin.CheckRel(t, "V_CL = (K+1)/(4K)", ts[1].Visit, 16.0/60, pin.Rational)
	pin.CheckRel(t, "R_0", w.R0(), 5, pin.Rational)
	pin.CheckRel(t, "D_b", w.Db(), 4.0/15, pin.Rational)
	pin.CheckRel(t, "D_a", w.Da(), 1.0/6, pin.Rational)
	if w.T() != 2 || w.Devices() != 30 {
		t.Errorf("T = %d, M = %d, want 2, 30", w.T(), w.Devices())
	}
	full := must(NetworkWorkload(must(Uniform(must(Ring(15)))), FullDuplex, 1, 1))
	pin.CheckRel(t, "full duplex V_CL = LV/(2K)", full.Types()[1].Visit, 4.0/30, pin.Rational)
	pin.CheckRel(t, "full duplex R_0", full.R0(), 5, pin.Rational)
	if full.Types()[1].Count != 30 {
		t.Errorf("full duplex Numlinks = %d, want 30", full.Types()[1].Count)
	}
	// Critical ratio S_PE/S_CL = (K+1)/4 equalises the two demands (docs/models.md#asymptotic-bounds).
	crit := must(NetworkWorkload(must(Uniform(must(Ring(15)))), HalfDuplex, 4, 1))
	pin.CheckRel(t, "critical ratio", crit.Types()[0].Demand(), crit.Types()[1].Demand(), pin.Rational)
}

// Per-point slices of MVA do not alias: appending to one leaves the next intact.
func TestMVAPointsIndependent(t *testing.T) {
	pts := must(ring15(t).MVA(3))
	want := pts[1].Resp[0]
	_ = append(pts[0].Utilisation, -1, -1, -1)
	_ = append(pts[0].Queue, -1, -1, -1)
	if pts[1].Resp[0] != want || pts[0].Utilisation[0] < 0 {
		t.Errorf("MVA point slices alias each other")
	}
}

// docs/models.md#reed-pins MVA table, 15-node ring, uniform routing, unit service.
// Exact rationals and full-precision values recomputed with python3
// fractions (docs/models.md#reference-calculations); they match every digit printed in docs/models.md#reed-pins.
func TestMVAPins(t *testing.T) {
	w := ring15(t)
	pts := must(w.MVA(20))
	cases := []struct {
		n        int
		x0       float64
		lo, up   float64 // balanced job bounds (7), exact rationals
		asymUp   float64 // asymptotic upper bound (5)
		rational bool
	}{
		{1, 1.0 / 5, 1.0 / 5, 1.0 / 5, 0.2, true},
		{2, 75.0 / 196, 30.0 / 79, 12.0 / 31, 0.4, true},
		{3, 441.0 / 802, 45.0 / 83, 9.0 / 16, 0.6, true},
		{4, 20050.0 / 28507, 20.0 / 29, 8.0 / 11, 0.8, true},
		{5, 85521.0 / 101269, 75.0 / 91, 15.0 / 17, 1.0, true},
		{6, 1340325.0 / 1375222, 18.0 / 19, 36.0 / 35, 1.2, true},
		{7, 687611.0 / 628041, 35.0 / 33, 7.0 / 6, 1.4, true},
		{8, 1.2061582187681061, 120.0 / 103, 48.0 / 37, 1.6, false},
		{9, 1.3094180076369324, 135.0 / 107, 27.0 / 19, 1.8, false},
		{10, 1.4053993268610736, 50.0 / 37, 20.0 / 13, 2.0, false},
		{20, 2.0836374095966335, 300.0 / 151, 120.0 / 49, 3.75, false},
	}
	for _, c := range cases {
		p := pts[c.n-1]
		if p.N != c.n {
			t.Fatalf("point %d has N = %d", c.n-1, p.N)
		}
		// MVA in float64 of an exact rational recursion: 1e-12 (docs/models.md#numerics).
		pin.CheckRel(t, fmt.Sprintf("X_0(%d)", c.n), p.X0, c.x0, pin.Rational)
		pin.CheckRel(t, fmt.Sprintf("R_0(%d)", c.n), p.R0, float64(c.n)/c.x0, pin.Rational)
		x0 := must(w.X0(c.n))
		pin.CheckRel(t, fmt.Sprintf("X0(%d) alone", c.n), x0, c.x0, pin.Rational)
		b := must(w.BalancedJobBounds(c.n))
		pin.CheckRel(t, fmt.Sprintf("BJB lower(%d)", c.n), b.Lower, c.lo, pin.Rational)
		pin.CheckRel(t, fmt.Sprintf("BJB upper(%d)", c.n), b.Upper, c.up, pin.Rational)
		a := must(w.Asymptotic(c.n))
		pin.CheckRel(t, fmt.Sprintf("asymptotic upper(%d)", c.n), a.Upper, c.asymUp, pin.Rational)
	}
	// docs/models.md#reed-pins: at N = 10, n_PE = 0.1025812, n_CL = 0.5640855
	// (full precision from python3 fractions).
	p10 := pts[9]
	pin.CheckRel(t, "n_PE(10)", p10.Queue[0], 0.10258117776344811, pin.Rational)
	pin.CheckRel(t, "n_CL(10)", p10.Queue[1], 0.56408548890321852, pin.Rational)
	pin.CheckRel(t, "15 (n_PE + n_CL)", 15*(p10.Queue[0]+p10.Queue[1]), 10, pin.Rational)
	// docs/models.md#pins: BJB(N=10) = [1.35135135, 1.53846154] to the printed digits.
	b := must(w.BalancedJobBounds(10))
	if math.Abs(b.Lower-1.35135135) > 5e-9 || math.Abs(b.Upper-1.53846154) > 5e-9 {
		t.Errorf("BJB(10) = %v, docs/models.md#pins prints [1.35135135, 1.53846154]", b)
	}
	// Infinite-ring limit (docs/models.md#asymptotic-bounds): 1/D_b = 4K/(K+1) < 4/S_CL.
	if u := 1 / w.Db(); !(u < 4) {
		t.Errorf("1/D_b = %g, want < 4", u)
	}
}

// testWorkloads covers the networks and distributions of the package, half
// and full duplex, equal and unequal service times.
func testWorkloads(t *testing.T) map[string]Workload {
	t.Helper()
	ws := map[string]Workload{}
	profiles := []Profile{must(Ring(15)), must(Ring(16)), must(Bus(15)), must(Torus(4, 2)), must(Torus(5, 2)), must(Hypercube(4))}
	for _, p := range profiles {
		rs := []Routing{must(Uniform(p)), must(Decay(p, 0.5, Corrected))}
		if p.LMax() > 2 {
			rs = append(rs, must(Locality(p, 0.8, 2)))
		}
		for _, r := range rs {
			for _, d := range []Duplex{HalfDuplex, FullDuplex} {
				for _, s := range [][2]float64{{1, 1}, {10, 0.5}} {
					name := fmt.Sprintf("%s %s %v S=%v", p.Name(), r.Name(), d, s)
					ws[name] = must(NetworkWorkload(r, d, s[0], s[1]))
				}
			}
		}
	}
	return ws
}

// Identities of docs/models.md#mva to docs/models.md#balanced-job-bounds for every N = 1..200: sum_t O_t n_t(N) = N;
// BJB (7) brackets MVA; (7) lies inside (5); U_t <= 1; X_0 non-decreasing.
func TestMVAIdentities(t *testing.T) {
	const nmax = 200
	for name, w := range testWorkloads(t) {
		pts := must(w.MVA(nmax))
		prev := 0.0
		for _, p := range pts {
			s := 0.0
			for i, ty := range w.types {
				s += float64(ty.Count) * p.Queue[i]
				if p.Utilisation[i] > 1+1e-12 || p.Utilisation[i] < 0 {
					t.Errorf("%s N=%d: U_%s = %g outside [0,1]", name, p.N, ty.Name, p.Utilisation[i])
				}
			}
			if math.Abs(s-float64(p.N)) > 1e-12*float64(p.N) {
				t.Errorf("%s N=%d: sum O_t n_t = %.15g", name, p.N, s)
			}
			b := must(w.BalancedJobBounds(p.N))
			a := must(w.Asymptotic(p.N))
			const slack = 1e-12
			if p.X0 < b.Lower*(1-slack) || p.X0 > b.Upper*(1+slack) {
				t.Errorf("%s N=%d: X_0 = %g outside BJB [%g, %g]", name, p.N, p.X0, b.Lower, b.Upper)
			}
			if b.Lower < a.Lower*(1-slack) || b.Upper > a.Upper*(1+slack) {
				t.Errorf("%s N=%d: BJB [%g, %g] not inside asymptotic [%g, %g]", name, p.N, b.Lower, b.Upper, a.Lower, a.Upper)
			}
			if p.X0 < prev*(1-slack) {
				t.Errorf("%s N=%d: X_0 decreased from %g to %g", name, p.N, prev, p.X0)
			}
			prev = p.X0
		}
	}
}

// The per-type algorithm of Figure II equals the general MVA over the
// expanded station list.
func TestSymmetricMVAEqualsGeneralExpanded(t *testing.T) {
	const nmax = 60
	for name, w := range testWorkloads(t) {
		sym := must(w.MVA(nmax))
		gen := must(GeneralMVA(w.Stations(), nmax))
		for i := range sym {
			pin.CheckRel(t, fmt.Sprintf("%s X_0(%d)", name, i+1), gen[i].X0, sym[i].X0, pin.Rational)
		}
	}
}

// routeVisits derives the visit ratio of every link of a k-ary n-cube
// (k >= 3; k = 2 is handled as the hypercube) independently of the symmetry
// argument of Reed (1983): every source equally likely (1/K of the
// completions), destination drawn from r.Phi(l)/Reach(l), dimension-order
// minimal routing, a half-way tie on an even ring split evenly between the
// two directions. Half duplex: link (u, dim) joins u and u+e_dim and carries
// both directions; full duplex: one device per direction.
func routeVisits(r Routing, k, n int, d Duplex) []float64 {
	p := r.Profile()
	nodes := p.K()
	dirs := 1
	if d == FullDuplex {
		dirs = 2
	}
	visits := make([]float64, nodes*n*dirs)
	coord := func(v, dim int) int {
		for range dim {
			v /= k
		}
		return v % k
	}
	stride := func(dim int) int {
		s := 1
		for range dim {
			s *= k
		}
		return s
	}
	step := func(v, dim, sgn int) int { // neighbour of v along dim
		c := coord(v, dim)
		nc := (c + sgn + k) % k
		return v + (nc-c)*stride(dim)
	}
	var walk func(u, t, dim int, w float64)
	walk = func(u, t, dim int, w float64) {
		if dim == n {
			return
		}
		delta := (coord(t, dim) - coord(u, dim) + k) % k
		goDir := func(sgn, hops int, w float64) {
			v := u
			for range hops {
				nv := step(v, dim, sgn)
				lo, dir := v, 0 // half duplex link id: the endpoint it leaves in + direction
				if sgn < 0 {
					lo, dir = nv, 1
				}
				id := (lo*n + dim) * dirs
				if dirs == 2 {
					id += dir
				}
				visits[id] += w
				v = nv
			}
			walk(v, t, dim+1, w)
		}
		switch {
		case 2*delta < k:
			goDir(+1, delta, w)
		case 2*delta > k:
			goDir(-1, k-delta, w)
		default:
			goDir(+1, delta, w/2)
			goDir(-1, delta, w/2)
		}
	}
	for s := range nodes {
		for t := range nodes {
			if s == t {
				continue
			}
			l := 0
			for dim := range n {
				c := (coord(t, dim) - coord(s, dim) + k) % k
				l += min(c, k-c)
			}
			walk(s, t, 0, r.Phi(l)/float64(p.Reach(l))/float64(nodes))
		}
	}
	return visits
}

// hypercubeVisits is routeVisits for the binary n-cube: e-cube routing, link
// (u, bit) joins u and u^bit, identified by its lower endpoint with bit
// removed (nK/2 links).
func hypercubeVisits(r Routing, n int, d Duplex) []float64 {
	nodes := 1 << n
	dirs := 1
	if d == FullDuplex {
		dirs = 2
	}
	visits := make([]float64, nodes/2*n*dirs)
	for s := range nodes {
		for t := range nodes {
			if s == t {
				continue
			}
			x := s ^ t
			l := 0
			for b := range n {
				l += (x >> b) & 1
			}
			w := r.Phi(l) / float64(r.Profile().Reach(l)) / float64(nodes)
			u := s
			for b := range n {
				if (x>>b)&1 == 0 {
					continue
				}
				v := u ^ (1 << b)
				lo, dir := min(u, v), btoi(u > v)
				lo = (lo>>(b+1))<<b | lo&(1<<b-1) // drop bit b (0 in lo): dense id
				id := (lo*n + b) * dirs
				if dirs == 2 {
					id += dir
				}
				visits[id] += w
				u = v
			}
		}
	}
	return visits
}

// docs/models.md#reed-visits, docs/models.md#mva: the symmetric (Figure II) MVA with V_CL = LV/Numlinks
// equals a general MVA whose per-link visit ratios come from enumerating
// every source-destination route; no symmetry assumed on the general side.
// Also checks that every link's derived visit ratio is LV/Numlinks.
func TestSymmetricMVAEqualsRoutedGeneralMVA(t *testing.T) {
	type netCase struct {
		name   string
		p      Profile
		visits func(Routing, Duplex) []float64
	}
	nets := []netCase{
		{"ring 15", must(Ring(15)), func(r Routing, d Duplex) []float64 { return routeVisits(r, 15, 1, d) }},
		{"ring 12", must(Ring(12)), func(r Routing, d Duplex) []float64 { return routeVisits(r, 12, 1, d) }},
		{"torus 4^2", must(Torus(4, 2)), func(r Routing, d Duplex) []float64 { return routeVisits(r, 4, 2, d) }},
		{"torus 5^2", must(Torus(5, 2)), func(r Routing, d Duplex) []float64 { return routeVisits(r, 5, 2, d) }},
		{"torus 3^3", must(Torus(3, 3)), func(r Routing, d Duplex) []float64 { return routeVisits(r, 3, 3, d) }},
		{"hypercube 4", must(Hypercube(4)), func(r Routing, d Duplex) []float64 { return hypercubeVisits(r, 4, d) }},
	}
	const nmax = 40
	const sPE, sCL = 0.7, 1.3
	for _, nc := range nets {
		rs := []Routing{must(Uniform(nc.p)), must(Decay(nc.p, 0.4, Corrected))}
		if nc.p.LMax() > 2 {
			rs = append(rs, must(Locality(nc.p, 0.75, 2)))
		}
		for _, r := range rs {
			for _, d := range []Duplex{HalfDuplex, FullDuplex} {
				name := fmt.Sprintf("%s %s %v", nc.name, r.Name(), d)
				w := must(NetworkWorkload(r, d, sPE, sCL))
				vis := nc.visits(r, d)
				if len(vis) != nc.p.Numlinks(d) {
					t.Fatalf("%s: %d routed links, Numlinks = %d", name, len(vis), nc.p.Numlinks(d))
				}
				var st []Station
				for range nc.p.K() {
					st = append(st, Station{Name: "PE", Visit: 1 / float64(nc.p.K()), Service: sPE})
				}
				for i, v := range vis {
					pin.CheckRel(t, fmt.Sprintf("%s V(link %d)", name, i), v, r.LV()/float64(len(vis)), pin.Rational)
					st = append(st, Station{Name: "CL", Visit: v, Service: sCL})
				}
				gen := must(GeneralMVA(st, nmax))
				sym := must(w.MVA(nmax))
				for i := range sym {
					pin.CheckRel(t, fmt.Sprintf("%s X_0(%d)", name, i+1), gen[i].X0, sym[i].X0, pin.Rational)
				}
				last := gen[nmax-1]
				pin.CheckRel(t, name+" n_PE(N_max)", last.Queue[0], sym[nmax-1].Queue[0], 1e-11)
				pin.CheckRel(t, name+" n_CL(N_max)", last.Queue[len(st)-1], sym[nmax-1].Queue[1], 1e-11)
			}
		}
	}
}

func TestSolverDomainErrors(t *testing.T) {
	w := ring15(t)
	var empty Workload
	calls := map[string]error{}
	_, calls["MVA nmax=0"] = w.MVA(0)
	_, calls["MVA empty"] = empty.MVA(3)
	_, calls["X0 n=0"] = w.X0(0)
	_, calls["BJB n=0"] = w.BalancedJobBounds(0)
	_, calls["Asymptotic n=0"] = w.Asymptotic(0)
	_, calls["BJB empty"] = empty.BalancedJobBounds(3)
	_, calls["Asymptotic empty"] = empty.Asymptotic(3)
	_, calls["GeneralMVA no demand"] = GeneralMVA([]Station{{Visit: 0, Service: 1}}, 3)
	_, calls["GeneralMVA negative"] = GeneralMVA([]Station{{Visit: -1, Service: 1}}, 3)
	_, calls["NewWorkload none"] = NewWorkload()
	_, calls["NewWorkload count 0"] = NewWorkload(DeviceType{Count: 0, Visit: 1, Service: 1})
	_, calls["NewWorkload NaN"] = NewWorkload(DeviceType{Count: 1, Visit: math.NaN(), Service: 1})
	_, calls["NewWorkload zero demand"] = NewWorkload(DeviceType{Count: 1, Visit: 1, Service: 0})
	_, calls["NetworkWorkload negative S"] = NetworkWorkload(must(Uniform(must(Ring(5)))), HalfDuplex, -1, 1)
	_, calls["NetworkWorkload zero Routing"] = NetworkWorkload(Routing{}, HalfDuplex, 1, 1)
	_, calls["NetworkWorkload bad duplex"] = NetworkWorkload(must(Uniform(must(Ring(5)))), Duplex(3), 1, 1)
	for name, err := range calls {
		if !errors.Is(err, analytic.ErrDomain) {
			t.Errorf("%s: error %v, want analytic.ErrDomain", name, err)
		}
	}
}
