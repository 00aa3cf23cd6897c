package router

// Where a router and its plane meet.
//
// A router in a plane (NewPlane) keeps its own state machine: routing, VC
// allocation, the end of a packet (router.go); whether its input VCs may
// request the switch is decided on the plane's arrays (evalVC, plane.go;
// a router asks through evalSA). The plane keeps what it decides for all
// its routers at once: the switch-request masks, the round-robin pointers,
// the timing wheel of re-evaluations (plane.go). Each side goes through the
// other's methods, all below: a router reports each event that may change
// a switch request (creditReturned, granted, retryVA, creditFreed) and
// sets or reads what the plane keeps (feederWaits, at, nextCredit); the
// plane asks a router for its feeder and owners (feeder, owner). A router
// knows of its plane only whether it has one (Router.plane); the plane
// finds a router's word and bit of its masks from the router's id
// (planeBit) and its VC state in the arrays they share (Storage), and
// reads a router's fields only while it joins (NewPlane) and on the slow
// paths of a move (a head's routing, a tail, a waiting feeder).

// planeBit returns the word and bit of router id in a plane's masks.
func planeBit(id int) (w int, bit uint64) { return id >> 6, 1 << (uint(id) & 63) }

// creditReturned re-evaluates input VC owner of r, whose output VC to a
// sink got a credit back (AddCredit), for the allocation under way.
func (pl *Plane) creditReturned(r *Router, owner int32) { pl.at(pl.cur, r, owner) }

// granted records that input VC i of r owns output VC o of port q (the
// router then has it re-evaluated when its VC allocation delay is over,
// Plane.at), and copies where o leads into the input VC (inputVC.down).
// It clears the VC's bit of every port first: its last packet's port is
// still set (planeWord.dirQ).
func (pl *Plane) granted(r *Router, i, o int32, q int8) {
	w, bit := planeBit(r.ID())
	row := &pl.words[w].dirQ[i&63]
	for k := range pl.ports {
		row[k&15] &^= bit // the port of the VC's last packet, which its tail's release left set
	}
	row[q&15] |= bit
	d := r.outs[o].down
	r.in[i].down = d
	if pl.anon && d == -1 { // a sink: the head at the front of i names the packet of its bodies there (ejectedBody)
		pl.ejecting[pl.ejectingAt(r.id, int(o))] = packetOf(r.frontSlot(int(i)).flit())
	}
}

// retryVA has r take part in the next VC allocation: an output VC was
// freed that a header of r may have waited for.
func (pl *Plane) retryVA(r *Router) {
	w, bit := planeBit(r.ID())
	pl.vaWait[w] |= bit
}

// feederWaits marks global input VC g, whose buffer is full, as awaited by
// global input VC by, which feeds it: its next departure re-evaluates that
// one (wakeFeeder).
func (pl *Plane) feederWaits(g, by int) {
	pl.ivc[g].feederWaits = true
	pl.waiter[g] = int32(by)
}

// feeder returns the router feeding input VC j of r (of input port p) and
// its output VC that feeds it, or nil when a NIC feeds it.
func (r *Router) feeder(p int, j int32) (*Router, int32) {
	u := &r.up[p]
	return u.from, j - u.offset
}

// owner returns the input VC of r that owns output VC o, or -1.
func (r *Router) owner(o int32) int32 { return int32(r.outs[o].owner) }
