package graph

import (
	"errors"
	"fmt"

	"github.com/emirpasic/gods/v2/queues/arrayqueue"
)

// MaxRouters bounds the routers of a Network: the all-pairs distance table
// takes 2 bytes per ordered pair (32 MiB at the limit).
const MaxRouters = 4096

// MaxPorts is the most ports (terminal and network) a router may have; the
// flit-level router takes one more, its unused local port, and at most 64.
const MaxPorts = 63

// unreachable marks a router pair with no path in the distance table.
const unreachable = 0xffff

// Channel is one unidirectional link between two routers.
type Channel struct {
	Src, SrcPort int // upstream router and the output port the channel leaves by
	Dst, DstPort int // downstream router and the input port it enters by
	Latency      int // cycles on the link, >= 1
}

// Network is an immutable network of routers with any number of ports,
// channels between router ports (each with its own latency) and terminals
// attached to router ports. A terminal injects into the input side of its
// port and ejects from the output side (Nodes() terminals, Routers()
// routers). Ids are dense ints from 0. All methods are safe for concurrent
// use.
type Network struct {
	kind     string // "dragonfly", "flattened-butterfly", "fat-tree", "cmesh", "graph"
	desc     string
	routers  int
	maxPorts int
	nports   []int32 // per router: ports in use (terminals + network)
	out, in  []int32 // [router*maxPorts+port] -> channel id, -1 none
	termAt   []int32 // [router*maxPorts+port] -> terminal id, -1 none
	chans    []Channel
	termR    []int32 // per terminal: its router
	termP    []int32 // per terminal: its port
	dist     []uint16
	diameter int
	names    []string // graph files: router names (nil: "r<id>")

	// family parameters, read by the family's routing functions
	dfly *DragonflySpec
	ffly *FlatFlySpec
	tree *FatTreeSpec
	mesh *CMeshSpec
}

// builder assembles a Network port by port.
type builder struct {
	n   *Network
	err []error
}

func newBuilder(kind, desc string, routers, maxPorts int) (*builder, error) {
	switch {
	case routers < 1 || routers > MaxRouters:
		return nil, fmt.Errorf("graph: %s: %d routers, want 1..%d", desc, routers, MaxRouters)
	case maxPorts < 1 || maxPorts > MaxPorts:
		return nil, fmt.Errorf("graph: %s: routers of %d ports, want 1..%d", desc, maxPorts, MaxPorts)
	}
	n := &Network{kind: kind, desc: desc, routers: routers, maxPorts: maxPorts,
		nports: make([]int32, routers),
		out:    make([]int32, routers*maxPorts), in: make([]int32, routers*maxPorts),
		termAt: make([]int32, routers*maxPorts)}
	for i := range n.out {
		n.out[i], n.in[i], n.termAt[i] = -1, -1, -1
	}
	return &builder{n: n}, nil
}

func (b *builder) slot(r, p int) (int, bool) {
	if r < 0 || r >= b.n.routers || p < 0 || p >= b.n.maxPorts {
		b.err = append(b.err, fmt.Errorf("graph: %s: router %d port %d out of range", b.n.desc, r, p))
		return 0, false
	}
	if int32(p) >= b.n.nports[r] {
		b.n.nports[r] = int32(p + 1)
	}
	return r*b.n.maxPorts + p, true
}

// channel adds the one-way channel from output port sp of router s to
// input port dp of router d.
func (b *builder) channel(s, sp, d, dp, latency int) {
	i, ok1 := b.slot(s, sp)
	j, ok2 := b.slot(d, dp)
	if !ok1 || !ok2 {
		return
	}
	n := b.n
	switch {
	case n.out[i] >= 0 || n.termAt[i] >= 0:
		b.err = append(b.err, fmt.Errorf("graph: %s: output port %d of router %d used twice", n.desc, sp, s))
		return
	case n.in[j] >= 0 || n.termAt[j] >= 0:
		b.err = append(b.err, fmt.Errorf("graph: %s: input port %d of router %d used twice", n.desc, dp, d))
		return
	case latency < 1:
		b.err = append(b.err, fmt.Errorf("graph: %s: channel %d->%d latency %d, want >= 1", n.desc, s, d, latency))
		return
	}
	id := int32(len(n.chans))
	n.chans = append(n.chans, Channel{Src: s, SrcPort: sp, Dst: d, DstPort: dp, Latency: latency})
	n.out[i], n.in[j] = id, id
}

// link adds a channel each way between port p of router r and port q of
// router s.
func (b *builder) link(r, p, s, q, latency int) {
	b.channel(r, p, s, q, latency)
	b.channel(s, q, r, p, latency)
}

// terminal attaches the next terminal to port p of router r.
func (b *builder) terminal(r, p int) {
	i, ok := b.slot(r, p)
	if !ok {
		return
	}
	n := b.n
	if n.out[i] >= 0 || n.in[i] >= 0 || n.termAt[i] >= 0 {
		b.err = append(b.err, fmt.Errorf("graph: %s: port %d of router %d used twice", n.desc, p, r))
		return
	}
	n.termAt[i] = int32(len(n.termR))
	n.termR = append(n.termR, int32(r))
	n.termP = append(n.termP, int32(p))
}

// finish computes the distance table and refuses a network without
// terminals or with a router that cannot reach another.
func (b *builder) finish() (*Network, error) {
	if len(b.err) > 0 {
		return nil, errors.Join(b.err...)
	}
	n := b.n
	if len(n.termR) < 2 {
		return nil, fmt.Errorf("graph: %s has %d terminals, want at least 2", n.desc, len(n.termR))
	}
	if a, c, ok := n.buildDistances(); !ok {
		return nil, &DisconnectedError{From: a, To: c, net: n}
	}
	return n, nil
}

// DisconnectedError reports a router that cannot reach another.
type DisconnectedError struct {
	From, To int
	net      *Network
}

func (e *DisconnectedError) Error() string {
	return fmt.Sprintf("graph: %s is not connected: no path from router %s to router %s",
		e.net.desc, e.net.RouterName(e.From), e.net.RouterName(e.To))
}

// buildDistances fills the all-pairs router distance table by one
// breadth-first search per router; it returns a pair without a path and
// false when the network is not strongly connected.
func (n *Network) buildDistances() (from, to int, ok bool) {
	R := n.routers
	n.dist = make([]uint16, R*R)
	for i := range n.dist {
		n.dist[i] = unreachable
	}
	q := arrayqueue.New[int32]()
	for s := 0; s < R; s++ {
		row := n.dist[s*R : (s+1)*R]
		row[s] = 0
		q.Clear()
		q.Enqueue(int32(s))
		for !q.Empty() {
			u, _ := q.Dequeue()
			base := int(u) * n.maxPorts
			for p := 0; p < int(n.nports[u]); p++ {
				c := n.out[base+p]
				if c < 0 {
					continue
				}
				v := n.chans[c].Dst
				if row[v] == unreachable {
					row[v] = row[u] + 1
					q.Enqueue(int32(v))
				}
			}
		}
		for v, d := range row {
			if d == unreachable {
				return s, v, false
			}
		}
	}
	for _, r := range n.termR {
		for _, r2 := range n.termR {
			n.diameter = max(n.diameter, int(n.dist[int(r)*R+int(r2)]))
		}
	}
	return 0, 0, true
}

// Kind returns the family: "dragonfly", "flattened-butterfly", "fat-tree",
// "cmesh" or "graph".
func (n *Network) Kind() string { return n.kind }

// String describes the network, e.g. "dragonfly p=4 a=8 h=4 (33 groups)".
func (n *Network) String() string { return n.desc }

// Nodes returns the number of terminals.
func (n *Network) Nodes() int { return len(n.termR) }

// Routers returns the number of routers.
func (n *Network) Routers() int { return n.routers }

// MaxPorts returns the largest port count of a router: every router is
// given this many ports (the unused ones have no channel and no terminal).
func (n *Network) MaxPorts() int { return n.maxPorts }

// Ports returns the ports router r uses (terminal and network).
func (n *Network) Ports(r int) int { return int(n.nports[r]) }

// Out returns the channel leaving router r by output port p, or -1.
func (n *Network) Out(r, p int) int { return int(n.out[r*n.maxPorts+p]) }

// In returns the channel entering router r by input port p, or -1.
func (n *Network) In(r, p int) int { return int(n.in[r*n.maxPorts+p]) }

// TerminalAt returns the terminal on port p of router r, or -1.
func (n *Network) TerminalAt(r, p int) int { return int(n.termAt[r*n.maxPorts+p]) }

// NumChannels returns the number of router-to-router channels.
func (n *Network) NumChannels() int { return len(n.chans) }

// Channel returns channel id.
func (n *Network) Channel(id int) Channel { return n.chans[id] }

// TerminalRouter returns the router terminal t is attached to.
func (n *Network) TerminalRouter(t int) int { return int(n.termR[t]) }

// TerminalPort returns the port of its router terminal t is attached to.
func (n *Network) TerminalPort(t int) int { return int(n.termP[t]) }

// Degree returns the number of channels leaving router r (terminal ports
// not counted).
func (n *Network) Degree(r int) int {
	d := 0
	for _, c := range n.out[r*n.maxPorts : (r+1)*n.maxPorts] {
		if c >= 0 {
			d++
		}
	}
	return d
}

// Concentration returns the terminals attached to router r.
func (n *Network) Concentration(r int) int {
	c := 0
	for _, t := range n.termAt[r*n.maxPorts : (r+1)*n.maxPorts] {
		if t >= 0 {
			c++
		}
	}
	return c
}

// RouterDistance returns the fewest channels from router a to router b.
func (n *Network) RouterDistance(a, b int) int { return int(n.dist[a*n.routers+b]) }

// Distance returns the router-to-router channels on a shortest path from
// terminal a to terminal b (0 for two terminals of one router); the
// injection and ejection links are not counted.
func (n *Network) Distance(a, b int) int {
	return int(n.dist[int(n.termR[a])*n.routers+int(n.termR[b])])
}

// Diameter returns the largest Distance between two terminals.
func (n *Network) Diameter() int { return n.diameter }

// MeanDistance returns the mean Distance over ordered pairs of distinct
// terminals (two terminals of one router count 0).
func (n *Network) MeanDistance() float64 {
	R := n.routers
	conc := make([]int64, R)
	for _, r := range n.termR {
		conc[r]++
	}
	var sum int64
	for a := 0; a < R; a++ {
		if conc[a] == 0 {
			continue
		}
		for b := 0; b < R; b++ {
			sum += conc[a] * conc[b] * int64(n.dist[a*R+b])
		}
	}
	N := int64(len(n.termR))
	return float64(sum) / float64(N*(N-1))
}

// Cut returns the channels from a router with side[r] true to one with
// side[r] false: one direction of the bisection when side splits the
// terminals in halves.
func (n *Network) Cut(side []bool) int {
	c := 0
	for _, ch := range n.chans {
		if side[ch.Src] && !side[ch.Dst] {
			c++
		}
	}
	return c
}

// RouterName returns the name of router r: its name in a graph file, else
// "r<id>".
func (n *Network) RouterName(r int) string {
	if n.names != nil && r >= 0 && r < len(n.names) {
		return n.names[r]
	}
	return fmt.Sprintf("r%d", r)
}

// DescribeChannel formats channel id for diagnostics: "r3.p5->r7.p2".
func (n *Network) DescribeChannel(id int) string {
	c := n.chans[id]
	return fmt.Sprintf("%s.p%d->%s.p%d", n.RouterName(c.Src), c.SrcPort, n.RouterName(c.Dst), c.DstPort)
}
