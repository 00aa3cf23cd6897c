package traffic

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/sim"
)

func mustPattern(t testing.TB, s PatternSpec, space Space) Pattern {
	t.Helper()
	p, err := NewPattern(s, space)
	if err != nil {
		t.Fatalf("NewPattern(%+v, %v): %v", s, space, err)
	}
	return p
}

// phiByDistance returns Phi(l), l = 0..diameter, of pattern p from src:
// the probability that a message crosses exactly l links.
func phiByDistance(p Pattern, space Space, src int) []float64 {
	n := space.Nodes()
	pr := make([]float64, n)
	p.Probabilities(src, pr)
	var phi []float64
	for j := 0; j < n; j++ {
		l := space.Distance(src, j)
		for len(phi) <= l {
			phi = append(phi, 0)
		}
		phi[l] += pr[j]
	}
	return phi
}

// TestReedRing15 pins the cumulative distance distributions and mean link
// visits of the 15-node bidirectional ring against docs/models.md#reed-pins (Reed
// 1983, Figure I and Eqs. (1)-(3) with the corrections of §1.13), at every
// source. Tolerances: the cumulative values are printed to 6 decimals
// (1e-6 absolute); LV values are exact to double precision (1e-12).
func TestReedRing15(t *testing.T) {
	cases := []struct {
		spec PatternSpec
		cum  []float64 // Pr{distance <= l}, l = 1..7; nil: not pinned
		lv   float64
	}{
		{PatternSpec{Name: Uniform}, []float64{1. / 7, 2. / 7, 3. / 7, 4. / 7, 5. / 7, 6. / 7, 1}, 4},
		{PatternSpec{Name: Locality, Phi: 0.8, Radius: 2}, []float64{0.40, 0.80, 0.84, 0.88, 0.92, 0.96, 1.00}, 2.20},
		{PatternSpec{Name: Decay, Decay: 0.5}, []float64{0.503937, 0.755906, 0.881890, 0.944882, 0.976378, 0.992126, 1}, 1.9448818897637796},
		{PatternSpec{Name: Locality, Phi: 0.5, Radius: 1}, nil, 2.75},
		{PatternSpec{Name: Locality, Phi: 0.5, Radius: 2}, nil, 3.25},
		{PatternSpec{Name: Locality, Phi: 0.8, Radius: 1}, nil, 1.70},
		{PatternSpec{Name: Locality, Phi: 0.9, Radius: 3}, nil, 2.35},
		{PatternSpec{Name: Decay, Decay: 0.10}, nil, 1.111110411111041},
		{PatternSpec{Name: Decay, Decay: 0.25}, nil, 1.3329060611609596},
		{PatternSpec{Name: Decay, Decay: 0.75}, nil, 2.921673593012608},
		{PatternSpec{Name: Decay, Decay: 0.90}, nil, 3.582406736705222},
		{PatternSpec{Name: Decay, Decay: 0.99}, nil, 3.959802040109886},
		{PatternSpec{Name: Decay, Decay: 1}, []float64{1. / 7, 2. / 7, 3. / 7, 4. / 7, 5. / 7, 6. / 7, 1}, 4}, // d = 1: uniform in distance, (l_max+1)/2
	}
	for _, c := range cases {
		p := mustPattern(t, c.spec, ring15)
		for src := 0; src < ring15.Nodes(); src++ {
			phi := phiByDistance(p, ring15, src)
			if len(phi) != 8 || phi[0] != 0 {
				t.Fatalf("%+v src %d: Phi = %v, want 8 entries with Phi(0) = 0", c.spec, src, phi)
			}
			var cum, lv float64
			for l := 1; l <= 7; l++ {
				cum += phi[l]
				lv += float64(l) * phi[l]
				if c.cum != nil && math.Abs(cum-c.cum[l-1]) > 1e-6 {
					t.Errorf("%+v src %d: Pr{distance <= %d} = %.7f, want %v", c.spec, src, l, cum, c.cum[l-1])
				}
			}
			if math.Abs(lv-c.lv) > 1e-12 {
				t.Errorf("%+v src %d: LV = %.16g, want %v", c.spec, src, lv, c.lv)
			}
		}
	}
}

// TestProbabilitiesAreDistributions checks, for every pattern on several
// spaces and every source, that Probabilities is a distribution (entries in
// [0,1] summing to 1 within 1e-12) and that only the patterns documented to
// do so send to the source itself.
func TestProbabilitiesAreDistributions(t *testing.T) {
	spaces := []cube{ring15, {k: 8, n: 2, wrap: true}, {k: 4, n: 3}, {k: 2, n: 6, wrap: true}, {k: 6, n: 1, wrap: true, uni: true}, {k: 5, n: 2, wrap: true}}
	specs := []PatternSpec{
		{Name: Uniform}, {Name: Uniform, IncludeSelf: true},
		{Name: Locality, Radius: 1, Phi: 0.7}, {Name: Locality, Radius: 2, Phi: 0},
		{Name: Decay, Decay: 0.3}, {Name: Decay, Decay: 1},
		{Name: Transpose}, {Name: BitComplement}, {Name: BitReverse}, {Name: Shuffle},
		{Name: Tornado}, {Name: Neighbour},
		{Name: Hotspot, HotNodes: []int{0, 3}, HotFraction: 0.25},
		{Name: RandomPermutation, Seed: 5}, {Name: Halo},
	}
	for _, sp := range spaces {
		n := sp.Nodes()
		pr := make([]float64, n)
		for _, s := range specs {
			p, err := NewPattern(s, sp)
			if err != nil {
				continue // not defined on this space; domain errors are tested separately
			}
			if p.Name() != s.Name {
				t.Errorf("%v %+v: Name() = %q", sp, s, p.Name())
			}
			for src := 0; src < n; src++ {
				p.Probabilities(src, pr)
				var sum float64
				for j, q := range pr {
					if !(q >= 0 && q <= 1) {
						t.Fatalf("%v %+v src %d: p[%d] = %v", sp, s, src, j, q)
					}
					sum += q
				}
				if math.Abs(sum-1) > 1e-12 {
					t.Errorf("%v %+v src %d: probabilities sum to %v", sp, s, src, sum)
				}
				selfOK := s.IncludeSelf || isPermutation(s.Name)
				if pr[src] != 0 && !selfOK {
					t.Errorf("%v %+v src %d: p[src] = %v, want 0", sp, s, src, pr[src])
				}
			}
		}
	}
}

func isPermutation(name string) bool {
	switch name {
	case Transpose, BitComplement, BitReverse, Shuffle, Tornado, Neighbour, RandomPermutation:
		return true
	}
	return false
}

// TestLimitsEqualUniform checks the limits in which the parametrised
// patterns reduce to uniform routing (Reed 1983; docs/models.md#reed-routing): the
// sphere of locality with L = l_max and phi = 1, or with phi equal to the
// sphere's share LocSize(L)/(N-1) of the other nodes; decreasing
// probability with d = 1 on a ring (Reach(l) constant, so uniform in
// distance is uniform in node); hot spot with h = 0. Tolerance 1e-15.
func TestLimitsEqualUniform(t *testing.T) {
	torus := cube{k: 6, n: 2, wrap: true} // vertex-symmetric: LocSize(1) = 4 at every node
	cases := []struct {
		space Space
		spec  PatternSpec
	}{
		{ring15, PatternSpec{Name: Locality, Radius: 7, Phi: 1}},
		{ring15, PatternSpec{Name: Locality, Radius: 2, Phi: 4. / 14}},
		{ring15, PatternSpec{Name: Decay, Decay: 1}},
		{ring15, PatternSpec{Name: Decay, Decay: 1 - 1e-12}},
		{torus, PatternSpec{Name: Locality, Radius: 1, Phi: 4. / 35}},
		{torus, PatternSpec{Name: Locality, Radius: 6, Phi: 1}},
		{torus, PatternSpec{Name: Hotspot, HotNodes: []int{5}, HotFraction: 0}},
	}
	for _, c := range cases {
		n := c.space.Nodes()
		p := mustPattern(t, c.spec, c.space)
		u := mustPattern(t, PatternSpec{}, c.space)
		got, want := make([]float64, n), make([]float64, n)
		for src := 0; src < n; src++ {
			p.Probabilities(src, got)
			u.Probabilities(src, want)
			for j := range got {
				if math.Abs(got[j]-want[j]) > 1e-15 {
					t.Fatalf("%+v src %d: p[%d] = %v, uniform %v", c.spec, src, j, got[j], want[j])
				}
			}
		}
	}
}

// TestDecayNearestNeighbourLimit: as d -> 0 the decreasing-probability
// distribution approaches nearest-neighbour communication (Reed 1983):
// Phi(1) = (1-d)/(1-d^l_max) -> 1; on the ring at d = 1e-6, Phi(1) = 1 - d
// to first order. Tolerance 1e-11.
func TestDecayNearestNeighbourLimit(t *testing.T) {
	const d = 1e-6
	p := mustPattern(t, PatternSpec{Name: Decay, Decay: d}, ring15)
	phi := phiByDistance(p, ring15, 3)
	if math.Abs(phi[1]-(1-d)) > 1e-11 {
		t.Errorf("Phi(1) = %.15f, want %.15f", phi[1], 1-d)
	}
}

// TestLocalityMeshPerSource checks the per-source definition on a space
// that is not vertex-symmetric (a 4x4 mesh): from the corner, 2 nodes lie at
// distance 1 and 13 beyond; from an inner node, 4 and 11.
func TestLocalityMeshPerSource(t *testing.T) {
	mesh := cube{k: 4, n: 2}
	p := mustPattern(t, PatternSpec{Name: Locality, Radius: 1, Phi: 0.6}, mesh)
	pr := make([]float64, 16)
	for _, c := range []struct {
		src     int
		in, out int
	}{{0, 2, 13}, {5, 4, 11}, {15, 2, 13}, {1, 3, 12}} {
		p.Probabilities(c.src, pr)
		for j, q := range pr {
			var want float64
			switch d := mesh.Distance(c.src, j); {
			case d == 0:
				want = 0
			case d <= 1:
				want = 0.6 / float64(c.in)
			default:
				want = 0.4 / float64(c.out)
			}
			if math.Abs(q-want) > 1e-15 {
				t.Errorf("src %d: p[%d] = %v, want %v", c.src, j, q, want)
			}
		}
	}
}

// TestDestGoodnessOfFit samples Dest of every random pattern and tests the
// counts against Probabilities with Pearson's chi-square test (seeded;
// p-value must exceed 0.001).
func TestDestGoodnessOfFit(t *testing.T) {
	torus := cube{k: 8, n: 2, wrap: true}
	mesh := cube{k: 5, n: 2}
	hyper := cube{k: 2, n: 6, wrap: true}
	cases := []struct {
		space Space
		spec  PatternSpec
		srcs  []int
	}{
		{ring15, PatternSpec{Name: Uniform}, []int{0, 7, 14}},
		{torus, PatternSpec{Name: Uniform, IncludeSelf: true}, []int{0, 63}},
		{torus, PatternSpec{Name: Uniform}, []int{9}},
		{ring15, PatternSpec{Name: Locality, Radius: 2, Phi: 0.8}, []int{0, 14}},
		{torus, PatternSpec{Name: Locality, Radius: 2, Phi: 0.5}, []int{0, 27}},
		{mesh, PatternSpec{Name: Locality, Radius: 1, Phi: 0.9}, []int{0, 12}},
		{hyper, PatternSpec{Name: Locality, Radius: 3, Phi: 1}, []int{0, 42}},
		{ring15, PatternSpec{Name: Decay, Decay: 0.5}, []int{0, 8}},
		{torus, PatternSpec{Name: Decay, Decay: 0.7}, []int{0, 27}},
		{mesh, PatternSpec{Name: Decay, Decay: 0.6}, []int{0, 12}},
		{hyper, PatternSpec{Name: Decay, Decay: 1}, []int{5}},
		{torus, PatternSpec{Name: Hotspot, HotNodes: []int{0, 36}, HotFraction: 0.3}, []int{0, 1, 36}},
		{torus, PatternSpec{Name: Hotspot, HotNodes: []int{12}, HotFraction: 0.5}, []int{12, 13}},
		{torus, PatternSpec{Name: Halo}, []int{0, 27, 63}},
		{mesh, PatternSpec{Name: Halo}, []int{0, 2, 12}},
		{hyper, PatternSpec{Name: Halo}, []int{0, 42}},
		{cube{k: 6, n: 1, wrap: true, uni: true}, PatternSpec{Name: Halo}, []int{0, 5}},
	}
	const draws = 60000
	for ci, c := range cases {
		p := mustPattern(t, c.spec, c.space)
		n := c.space.Nodes()
		pr := make([]float64, n)
		counts := make([]int, n)
		for _, src := range c.srcs {
			r := sim.NewStream(20240611, sim.PurposeTrafficDest, uint64(ci*1000+src))
			clear(counts)
			for i := 0; i < draws; i++ {
				counts[p.Dest(src, r)]++
			}
			p.Probabilities(src, pr)
			pval, df := goodnessOfFit(t, counts, pr, draws)
			t.Logf("%v %-9s src %2d: chi-square df %3d, p = %.3f", c.space, c.spec.Name, src, df, pval)
			if pval <= 0.001 {
				t.Errorf("%v %+v src %d: Dest does not follow Probabilities (chi-square df %d, p = %.2g)", c.space, c.spec, src, df, pval)
			}
		}
	}
}

// TestPermutations enumerates every source of each permutation and checks
// the destination against an independent statement of the definition
// (Dally and Towles 2004, §3.2), that the map is a bijection, and that
// Probabilities puts mass 1 on it. A few reference points are listed
// explicitly.
func TestPermutations(t *testing.T) {
	binary := func(x, b int) string {
		s := strconv.FormatInt(int64(x), 2)
		return strings.Repeat("0", b-len(s)) + s
	}
	parse := func(s string) int { v, _ := strconv.ParseInt(s, 2, 64); return int(v) }
	cases := []struct {
		space Space
		name  string
		def   func(src int) int
		pins  [][2]int // {src, dest}
	}{
		{cube{k: 8, n: 2, wrap: true}, Transpose, func(s int) int { x, y := s%8, s/8; return y + 8*x },
			[][2]int{{1, 8}, {9, 9}, {23, 58}}},
		{cube{k: 2, n: 4, wrap: true}, Transpose, func(s int) int { // (a0 a1 a2 a3) -> (a2 a3 a0 a1)
			return (s>>2)&3 | (s&3)<<2
		}, [][2]int{{1, 4}, {6, 9}, {15, 15}}},
		{cube{k: 3, n: 4, wrap: true}, Transpose, func(s int) int {
			c := []int{s % 3, s / 3 % 3, s / 9 % 3, s / 27}
			return c[2] + 3*c[3] + 9*c[0] + 27*c[1]
		}, [][2]int{{1, 9}}},
		{cube{k: 4, n: 3, wrap: true}, BitComplement, func(s int) int { return 63 - s }, [][2]int{{0, 63}, {21, 42}}},
		{cube{k: 2, n: 5, wrap: true}, BitReverse, func(s int) int {
			b := []byte(binary(s, 5))
			for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
				b[i], b[j] = b[j], b[i]
			}
			return parse(string(b))
		}, [][2]int{{1, 16}, {6, 12}, {31, 31}}},
		{cube{k: 4, n: 2, wrap: true}, Shuffle, func(s int) int { // perfect shuffle: 2s mod (N-1), N-1 fixed
			if s == 15 {
				return 15
			}
			return 2 * s % 15
		}, [][2]int{{1, 2}, {8, 1}, {9, 3}}},
		{cube{k: 8, n: 2, wrap: true}, Tornado, func(s int) int { return (s%8+3)%8 + 8*((s/8+3)%8) }, [][2]int{{0, 27}, {7, 26}}},
		{cube{k: 5, n: 1, wrap: true}, Tornado, func(s int) int { return (s + 2) % 5 }, [][2]int{{4, 1}}},
		{cube{k: 4, n: 3, wrap: true}, Neighbour, func(s int) int { return (s%4+1)%4 + 4*((s/4%4+1)%4) + 16*((s/16+1)%4) }, [][2]int{{0, 21}, {63, 0}}},
		{cube{k: 2, n: 3, wrap: true}, Neighbour, func(s int) int { return 7 - s }, nil},
	}
	for _, c := range cases {
		p := mustPattern(t, PatternSpec{Name: c.name}, c.space)
		n := c.space.Nodes()
		hit := make([]bool, n)
		pr := make([]float64, n)
		for src := 0; src < n; src++ {
			d := p.Dest(src, nil)
			if want := c.def(src); d != want {
				t.Errorf("%v %s: Dest(%d) = %d, want %d", c.space, c.name, src, d, want)
			}
			if hit[d] {
				t.Errorf("%v %s: destination %d hit twice", c.space, c.name, d)
			}
			hit[d] = true
			p.Probabilities(src, pr)
			for j, q := range pr {
				if want := map[bool]float64{true: 1, false: 0}[j == d]; q != want {
					t.Errorf("%v %s: src %d p[%d] = %v, want %v", c.space, c.name, src, j, q, want)
				}
			}
		}
		for _, pin := range c.pins {
			if d := p.Dest(pin[0], nil); d != pin[1] {
				t.Errorf("%v %s: Dest(%d) = %d, want %d", c.space, c.name, pin[0], d, pin[1])
			}
		}
	}
}

// TestPatternErrors checks that invalid configurations are refused with an
// error that wraps ErrInvalid and names the failed condition.
func TestPatternErrors(t *testing.T) {
	cases := []struct {
		space Space
		spec  PatternSpec
		says  string
	}{
		{ring15, PatternSpec{Name: "random"}, "unknown name"},
		{ring15, PatternSpec{Name: Locality, Radius: 0, Phi: 0.5}, "L >= 1"},
		{ring15, PatternSpec{Name: Locality, Radius: 8, Phi: 1}, "exceeds the diameter"},
		{ring15, PatternSpec{Name: Locality, Radius: 7, Phi: 0.9}, "Phi must be 1"},
		{ring15, PatternSpec{Name: Locality, Radius: 2, Phi: 1.5}, "outside [0, 1]"},
		{ring15, PatternSpec{Name: Locality, Radius: 2, Phi: math.NaN()}, "outside [0, 1]"},
		{cube{k: 4, n: 2}, PatternSpec{Name: Locality, Radius: 5, Phi: 0.5}, "reaches every node from source 1"},
		{ring15, PatternSpec{Name: Decay, Decay: 0}, "outside (0, 1]"},
		{ring15, PatternSpec{Name: Decay, Decay: 1.01}, "outside (0, 1]"},
		{ring15, PatternSpec{Name: Transpose}, "even number of dimensions"},
		{cube{k: 3, n: 2, wrap: true}, PatternSpec{Name: BitReverse}, "power-of-two"},
		{ring15, PatternSpec{Name: Shuffle}, "power-of-two"},
		{ring15, PatternSpec{Name: BitComplement}, "power-of-two"},
		{cube{k: 2, n: 4, wrap: true}, PatternSpec{Name: Tornado}, "k >= 3"},
		{badCube{cube{k: 4, n: 2, wrap: true}}, PatternSpec{Name: Neighbour}, "k^n"},
		{ring15, PatternSpec{Name: Hotspot, HotFraction: 0.5}, "HotNodes is empty"},
		{ring15, PatternSpec{Name: Hotspot, HotNodes: []int{15}, HotFraction: 0.5}, "not a node id"},
		{ring15, PatternSpec{Name: Hotspot, HotNodes: []int{3, 3}, HotFraction: 0.5}, "twice"},
		{ring15, PatternSpec{Name: Hotspot, HotNodes: []int{3}, HotFraction: -0.1}, "outside [0, 1]"},
		{ring15, PatternSpec{Name: Uniform, Phi: 0.5}, "field Phi"},
		{ring15, PatternSpec{Name: Decay, Decay: 0.5, Radius: 2}, "field Radius"},
		{cube{k: 1, n: 1}, PatternSpec{}, "at least 2 nodes"},
		{cube{k: maxTableNodes + 1, n: 1, wrap: true}, PatternSpec{Name: Locality, Radius: 1, Phi: 0.5}, "exceeds the limit"},
		{brokenDistance{ring15}, PatternSpec{Name: Decay, Decay: 0.5}, "want >= 1 between distinct nodes"},
		{gappy{ring15}, PatternSpec{Name: Decay, Decay: 0.5}, "no node at distance 2 from source 0"},
	}
	for _, c := range cases {
		_, err := NewPattern(c.spec, c.space)
		if err == nil {
			t.Errorf("%v %+v: no error, want one saying %q", c.space, c.spec, c.says)
			continue
		}
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%v %+v: error %q, want ErrInvalid saying %q", c.space, c.spec, err, c.says)
		}
	}
}

// badCube reports a radix that does not match its node count.
type badCube struct{ cube }

func (b badCube) Radix() int { return 3 }

// brokenDistance reports distance 0 between distinct nodes 0 and 1.
type brokenDistance struct{ cube }

func (b brokenDistance) Distance(a, c int) int {
	if a+c == 1 {
		return 0
	}
	return b.cube.Distance(a, c)
}

// TestLargeTorusShells builds the per-source tables of a 64x64 torus (4096
// nodes, the size the tables are meant for) and checks the 2-D torus shell
// sizes Reach(l) = 4l for 1 <= l < k/2 (so LocSize(L) = 2L(L+1)) through
// the locality probabilities at two sources.
func TestLargeTorusShells(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 4096-node tables (about 1 s)")
	}
	torus := cube{k: 64, n: 2, wrap: true}
	const radius = 5
	p := mustPattern(t, PatternSpec{Name: Locality, Radius: radius, Phi: 1}, torus)
	pr := make([]float64, torus.Nodes())
	for _, src := range []int{0, 2080} {
		p.Probabilities(src, pr)
		reach := make([]int, radius+1)
		for j, q := range pr {
			if q > 0 {
				if q != 1./(2*radius*(radius+1)) {
					t.Fatalf("src %d: p[%d] = %v, want 1/LocSize = 1/%d", src, j, q, 2*radius*(radius+1))
				}
				reach[torus.Distance(src, j)]++
			}
		}
		for l := 1; l <= radius; l++ {
			if reach[l] != 4*l {
				t.Errorf("src %d: Reach(%d) = %d, want %d", src, l, reach[l], 4*l)
			}
		}
	}
}

// gappy reports distance 1 to the ring neighbours and 3 to every other
// node, so no node lies at distance 2.
type gappy struct{ cube }

func (g gappy) Distance(a, b int) int {
	switch d := g.cube.Distance(a, b); d {
	case 0, 1:
		return d
	}
	return 3
}

// TestDestDoesNotAllocate: Dest is on the engine's hot path; every name of
// PatternNames is checked.
func TestDestDoesNotAllocate(t *testing.T) {
	torus := cube{k: 8, n: 2, wrap: true}
	r := sim.NewStream(1, sim.PurposeTrafficDest, 0)
	checked := make(map[string]bool)
	for _, s := range []PatternSpec{
		{Name: Uniform}, {Name: Uniform, IncludeSelf: true}, {Name: Locality, Radius: 2, Phi: 0.5},
		{Name: Decay, Decay: 0.5}, {Name: Transpose}, {Name: BitComplement}, {Name: BitReverse}, {Name: Shuffle},
		{Name: Tornado}, {Name: Neighbour}, {Name: Hotspot, HotNodes: []int{1, 2}, HotFraction: 0.2},
		{Name: RandomPermutation, Seed: 3}, {Name: Halo}, {Name: WorstCase, Table: rotation(64)},
	} {
		p := mustPattern(t, s, torus)
		checked[s.Name] = true
		src := 0
		if a := testing.AllocsPerRun(1000, func() { src = p.Dest(src, r) }); a != 0 {
			t.Errorf("%s: Dest allocates %v per call", s.Name, a)
		}
	}
	gs := mustPattern(t, PatternSpec{Name: GroupShift}, groupedLine{n: 64, b: 8})
	checked[GroupShift] = true
	src := 0
	if a := testing.AllocsPerRun(1000, func() { src = gs.Dest(src, r) }); a != 0 {
		t.Errorf("%s: Dest allocates %v per call", GroupShift, a)
	}
	for _, name := range PatternNames {
		if !checked[name] {
			t.Errorf("%s: Dest not checked for allocations", name)
		}
	}
}

func benchmarkDest(b *testing.B, s PatternSpec) {
	space := cube{k: 16, n: 2, wrap: true}
	p := mustPattern(b, s, space)
	r := rand.New(rand.NewPCG(1, 2))
	n := space.Nodes()
	b.ReportAllocs()
	b.ResetTimer()
	sum := 0
	for i := 0; b.Loop(); i++ {
		sum += p.Dest(i%n, r)
	}
	_ = sum
}

func BenchmarkDestUniform(b *testing.B) { benchmarkDest(b, PatternSpec{Name: Uniform}) }
func BenchmarkDestLocality(b *testing.B) {
	benchmarkDest(b, PatternSpec{Name: Locality, Radius: 3, Phi: 0.8})
}
func BenchmarkDestDecay(b *testing.B) { benchmarkDest(b, PatternSpec{Name: Decay, Decay: 0.9}) }

// rotation is the table s -> s+1 mod n.
func rotation(n int) []int {
	t := make([]int, n)
	for s := range t {
		t[s] = (s + 1) % n
	}
	return t
}

// TestTablePattern: worst-case follows its table and refuses a table that
// is missing, of the wrong length or not a permutation.
func TestTablePattern(t *testing.T) {
	space := cube{k: 4, n: 1, wrap: true}
	p := mustPattern(t, PatternSpec{Name: WorstCase, Table: []int{2, 3, 1, 0}}, space)
	for s, want := range []int{2, 3, 1, 0} {
		if d := p.Dest(s, nil); d != want {
			t.Errorf("Dest(%d) = %d, want %d", s, d, want)
		}
	}
	for _, tab := range [][]int{nil, {1, 2, 3}, {1, 1, 2, 3}, {1, 2, 3, 4}} {
		if _, err := NewPattern(PatternSpec{Name: WorstCase, Table: tab}, space); !errors.Is(err, ErrInvalid) {
			t.Errorf("table %v: error %v, want ErrInvalid", tab, err)
		}
	}
	if _, err := NewPattern(PatternSpec{Name: Uniform, Table: []int{1, 0, 3, 2}}, space); !errors.Is(err, ErrInvalid) {
		t.Errorf("uniform with a table: error %v", err)
	}
}
