package router

import "github.com/flitsim/flitsim/sim"

// Where a router and its plane meet.
//
// A router knows of its plane only whether it has one (Router.plane) and
// its window of the plane's link counts (vcFlits, for LinkFlits); the
// plane finds a router's word and bit of its masks from the router's id
// (planeBit).
//
// A router in a plane (NewPlane) keeps its own state machine: routing, VC
// allocation, the end of a packet (router.go). The plane keeps what it
// decides for all its routers at once: the switch-request masks, the
// round-robin pointers, the timing wheel of re-evaluations (plane.go).
// The router tells its plane of each event that may change a switch
// request through the methods below, and touches no field of the Plane;
// the plane keeps none of its state in the router.

// planeBit returns the word and bit of router id in a plane's masks.
func planeBit(id int) (w int, bit uint64) { return id >> 6, 1 << (uint(id) & 63) }

// creditReturned re-evaluates input VC owner of r, whose output VC to a
// sink got a credit back (AddCredit), for the allocation under way.
func (pl *Plane) creditReturned(r *Router, owner int32) { pl.at(pl.cur, r, owner) }

// granted records that input VC i of r owns an output VC of port q (the
// router then has it re-evaluated when its VC allocation delay is over,
// Plane.at).
func (pl *Plane) granted(r *Router, i int32, q int16) {
	w, bit := planeBit(r.ID())
	pl.words[w].dirQ[i&63][q&15] |= bit
}

// released records that input VC i of r no longer owns an output VC of
// port q (its packet's tail left).
func (pl *Plane) released(r *Router, i int, q int32) {
	w, bit := planeBit(r.ID())
	pl.words[w].dirQ[i&63][q&15] &^= bit
}

// creditFreed re-evaluates input VC owner of r, which waited for room in
// a full downstream buffer that a departure freed in cycle now (freedSlot):
// the slot's credit is back CreditDelay later.
func (pl *Plane) creditFreed(r *Router, owner int32, now sim.Cycle) {
	pl.at(now+pl.credit, r, owner)
}

// retryVA has r take part in the next VC allocation: an output VC was
// freed that a header of r may have waited for.
func (pl *Plane) retryVA(r *Router) {
	w, bit := planeBit(r.ID())
	pl.vaWait[w] |= bit
}
