package graph

import "fmt"

// DragonflySpec is a dragonfly (Kim, Dally, Scott & Abts 2008): groups of
// A routers, each router with P terminals, A-1 local channels (the group
// is a complete graph) and H global channels. There are G = A*H + 1
// groups, so every pair of groups is joined by exactly one global link
// (the largest dragonfly of these routers, Kim et al. §3.1).
//
// Zero fields take the balanced defaults of Kim et al. §3.1, a = 2p = 2h:
// only P given: A = 2P, H = P; only A given: P = H = A/2; only H given:
// P = H, A = 2H.
//
// Ids: router r = g*A + i is router i of group g; its ports are
//
//	0 .. P-1          terminals (terminal t = r*P + port)
//	P .. P+A-2        local: port P+j leads to router j of the group for
//	                  j < i, port P+j-1 for j > i
//	P+A-1 .. P+A+H-2  global: port P+A-1+k is global link x = i*H + k
//
// Global-link arrangement, Consecutive (the default, also called palm
// tree): global link x (0 <= x < A*H) of group g leads to group
// (g + x + 1) mod G and arrives there on its link A*H-1-x, so link x of g
// and link A*H-1-x of g+x+1 are the two ends of one two-way link. Group g
// reaches group d through link (d - g - 1) mod G, owned by router
// floor(x/H) of g. Absolute (BookSim 2's dragonflynew): link x of g leads
// to group x if x < g, else x+1, and arrives on the other group's link g
// if g < d, else g-1.
type DragonflySpec struct {
	P, A, H int
	// Arrangement is ArrangementConsecutive ("" means it) or
	// ArrangementAbsolute.
	Arrangement string
	// LocalLatency and GlobalLatency are the link latencies in cycles (0
	// means 1).
	LocalLatency, GlobalLatency int
}

// Normalise fills the balanced defaults; it reports an error for sizes
// below 1 or a router of more than MaxPorts ports.
func (s DragonflySpec) Normalise() (DragonflySpec, error) {
	switch {
	case s.P == 0 && s.A == 0 && s.H == 0:
		return s, fmt.Errorf("graph: dragonfly needs at least one of p, a, h")
	case s.A == 0 && s.H == 0:
		s.A, s.H = 2*s.P, s.P
	case s.P == 0 && s.H == 0:
		s.P, s.H = s.A/2, s.A/2
	case s.P == 0 && s.A == 0:
		s.P, s.A = s.H, 2*s.H
	case s.P == 0:
		s.P = s.H
	case s.A == 0:
		s.A = 2 * s.P
	case s.H == 0:
		s.H = s.P
	}
	if s.LocalLatency == 0 {
		s.LocalLatency = 1
	}
	if s.GlobalLatency == 0 {
		s.GlobalLatency = 1
	}
	if s.Arrangement == "" {
		s.Arrangement = ArrangementConsecutive
	}
	if s.Arrangement != ArrangementConsecutive && s.Arrangement != ArrangementAbsolute {
		return s, fmt.Errorf("graph: dragonfly global-link arrangement %q, want %s or %s", s.Arrangement, ArrangementConsecutive, ArrangementAbsolute)
	}
	switch {
	case s.P < 1 || s.A < 1 || s.H < 1:
		return s, fmt.Errorf("graph: dragonfly p=%d a=%d h=%d, want each >= 1", s.P, s.A, s.H)
	case s.LocalLatency < 1 || s.GlobalLatency < 1:
		return s, fmt.Errorf("graph: dragonfly latencies %d, %d, want >= 1", s.LocalLatency, s.GlobalLatency)
	case s.P+s.A-1+s.H > MaxPorts:
		return s, fmt.Errorf("graph: dragonfly p=%d a=%d h=%d needs routers of %d ports, at most %d", s.P, s.A, s.H, s.P+s.A-1+s.H, MaxPorts)
	case s.A*(s.A*s.H+1) > MaxRouters:
		return s, fmt.Errorf("graph: dragonfly a=%d h=%d has %d routers, at most %d", s.A, s.H, s.A*(s.A*s.H+1), MaxRouters)
	}
	return s, nil
}

// Global-link arrangements of a dragonfly (DragonflySpec.Arrangement).
const (
	ArrangementConsecutive = "consecutive"
	ArrangementAbsolute    = "absolute"
)

// Groups returns G = A*H + 1.
func (s DragonflySpec) Groups() int { return s.A*s.H + 1 }

// NewDragonfly builds the dragonfly s describes (see DragonflySpec).
func NewDragonfly(s DragonflySpec) (*Network, error) {
	s, err := s.Normalise()
	if err != nil {
		return nil, err
	}
	P, A, H, G := s.P, s.A, s.H, s.Groups()
	desc := fmt.Sprintf("dragonfly p=%d a=%d h=%d (%d groups)", P, A, H, G)
	if s.Arrangement != ArrangementConsecutive {
		desc = fmt.Sprintf("dragonfly p=%d a=%d h=%d (%d groups, %s arrangement)", P, A, H, G, s.Arrangement)
	}
	b, err := newBuilder("dragonfly", desc, A*G, P+A-1+H)
	if err != nil {
		return nil, err
	}
	for g := 0; g < G; g++ {
		for i := 0; i < A; i++ {
			r := g*A + i
			for t := 0; t < P; t++ {
				b.terminal(r, t)
			}
			for j := i + 1; j < A; j++ {
				b.link(r, P+j-1, g*A+j, P+i, s.LocalLatency)
			}
			for k := 0; k < H; k++ {
				x := i*H + k
				d, y := s.peer(g, x)
				if d < g {
					continue // added from the other end
				}
				b.link(r, P+A-1+k, d*A+y/H, P+A-1+y%H, s.GlobalLatency)
			}
		}
	}
	b.n.dfly = &s
	return b.finish()
}

// Dragonfly returns the parameters of a dragonfly, nil for another family.
func (n *Network) Dragonfly() *DragonflySpec { return n.dfly }

// dflyGroup returns the group of router r.
func (s *DragonflySpec) group(r int) int { return r / s.A }

// peer returns the group global link x of group g leads to and the link
// it arrives on there (see DragonflySpec).
func (s *DragonflySpec) peer(g, x int) (d, y int) {
	if s.Arrangement == ArrangementAbsolute {
		d = x
		if x >= g {
			d = x + 1
		}
		y = g
		if g > d {
			y = g - 1
		}
		return d, y
	}
	return (g + x + 1) % s.Groups(), s.A*s.H - 1 - x
}

// link returns the global link of group g leading to group d != g.
func (s *DragonflySpec) link(g, d int) int {
	if s.Arrangement == ArrangementAbsolute {
		if d < g {
			return d
		}
		return d - 1
	}
	G := s.Groups()
	return ((d-g-1)%G + G) % G
}

// gateway returns, for a packet in group g bound for group d != g, the
// router of g owning the global link to d and that link's port.
func (s *DragonflySpec) gateway(g, d int) (router, port int) {
	x := s.link(g, d)
	return g*s.A + x/s.H, s.P + s.A - 1 + x%s.H
}

// localPort returns the port of router r leading to router j of its group.
func (s *DragonflySpec) localPort(r, j int) int {
	i := r % s.A
	j %= s.A
	if j < i {
		return s.P + j
	}
	return s.P + j - 1
}

// FlatFlySpec is a flattened butterfly (Kim, Dally & Abts 2007): K^N
// routers with coordinates in [0,K)^N, each joined to every router that
// differs from it in exactly one coordinate (a complete graph per
// dimension), with C terminals per router. The k-ary n-flat of Kim et al.
// is N = n-1 dimensions and C = k; C = 0 means K.
//
// Ports: 0..C-1 terminals; port C + d*(K-1) + j leads along dimension d to
// coordinate j (j below the router's own coordinate) or j+1 (otherwise).
type FlatFlySpec struct {
	K, N, C int
	Latency int // link latency in cycles (0 means 1)
}

// NewFlatFly builds the flattened butterfly s describes.
func NewFlatFly(s FlatFlySpec) (*Network, error) {
	if s.C == 0 {
		s.C = s.K
	}
	if s.Latency == 0 {
		s.Latency = 1
	}
	if s.K < 2 || s.N < 1 || s.C < 1 || s.Latency < 1 {
		return nil, fmt.Errorf("graph: flattened butterfly k=%d n=%d c=%d latency %d, want k >= 2, n >= 1, c >= 1, latency >= 1", s.K, s.N, s.C, s.Latency)
	}
	R, err := routerGrid("flattened butterfly", s.K, s.N)
	if err != nil {
		return nil, err
	}
	b, err := newBuilder("flattened-butterfly", fmt.Sprintf("flattened butterfly %d-ary %d-dimensional, %d terminals per router", s.K, s.N, s.C), R, s.C+s.N*(s.K-1))
	if err != nil {
		return nil, err
	}
	for r := 0; r < R; r++ {
		for t := 0; t < s.C; t++ {
			b.terminal(r, t)
		}
		pw := 1
		for d := 0; d < s.N; d++ {
			c := r / pw % s.K
			for v := c + 1; v < s.K; v++ {
				r2 := r + (v-c)*pw
				b.link(r, s.C+d*(s.K-1)+v-1, r2, s.C+d*(s.K-1)+c, s.Latency)
			}
			pw *= s.K
		}
	}
	b.n.ffly = &s
	return b.finish()
}

// FlatFly returns the parameters of a flattened butterfly, nil otherwise.
func (n *Network) FlatFly() *FlatFlySpec { return n.ffly }

// port returns the port of router r leading along dimension d to the
// router with coordinate v there.
func (s *FlatFlySpec) port(r, d, v, pw int) int {
	c := r / pw % s.K
	if v < c {
		return s.C + d*(s.K-1) + v
	}
	return s.C + d*(s.K-1) + v - 1
}

// FatTreeSpec is a k-ary n-tree (Petrini & Vanneschi 1997): K^N terminals
// and N levels of K^(N-1) switches of 2K ports (the top level uses its K
// down ports only). Switch (l, w), w in [0,K)^(N-1) written in base K with
// digit 0 least significant, has id l*K^(N-1) + w; up port K+u joins it to
// switch (l+1, w with digit l set to u), arriving there on down port w_l.
// Terminal t is on down port t mod K of leaf switch (0, floor(t/K)).
type FatTreeSpec struct {
	K, N    int
	Latency int // link latency in cycles (0 means 1)
}

// NewFatTree builds the k-ary n-tree s describes.
func NewFatTree(s FatTreeSpec) (*Network, error) {
	if s.Latency == 0 {
		s.Latency = 1
	}
	if s.K < 2 || s.N < 1 || s.Latency < 1 || 2*s.K > MaxPorts {
		return nil, fmt.Errorf("graph: fat tree k=%d n=%d latency %d, want 2 <= k <= %d, n >= 1, latency >= 1", s.K, s.N, s.Latency, MaxPorts/2)
	}
	per := 1
	for range s.N - 1 {
		if per > MaxRouters/s.K {
			return nil, fmt.Errorf("graph: fat tree %d-ary %d-tree has too many switches", s.K, s.N)
		}
		per *= s.K
	}
	if per*s.N > MaxRouters {
		return nil, fmt.Errorf("graph: fat tree %d-ary %d-tree has %d switches, at most %d", s.K, s.N, per*s.N, MaxRouters)
	}
	ports := 2 * s.K
	if s.N == 1 {
		ports = s.K
	}
	b, err := newBuilder("fat-tree", fmt.Sprintf("fat tree %d-ary %d-tree", s.K, s.N), per*s.N, ports)
	if err != nil {
		return nil, err
	}
	for w := 0; w < per; w++ {
		for t := 0; t < s.K; t++ {
			b.terminal(w, t)
		}
	}
	pw := 1
	for l := 0; l+1 < s.N; l++ {
		for w := 0; w < per; w++ {
			wl := w / pw % s.K
			for u := 0; u < s.K; u++ {
				w2 := w + (u-wl)*pw
				b.link(l*per+w, s.K+u, (l+1)*per+w2, wl, s.Latency)
			}
		}
		pw *= s.K
	}
	b.n.tree = &s
	return b.finish()
}

// FatTree returns the parameters of a fat tree, nil otherwise.
func (n *Network) FatTree() *FatTreeSpec { return n.tree }

// CMeshSpec is a concentrated mesh: a K-ary N-mesh of routers with C
// terminals each (Balfour & Dally 2006). Ports: 0..C-1 terminals, C+2d the
// + direction of dimension d, C+2d+1 the − direction (no channel at the
// edges).
type CMeshSpec struct {
	K, N, C int
	Latency int // link latency in cycles (0 means 1)
}

// NewCMesh builds the concentrated mesh s describes.
func NewCMesh(s CMeshSpec) (*Network, error) {
	if s.Latency == 0 {
		s.Latency = 1
	}
	if s.K < 2 || s.N < 1 || s.C < 1 || s.Latency < 1 {
		return nil, fmt.Errorf("graph: cmesh k=%d n=%d c=%d latency %d, want k >= 2, n >= 1, c >= 1, latency >= 1", s.K, s.N, s.C, s.Latency)
	}
	R, err := routerGrid("cmesh", s.K, s.N)
	if err != nil {
		return nil, err
	}
	b, err := newBuilder("cmesh", fmt.Sprintf("concentrated mesh %d-ary %d-mesh, %d terminals per router", s.K, s.N, s.C), R, s.C+2*s.N)
	if err != nil {
		return nil, err
	}
	for r := 0; r < R; r++ {
		for t := 0; t < s.C; t++ {
			b.terminal(r, t)
		}
		pw := 1
		for d := 0; d < s.N; d++ {
			if r/pw%s.K+1 < s.K {
				b.link(r, s.C+2*d, r+pw, s.C+2*d+1, s.Latency)
			}
			pw *= s.K
		}
	}
	b.n.mesh = &s
	return b.finish()
}

// CMesh returns the parameters of a concentrated mesh, nil otherwise.
func (n *Network) CMesh() *CMeshSpec { return n.mesh }

// routerGrid is the k^n routers of a k-ary n-dimensional grid of routers
// (flattened butterfly, cmesh), refused before it overflows MaxRouters.
func routerGrid(kind string, k, n int) (int, error) {
	R := 1
	for range n {
		if R > MaxRouters/k {
			return 0, fmt.Errorf("graph: %s %d^%d routers exceed %d", kind, k, n, MaxRouters)
		}
		R *= k
	}
	return R, nil
}
