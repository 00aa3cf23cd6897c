package network

import (
	"fmt"
	"math/rand/v2"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/topology/graph"
	"github.com/flitsim/flitsim/traffic"
)

// graphSpace is a graph network seen by package traffic: terminals are the
// nodes, Distance counts router-to-router channels, and the coordinate
// permutations see the network as a k-ary n-cube where its terminal ids
// are one (fat tree: K^N terminals; flattened butterfly and concentrated
// mesh with C = K terminals per router: K^(N+1)); elsewhere N terminals
// on one dimension. GroupSize is the block the group-shift pattern moves
// by: the terminals of a dragonfly group, of a router elsewhere.
type graphSpace struct{ g *graph.Network }

func (s graphSpace) Nodes() int            { return s.g.Nodes() }
func (s graphSpace) Distance(a, b int) int { return s.g.Distance(a, b) }
func (s graphSpace) Radix() int {
	k, _ := s.cube()
	return k
}
func (s graphSpace) Dims() int {
	_, n := s.cube()
	return n
}

func (s graphSpace) cube() (k, n int) {
	switch {
	case s.g.FatTree() != nil:
		return s.g.FatTree().K, s.g.FatTree().N
	case s.g.FlatFly() != nil && s.g.FlatFly().C == s.g.FlatFly().K:
		return s.g.FlatFly().K, s.g.FlatFly().N + 1
	case s.g.CMesh() != nil && s.g.CMesh().C == s.g.CMesh().K:
		return s.g.CMesh().K, s.g.CMesh().N + 1
	}
	return s.g.Nodes(), 1
}

func (s graphSpace) GroupSize() int {
	if d := s.g.Dragonfly(); d != nil {
		return d.P * d.A
	}
	return s.g.Concentration(s.g.TerminalRouter(0))
}

// graphLoads gives adaptive graph routing the routers' used credits in the
// current cycle (graph.Loads); a method value would allocate, this does not.
type graphLoads struct{ n *Network }

func (l graphLoads) Queue(r, port int) int { return l.n.routers[r].UsedCredits(port, l.n.now) }

// newGraph builds the network of a validated, defaulted cfg with cfg.Graph
// set. Router r has MaxPorts()+1 ports: its graph ports, then an unused
// local port. Channel ids: terminal t's injection channel is t, its
// ejection channel Nodes()+t, graph channel c is 2*Nodes()+c. The flit's
// Dest carries the packet id: the routing function reads the packet's
// destination and routing state (graph.State) from the packet table and
// writes the state back, once per router the head visits.
func newGraph(cfg Config) (*Network, error) {
	g := cfg.Graph
	classes := 0
	if g.Kind() == "graph" {
		classes = min(cfg.Router.VCs, max(g.Diameter(), 1))
	}
	routing, err := graph.NewRouting(g, cfg.Routing, classes)
	if err != nil {
		return nil, err
	}
	if cfg.Router.VCs < routing.Classes() {
		return nil, fmt.Errorf("network: %s routing on a %s needs %d VC classes, the router has %d VCs",
			routing.Name(), g, routing.Classes(), cfg.Router.VCs)
	}
	if g.Kind() == "graph" {
		if v := graph.Check(g, routing); !v.DeadlockFree || !v.ReachesAll {
			return nil, fmt.Errorf("network: %s routing with %d VC classes (router.vcs) is not deadlock-free: %s", routing.Name(), routing.Classes(), v.Problem)
		}
	}
	length, process, err := cfg.traffic()
	if err != nil {
		return nil, err
	}
	pattern, err := traffic.NewPattern(cfg.patternSpec(), graphSpace{g})
	if err != nil {
		return nil, err
	}
	T, R, P := g.Nodes(), g.Routers(), g.MaxPorts()
	n := &Network{
		cfg: cfg, g: g, groute: routing,
		nodes: R, terms: T, ports: P + 1, local: P, vcs: cfg.Router.VCs,
		pattern: pattern, process: process, length: length,
	}
	n.initLines()
	chans := 2*T + g.NumChannels()
	n.chanSrc = make([]int32, chans)
	n.chanDst = make([]int32, chans)
	n.chanSrcPort = make([]int32, chans)
	n.chanDstPort = make([]int32, chans)
	n.inCh = make([]int32, R*n.ports)
	n.outCh = make([]int32, R*n.ports)
	for i := range n.inCh {
		n.inCh[i], n.outCh[i] = -1, -1
	}
	n.termSwitch = make([]int32, T)
	n.termPort = make([]int32, T)
	for t := 0; t < T; t++ {
		r, p := int32(g.TerminalRouter(t)), int32(g.TerminalPort(t))
		n.termSwitch[t], n.termPort[t] = r, p
		n.chanSrc[t], n.chanDst[t], n.chanDstPort[t] = -1, r, p // injection
		e := T + t
		n.chanSrc[e], n.chanSrcPort[e], n.chanDst[e], n.chanDstPort[e] = r, p, -1, int32(t) // ejection
		n.inCh[int(r)*n.ports+int(p)] = int32(t)
		n.outCh[int(r)*n.ports+int(p)] = int32(e)
	}
	for c := 0; c < g.NumChannels(); c++ {
		ch := g.Channel(c)
		id := int32(2*T + c)
		n.chanSrc[id], n.chanSrcPort[id] = int32(ch.Src), int32(ch.SrcPort)
		n.chanDst[id], n.chanDstPort[id] = int32(ch.Dst), int32(ch.DstPort)
		n.outCh[ch.Src*n.ports+ch.SrcPort] = id
		n.inCh[ch.Dst*n.ports+ch.DstPort] = id
	}
	n.initTerminals()
	n.startRNG = make([]*rand.Rand, T)
	for t := range n.startRNG {
		n.startRNG[t] = sim.NewStream(cfg.Seed, sim.PurposeRouting, uint64(1)<<32|uint64(t))
	}
	n.initActive()
	n.routers = make([]*router.Router, R)
	tbuf := make([]graph.Candidate, 0, n.ports+1)
	var loads graph.Loads = graphLoads{n}
	route := func(cur, pid int, out []router.Candidate) []router.Candidate {
		pk := &n.packets[pid]
		tbuf, pk.route = routing.Route(cur, int(pk.dst), pk.route, loads, tbuf[:0])
		for _, c := range tbuf {
			out = append(out, router.Candidate{Port: c.Port, Class: c.Class})
		}
		return out
	}
	store, err := router.NewStorage(R, n.ports, cfg.Router, 0)
	if err != nil {
		return nil, err
	}
	for r := 0; r < R; r++ {
		rt, err := router.New(router.Config{Arch: cfg.Router, ID: r, Ports: n.ports, EjectVCs: cfg.EjectionVCs, Classes: routing.Classes(),
			Route: route, Rand: sim.NewStream(cfg.Seed, sim.PurposeRouting, uint64(r)), Store: store})
		if err != nil {
			return nil, err
		}
		n.routers[r] = rt
	}
	if err := n.wire(); err != nil {
		return nil, err
	}
	// Each channel's own latency: flits take it on the link, and credits
	// cross the same wire back (CreditDelay for a one-cycle link).
	for c := 0; c < g.NumChannels(); c++ {
		ch := g.Channel(c)
		link := n.outDelay + sim.Cycle(ch.Latency)
		credit := sim.Cycle(cfg.CreditDelay + ch.Latency - 1)
		if err := n.routers[ch.Src].SetLatency(ch.SrcPort, link, credit); err != nil {
			return nil, err
		}
	}
	if err := n.startTraffic(); err != nil {
		return nil, err
	}
	n.stats.init(chans, n.ports*(n.vcs+1))
	return n, nil
}

// Graph returns the network of a graph fabric (nil otherwise).
func (n *Network) Graph() *graph.Network { return n.g }

// PatternSpace returns the terminals of g as package traffic sees them:
// what a traffic.PatternSpec is built over on that network.
func PatternSpace(g *graph.Network) traffic.Space { return graphSpace{g} }
