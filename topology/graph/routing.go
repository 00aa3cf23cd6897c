package graph

import (
	"fmt"
	"math/rand/v2"
)

// Candidate is one admissible output of a routing decision: the output
// port and the VC class the packet must use on it.
type Candidate struct {
	Port  int
	Class int
}

// State is the routing state a packet carries from router to router, as a
// BookSim flit carries its phase and intermediate node: what Valiant, UGAL
// and hop-indexed VC assignments need beyond (current router,
// destination). Its meaning belongs to the routing function.
type State struct {
	Inter int32 // intermediate router or group, -1 for none
	Phase uint8 // phase of a two-phase route, or the hops taken so far
	Mode  uint8 // e.g. UGAL: undecided, minimal or non-minimal
}

// Loads gives an adaptive routing function the congestion it may see: the
// flits sent on output port `port` of router `router` that the downstream
// buffer has not yet freed (the port's used credits, what BookSim's UGAL
// reads). Queue must not allocate.
type Loads interface {
	Queue(router, port int) int
}

// Routing is a routing function on a Network: R(cur, dest, state) -> set
// of (port, class) and the state the packet carries on. Implementations
// are immutable and safe for concurrent use.
type Routing interface {
	// Name identifies the function, e.g. "minimal" or "ugal-l".
	Name() string
	// Classes returns the VC classes the function uses.
	Classes() int
	// Minimal reports whether every admitted hop reduces the distance to
	// the destination by one.
	Minimal() bool
	// Start returns the state of a new packet from terminal src to
	// terminal dst, drawing any random choice (Valiant's intermediate)
	// from rng.
	Start(src, dst int, rng *rand.Rand) State
	// Starts appends every state a packet from src to dst may carry when
	// it first routes (Start's outcomes, for an adaptive function those
	// of each decision it may take); Check explores them all and
	// ChannelLoads weights them equally.
	Starts(src, dst int, buf []State) []State
	// Route appends to buf the candidates of a packet at router cur bound
	// for terminal dst with state st and returns them with the state the
	// packet carries to the next router (the same whichever candidate is
	// taken). At dst's router it returns dst's port, class 0. loads may be
	// nil (Check: an adaptive decision then may not be taken at all, see
	// Starts). It does not allocate when buf has room for MaxPorts()
	// candidates.
	Route(cur, dst int, st State, loads Loads, buf []Candidate) ([]Candidate, State)
}

// routerLevel is implemented by routing functions whose Route depends on
// the destination terminal only through its router (and its port at the
// destination); Check and ChannelLoads then explore one terminal per
// router.
type routerLevel interface{ routerLevel() }

func (*dflyRouting) routerLevel()    {}
func (*flatFlyRouting) routerLevel() {}
func (*cmeshRouting) routerLevel()   {}
func (*shortestPath) routerLevel()   {}

// destinations returns, per router, the destination terminals Check and
// ChannelLoads must explore: all of them, or the first of each router for
// a routerLevel function.
func destinations(n *Network, r Routing) [][]int {
	out := make([][]int, n.routers)
	_, one := r.(routerLevel)
	for t, q := range n.termR {
		if one && len(out[q]) > 0 {
			continue
		}
		out[q] = append(out[q], t)
	}
	return out
}

// Names of the routing functions, by family.
const (
	RouteMinimal      = "minimal"       // dragonfly, flattened butterfly (dimension order), cmesh (dimension order)
	RouteValiant      = "valiant"       // dragonfly (random intermediate group), flattened butterfly (random intermediate router)
	RouteUGALLocal    = "ugal-l"        // dragonfly: UGAL with local queue information
	RouteUGALGlobal   = "ugal-g"        // dragonfly: UGAL with the queue of the global channel
	RouteUpDown       = "up-down"       // fat tree: random up port, then down (nearest common ancestor)
	RouteDestModK     = "dest-mod-k"    // fat tree: up port by destination digit
	RouteShortestPath = "shortest-path" // graph: every shortest-path next hop, hop-indexed VC classes
)

// RoutingNames returns the routing functions available on n, the default
// first.
func RoutingNames(n *Network) []string {
	switch n.kind {
	case "dragonfly":
		return []string{RouteMinimal, RouteValiant, RouteUGALLocal, RouteUGALGlobal}
	case "flattened-butterfly":
		return []string{RouteMinimal, RouteValiant}
	case "fat-tree":
		return []string{RouteUpDown, RouteDestModK}
	case "cmesh":
		return []string{RouteMinimal}
	}
	return []string{RouteShortestPath}
}

// NewRouting returns routing function name on n ("" for the family's
// default). classes is used by shortest-path routing only: the VC classes
// it may use (0 means as many as the diameter, which is always
// deadlock-free).
func NewRouting(n *Network, name string, classes int) (Routing, error) {
	names := RoutingNames(n)
	if name == "" {
		name = names[0]
	}
	ok := false
	for _, x := range names {
		ok = ok || x == name
	}
	if !ok {
		return nil, fmt.Errorf("graph: routing %q is not available on a %s (want one of %v)", name, n.kind, names)
	}
	switch n.kind {
	case "dragonfly":
		return &dflyRouting{n: n, s: n.dfly, name: name}, nil
	case "flattened-butterfly":
		return &flatFlyRouting{n: n, s: n.ffly, valiant: name == RouteValiant}, nil
	case "fat-tree":
		return &fatTreeRouting{n: n, s: n.tree, modK: name == RouteDestModK}, nil
	case "cmesh":
		return &cmeshRouting{n: n, s: n.mesh}, nil
	}
	if classes <= 0 {
		classes = max(n.diameter, 1)
	}
	if classes > 255 {
		classes = 255
	}
	return &shortestPath{n: n, classes: classes}, nil
}

// eject returns the ejection candidate of terminal dst.
func (n *Network) eject(dst int, buf []Candidate) []Candidate {
	return append(buf, Candidate{Port: int(n.termP[dst])})
}

// ---- dragonfly ----

// Dragonfly routing modes (State.Mode).
const (
	modeMinimal   = 0
	modeValiant   = 1
	modeUndecided = 2 // UGAL at the source router
)

// dflyRouting implements minimal, Valiant and UGAL routing on a dragonfly
// (Kim et al. 2008 §4). A minimal path is at most local, global, local; a
// Valiant path goes minimally to a random intermediate group Gi first,
// then minimally to the destination (at most l g l g l). When Gi is the
// source or the destination group, or source and destination share a
// group, the packet routes minimally. UGAL chooses at the source router,
// per packet, between the minimal path and the Valiant path through a
// random group, by comparing queue x hops (UGAL-L: the queue of the first
// output port of each path at the source router; UGAL-G: the queue of the
// global channel each path takes, wherever its router is); ties go
// minimal.
//
// VC classes (3; minimal alone uses 2): a hop's class is the number of
// global channels the packet has crossed before it, so every path climbs
// the order L0 < G0 < L1 < G1 < L2 and the channel-dependency graph is
// acyclic (Check verifies it).
type dflyRouting struct {
	n    *Network
	s    *DragonflySpec
	name string
}

func (r *dflyRouting) Name() string { return r.name }
func (r *dflyRouting) Classes() int {
	if r.name == RouteMinimal {
		return 2
	}
	return 3
}

// Minimal is false even for minimal routing: its l-g-l route takes the
// one global link between the two groups, while a hop-shortest path may
// cross two global links through a third group (Distance counts those).
func (r *dflyRouting) Minimal() bool { return false }

func (r *dflyRouting) Start(src, dst int, rng *rand.Rand) State {
	switch r.name {
	case RouteMinimal:
		return State{Inter: -1}
	case RouteValiant:
		return r.valiant(src, dst, rng.IntN(r.s.Groups()))
	}
	st := r.valiant(src, dst, rng.IntN(r.s.Groups()))
	if st.Mode == modeValiant {
		st.Mode = modeUndecided
	}
	return st
}

// valiant returns the Valiant state through group gi, minimal when gi is
// the source or destination group or both are one group.
func (r *dflyRouting) valiant(src, dst, gi int) State {
	gs, gd := r.s.group(r.n.TerminalRouter(src)), r.s.group(r.n.TerminalRouter(dst))
	if gi == gs || gi == gd || gs == gd {
		return State{Inter: -1}
	}
	return State{Inter: int32(gi), Mode: modeValiant}
}

func (r *dflyRouting) Starts(src, dst int, buf []State) []State {
	switch r.name {
	case RouteMinimal:
		return append(buf, State{Inter: -1})
	case RouteValiant: // one state per group, as Start draws them (weights for ChannelLoads)
		for gi := 0; gi < r.s.Groups(); gi++ {
			buf = append(buf, r.valiant(src, dst, gi))
		}
		return buf
	}
	// UGAL: minimal, or Valiant through any group
	buf = append(buf, State{Inter: -1})
	for gi := 0; gi < r.s.Groups(); gi++ {
		if st := r.valiant(src, dst, gi); st.Mode == modeValiant {
			buf = append(buf, st)
		}
	}
	return buf
}

// toward returns the port of the next minimal hop from router cur towards
// router target when target is in cur's group, else towards target's group,
// and whether it is a global channel.
func (r *dflyRouting) toward(cur, target int) (port int, global bool) {
	s := r.s
	g := s.group(cur)
	if g == s.group(target) {
		return s.localPort(cur, target), false
	}
	gw, gp := s.gateway(g, s.group(target))
	if gw == cur {
		return gp, true
	}
	return s.localPort(cur, gw), false
}

func (r *dflyRouting) Route(cur, dst int, st State, loads Loads, buf []Candidate) ([]Candidate, State) {
	dr := r.n.TerminalRouter(dst)
	if cur == dr {
		return r.n.eject(dst, buf), st
	}
	s := r.s
	if st.Mode == modeUndecided {
		st = r.decide(cur, dr, st, loads)
	}
	g := s.group(cur)
	if st.Mode == modeValiant && st.Phase == 0 && g == int(st.Inter) {
		st.Phase = 1
	}
	// globals crossed so far: in the source group none; a minimal packet
	// elsewhere has crossed one; a Valiant packet one in Gi, two after.
	globals := 0
	switch {
	case st.Mode == modeMinimal:
		if g == s.group(dr) {
			globals = 1 // the last local hop; class 1 also when the packet never left its group
		}
	case st.Phase == 1 && g == int(st.Inter):
		globals = 1
	case st.Phase == 1:
		globals = 2
	}
	target := dr
	if st.Mode == modeValiant && st.Phase == 0 {
		target = int(st.Inter) * s.A // any router of Gi: toward() only reads its group
	}
	port, _ := r.toward(cur, target)
	return append(buf, Candidate{Port: port, Class: globals}), st
}

// decide makes UGAL's choice at the source router cur (Kim et al. §4.2):
// minimal when q_min*H_min <= q_nm*H_nm.
func (r *dflyRouting) decide(cur, dr int, st State, loads Loads) State {
	val := State{Inter: st.Inter, Mode: modeValiant}
	if loads == nil {
		return State{Inter: -1}
	}
	s := r.s
	gi := int(st.Inter)
	hMin := r.n.RouterDistance(cur, dr)
	// non-minimal hops: to Gi's entry router, then on to dr
	gw, gp := s.gateway(s.group(cur), gi)
	entry := r.n.chans[r.n.Out(gw, gp)].Dst
	hNM := r.n.RouterDistance(cur, entry) + r.n.RouterDistance(entry, dr)
	var qMin, qNM int
	if r.name == RouteUGALLocal {
		pm, _ := r.toward(cur, dr)
		pn, _ := r.toward(cur, gi*s.A)
		qMin, qNM = loads.Queue(cur, pm), loads.Queue(cur, pn)
	} else {
		mgw, mgp := s.gateway(s.group(cur), s.group(dr))
		qMin, qNM = loads.Queue(mgw, mgp), loads.Queue(gw, gp)
	}
	if qMin*hMin <= qNM*hNM {
		return State{Inter: -1}
	}
	return val
}

// ---- flattened butterfly ----

// flatFlyRouting is dimension-order routing on a flattened butterfly
// (class 0: one hop per dimension, in increasing dimension, so the
// dependency graph is acyclic), or Valiant's: dimension order to a random
// intermediate router in class 0, then dimension order to the destination
// in class 1 (Kim, Dally & Abts 2007 §3.2).
type flatFlyRouting struct {
	n       *Network
	s       *FlatFlySpec
	valiant bool
}

func (r *flatFlyRouting) Name() string {
	if r.valiant {
		return RouteValiant
	}
	return RouteMinimal
}
func (r *flatFlyRouting) Classes() int {
	if r.valiant {
		return 2
	}
	return 1
}
func (r *flatFlyRouting) Minimal() bool { return !r.valiant }
func (r *flatFlyRouting) Start(src, dst int, rng *rand.Rand) State {
	if !r.valiant {
		return State{Inter: -1}
	}
	return State{Inter: int32(rng.IntN(r.n.routers))}
}
func (r *flatFlyRouting) Starts(src, dst int, buf []State) []State {
	if !r.valiant {
		return append(buf, State{Inter: -1})
	}
	for i := 0; i < r.n.routers; i++ {
		buf = append(buf, State{Inter: int32(i)})
	}
	return buf
}

func (r *flatFlyRouting) Route(cur, dst int, st State, _ Loads, buf []Candidate) ([]Candidate, State) {
	dr := r.n.TerminalRouter(dst)
	if cur == dr { // a Valiant packet that meets its destination first ejects there
		return r.n.eject(dst, buf), st
	}
	if st.Inter >= 0 && st.Phase == 0 && cur == int(st.Inter) {
		st.Phase = 1
	}
	target, class := dr, 0
	if st.Inter >= 0 {
		class = int(st.Phase)
		if st.Phase == 0 {
			target = int(st.Inter)
		}
	}
	pw := 1
	for d := 0; d < r.s.N; d++ {
		c, t := cur/pw%r.s.K, target/pw%r.s.K
		if c != t {
			return append(buf, Candidate{Port: r.s.port(cur, d, t, pw), Class: class}), st
		}
		pw *= r.s.K
	}
	panic("graph: flattened butterfly routing at its target") // unreachable: cur == Inter sets phase 1
}

// ---- fat tree ----

// fatTreeRouting routes up to a nearest common ancestor of the source and
// destination, then down the unique path (up*/down*: no packet ever turns
// from a down channel to an up channel, so one class is deadlock-free).
// Up-down admits every up port (the router picks at random);
// destination-mod-k takes up port floor(d / K^l) mod K at level l (Zahavi
// et al.), one path per destination from each switch.
type fatTreeRouting struct {
	n    *Network
	s    *FatTreeSpec
	modK bool
}

func (r *fatTreeRouting) Name() string {
	if r.modK {
		return RouteDestModK
	}
	return RouteUpDown
}
func (r *fatTreeRouting) Classes() int                       { return 1 }
func (r *fatTreeRouting) Minimal() bool                      { return true }
func (r *fatTreeRouting) Start(_, _ int, _ *rand.Rand) State { return State{Inter: -1} }
func (r *fatTreeRouting) Starts(_, _ int, b []State) []State { return append(b, State{Inter: -1}) }
func (r *fatTreeRouting) Route(cur, dst int, st State, _ Loads, buf []Candidate) ([]Candidate, State) {
	K := r.s.K
	per := r.n.routers / r.s.N
	l, w := cur/per, cur%per
	dw := dst / K // leaf index of the destination
	// ancestor: digits l..N-2 of w and dw agree
	pw := 1
	for range l {
		pw *= K
	}
	if w/pw == dw/pw {
		if l == 0 {
			return r.n.eject(dst, buf), st
		}
		return append(buf, Candidate{Port: dw / (pw / K) % K}), st
	}
	if r.modK {
		return append(buf, Candidate{Port: K + dst/pw%K}), st
	}
	for u := 0; u < K; u++ {
		buf = append(buf, Candidate{Port: K + u})
	}
	return buf, st
}

// ---- concentrated mesh ----

// cmeshRouting is dimension-order routing on a concentrated mesh, class 0
// (Dally & Seitz 1987: acyclic on a mesh).
type cmeshRouting struct {
	n *Network
	s *CMeshSpec
}

func (r *cmeshRouting) Name() string                       { return RouteMinimal }
func (r *cmeshRouting) Classes() int                       { return 1 }
func (r *cmeshRouting) Minimal() bool                      { return true }
func (r *cmeshRouting) Start(_, _ int, _ *rand.Rand) State { return State{Inter: -1} }
func (r *cmeshRouting) Starts(_, _ int, b []State) []State { return append(b, State{Inter: -1}) }
func (r *cmeshRouting) Route(cur, dst int, st State, _ Loads, buf []Candidate) ([]Candidate, State) {
	dr := r.n.TerminalRouter(dst)
	if cur == dr {
		return r.n.eject(dst, buf), st
	}
	pw := 1
	for d := 0; d < r.s.N; d++ {
		c, t := cur/pw%r.s.K, dr/pw%r.s.K
		if t > c {
			return append(buf, Candidate{Port: r.s.C + 2*d}), st
		}
		if t < c {
			return append(buf, Candidate{Port: r.s.C + 2*d + 1}), st
		}
		pw *= r.s.K
	}
	panic("graph: cmesh routing: distinct routers with equal coordinates")
}

// ---- any graph ----

// shortestPath admits every next hop on a shortest path (the router picks
// one at random) with the hop-indexed VC class min(hops taken, C-1): with
// C at least the diameter every class is used on one hop index only and
// the dependency graph is acyclic; with fewer classes it may not be, and
// Check then names a cycle.
type shortestPath struct {
	n       *Network
	classes int
}

func (r *shortestPath) Name() string                       { return RouteShortestPath }
func (r *shortestPath) Classes() int                       { return r.classes }
func (r *shortestPath) Minimal() bool                      { return true }
func (r *shortestPath) Start(_, _ int, _ *rand.Rand) State { return State{Inter: -1} }
func (r *shortestPath) Starts(_, _ int, b []State) []State { return append(b, State{Inter: -1}) }
func (r *shortestPath) Route(cur, dst int, st State, _ Loads, buf []Candidate) ([]Candidate, State) {
	n := r.n
	dr := n.TerminalRouter(dst)
	if cur == dr {
		return n.eject(dst, buf), st
	}
	class := min(int(st.Phase), r.classes-1)
	h := n.dist[cur*n.routers+dr]
	base := cur * n.maxPorts
	for p := 0; p < int(n.nports[cur]); p++ {
		c := n.out[base+p]
		if c >= 0 && n.dist[n.chans[c].Dst*n.routers+dr]+1 == h {
			buf = append(buf, Candidate{Port: p, Class: class})
		}
	}
	if st.Phase < 255 {
		st.Phase++
	}
	return buf, st
}
