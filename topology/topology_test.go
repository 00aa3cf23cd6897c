package topology

import (
	"math"
	"strings"
	"testing"
)

// ipow returns k^n for small arguments.
func ipow(k, n int) int {
	r := 1
	for ; n > 0; n-- {
		r *= k
	}
	return r
}

// topoCase is one network of the shared suite with its closed-form
// reference values.
type topoCase struct {
	spec       Spec
	nodes      int
	minDeg     int
	maxDeg     int
	channels   int
	diameter   int
	meanNoSelf float64 // closed form, self excluded
}

// closedForms fills the reference values of a case from the textbook
// formulas (sources in MeanDistance's doc comment; the degree, channel and
// diameter formulas are those of Dally 1990 and Agarwal 1991):
//
//	nodes     K^N
//	channels  bidir torus 2N K^N; unidir torus N K^N; mesh 2N(K-1)K^(N-1); hypercube N 2^N
//	diameter  bidir torus N floor(K/2); unidir torus N(K-1); mesh N(K-1); hypercube N
func closedForms(s Spec) topoCase {
	k, n := s.K, s.N
	if s.Kind == Hypercube {
		k = 2
	}
	if s.Kind == Ring {
		n = 1
	}
	N := ipow(k, n)
	kn := float64(N)
	self := kn / (kn - 1) // converts a self-included mean to self-excluded
	c := topoCase{spec: s, nodes: N}
	switch {
	case s.Kind == Hypercube:
		c.minDeg, c.maxDeg = n, n
		c.channels = n * N
		c.diameter = n
		c.meanNoSelf = float64(n) * math.Exp2(float64(n-1)) / (math.Exp2(float64(n)) - 1)
	case s.Kind == Mesh:
		c.minDeg, c.maxDeg = n, 2*n
		if k == 2 {
			c.maxDeg = n
		}
		c.channels = 2 * n * (k - 1) * ipow(k, n-1)
		c.diameter = n * (k - 1)
		c.meanNoSelf = float64(n) * float64(k*k-1) / float64(3*k) * self
	case s.Bidirectional:
		c.minDeg, c.maxDeg = 2*n, 2*n
		c.channels = 2 * n * N
		c.diameter = n * (k / 2)
		if k%2 == 0 {
			c.meanNoSelf = float64(n) * float64(k) / 4 * self
		} else {
			c.meanNoSelf = float64(n) * float64(k*k-1) / float64(4*k) * self
		}
	default:
		c.minDeg, c.maxDeg = n, n
		c.channels = n * N
		c.diameter = n * (k - 1)
		c.meanNoSelf = float64(n) * float64(k-1) / 2 * self
	}
	return c
}

// suiteSpecs is the one list of networks every topology and routing test
// runs over: each family, uni- and bidirectional, odd and even radix, the
// smallest legal sizes and one or two realistic ones.
var suiteSpecs = []Spec{
	{Kind: Ring, K: 2},
	{Kind: Ring, K: 8},
	{Kind: Ring, K: 3, Bidirectional: true},
	{Kind: Ring, K: 15, Bidirectional: true},
	{Kind: Ring, K: 16, Bidirectional: true},
	{Kind: Torus, K: 2, N: 3},
	{Kind: Torus, K: 4, N: 3},
	{Kind: Torus, K: 5, N: 2},
	{Kind: Torus, K: 3, N: 2, Bidirectional: true},
	{Kind: Torus, K: 4, N: 2, Bidirectional: true},
	{Kind: Torus, K: 8, N: 2, Bidirectional: true},
	{Kind: Torus, K: 5, N: 3, Bidirectional: true},
	{Kind: Mesh, K: 2, N: 1},
	{Kind: Mesh, K: 2, N: 3},
	{Kind: Mesh, K: 4, N: 2},
	{Kind: Mesh, K: 3, N: 3},
	{Kind: Mesh, K: 7, N: 2},
	{Kind: Hypercube, N: 1},
	{Kind: Hypercube, N: 4},
	{Kind: Hypercube, K: 2, N: 6},
}

func mustNew(t testing.TB, s Spec) *Topology {
	t.Helper()
	top, err := New(s)
	if err != nil {
		t.Fatalf("New(%+v): %v", s, err)
	}
	return top
}

// bfs returns the hop distances from src over the channel table.
func bfs(top *Topology, src int) []int {
	dist := make([]int, top.Nodes())
	for i := range dist {
		dist[i] = -1
	}
	dist[src] = 0
	queue := []int{src}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for p := 0; p < top.NetPorts(); p++ {
			if c := top.Out(u, p); c >= 0 {
				if w := top.Channel(c).Dst; dist[w] < 0 {
					dist[w] = dist[u] + 1
					queue = append(queue, w)
				}
			}
		}
	}
	return dist
}

func TestSuiteStructure(t *testing.T) {
	for _, s := range suiteSpecs {
		want := closedForms(s)
		top := mustNew(t, s)
		t.Run(top.String(), func(t *testing.T) {
			if got := top.Nodes(); got != want.nodes {
				t.Errorf("Nodes = %d, want %d", got, want.nodes)
			}
			if top.Ports() != top.NetPorts()+1 || top.LocalPort() != top.NetPorts() {
				t.Errorf("Ports = %d, NetPorts = %d, LocalPort = %d", top.Ports(), top.NetPorts(), top.LocalPort())
			}
			minDeg, maxDeg := top.NetPorts(), 0
			for r := 0; r < top.Nodes(); r++ {
				minDeg = min(minDeg, top.Degree(r))
				maxDeg = max(maxDeg, top.Degree(r))
			}
			if minDeg != want.minDeg || maxDeg != want.maxDeg {
				t.Errorf("degree in [%d,%d], want [%d,%d]", minDeg, maxDeg, want.minDeg, want.maxDeg)
			}
			if got := top.NumChannels(); got != want.channels || len(top.Channels()) != want.channels {
				t.Errorf("channels = %d, want %d", got, want.channels)
			}
			if got := top.Diameter(); got != want.diameter {
				t.Errorf("Diameter = %d, want %d", got, want.diameter)
			}
			// Absolute tolerance: the closed form and the enumeration are
			// both a few float operations on exact integers.
			if got := top.MeanDistance(false); math.Abs(got-want.meanNoSelf) > 1e-12*want.meanNoSelf {
				t.Errorf("MeanDistance(false) = %.15g, want %.15g", got, want.meanNoSelf)
			}
			n := float64(top.Nodes())
			if got, w := top.MeanDistance(true), want.meanNoSelf*(n-1)/n; math.Abs(got-w) > 1e-12*w {
				t.Errorf("MeanDistance(true) = %.15g, want %.15g", got, w)
			}
		})
	}
}

// TestSuitePortsAndChannels checks the In/Out/Channel tables against each
// other and against the port convention.
func TestSuitePortsAndChannels(t *testing.T) {
	for _, s := range suiteSpecs {
		top := mustNew(t, s)
		t.Run(top.String(), func(t *testing.T) {
			chans := top.Channels()
			seen := make([]int, len(chans))
			for r := 0; r < top.Nodes(); r++ {
				if top.Out(r, top.LocalPort()) != -1 || top.In(r, top.LocalPort()) != -1 {
					t.Fatalf("router %d: local port has a network channel", r)
				}
				for p := 0; p < top.NetPorts(); p++ {
					c := top.Out(r, p)
					if c < 0 {
						if s.Kind != Mesh {
							t.Fatalf("router %d port %d: no channel outside a mesh", r, p)
						}
						continue
					}
					seen[c]++
					ch := chans[c]
					if ch != top.Channel(c) {
						t.Fatalf("Channels()[%d] = %+v, Channel(%d) = %+v", c, ch, c, top.Channel(c))
					}
					if ch.Src != r || ch.SrcPort != p || ch.DstPort != p {
						t.Fatalf("Out(%d,%d) = %d but channel is %+v", r, p, c, ch)
					}
					if in := top.In(ch.Dst, ch.DstPort); in != c {
						t.Fatalf("channel %d %+v: In(Dst,DstPort) = %d", c, ch, in)
					}
					checkDirection(t, top, ch)
				}
			}
			for c, k := range seen {
				if k != 1 {
					t.Fatalf("channel %d is the Out of %d (router, port) pairs, want 1", c, k)
				}
			}
			// Every In entry is the channel that enters there.
			for r := 0; r < top.Nodes(); r++ {
				for p := 0; p < top.NetPorts(); p++ {
					if c := top.In(r, p); c >= 0 && (chans[c].Dst != r || chans[c].DstPort != p) {
						t.Fatalf("In(%d,%d) = %d but channel is %+v", r, p, c, chans[c])
					}
				}
			}
		})
	}
}

// checkDirection verifies Dim, Dir and Wrap of a channel against the
// coordinates of its ends and the port convention.
func checkDirection(t *testing.T, top *Topology, ch Channel) {
	t.Helper()
	k := top.Radix()
	for d := 0; d < top.Dims(); d++ {
		a, b := top.Coord(ch.Src, d), top.Coord(ch.Dst, d)
		if d != ch.Dim {
			if a != b {
				t.Fatalf("%+v changes dimension %d", ch, d)
			}
			continue
		}
		var okStep, wantWrap bool
		switch top.Kind() {
		case Hypercube, Mesh:
			okStep = b-a == int(ch.Dir)
		default: // ring, torus: one step modulo K
			okStep = b == (a+int(ch.Dir)+k)%k
			wantWrap = ch.Dir > 0 && a == k-1 || ch.Dir < 0 && a == 0
		}
		if !okStep || wantWrap != ch.Wrap {
			t.Fatalf("%+v: coordinate %d -> %d in dim %d, Dir %d Wrap %v", ch, a, b, d, ch.Dir, ch.Wrap)
		}
	}
	var wantPort int
	switch {
	case top.Kind() == Hypercube || !top.Bidirectional():
		wantPort = ch.Dim
	case ch.Dir > 0:
		wantPort = 2 * ch.Dim
	default:
		wantPort = 2*ch.Dim + 1
	}
	if ch.SrcPort != wantPort {
		t.Fatalf("%+v: port %d, want %d by the port convention", ch, ch.SrcPort, wantPort)
	}
}

// TestSuiteDistance compares Distance with breadth-first search over the
// channels for every pair, and Reach and MeanDistance with the BFS counts.
func TestSuiteDistance(t *testing.T) {
	for _, s := range suiteSpecs {
		top := mustNew(t, s)
		t.Run(top.String(), func(t *testing.T) {
			symmetric := top.Bidirectional()
			var sum, maxd int
			for a := 0; a < top.Nodes(); a++ {
				dist := bfs(top, a)
				hist := make([]int, top.Diameter()+1)
				for b, h := range dist {
					if h < 0 {
						t.Fatalf("%d unreachable from %d", b, a)
					}
					if got := top.Distance(a, b); got != h {
						t.Fatalf("Distance(%d,%d) = %d, BFS %d", a, b, got, h)
					}
					if symmetric && top.Distance(b, a) != h {
						t.Fatalf("Distance not symmetric for %d,%d", a, b)
					}
					sum += h
					maxd = max(maxd, h)
					hist[h]++
				}
				// Vertex-symmetric networks have the same distance
				// profile from every router; a mesh from router 0 only.
				if a == 0 || top.Kind() != Mesh {
					for l, c := range hist {
						if top.Reach(l) != c {
							t.Fatalf("Reach(%d) = %d, BFS from %d gives %d", l, top.Reach(l), a, c)
						}
					}
				}
			}
			if maxd != top.Diameter() {
				t.Errorf("BFS diameter %d, Diameter() %d", maxd, top.Diameter())
			}
			n := float64(top.Nodes())
			if got, w := top.MeanDistance(true), float64(sum)/(n*n); math.Abs(got-w) > 1e-12*w {
				t.Errorf("MeanDistance(true) = %.15g, all-pairs BFS %.15g", got, w)
			}
			if !symmetric && top.Radix() > 2 && top.Distance(0, 1) == top.Distance(1, 0) {
				t.Errorf("unidirectional Distance(0,1) = Distance(1,0) = %d", top.Distance(0, 1))
			}
		})
	}
}

// TestReachRing15 pins Reed (1983)'s 15-node bidirectional ring: two
// routers at each distance 1..7 (docs/models.md#reed-pins uses K = 15).
func TestReachRing15(t *testing.T) {
	top := mustNew(t, Spec{Kind: Ring, K: 15, Bidirectional: true})
	want := []int{1, 2, 2, 2, 2, 2, 2, 2, 0}
	for l, w := range want {
		if got := top.Reach(l); got != w {
			t.Errorf("Reach(%d) = %d, want %d", l, got, w)
		}
	}
	if top.Reach(-1) != 0 {
		t.Errorf("Reach(-1) = %d", top.Reach(-1))
	}
	if got := top.MeanDistance(false); got != 4 {
		t.Errorf("MeanDistance = %v, want (K+1)/4 = 4", got)
	}
}

func TestCoordNode(t *testing.T) {
	top := mustNew(t, Spec{Kind: Torus, K: 5, N: 3, Bidirectional: true})
	coords := make([]int, 3)
	for v := 0; v < top.Nodes(); v++ {
		for d := range coords {
			coords[d] = top.Coord(v, d)
		}
		if top.Node(coords) != v {
			t.Fatalf("Node(%v) = %d, want %d", coords, top.Node(coords), v)
		}
	}
	if got := top.Node([]int{1, 2, 3}); got != 1+2*5+3*25 {
		t.Errorf("Node(1,2,3) = %d, want 86 (dimension 0 least significant)", got)
	}
	h := mustNew(t, Spec{Kind: Hypercube, N: 4})
	if h.Coord(0b1010, 1) != 1 || h.Coord(0b1010, 2) != 0 {
		t.Errorf("hypercube coordinates are not address bits")
	}
}

func TestNewErrors(t *testing.T) {
	cases := []struct {
		spec Spec
		want string
	}{
		{Spec{}, "invalid kind"},
		{Spec{Kind: 9, K: 4, N: 1}, "invalid kind"},
		{Spec{Kind: Ring, K: 1}, "K >= 2"},
		{Spec{Kind: Torus, K: 0, N: 2}, "K >= 2"},
		{Spec{Kind: Ring, K: 2, Bidirectional: true}, "K >= 3"},
		{Spec{Kind: Torus, K: 2, N: 3, Bidirectional: true}, "K >= 3"},
		{Spec{Kind: Hypercube, K: 3, N: 2}, "radix must be 2"},
		{Spec{Kind: Torus, K: 4, N: 0}, "N >= 1"},
		{Spec{Kind: Mesh, K: 4, N: -1}, "N >= 1"},
		{Spec{Kind: Hypercube}, "N >= 1"},
		{Spec{Kind: Ring, K: 8, N: 2}, "N = 1"},
		{Spec{Kind: Hypercube, N: 21}, "more than"},
		{Spec{Kind: Torus, K: 1025, N: 2}, "more than"},
		{Spec{Kind: Torus, K: 1 << 30, N: 4}, "more than"},
	}
	for _, c := range cases {
		_, err := New(c.spec)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v) error %v, want one containing %q", c.spec, err, c.want)
		}
	}
}

func TestSpecNormalised(t *testing.T) {
	cases := []struct {
		in, want Spec
		str      string
	}{
		{Spec{Kind: Ring, K: 15, Bidirectional: true}, Spec{Kind: Ring, K: 15, N: 1, Bidirectional: true}, "ring of 15 (bidirectional)"},
		{Spec{Kind: Torus, K: 8, N: 2, Bidirectional: true}, Spec{Kind: Torus, K: 8, N: 2, Bidirectional: true}, "torus 8-ary 2-cube (bidirectional)"},
		{Spec{Kind: Torus, K: 4, N: 3}, Spec{Kind: Torus, K: 4, N: 3}, "torus 4-ary 3-cube (unidirectional)"},
		{Spec{Kind: Mesh, K: 4, N: 2}, Spec{Kind: Mesh, K: 4, N: 2, Bidirectional: true}, "mesh 4-ary 2-mesh"},
		{Spec{Kind: Hypercube, N: 6}, Spec{Kind: Hypercube, K: 2, N: 6, Bidirectional: true}, "hypercube 6-cube"},
	}
	for _, c := range cases {
		top := mustNew(t, c.in)
		if top.Spec() != c.want || top.String() != c.str {
			t.Errorf("New(%+v): Spec %+v String %q, want %+v %q", c.in, top.Spec(), top.String(), c.want, c.str)
		}
	}
}

func TestKindText(t *testing.T) {
	for _, k := range []Kind{Ring, Torus, Mesh, Hypercube} {
		b, err := k.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Kind
		if err := back.UnmarshalText([]byte(strings.ToUpper(string(b)))); err != nil || back != k {
			t.Errorf("round trip of %v: %v, %v", k, back, err)
		}
	}
	if _, err := ParseKind("butterfly"); err == nil {
		t.Error("ParseKind(butterfly) succeeded")
	}
	if _, err := Kind(0).MarshalText(); err == nil || Kind(0).String() != "Kind(0)" {
		t.Error("zero Kind marshals")
	}
}

// TestLargest builds the largest ring New accepts, checking the size
// limit is usable and the closed forms hold there too.
func TestLargest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 2^20-router ring")
	}
	top := mustNew(t, Spec{Kind: Ring, K: MaxNodes, Bidirectional: true})
	if top.Diameter() != MaxNodes/2 || top.Reach(MaxNodes/2) != 1 || top.Reach(7) != 2 {
		t.Errorf("diameter %d, Reach(K/2) %d", top.Diameter(), top.Reach(MaxNodes/2))
	}
	k := float64(MaxNodes)
	if got, w := top.MeanDistance(false), k*k/(4*(k-1)); math.Abs(got-w) > 1e-12*w {
		t.Errorf("MeanDistance = %.15g, want %.15g", got, w)
	}
}
