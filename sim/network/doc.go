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
//  2. steps every awake node, in the deterministic order nodes were woken:
//     the NIC injects at most one flit onto its injection link; flits and
//     credits whose delay has expired are written into the router; the
//     router allocates and traverses (package router); departures are put
//     on the links (arriving at t + SwitchAlloc + SwitchTraversal + link
//     latency, at least t+1) and credits on the reverse lines (arriving at
//     t + CreditDelay, at least t+1); the sink takes the flits that reached
//     it over the ejection link.
//
// Because everything that crosses nodes waits at least one cycle on a delay
// line, the order nodes are stepped in cannot change a result. A node sleeps
// (costs nothing) when its router holds no flit, nothing is on its way to it
// and its source queue is empty; it is woken by an arrival on a link or by
// traffic. Credits for a sleeping router wait on their line and are applied,
// in order, when it wakes, before any allocation: equivalent to applying them
// on arrival.
//
// # Adaptive routing and scouting switching
//
// Config.Routing = RoutingAdaptive is minimal fully adaptive routing
// (topology.NewFullyAdaptive): a header may take any free VC of any
// productive channel, chosen at random (router.SetAdaptive). Without
// escape VCs — the configuration of the scouting paper, seed 004 and
// MODELS.md §4.7 — its channel-dependency graph is cyclic and a run can end
// in StatusDeadlock, with the blocked VCs listed; with Config.EscapeVCs > 0
// the lowest VCs of every channel form Duato's dimension-order escape
// subnetwork (topology.NewDuato), verified deadlock-free by
// topology.CheckEscape, and a header uses them only when no adaptive VC is
// free.
//
// Router.Switching = router.Scouting with Router.ScoutingDistance = K >= 1
// sends a routing header ahead of the data (package router documents the
// protocol and its cycle timing). The network carries the header and its
// acknowledgements on a third timing wheel beside flits and credits: a
// granted header reaches the next router VCAllocDelay + SwitchAllocDelay +
// SwitchTraversalDelay + LinkLatency cycles later (as a head flit would at
// zero load); positive and negative acknowledgements take CreditDelay
// cycles per link upstream. Headers are control traffic: they use no buffer
// slot or link cycle, are not flits for the conservation check, and their
// moves do not count as progress for deadlock detection. K = 0 is wormhole
// switching, bit for bit.
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
// Result.Offered are in flits per node per cycle; latencies in cycles.
package network
