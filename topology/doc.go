// Package topology describes the direct networks flitsim simulates — the
// ring, the k-ary n-cube (torus, uni- or bidirectional), the k-ary n-mesh
// and the binary hypercube — together with their routing functions and a
// conformance check that every routing function on every network passes.
//
// # Model
//
// A network has Nodes() = K^N routers; router v has coordinates
// (c_0, ..., c_{N-1}) with
//
//	v = sum_i c_i K^i        (dimension 0 least significant; hypercube: bit i)
//
// and one processing node attached through its local port. Routers are
// joined by unidirectional channels, one per (router, network port) that
// has a neighbour. A Topology is immutable after New: dense int ids for
// routers, ports and channels, flat int32 tables for Out and In, and no
// runtime state, so one value is shared by every router and every
// goroutine of a sweep.
//
// # Port convention
//
// Every router has the same Ports() = NetPorts()+1 ports; the last one,
// LocalPort(), injects and ejects. In a bidirectional ring, torus or mesh
// port 2d is the + direction of dimension d and port 2d+1 the − direction;
// in a unidirectional ring or torus port d is the + direction; in a
// hypercube port d flips address bit d. A channel that leaves router r by
// output port p enters its downstream router by input port p ("arrived
// travelling in direction p"). Mesh edge ports exist but carry no channel
// (Out and In return -1). A bidirectional 4-ary 2-cube, router 5 = (1,1):
//
//	                 port 3 (−d1)
//	                     |
//	                   (1,0)=1
//	                     |
//	port 1 (−d0)  (0,1)=4 — [ 5 ] — (2,1)=6  port 0 (+d0)
//	                     |   \
//	                   (1,2)=9  port 4 = LocalPort (node 5)
//	                     |
//	                 port 2 (+d1)
//
// The channel 5 -> 6 leaves 5 by output port 0 and enters 6 by input
// port 0; the channel 6 -> 5 leaves 6 by port 1 and enters 5 by port 1.
// Wraparound channels (coordinate K-1 -> 0 going +, 0 -> K-1 going −)
// carry Channel.Wrap.
//
// # Routing
//
// A Routing maps (current router, destination) to a set of Candidates
// (output port, VC class), allocation-free, so the router engine calls it
// per packet head and Check can enumerate it exhaustively. Dimension-order
// routing on rings and tori uses two dateline classes (Dally & Seitz 1987;
// docs/models.md#dg-r); random minimal routing admits every productive port.
//
// # Invariants checked by the tests
//
// Out(r,p) = c implies Channel(c).Src = r, SrcPort = p and
// In(Channel(c).Dst, Channel(c).DstPort) = c; Distance equals the
// breadth-first distance over the channels; degree, diameter, channel
// count and mean distance equal their closed forms; every routing function
// is minimal, reaches every destination, and is deadlock-free (acyclic
// channel-dependency graph over (channel, class)) exactly when it claims
// so.
//
// # Units
//
// Distances are in hops (channels traversed, ejection not counted). Ids
// are dense ints starting at 0. The package has no notion of time.
package topology
