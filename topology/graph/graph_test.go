package graph

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/flitsim/flitsim/analytic/ideal"
)

func ipow(k, n int) int {
	r := 1
	for range n {
		r *= k
	}
	return r
}

// structCase is one network of the suite with its closed forms.
type structCase struct {
	name               string
	build              func() (*Network, error)
	nodes, routers     int
	minDeg, maxDeg     int
	channels, diameter int
	mean               float64 // mean Distance over distinct terminals, NaN: not checked by closed form
	cut                func(n *Network) []bool
	bisection          int
}

func flatFlyCase(k, n, c int) structCase {
	R := ipow(k, n)
	N := c * R
	cut := func(nw *Network) []bool { return side(nw, func(r int) bool { return r/ipow(k, n-1) < k/2 }) }
	if k%2 != 0 {
		cut = nil // no balanced cut of this shape
	}
	return structCase{
		name:    "flatfly",
		build:   func() (*Network, error) { return NewFlatFly(FlatFlySpec{K: k, N: n, C: c}) },
		nodes:   N,
		routers: R, minDeg: n * (k - 1), maxDeg: n * (k - 1), channels: R * n * (k - 1), diameter: n,
		// sum over ordered router pairs of the Hamming distance: R n (k-1) k^(n-1)
		mean: float64(c*c*R*n*(k-1)*ipow(k, n-1)) / float64(N*(N-1)),
		// top coordinate below k/2: each of the R/2 routers has k/2 neighbours across
		cut:       cut,
		bisection: R / 2 * (k / 2),
	}
}

func fatTreeCase(k, n int) structCase {
	per := ipow(k, n-1)
	N := ipow(k, n)
	// terminals j router hops apart: k-1 at 0 (same leaf), (k-1)k^j at 2j
	sum := 0
	for j := 1; j < n; j++ {
		sum += 2 * j * (k - 1) * ipow(k, j)
	}
	minDeg := k
	if n == 1 {
		minDeg = 0
	}
	return structCase{
		name:    "fattree",
		build:   func() (*Network, error) { return NewFatTree(FatTreeSpec{K: k, N: n}) },
		nodes:   N,
		routers: n * per, minDeg: minDeg, maxDeg: min(2*k, k*(n-1)), channels: 2 * (n - 1) * per * k, diameter: 2 * (n - 1),
		mean: float64(sum) / float64(N-1),
		// switch digit n-2 below k/2 (the terminals' top digit): full bisection, N/2 channels
		cut:       func(nw *Network) []bool { return side(nw, func(r int) bool { return r%per/ipow(k, n-2) < k/2 }) },
		bisection: N / 2,
	}
}

func cmeshCase(k, n, c int) structCase {
	R := ipow(k, n)
	N := c * R
	pair := 0 // sum over ordered coordinate pairs of |a-b|
	for a := 0; a < k; a++ {
		for b := 0; b < k; b++ {
			pair += max(a-b, b-a)
		}
	}
	return structCase{
		name:    "cmesh",
		build:   func() (*Network, error) { return NewCMesh(CMeshSpec{K: k, N: n, C: c}) },
		nodes:   N,
		routers: R, minDeg: n, maxDeg: 2 * n, channels: 2 * n * (k - 1) * ipow(k, n-1), diameter: n * (k - 1),
		mean:      float64(c*c*n*pair*ipow(k, 2*(n-1))) / float64(N*(N-1)),
		cut:       func(nw *Network) []bool { return side(nw, func(r int) bool { return r%k < k/2 }) },
		bisection: ipow(k, n-1),
	}
}

func dragonflyCase(p, a, h int, arrangement ...string) structCase {
	g := a*h + 1
	arr := ""
	if len(arrangement) > 0 {
		arr = arrangement[0]
	}
	return structCase{
		name:    "dragonfly",
		build:   func() (*Network, error) { return NewDragonfly(DragonflySpec{P: p, A: a, H: h, Arrangement: arr}) },
		nodes:   p * a * g,
		routers: a * g, minDeg: a - 1 + h, maxDeg: a - 1 + h, channels: a * g * (a - 1 + h), diameter: 3,
		mean: math.NaN(), // depends on the global arrangement: see TestDragonflyMinimalRouteLength
	}
}

func side(n *Network, f func(r int) bool) []bool {
	s := make([]bool, n.Routers())
	for r := range s {
		s[r] = f(r)
	}
	return s
}

func suite() []structCase {
	return []structCase{
		dragonflyCase(1, 2, 1), dragonflyCase(2, 4, 2), dragonflyCase(2, 3, 2), dragonflyCase(3, 6, 3), dragonflyCase(4, 8, 4),
		dragonflyCase(2, 4, 2, ArrangementAbsolute), dragonflyCase(2, 3, 2, ArrangementAbsolute),
		flatFlyCase(4, 2, 4), flatFlyCase(3, 2, 2), flatFlyCase(2, 3, 2), flatFlyCase(8, 1, 8),
		fatTreeCase(2, 3), fatTreeCase(4, 3), fatTreeCase(2, 5), fatTreeCase(4, 2),
		cmeshCase(4, 2, 4), cmeshCase(5, 2, 2), cmeshCase(4, 3, 2),
	}
}

func TestStructure(t *testing.T) {
	for _, c := range suite() {
		n, err := c.build()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		minDeg, maxDeg := math.MaxInt, 0
		for r := 0; r < n.Routers(); r++ {
			minDeg, maxDeg = min(minDeg, n.Degree(r)), max(maxDeg, n.Degree(r))
		}
		got := [...]int{n.Nodes(), n.Routers(), minDeg, maxDeg, n.NumChannels(), n.Diameter()}
		want := [...]int{c.nodes, c.routers, c.minDeg, c.maxDeg, c.channels, c.diameter}
		if got != want {
			t.Errorf("%v: nodes, routers, degree min/max, channels, diameter = %v, want %v", n, got, want)
		}
		if !math.IsNaN(c.mean) && math.Abs(n.MeanDistance()-c.mean) > 1e-12 {
			t.Errorf("%v: mean distance %.15g, closed form %.15g", n, n.MeanDistance(), c.mean)
		}
		if c.cut != nil {
			if got := n.Cut(c.cut(n)); got != c.bisection {
				t.Errorf("%v: bisection channels %d, closed form %d", n, got, c.bisection)
			}
		}
		checkTables(t, n)
	}
}

// checkTables checks the port tables against the channel list and the
// distance table against a Floyd–Warshall closure computed independently.
func checkTables(t *testing.T, n *Network) {
	t.Helper()
	for id := 0; id < n.NumChannels(); id++ {
		c := n.Channel(id)
		if n.Out(c.Src, c.SrcPort) != id || n.In(c.Dst, c.DstPort) != id {
			t.Fatalf("%v: channel %d %+v not in the port tables", n, id, c)
		}
	}
	for tm := 0; tm < n.Nodes(); tm++ {
		if n.TerminalAt(n.TerminalRouter(tm), n.TerminalPort(tm)) != tm {
			t.Fatalf("%v: terminal %d not at its port", n, tm)
		}
	}
	R := n.Routers()
	if R > 300 {
		return
	}
	d := make([]int, R*R)
	for i := range d {
		d[i] = 1 << 20
	}
	for r := 0; r < R; r++ {
		d[r*R+r] = 0
	}
	for id := 0; id < n.NumChannels(); id++ {
		c := n.Channel(id)
		d[c.Src*R+c.Dst] = 1
	}
	for k := 0; k < R; k++ {
		for i := 0; i < R; i++ {
			for j := 0; j < R; j++ {
				d[i*R+j] = min(d[i*R+j], d[i*R+k]+d[k*R+j])
			}
		}
	}
	for i := 0; i < R; i++ {
		for j := 0; j < R; j++ {
			if n.RouterDistance(i, j) != d[i*R+j] {
				t.Fatalf("%v: distance %d->%d = %d, Floyd-Warshall %d", n, i, j, n.RouterDistance(i, j), d[i*R+j])
			}
		}
	}
}

// TestDragonflyGlobalLinks: every pair of groups is joined by exactly one
// global link each way, link x of g leading to g+x+1 (the documented
// arrangement), and minimal routes are at most local, global, local.
func TestDragonflyGlobalLinks(t *testing.T) {
	for _, s := range []DragonflySpec{{P: 2}, {P: 4}, {P: 2, A: 3, H: 2}, {P: 1, A: 5, H: 3},
		{P: 2, Arrangement: ArrangementAbsolute}, {P: 2, A: 3, H: 2, Arrangement: ArrangementAbsolute}} {
		n, err := NewDragonfly(s)
		if err != nil {
			t.Fatal(err)
		}
		d := n.Dragonfly()
		G := d.Groups()
		count := make([]int, G*G)
		for id := 0; id < n.NumChannels(); id++ {
			c := n.Channel(id)
			g1, g2 := c.Src/d.A, c.Dst/d.A
			if g1 == g2 {
				continue
			}
			count[g1*G+g2]++
			x := c.Src%d.A*d.H + c.SrcPort - (d.P + d.A - 1)
			want := (g1 + x + 1) % G
			if d.Arrangement == ArrangementAbsolute {
				want = x + b2i(x >= g1) // BookSim's dragonflynew
			}
			if g2 != want {
				t.Errorf("%v: global link x=%d of group %d leads to group %d, want %d", n, x, g1, g2, want)
			}
		}
		for g1 := 0; g1 < G; g1++ {
			for g2 := 0; g2 < G; g2++ {
				if want := b2i(g1 != g2); count[g1*G+g2] != want {
					t.Fatalf("%v: %d global channels %d->%d, want %d", n, count[g1*G+g2], g1, g2, want)
				}
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestDragonflyMinimalRouteLength: the mean length of the minimal (l, g, l)
// route over distinct terminals equals its closed form: from a terminal,
// P-1 terminals at 0 hops, P(A-1) at 1, and per other group P·1 + P(A-1)·2
// hops for the H groups its router reaches directly, P·2 + P(A-1)·3 for the
// G-1-H others. The hop-shortest Distance is at most that (a path through a
// third group can be shorter).
func TestDragonflyMinimalRouteLength(t *testing.T) {
	for _, s := range []DragonflySpec{{P: 2}, {P: 3}, {P: 2, A: 3, H: 2}} {
		n, _ := NewDragonfly(s)
		r, _ := NewRouting(n, RouteMinimal, 0)
		d := n.Dragonfly()
		P, A, H, G := d.P, d.A, d.H, d.Groups()
		N := n.Nodes()
		want := float64(P*(A-1)+H*P*(2*A-1)+(G-1-H)*P*(3*A-1)) / float64(N-1)
		total := 0
		buf := make([]Candidate, 0, 64)
		for src := 0; src < N; src++ {
			for dst := 0; dst < N; dst++ {
				if src != dst {
					total += walk(t, n, r, src, dst, buf)
				}
			}
		}
		got := float64(total) / float64(N*(N-1))
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%v: mean minimal route %.15g hops, closed form %.15g", n, got, want)
		}
		if n.MeanDistance() > got {
			t.Errorf("%v: mean distance %g above the minimal route's %g", n, n.MeanDistance(), got)
		}
	}
}

// walk follows the first candidate from src to dst and returns the hops.
func walk(t *testing.T, n *Network, r Routing, src, dst int, buf []Candidate) int {
	cur, st, hops := n.TerminalRouter(src), r.Start(src, dst, rand.New(rand.NewPCG(uint64(src), uint64(dst)))), 0
	for {
		var c []Candidate
		c, st = r.Route(cur, dst, st, nil, buf[:0])
		ch := n.Out(cur, c[0].Port)
		if ch < 0 {
			if cur != n.TerminalRouter(dst) || c[0].Port != n.TerminalPort(dst) {
				t.Fatalf("%v: %s ejected at %d port %d for terminal %d", n, r.Name(), cur, c[0].Port, dst)
			}
			return hops
		}
		cur = n.Channel(ch).Dst
		hops++
		if hops > 64 {
			t.Fatalf("%v: %s loops from %d to %d", n, r.Name(), src, dst)
		}
	}
}

// TestRoutingConformance: every routing function on every network of the
// suite reaches every destination, is deadlock-free by the
// channel-dependency check, and is minimal when it claims so.
func TestRoutingConformance(t *testing.T) {
	for _, c := range suite() {
		n, _ := c.build()
		if testing.Short() && n.Routers() > 100 {
			continue
		}
		for _, name := range RoutingNames(n) {
			r, err := NewRouting(n, name, 0)
			if err != nil {
				t.Fatal(err)
			}
			v := Check(n, r)
			if !v.ReachesAll || !v.DeadlockFree || v.Problem != "" || (r.Minimal() && !v.Minimal) {
				t.Errorf("%v %s: %+v", n, name, v)
			}
		}
	}
}

// TestCheckFindsCycle: shortest-path routing on a 6-router ring read from a
// file is deadlock-free with hop-indexed classes (one per hop of the
// diameter, 3) and refused, naming a cycle of the ring, with one class.
func TestCheckFindsCycle(t *testing.T) {
	n, err := Parse(strings.NewReader(ring6), "ring6.net")
	if err != nil {
		t.Fatal(err)
	}
	r, _ := NewRouting(n, RouteShortestPath, 0)
	if r.Classes() != 3 {
		t.Fatalf("default classes %d, want the diameter 3", r.Classes())
	}
	if v := Check(n, r); !v.DeadlockFree || !v.ReachesAll || !v.Minimal {
		t.Fatalf("hop-indexed classes: %+v", v)
	}
	for _, classes := range []int{1, 2} {
		r1, _ := NewRouting(n, RouteShortestPath, classes)
		v := Check(n, r1)
		if v.DeadlockFree || len(v.Cycle) == 0 || !strings.Contains(v.Problem, "cycle") || !strings.Contains(v.Problem, "->") {
			t.Fatalf("%d classes: %+v", classes, v)
		}
		t.Logf("%d classes: %s", classes, v.Problem)
	}
}

const ring6 = `# a ring of six routers, one terminal each
router a b c d e f
link a b
link b c
link c d 2   # a longer link
link d e
link e f
link f a
terminal a
terminal b
terminal c
terminal d
terminal e
terminal f
`

func TestParse(t *testing.T) {
	n, err := Parse(strings.NewReader(ring6), "ring6.net")
	if err != nil {
		t.Fatal(err)
	}
	if n.Nodes() != 6 || n.Routers() != 6 || n.NumChannels() != 12 || n.Diameter() != 3 || n.MaxPorts() != 3 {
		t.Fatalf("ring6: %d terminals, %d routers, %d channels, diameter %d, %d ports", n.Nodes(), n.Routers(), n.NumChannels(), n.Diameter(), n.MaxPorts())
	}
	// ring of 6: distances 0,1,1,2,2,3 from each node: mean 9/5
	if math.Abs(n.MeanDistance()-9.0/5) > 1e-12 {
		t.Errorf("ring6 mean distance %g, want 1.8", n.MeanDistance())
	}
	if c := n.Channel(n.Out(2, 1)); c.Dst != 3 || c.Latency != 2 {
		t.Errorf("c's second port: %+v, want the latency-2 link to d", c)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"router a b\nlink a c\n", "g.net:2: unknown router \"c\""},
		{"router a a\n", "g.net:1: router \"a\" declared twice"},
		{"router a b\nlink a b x\n", "g.net:2: latency \"x\""},
		{"router a b\nlink a b 0\n", "g.net:2: latency \"0\""},
		{"router a b\nwire a b\n", "g.net:2: unknown directive \"wire\""},
		{"router a b\nlink a a\n", "g.net:2: link from router \"a\" to itself"},
		{"router a b\n\nterminal a 0\n", "g.net:3: terminal count"},
		{"router a b c\nlink a b\nterminal a\nterminal c\n", "g.net:1: the network is not connected"},
		{"router a b\nchannel a b\nterminal a\nterminal b\n", "not connected: no path from router \"b\" to router \"a\""},
		{"router a b\nlink a b\nterminal a\n", "1 terminals"},
		{"# nothing\n", "no routers"},
	} {
		_, err := Parse(strings.NewReader(tc.text), "g.net")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
}

// TestIdealClosedForms checks every closed form of analytic/ideal against
// the channel loads computed path by path.
func TestIdealClosedForms(t *testing.T) {
	type tc struct {
		n       *Network
		routing string
		pattern func(src int, p []float64)
		model   func() (float64, error)
		atLeast bool // the closed form is a lower bound (flattened-butterfly Valiant), within 10%
	}
	var cases []tc
	for _, s := range []DragonflySpec{{P: 2}, {P: 3}, {P: 2, A: 3, H: 2}, {P: 1, A: 4, H: 2}, {P: 2, Arrangement: ArrangementAbsolute}, {P: 3, Arrangement: ArrangementAbsolute}} {
		n, _ := NewDragonfly(s)
		d := n.Dragonfly()
		P, A, H := d.P, d.A, d.H
		cases = append(cases,
			tc{n, RouteMinimal, Uniform(n), func() (float64, error) { return ideal.DragonflyMinimalUniform(P, A, H) }, false},
			tc{n, RouteMinimal, Shift(n, P*A), func() (float64, error) { return ideal.DragonflyMinimalShift(P, A, H) }, false})
		if A == 2*P && H == P && P >= 2 {
			cases = append(cases,
				tc{n, RouteValiant, Uniform(n), func() (float64, error) { return ideal.DragonflyValiantUniform(P, A, H) }, false})
			if d.Arrangement == ArrangementConsecutive { // under the absolute arrangement local channels carry more
				cases = append(cases, tc{n, RouteValiant, Shift(n, P*A), func() (float64, error) { return ideal.DragonflyValiantShift(P, A, H) }, false})
			}
		}
	}
	for _, s := range []FlatFlySpec{{K: 4, N: 2}, {K: 3, N: 2, C: 2}, {K: 4, N: 2, C: 8}, {K: 2, N: 3, C: 3}} {
		n, _ := NewFlatFly(s)
		f := n.FlatFly()
		K, N, C := f.K, f.N, f.C
		cases = append(cases,
			tc{n, RouteMinimal, Uniform(n), func() (float64, error) { return ideal.FlatFlyMinimalUniform(K, N, C) }, false},
			tc{n, RouteMinimal, Shift(n, C), func() (float64, error) { return ideal.FlatFlyMinimalShift(K, N, C) }, false},
			tc{n, RouteValiant, Uniform(n), func() (float64, error) { return ideal.FlatFlyValiant(K, N, C) }, true},
			tc{n, RouteValiant, Shift(n, C), func() (float64, error) { return ideal.FlatFlyValiant(K, N, C) }, true})
	}
	for _, s := range []FatTreeSpec{{K: 2, N: 4}, {K: 4, N: 3}} {
		n, _ := NewFatTree(s)
		K, N := s.K, s.N
		for _, rt := range []string{RouteUpDown, RouteDestModK} {
			cases = append(cases, tc{n, rt, Uniform(n), func() (float64, error) { return ideal.FatTreeUniform(K, N) }, false})
		}
	}
	for _, s := range []CMeshSpec{{K: 4, N: 2, C: 4}, {K: 5, N: 2, C: 2}, {K: 3, N: 3, C: 1}} {
		n, _ := NewCMesh(s)
		K, N, C := s.K, s.N, s.C
		cases = append(cases, tc{n, RouteMinimal, Uniform(n), func() (float64, error) { return ideal.CMeshUniform(K, N, C) }, false})
	}
	for _, c := range cases {
		r, _ := NewRouting(c.n, c.routing, 0)
		got := Bound(ChannelLoads(c.n, r, c.pattern))
		want, err := c.model()
		if err != nil {
			t.Fatal(err)
		}
		ok := math.Abs(got-want) < 1e-9
		if c.atLeast {
			ok = got >= want-1e-9 && got <= 1.1*want
		}
		if !ok {
			t.Errorf("%v %s: channel-load bound %.9g, closed form %.9g", c.n, c.routing, got, want)
		}
	}
}

// fakeLoads reports a fixed queue for every port of one router.
type fakeLoads struct {
	router, port, q int
}

func (f fakeLoads) Queue(router, port int) int {
	if router == f.router && port == f.port {
		return f.q
	}
	return 0
}

// TestUGALDecides: UGAL-L goes minimal on an empty network and non-minimal
// when the minimal first port's queue times its hops exceeds the other's.
func TestUGALDecides(t *testing.T) {
	n, _ := NewDragonfly(DragonflySpec{P: 2})
	d := n.Dragonfly()
	r, _ := NewRouting(n, RouteUGALLocal, 0)
	src, dst := 0, n.Nodes()-1 // router 0 of group 0 to the last group
	st := State{Inter: 3, Mode: modeUndecided}
	_, s1 := r.Route(0, dst, st, fakeLoads{}, nil)
	if s1.Mode != modeMinimal {
		t.Fatalf("empty network: state %+v, want minimal", s1)
	}
	mp, _ := r.(*dflyRouting).toward(0, n.TerminalRouter(dst))
	_, s2 := r.Route(0, dst, st, fakeLoads{router: 0, port: mp, q: 100}, nil)
	if s2.Mode != modeValiant || s2.Inter != 3 {
		t.Fatalf("congested minimal port %d: state %+v, want Valiant through group 3", mp, s2)
	}
	_ = src
	_ = d
}

func TestRouteDoesNotAllocate(t *testing.T) {
	n, _ := NewDragonfly(DragonflySpec{P: 2})
	buf := make([]Candidate, 0, n.MaxPorts()+1)
	for _, name := range RoutingNames(n) {
		r, _ := NewRouting(n, name, 0)
		st := r.Start(0, 50, rand.New(rand.NewPCG(1, 2)))
		if a := testing.AllocsPerRun(100, func() { r.Route(0, 50, st, fakeLoads{}, buf[:0]) }); a != 0 {
			t.Errorf("%s: %g allocations per Route", name, a)
		}
	}
}
