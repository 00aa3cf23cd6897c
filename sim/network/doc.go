// Package network assembles topology, routers and traffic into a cycle-driven
// flit-level network and runs it under sim's run control: warm-up, batch-means
// measurement to a confidence target, and saturation and deadlock detection.
//
// # The cycle
//
// Each cycle t the network
//
//  1. pops the message arrivals of cycle t from the event calendar (one entry
//     per node: its next arrival time) and appends the messages to their
//     nodes' unbounded source queues;
//  2. applies the sink credits (multistage) and scouting control messages
//     whose line delay ends in cycle t, and delivers the flits that reach
//     their sinks;
//  3. lets every NIC with a queued message put at most one flit on its
//     injection line (one pass over a bit set of busy sources);
//  4. steps the routers: VC allocation of those with a waiting header,
//     then switch allocation of all of them at once by one router.Plane
//     (direct networks; a multistage fabric, scouting with K >= 1 and
//     routers of more than 16 ports, 8 VCs or 64 input VCs step every awake router alone,
//     in node id order, with the same result). A flit that
//     wins the switch is written straight into the next router's input
//     buffer, stamped with its arrival cycle t + SwitchAlloc +
//     SwitchTraversal + link latency (at least t+1), and the slot it left
//     is the sender's credit again from t + CreditDelay (router.Fabric); a
//     flit for the local port goes on the ejection line. A flit counts the
//     links it crosses (router.Flit.Hops), so a delivered tail carries its
//     message's hop count.
//
// Because everything that crosses nodes takes at least one cycle, the order
// nodes are stepped in cannot change a result. An idle router costs nothing:
// in a plane it has no request bit set and no header waiting, and a router
// stepping alone sleeps when it holds no flit, counting those still on
// their way to it, and no header waits in it; it is woken by a flit written
// into it. An idle NIC is not looked at.
//
// # Adaptive routing and scouting switching
//
// Config.Routing = RoutingAdaptive is minimal fully adaptive routing
// (topology.NewFullyAdaptive): a header may take any free VC of any
// productive channel, chosen at random (router.Config.Adaptive). Without
// escape VCs — the configuration of the scouting paper, seed 004 and
// docs/models.md#safaei-simulator — its channel-dependency graph is cyclic and a run can end
// in sim.StatusDeadlock, with the blocked VCs listed; with Config.EscapeVCs > 0
// the lowest VCs of every channel form Duato's dimension-order escape
// subnetwork (topology.NewDuato), verified deadlock-free by
// topology.CheckEscape, and a header uses them only when no adaptive VC is
// free.
//
// Router.Switching = router.Scouting with Router.ScoutingDistance = K >= 1
// sends a routing header ahead of the data (package router documents the
// protocol and its cycle timing). The network carries the header and its
// acknowledgements on a timing wheel of their own (data flits go through
// the router fabric like any other): a granted header reaches the next
// router VCAllocDelay + SwitchAllocDelay + SwitchTraversalDelay +
// LinkLatency cycles later (as a head flit would at zero load); positive and negative acknowledgements take CreditDelay
// cycles per link upstream. Headers are control traffic: they use no buffer
// slot or link cycle, are not flits for the conservation check, and their
// moves do not count as progress for deadlock detection. K = 0 is wormhole
// switching, bit for bit.
//
// # Multistage fabric
//
// Config.Multistage selects a delta network of n = b^z terminals and z
// stages of n/b switches of size b x b (topology/multistage: omega,
// butterfly or baseline wiring) instead of a direct network; Topology is
// then ignored. Terminals are separate from switches:
//
//	terminal t: NIC --injection channel Injection(t)--> stage-0 switch, input port p
//	switch sw:  router sw with b+1 ports; port p < b is both input p (fed by
//	            In(sw, p)) and output p (leaving by Out(sw, p)); port b is the
//	            router's local port, unused
//	stage z-1 output --ejection channel--> sink of terminal Channel(c).Dst.ID
//
// Routing is the destination tag (RoutingDestinationTag): the head at a
// switch of stage s takes output port Route(s, d) = d_{z-1-s}, one
// candidate, one VC class. A channel may enter its switch by another port
// number than it left by, so the multistage path keeps per-channel port
// tables (the direct path keeps the port convention and is stepped by its
// own loop: one branch per cycle). Every output port, the last stage's
// included, is an ordinary credited port: a sink takes a flit in the cycle
// it arrives (one per cycle per port, which is all its channel can carry)
// and returns the credit CreditDelay cycles later, so a slow drain backs
// up into the fabric as in any blocking network. Nothing is ever dropped or
// retried: a head that finds no free VC or no credit waits. A first-stage
// switch steps the NICs of its b terminals before its router, as a direct
// node steps its NIC.
//
// Deadlock freedom: a route holds a channel of level l only while it
// requests one of level l+1 (the levels 0..z are a topological order of the
// channel-dependency graph), so the graph is acyclic and wormhole switching
// with one VC cannot deadlock (TestMultistageChannelDependenciesAreAcyclic
// checks the graph over every route).
//
// Timing: with HopDelay as below, a message of M flits through an empty
// fabric takes
//
//	InjectionLatency + z*HopDelay + (z-1)*LinkLatency + EjectionLatency + M - 1
//
// cycles: InjectionLatency on the injection channel, HopDelay in each of
// the z switches, LinkLatency on each of the z-1 inter-stage channels and
// EjectionLatency on the exit channel to the sink (the direct formula with
// z-1 links; store-and-forward as there). It is exact for every pair
// (self included: a message to its own terminal crosses the z stages) when
// BufferDepth covers the credit round trip. Config.ZeroLoadLatency(z, M)
// returns it; Result.Hops counts switches crossed, z for every message.
// Rates are per terminal; Result.ChannelUtil is indexed by the multistage
// channel id (injection channels included); Result.StageBuffered gives the
// mean flits buffered per stage.
//
// Relation to the paper's model (Makrucki & Mudge, seed 001; sim/delta):
// the model is packet-level — each packet is served by an output queue of
// L packets for an exponential time of mean 1/mu per stage, store-and-
// forward, and a packet that finds the next queue full is rejected and
// resubmitted from its source. Here a packet is M flits crossing each
// stage in deterministic pipeline time (HopDelay + LinkLatency for the
// head, one cycle per body flit), buffered at the switch inputs (Router
// VCs x BufferDepth flits per input port, head-of-line blocking included
// with one VC), and blocked, never rejected. With mu = 1/M per cycle the
// two carry the same load per link; TestMultistageBlockingVersusLossModel
// logs both side by side (at n = 64, b = 4, M = 4 the loss model's PDT
// includes z services of M cycles at zero load, 12 cycles against the
// wormhole's 5; the loss model resubmits packets where the blocking
// network holds them, and the one-VC blocking network saturates earlier,
// at about 0.53 flits/terminal/cycle, from head-of-line blocking).
//
// # Latency conventions
//
// A message generated at time x (traffic.Process) belongs to cycle
// g = floor(x) and may be injected in cycle g. Message latency is the cycle
// in which the sink receives the tail minus g; network latency is that cycle
// minus the cycle in which the NIC put the head on the injection link. At
// zero load a message crossing H links with M flits takes exactly
//
//	InjectionLatency + (H+1)*HopDelay + H*LinkLatency + EjectionLatency + M - 1
//
// cycles (HopDelay = RoutingDelay + VCAllocDelay + SwitchAllocDelay +
// SwitchTraversalDelay; see Config.ZeroLoadLatency), which the tests assert.
// With scouting the data also waits for the header to get K links ahead:
// D + M + 2 min(K, D) - 1 for the one-cycle router, the minimum latency
// M + (2K-1) + D of seed 004 Eq. (11).
//
// # Measured quantities of the scouting model
//
// Result.SetupTime (cycles from head injection until the path to the
// destination is set up), Result.Backtracks (negative acknowledgements per
// message), Result.VCOccupancy (P_v: fraction of cycles with v VCs of a
// channel reserved, averaged over channels) and Result.VCMultiplexing
// (Vbar of seed 004 Eq. (13) with the measured P_v) are the counterparts of
// Cbar, the backtracking of Eqs. (5)-(6), Eq. (12) and Eq. (13).
//
// # Units
//
// Config.Rate is in messages per node per cycle; Result.Accepted and
// Result.Offered are in flits per node per cycle (multistage: per
// terminal); latencies in cycles.
package network
