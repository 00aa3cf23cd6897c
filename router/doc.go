// Package router is the per-router state machine of flitsim's flit-level
// network: an input-queued virtual-channel (VC) router with credit-based flow
// control, separable VC and switch allocators over round-robin arbiters, the
// switching techniques wormhole, virtual cut-through, store-and-forward and
// scouting, and fixed or adaptive VC selection.
//
// router knows nothing of topologies or traffic: a router has P ports (the
// last one is the local injection/ejection port, by the convention of package
// topology), V VCs per port and a routing callback. New builds it from one
// [Config]: the network's shared micro-architecture ([Arch]) and the
// router's own id, ports, VC classes, routing function and random stream.
//
// Routers of a network are wired into one [Fabric] (Attach, Connect): a
// flit that wins the switch is written straight into the downstream input
// buffer, stamped with its arrival cycle (LinkDelay later, at least t+1),
// and credits are not messages: the sender reads the downstream slots,
// each remembering the cycle it was freed, and may fill one CreditDelay
// cycles after that (caching the count it saw, so the downstream memory is
// read once per refill). Nothing crosses routers within a cycle, so the
// order routers are stepped in cannot change a result. A stand-alone
// router (never attached) reports everything in its outbox slices instead:
// departures in [Router.Sent], freed slots in [Router.CreditsOut], and
// takes credits back with AddCredit; ports that lead to sinks (the local
// port, a multistage fabric's last stage) use Sent in a fabric too.
//
// The routers of a fabric may share one switch allocator, a [Plane]
// (NewPlane; the network package uses one for every direct network without
// scouting headers): the plane allocates all routers at once on bit-sliced
// masks, 64 routers per machine word, keeps each VC's switch request exact
// by events instead of testing it every cycle, and steps the routers' VC
// allocation and traversals itself. It holds the routers' input VCs,
// buffers and counted credits in network-wide arrays (each router's own
// slices are windows of them), so a traversal goes from one global VC to
// the next without loading the routers. With a credit delay of one cycle
// and links of at most two (the reference router's), it moves the body
// flits of wormhole packets routed without adaptive selection between
// routers by their VCs' records alone, without their slots. Its decisions
// are the routers' own, cycle for cycle (see Plane); a router in a plane
// is not stepped by Step.
//
// # Stepping
//
// A router is stepped one of three ways, fixed when the network is built:
//
//	                 built by                stepped by              departures             credits back
//	stand-alone      New                     Router.Step             Sent (every port)      CreditsOut to the caller; AddCredit
//	in a fabric      New, Attach, Connect    Router.Step             wired ports: written   read from the downstream slots;
//	                                                                 downstream; else Sent  sinks: AddCredit
//	in a plane       the same, then NewPlane Plane.Step (all its     wired ports: moved by  as in a fabric
//	                                         routers at once)        the plane; sinks:
//	                                                                 Plane.Ejected
//
// Accept, CanAccept, Inject, AddCredit, Buffered, Waiting and Blocked
// work in every mode. A router's own Step does nothing (and returns 0)
// for a router in a plane: its plane steps it. Where a router and its
// plane meet (the events a router reports to its plane) is planeseat.go.
//
// # Pipeline and timing
//
// A head flit that is written into an input buffer in cycle a goes through
// route computation (RC), VC allocation (VA), switch allocation (SA) and
// switch traversal (ST), then the link:
//
//	cycle:   a ........ a+Rd ........... s ............ s+SAd+STd ... +LL
//	         |-- RC ----|-- VA (>= VAd) --|-- SA, ST ---|--- link ----|
//	         route known  VC granted at g   SA won at s  on the link    in next buffer
//	                      usable at g+VAd
//
// with Rd = RoutingDelay, VAd = VCAllocDelay, SAd = SwitchAllocDelay,
// STd = SwitchTraversalDelay (all >= 0) and LL the link latency (>= 1, owned
// by the network). At zero load VA succeeds at g = a+Rd and SA at
// s = a+Rd+VAd, so one hop costs Rd+VAd+SAd+STd+LL cycles for the head; body
// flits need only SA (one per cycle per input port) and follow the head
// back to back. A flit leaves its input buffer when it wins SA, and the
// credit for that buffer slot is sent upstream in the same cycle.
//
// Allocation, both separable and input-first (BookSim 2 style):
//
//   - VA: each input VC waiting for an output VC requests the lowest-index
//     free admissible output VC at or after its own round-robin pointer; each
//     output VC grants one requester by round robin. An arbiter's priority
//     moves past the winner only when its grant is used.
//   - SA: each input port picks one eligible VC by round robin; each output
//     port grants one input port by round robin; one flit per input port and
//     per output port per cycle.
//
// Switching:
//
//   - Wormhole: an output VC is granted as soon as it is free (the previous
//     packet's tail has left through it); each flit needs one credit.
//   - VirtualCutThrough: an output VC is granted only when the downstream
//     buffer has room for the whole packet (credits >= packet length).
//   - StoreAndForward: as virtual cut-through, and the head may not leave
//     before the packet's tail is in the input buffer.
//   - Scouting: see below.
//
// # Scouting switching
//
// Scouting switching (Dao, Duato & Yalamanchili 1999; the switching of seed
// 004, Safaei et al., docs/models.md#safaei-simulator item 4) with scouting distance
// K = Config.ScoutingDistance >= 1. K = 0 is wormhole switching and takes
// the wormhole code path unchanged.
//
// # Scouting: header and data
//
// A scouting packet is a routing header (Probe) plus its M data flits; the
// first data flit carries the Head flag. The header travels on the control
// plane: it does route computation and VC allocation like a wormhole head
// and reserves one output VC per hop, but it occupies no buffer slot and no
// switch or link cycle. The data flits follow the reserved VCs; at every
// router but the source they find their input VC already allocated and need
// only switch allocation. A router's position Pos counts the links from the
// source to it along the packet's path (source 0, destination D); the
// header's high-water mark HW is the largest number of links it has held
// (the ejection channel at the destination counts as unbounded, "complete").
//
// # Scouting: rules
//
//   - Gate: the first data flit may leave the router at position h only
//     when that router knows HW >= h+1+K, i.e. the header holds at least K
//     links beyond the one the data is about to take, or the header has
//     reserved the ejection channel. Body flits follow the first one.
//   - Positive acknowledgement: whenever the header's HW grows, the router
//     that granted the new VC sends an Ack carrying HW upstream along the
//     reserved path; each router on the way raises its known HW and passes
//     the Ack on, one link per CreditDelay cycles, until it reaches the
//     router holding the first data flit (or the source).
//   - Backtrack: a header that finds no free VC on any productive channel
//     (excluding the one it just came back from) backtracks one link if it
//     is neither at the source nor at its destination (there it waits for
//     an ejection VC) and Pos-1 >= HW-K: it releases its input VC,
//     and a negative acknowledgement (ProbeBack) takes it to the upstream
//     router, which releases the output VC it held and routes the header
//     again, avoiding the port it came back from while another candidate is
//     free. Otherwise it waits for a VC, as a wormhole head does. The bound
//     Pos-1 >= HW-K keeps the header ahead of the data: the data never
//     passes position HW-K (by the gate), so a backtrack never releases a
//     link the data has taken; it allows at most K consecutive backtracks
//     (the paper's limit) and never more than K links below HW in all.
//     Because HW only grows, a stale known HW is always a safe under-estimate
//     and no negative acknowledgement has to reach the data.
//
// # Scouting: timing
//
// With Rd = RoutingDelay, VAd = VCAllocDelay, out = SwitchAllocDelay +
// SwitchTraversalDelay, LL = LinkLatency and CD = CreditDelay (the network's
// reverse control latency), a header that arrives at a router in cycle a:
//
//	cycle  a ........ a+Rd ............ g ......... g+VAd+out+LL
//	       |-- RC ----|-- VA (>= VAd) --|--- header to next router ---|
//	                                    | Ack(HW) leaves upstream at g, one link per CD
//	                                    | or: no free VC and allowed -> ProbeBack at g,
//	                                    |     upstream router routes it again from g+CD+Rd
//
// so at zero load it reaches the router at position j at a_j = a_0 +
// j*(HopDelay+LL), as a wormhole head would, and grants there in g_j =
// a_j+Rd. The Ack of HW = j+1 reaches position h <= j at g_j + (j-h)*CD, so
// the gate at position h opens at
//
//	G_h = g_{h+K} + K*CD           if h+K < D
//	G_h = g_D + (D-h)*CD           otherwise (the ejection channel reserved)
//
// and the first data flit wins the switch at position h in cycle
// s_h = max(d_h, g_h+VAd, G_h), where d_h is its arrival (d_0 = a_0, d_h =
// s_{h-1}+out+LL). The network's Config.ZeroLoadLatency evaluates this
// recurrence. For the one-cycle router (all stage delays 0, LL = CD = 1,
// no injection or ejection latency) it gives, for K <= D,
//
//	latency = D + M + 2K - 1
//
// that is, the wormhole latency D + M - 1 plus 2K cycles (the header takes
// K cycles to get K links ahead and its acknowledgement K cycles to come
// back to the data), which equals the minimum network latency
// M + (2K-1) + D of seed 004 Eq. (11). For K > D the data waits for the
// destination's acknowledgement: 2D instead of 2K.
//
// A data flit in the input VC of a router holding a header, and an input VC
// whose output VC is reserved but whose data is gated, are in states
// "vc-allocation" and "scout-wait" in Blocked reports.
//
// # Adaptive selection
//
// With Config.Adaptive a header keeps every candidate of the routing function
// and, at each VA attempt, requests a free output VC chosen uniformly at
// random among all free VCs of its adaptive candidates, falling back to its
// escape candidates (Duato's escape channels, the lowest classes) only when
// no adaptive VC is free. With escape classes an adaptive VC counts as free
// only with room for the header's whole packet (empty, for a packet longer
// than the buffer), an escape VC once the previous tail has left: Duato's
// condition needs the first, not the second (vcNeeds; docs/booksim.md#adaptive).
// With Arch.StickyEscape a packet that arrived on an escape VC requests
// only escape VCs and the ejection port. Config.ClassVCs gives classes
// uneven VC ranges (escape VCs first). Without it the router keeps the
// behaviour above: the route is one candidate drawn at routing time.
//
// # Occupancy
//
// Each output port counts its reserved VCs over time (Occupancy): the
// measured counterpart of Dally's VC occupancy distribution. Routers in a
// plane leave the count to it: Plane.Occupancy sums their ports that lead
// to a router, which is what a network reports.
//
// Units: cycles for every delay, flits for buffer depths and lengths.
package router
