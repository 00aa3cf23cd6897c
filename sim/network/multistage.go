package network

import (
	"fmt"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/topology/multistage"
	"github.com/flitsim/flitsim/traffic"
)

// space is a delta network seen by package traffic: n = b^z terminals with
// ids sum_i d_i b^i (radix b, z digits, so the digit permutations such as
// transpose and bit-reverse act on the destination tag's digits). Every
// message crosses all z switches; Distance reports z for distinct
// terminals and 0 for a terminal and itself, although a message to itself
// also crosses the z switches.
type space struct{ ms *multistage.Network }

func (s space) Nodes() int { return s.ms.Terminals() }
func (s space) Radix() int { return s.ms.Degree() }
func (s space) Dims() int  { return s.ms.Stages() }
func (s space) Distance(a, b int) int {
	if a == b {
		return 0
	}
	return s.ms.Stages()
}

// newMultistage builds the network of a validated, defaulted cfg with
// cfg.Multistage set: switch sw is router sw with b+1 ports (ports 0..b-1
// are its b inputs and its b outputs, port b an unused local port), and
// terminal t's NIC feeds the first-stage input that multistage.Injection(t)
// enters.
func newMultistage(cfg Config) (*Network, error) {
	ms, err := multistage.New(*cfg.Multistage)
	if err != nil {
		return nil, err
	}
	length, process, err := cfg.traffic()
	if err != nil {
		return nil, err
	}
	pattern, err := traffic.NewPattern(cfg.patternSpec(), space{ms})
	if err != nil {
		return nil, err
	}
	b, z := ms.Degree(), ms.Stages()
	n := &Network{
		cfg: cfg, ms: ms,
		nodes: ms.Switches(), terms: ms.Terminals(), ports: b + 1, local: b, vcs: cfg.Router.VCs,
		pattern: pattern, process: process, length: length,
	}
	nn := n.nodes
	n.initLines()

	// Channel tables. Channel c of level 0 is the injection channel of
	// terminal c (upstream end -1: a NIC), level z the ejection channels
	// (downstream end -1: a sink, whose terminal chanDstPort holds).
	chans := ms.Channels()
	n.chanSrc = make([]int32, chans)
	n.chanDst = make([]int32, chans)
	n.chanSrcPort = make([]int32, chans)
	n.chanDstPort = make([]int32, chans)
	for c := 0; c < chans; c++ {
		ch := ms.Channel(c)
		n.chanSrc[c], n.chanDst[c] = -1, -1
		if ch.Src.Kind == multistage.SwitchEnd {
			n.chanSrc[c], n.chanSrcPort[c] = int32(ch.Src.ID), int32(ch.Src.Port)
		}
		if ch.Dst.Kind == multistage.SwitchEnd {
			n.chanDst[c], n.chanDstPort[c] = int32(ch.Dst.ID), int32(ch.Dst.Port)
		} else {
			n.chanDstPort[c] = int32(ch.Dst.ID)
		}
	}
	n.inCh = make([]int32, nn*n.ports)
	n.outCh = make([]int32, nn*n.ports)
	n.stageOf = make([]int32, nn)
	for sw := 0; sw < nn; sw++ {
		s, _ := ms.SwitchStage(sw)
		n.stageOf[sw] = int32(s)
		for p := 0; p < n.ports; p++ {
			n.inCh[sw*n.ports+p], n.outCh[sw*n.ports+p] = -1, -1
			if p != n.local {
				n.inCh[sw*n.ports+p] = int32(ms.In(sw, p))
				n.outCh[sw*n.ports+p] = int32(ms.Out(sw, p))
			}
		}
	}
	n.termSwitch = make([]int32, n.terms)
	n.termPort = make([]int32, n.terms)
	for t := 0; t < n.terms; t++ {
		c := ms.Injection(t)
		n.termSwitch[t], n.termPort[t] = n.chanDst[c], n.chanDstPort[c]
	}
	n.initTerminals()
	n.initActive()
	n.routers = make([]*router.Router, nn)
	n.lastBuf = make([]int32, nn)
	n.stageBuf = make([]int64, z)
	stageOf := n.stageOf
	// Destination tag: one candidate, class 0 (one VC class: the channel
	// dependency graph of a delta network is acyclic, see doc.go).
	route := func(cur, dest int, out []router.Candidate) []router.Candidate {
		return append(out, router.Candidate{Port: ms.Route(int(stageOf[cur]), dest)})
	}
	store, err := router.NewStorage(nn, n.ports, cfg.Router, 0)
	if err != nil {
		return nil, err
	}
	for sw := 0; sw < nn; sw++ {
		r, err := router.New(router.Config{Arch: cfg.Router, ID: sw, Ports: n.ports, EjectVCs: cfg.EjectionVCs, Classes: 1,
			Route: route, Rand: sim.NewStream(cfg.Seed, sim.PurposeRouting, uint64(sw)), Store: store})
		if err != nil {
			return nil, err
		}
		n.routers[sw] = r
	}
	if err := n.wire(); err != nil {
		return nil, err
	}
	if err := n.startTraffic(); err != nil {
		return nil, err
	}
	n.stats.init(chans, n.ports*(n.vcs+1))
	n.stats.stageSum = make([]float64, z)
	return n, nil
}

// Multistage returns the delta network of a multistage fabric (nil for a
// direct network).
func (n *Network) Multistage() *multistage.Network { return n.ms }

// stepSwitch runs one cycle of switch sw of a multistage fabric (or router
// sw of a graph network, without the stage bookkeeping): a
// first-stage switch first lets the NICs of its b terminals inject, then
// the router steps, and its departures and credits go on the lines. A
// departure to a sink puts the flit on the exit line (ejectAt cycles) and
// the sink's credit on the credit line at once: the sink takes every flit
// in the cycle it arrives and returns its credit CreditDelay cycles later.
func (n *Network) stepSwitch(sw int) {
	now := n.now
	r := n.routers[sw]
	if r.Step(now) > 0 {
		n.lastProgress = now
	}
	base := sw * n.ports
	for _, d := range r.Sent { // departures to sinks: links to switches are wired
		c := n.outCh[base+d.Port]
		n.stats.channelFlits[c]++
		n.sinkHops++
		f := d.Flit
		dest := f.Dest
		if n.ms != nil {
			f.Hops++ // a multistage path counts the switches crossed, the last one included
		} else {
			dest = n.packets[f.Packet].dst // graph networks: Dest is the packet id
		}
		if n.cfg.Debug && n.chanDstPort[c] != dest {
			panic(fmt.Sprintf("network: switch %d sent a flit of packet %d for terminal %d to sink %d", sw, d.Flit.Packet, dest, n.chanDstPort[c]))
		}
		n.eject(f)
		n.credits.at(now+n.ejectAt+sim.Cycle(n.cfg.CreditDelay), creditArrival{node: int32(sw), port: int32(d.Port), vc: int32(d.VC)})
	}
	// The stage's buffers hold the flits that have arrived: those written
	// with a later arrival cycle are still on their links.
	if n.stageOf != nil {
		buf := int32(r.Arrived(now))
		n.stageBuf[n.stageOf[sw]] += int64(buf - n.lastBuf[sw])
		n.lastBuf[sw] = buf
	}
	if r.Buffered() > 0 {
		n.wake(sw)
	}
}
