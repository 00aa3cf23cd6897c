package router

import (
	"fmt"
	"math"

	"github.com/flitsim/flitsim/sim"
)

// Fabric is what the routers of one network share once they are wired
// together (Attach, Connect). A wired router writes each flit it sends
// straight into the input buffer of the router downstream, stamped with
// the cycle it arrives (the flit is invisible there until then), and reads
// its credits from that buffer: a slot freed in cycle t may be filled
// again from t + CreditDelay on. No flit or credit is ever copied through
// a delay line, and the timing is exactly that of links of LinkDelay
// cycles and credit lines of CreditDelay cycles.
type Fabric struct {
	// LinkDelay is the number of cycles from the cycle a flit wins switch
	// allocation to the cycle it is in the next router's input buffer:
	// SwitchAllocDelay + SwitchTraversalDelay + link latency, >= 1.
	LinkDelay sim.Cycle
	// CreditDelay is the number of cycles from the cycle a buffer slot is
	// freed to the first cycle the sending side may fill it again, >= 1.
	CreditDelay sim.Cycle
	// Wake is the set of routers to step in the next cycle, one bit per
	// router id; writing a flit into a router sets its bit. The routers
	// keep pointers into it: its owner must empty it in place every cycle,
	// never replace it.
	Wake *[]uint64
}

// link is where an output port leads: the router downstream and the
// offset from this router's absolute output VC (port*V+vc) to the
// downstream input VC; to is nil for a port leading to a sink. delay and
// credit are the link's own LinkDelay and CreditDelay (the fabric's unless
// SetLatency changed them).
type link struct {
	to     *Router
	offset int32
	delay  int32 // link latency in cycles (SetLatency keeps it within int32)
	credit int32 // credit latency in cycles
}

// Attach makes r a router of fabric f: its input slots become credits read
// by whoever feeds them (Connect, CanAccept) and it no longer reports
// CreditsOut.
func (r *Router) Attach(f *Fabric) error {
	if f.LinkDelay < 1 || f.CreditDelay < 1 || f.LinkDelay > math.MaxInt32 || f.CreditDelay > math.MaxInt32 || f.Wake == nil {
		return fmt.Errorf("router %d: fabric needs LinkDelay and CreditDelay in 1..%d and a wake set", r.id, math.MaxInt32)
	}
	if len(*f.Wake)*64 <= r.id {
		return fmt.Errorf("router %d: wake set holds %d routers", r.id, len(*f.Wake)*64)
	}
	r.fab = f
	r.credit = sim.Cycle(f.CreditDelay)
	r.wakeWord = &(*f.Wake)[r.id>>6]
	r.wakeBit = 1 << (uint(r.id) & 63)
	return nil
}

// Connect wires output port q of r to input port downPort of router down
// (both attached to the same fabric, with the same VCs and buffer depth):
// output VC v of q feeds input VC v of downPort.
func (r *Router) Connect(q int, down *Router, downPort int) error {
	switch {
	case r.fab == nil || down.fab != r.fab:
		return fmt.Errorf("router %d: connect to router %d needs both attached to one fabric", r.id, down.id)
	case q < 0 || q >= r.ports || downPort < 0 || downPort >= down.ports:
		return fmt.Errorf("router %d: connect port %d to port %d of router %d: no such port", r.id, q, downPort, down.id)
	case down.vcs != r.vcs || down.depth != r.depth:
		return fmt.Errorf("router %d: connect to router %d with %d VCs x %d flits, want %d x %d", r.id, down.id, down.vcs, down.depth, r.vcs, r.depth)
	}
	r.port[q].link = link{to: down, offset: int32((downPort - q) * r.vcs), delay: int32(r.fab.LinkDelay), credit: int32(r.fab.CreditDelay)}
	r.linked |= 1 << uint(q)
	down.up[downPort] = upLink{from: r, offset: int32((downPort - q) * r.vcs)}
	return nil
}

// SetLatency gives the link leaving output port q (wired by Connect) its
// own timing: a flit that wins the switch in cycle t is in the downstream
// buffer at t + linkDelay, and a slot freed there in cycle t may be filled
// again from t + creditDelay (both >= 1). Networks whose channels differ in
// length use it; a router whose links differ from its fabric's cannot join
// a Plane.
func (r *Router) SetLatency(q int, linkDelay, creditDelay sim.Cycle) error {
	switch {
	case q < 0 || q >= r.ports || r.port[q].link.to == nil:
		return fmt.Errorf("router %d: SetLatency on port %d, which is not wired to a router", r.id, q)
	case linkDelay < 1 || creditDelay < 1 || linkDelay > math.MaxInt32 || creditDelay > math.MaxInt32:
		return fmt.Errorf("router %d: port %d link delay %d, credit delay %d, want 1..%d", r.id, q, linkDelay, creditDelay, math.MaxInt32)
	}
	r.port[q].link.delay, r.port[q].link.credit = int32(linkDelay), int32(creditDelay)
	return nil
}

// UsedCredits returns the flits sent through output port q that the
// downstream buffers have not yet freed, as the port sees them in cycle now
// (its credits in use, over all its VCs): the queue length that UGAL-style
// adaptive routing reads. It is 0 for the local port and does not allocate.
func (r *Router) UsedCredits(q int, now sim.Cycle) int {
	l := &r.port[q].link
	used := 0
	base := int32(q * r.vcs)
	for v := int32(0); v < int32(r.vcs); v++ {
		o := base + v
		switch {
		case l.to != nil:
			used += r.depth - int(l.to.visibleFree(o+l.offset, now-sim.Cycle(l.credit)))
		case int(o) < r.noInfiniteCreditsAt:
			used += r.depth - int(r.ovCredits[o])
		}
	}
	return used
}

// CanAccept reports whether input VC (port, vc) has a slot the feeding NIC
// may fill in cycle now: in a fabric, one whose credit has come back
// (CreditDelay after it was freed); stand-alone, any free slot (the
// caller carries the credits, CreditsOut).
func (r *Router) CanAccept(port, vc int, now sim.Cycle) bool {
	if r.plane != nil {
		return r.plane.CanAccept(r.id, port, vc, now)
	}
	return r.freeFor(int32(port*r.vcs+vc), 1, now-r.creditDelay())
}

// creditDelay is the cycles from a slot's freeing to its refill: the
// fabric's CreditDelay, or 0 for a stand-alone router.
func (r *Router) creditDelay() sim.Cycle { return r.credit }

// Inject writes flit f into input VC (port, vc) if the feeding NIC may
// fill a slot in cycle now (CanAccept), the flit
// arriving in cycle at (now plus the injection line's latency), and
// reports whether it did: CanAccept and Accept in one (in a plane the slot
// is found once; outside one Accept finds it again).
func (r *Router) Inject(port, vc int, f Flit, now, at sim.Cycle) bool {
	if r.plane != nil {
		return r.plane.Inject(r.id, port, vc, f, now, at)
	}
	i := port*r.vcs + vc
	ivc := &r.in[i]
	d := uint(r.depth)
	sl := &r.slots[i*r.depth+int(wrap(uint(ivc.head+ivc.count), d))]
	if uint(ivc.count) >= d || sl.t() > now-r.creditDelay() {
		return false
	}
	r.accept(i, f, at)
	return true
}

// freeFor reports whether input VC i has need free slots that were freed
// in cycle seen or before: the credits the feeding side holds in cycle
// seen + CreditDelay. Slots are filled and emptied in ring order, so the
// free ones, from the write position on, were freed in increasing cycles
// and the need-th of them decides.
//
// It is the switch allocator's check, made for every request, so apart
// from need <= 0 it has no data-dependent branch (a test of a cached count
// would save the slot read but is mispredicted at random, which costs
// more): the slot index is reduced into the buffer by two conditional
// subtractions (head + count + need - 1 < 3*depth, as need <= depth: a
// cut-through packet fits one buffer) and the room test is combined with
// the freed test.
func (r *Router) freeFor(i, need int32, seen sim.Cycle) bool {
	if need <= 0 {
		return true
	}
	ivc := &r.in[i]
	d := uint(r.depth)
	pos := wrap(wrap(uint(ivc.head)+uint(ivc.count)+uint(need-1), d), d)
	return b2u(int32(ivc.count)+need <= int32(r.depth))&b2u(r.slots[int(i)*r.depth+int(pos)].t() <= seen) != 0
}

// visibleFree returns the free slots of input VC i that were freed in
// cycle seen or before (see freeFor).
func (r *Router) visibleFree(i int32, seen sim.Cycle) int32 {
	ivc := &r.in[i]
	free := int32(r.depth) - int32(ivc.count)
	if pl := r.plane; pl != nil && pl.anon && int(i) < pl.slotsFrom {
		return free // a slot freed by an anonymous body has no stamp (with headTail no slot): as Plane.nextCredit, a buffer of such a plane has its free slots' credits back when a report asks
	}
	pos := int32(ivc.head) + int32(ivc.count)
	base := int(i) * r.depth
	for k := int32(0); k < free; k++ {
		if pos >= int32(r.depth) {
			pos -= int32(r.depth)
		}
		if r.slots[base+int(pos)].t() > seen {
			return k
		}
		pos++
	}
	return free
}

// hasCredits reports whether absolute output VC o (of port q) holds need
// credits in cycle now: need = 1 for switch allocation, the packet length
// for VC allocation of cut-through packets. A port wired to a router reads
// the downstream slots (freeFor); any other counts its credits in
// ovCredits, where the local port's count is unlimited.
func (r *Router) hasCredits(q, o, need int32, now sim.Cycle) bool {
	if l := &r.port[q]; l.to != nil {
		return l.to.freeFor(o+l.offset, need, now-sim.Cycle(l.credit))
	}
	return r.ovCredits[o] >= need
}

// creditCount returns the credits of absolute output VC o (of port q) in
// cycle now, for reports; -1 means unlimited (a sink port).
func (r *Router) creditCount(q, o int32, now sim.Cycle) int {
	if l := &r.port[q]; l.to != nil {
		return int(l.to.visibleFree(o+l.offset, now-sim.Cycle(l.credit)))
	}
	if int(o) >= r.noInfiniteCreditsAt {
		return -1
	}
	return int(r.ovCredits[o])
}

// arrived reports whether the first k flits of input VC i are in its
// buffer in cycle now (a flit written with a later arrival cycle is still
// on its link).
func (r *Router) arrived(i int, k int32, now sim.Cycle) bool {
	ivc := &r.in[i]
	if k <= 0 {
		return true
	}
	if int32(ivc.count) < k {
		return false
	}
	pos := int32(ivc.head) + k - 1
	if pos >= int32(r.depth) {
		pos -= int32(r.depth)
	}
	return r.slots[i*r.depth+int(pos)].t() <= now
}

// Arrived returns the flits in the router's input buffers in cycle now,
// those still on their links excluded. It reads each flit's arrival stamp:
// a router in a plane that moves bodies without their slots (the plane's
// anon, a direct network's) keeps none for its bodies, so Arrived is for
// routers stepped alone or in a fabric (the multistage networks).
func (r *Router) Arrived(now sim.Cycle) int {
	n := 0
	for i := range r.in {
		ivc := &r.in[i]
		for k := int32(1); k <= int32(ivc.count) && r.arrived(i, k, now); k++ {
			n++
		}
	}
	return n
}

// LinkFlits returns the flits sent through output port q to a connected
// router since the router was built.
//
// The count is kept per packet, not per flit (issue 20: a flit's hop then
// touches no port record): an output VC's grant adds its packet's length
// (own), its release takes back what was not sent (release), and the flits
// a packet still has to send through the port are subtracted here.
func (r *Router) LinkFlits(q int) int64 {
	n := r.occ[r.linkFlitsAt(q)]
	for o := q * r.vcs; o < (q+1)*r.vcs; o++ {
		n += int64(r.outs[o].flits) // a plane's count (outVCState.count); 0 outside one
		if i := r.outs[o].owner; i >= 0 {
			n -= int64(r.in[i].remain)
		}
	}
	return n
}
