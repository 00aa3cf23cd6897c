// Package router is the per-router state machine of flitsim's flit-level
// network: an input-queued virtual-channel (VC) router with credit-based flow
// control, separable VC and switch allocators over round-robin arbiters, and
// the switching techniques wormhole, virtual cut-through and store-and-forward.
//
// router knows nothing of topologies or traffic: a router has P ports (the
// last one is the local injection/ejection port, by the convention of package
// topology), V VCs per port and a routing callback. Everything that crosses
// routers (flits on links, credits going back) leaves through the outbox
// slices [Router.Sent] and [Router.CreditsOut]; the network puts them on its
// delay lines, so a flit sent in cycle t can arrive no earlier than t+1 and
// the order routers are stepped in cannot change a result.
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
//
// Units: cycles for every delay, flits for buffer depths and lengths.
package router
