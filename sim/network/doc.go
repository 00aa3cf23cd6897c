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
//
// # Units
//
// Config.Rate is in messages per node per cycle; Result.Accepted and
// Result.Offered are in flits per node per cycle; latencies in cycles.
package network
