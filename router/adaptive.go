package router

import (
	"fmt"

	"github.com/flitsim/flitsim/sim"
)

// cand is one stored routing candidate of an input VC: an output port, the
// absolute output VCs [lo, hi) it admits, and whether it is an escape
// candidate (taken only when no adaptive VC is free).
type cand struct {
	port, lo, hi int32
	escape       bool
}

// enableRich allocates the per-input-VC candidate store that adaptive
// selection and scouting share.
func (r *Router) enableRich() {
	if r.rich {
		return
	}
	r.rich = true
	r.ownRich()
	n := len(r.in)
	r.cands = make([]cand, n*r.candStride)
	r.nCand = make([]int32, n)
}

// setClassVCs sets the VCs of each routing class (Config.ClassVCs).
func (r *Router) setClassVCs(bounds []int) error {
	if len(bounds) != r.classes+1 || bounds[0] != 0 || bounds[r.classes] != r.vcs {
		return fmt.Errorf("router: class bounds %v, want %d classes from 0 to %d VCs", bounds, r.classes, r.vcs)
	}
	for c := 0; c < r.classes; c++ {
		if bounds[c+1] <= bounds[c] {
			return fmt.Errorf("router: class %d has no VCs in bounds %v", c, bounds)
		}
	}
	for c, b := range bounds {
		r.classLo[c] = int32(b)
	}
	return nil
}

// setAdaptive switches VC allocation to adaptive selection with the given
// escape classes (Config.Adaptive, Config.EscapeClasses).
func (r *Router) setAdaptive(escapeClasses int) error {
	if escapeClasses < 0 || escapeClasses >= r.classes && escapeClasses > 0 {
		return fmt.Errorf("router: %d escape classes of %d classes (at least one adaptive class needed)", escapeClasses, r.classes)
	}
	r.ownRich()
	r.adaptive = true
	r.escapeClasses = escapeClasses
	r.enableRich()
	return nil
}

// storeCandidates keeps cs as the candidates of input VC i.
func (r *Router) storeCandidates(i int, cs []Candidate) {
	r.nCand[i] = 0
	for _, c := range cs {
		r.addCandidate(i, c)
	}
}

func (r *Router) addCandidate(i int, c Candidate) {
	lo, hi := r.vcRange(c)
	k := i*r.candStride + int(r.nCand[i])
	r.cands[k] = cand{port: int32(c.Port), lo: lo, hi: hi, escape: c.Port != r.local && c.Class < r.escapeClasses}
	r.nCand[i]++
}

// AdaptiveVC is the rule by which adaptive selection (Config.Adaptive)
// takes output VCs (Arch.AdaptiveVC).
type AdaptiveVC uint8

const (
	// WholePacket, the default: a header requests one output VC, a random
	// free adaptive VC if there is one, else a random free escape VC
	// (selectVC); with escape VCs an adaptive VC must have room for the
	// whole packet (vcNeeds). Deadlock-free under Duato's condition.
	WholePacket AdaptiveVC = iota
	// BookSimVC mirrors BookSim 2's input-queued router with min_adapt
	// (iq_router.cpp _VCAllocEvaluate, routefunc.cpp min_adapt_mesh and
	// min_adapt_torus): a header requests every output VC of its
	// candidates that no packet owns (free once the previous packet's
	// tail has left: BookSim's default, wait_for_tail_credit = 0), escape
	// and adaptive alike, through the VC allocator of Arch.VCAllocator,
	// which picks among them (BookSim's iSLIP ignores the route set's
	// priorities); the built-in allocator takes one of them at random. No
	// VC needs room for the whole packet, so a header may wait in an
	// adaptive VC behind another packet's tail, the dependency Duato's
	// extended graph misses (vcNeeds): the network can deadlock, as
	// BookSim's does past saturation (docs/booksim.md#adaptive).
	BookSimVC
)

var adaptiveVCNames = [...]string{"whole-packet", "booksim"}

func (a AdaptiveVC) String() string {
	if int(a) < len(adaptiveVCNames) {
		return adaptiveVCNames[a]
	}
	return fmt.Sprintf("AdaptiveVC(%d)", a)
}

// ParseAdaptiveVC returns the AdaptiveVC named s ("whole-packet",
// "booksim").
func ParseAdaptiveVC(s string) (AdaptiveVC, error) {
	for i, n := range adaptiveVCNames {
		if n == s {
			return AdaptiveVC(i), nil
		}
	}
	return 0, fmt.Errorf("unknown adaptive VC rule %q (want whole-packet or booksim)", s)
}

// Selection passes of selectVC.
const (
	passAdaptive = iota // adaptive candidates, excluded port skipped
	passEscape          // escape candidates, excluded port skipped
	passExcluded        // only the port the header backtracked from
	passAll             // every candidate (BookSimVC)
)

// bookSimPass returns the candidates input VC i requests under BookSimVC:
// all of them, or the escape ones (and the ejection port) for a packet
// held on escape VCs.
func (r *Router) bookSimPass(i int) int {
	if r.stuckInEscape(i) {
		return passEscape
	}
	return passAll
}

// requestAll returns, under BookSimVC, the output VCs input VC i requests
// in this VC allocation as a bit set (allocateVCsWith).
func (r *Router) requestAll(i int, now sim.Cycle) (req uint64) {
	need, needAdaptive := r.vcNeeds(i, r.cutThrough)
	r.walkFree(i, r.bookSimPass(i), -1, need, needAdaptive, now, func(o int32) bool {
		req |= 1 << (uint(o) & 63)
		return false
	})
	return req
}

// selectVC is the input stage of VC allocation for adaptive selection and
// scouting: it returns the output VC input VC i requests this cycle, or -1.
// Order: a random free VC of the adaptive candidates; else of the escape
// candidates; else, for a scouting header allowed to, a backtrack (the VC
// is released here and -1 returned); else a free VC on the port the header
// backtracked from; else wait. Under Arch.AdaptiveVC BookSimVC: a random
// free VC of every candidate (of the escape ones for a packet held there).
func (r *Router) selectVC(i int, cutThrough bool, now sim.Cycle) int32 {
	excl := int32(-1)
	if r.scout != nil {
		excl = r.scout[i].excl
	}
	need, needAdaptive := r.vcNeeds(i, cutThrough)
	if r.cfg.AdaptiveVC == BookSimVC {
		return r.pickFree(i, r.bookSimPass(i), excl, need, needAdaptive, now)
	}
	if !r.stuckInEscape(i) {
		if o := r.pickFree(i, passAdaptive, excl, need, needAdaptive, now); o >= 0 {
			return o
		}
	}
	if o := r.pickFree(i, passEscape, excl, need, needAdaptive, now); o >= 0 {
		return o
	}
	if r.scout != nil && r.canBacktrack(i) {
		r.backtrack(i, now)
		return -1
	}
	if excl >= 0 {
		return r.pickFree(i, passExcluded, excl, need, needAdaptive, now)
	}
	return -1
}

// vcNeeds returns the free slots (credits) an output VC must have before
// the header of input VC i may take it: need for an escape VC or the
// ejection port, needAdaptive for an adaptive VC (pickFree). Under
// cut-through both are the packet's length. With Duato's escape channels
// (escapeClasses > 0) an adaptive VC must also have room for the whole
// packet, or be empty when the packet is longer than its buffer. Duato's
// condition (Duato 1995) covers the dependencies a packet's own route
// creates; a header that waits in an adaptive VC behind another packet's
// tail makes the channels it holds upstream wait for the escape channels
// of that other packet, a dependency outside the extended
// channel-dependency graph (topology.CheckEscape). With room for the whole
// packet the header holds nothing upstream while it waits (whole packet
// forwarding, Ma, Enright Jerger and Wang, HPCA 2012). An escape VC needs
// no such rule: a packet queued behind another on an escape VC waits for
// what that packet's route may request, which the extended graph already
// holds. Measured (docs/booksim.md#adaptive, TestDuatoReallocation):
// without the adaptive rule, or with an empty-buffer rule on the escape VCs
// alone, an 8x8 mesh with one escape VC deadlocks; with it the mesh
// saturates at 0.300 flits/node/cycle, 0.170 when every VC had to be
// empty.
func (r *Router) vcNeeds(i int, cutThrough bool) (need, needAdaptive int32) {
	if cutThrough {
		need = r.in[i].remain // the packet's length (startRouting, startProbe)
	}
	needAdaptive = need
	if r.escapeClasses > 0 && r.cfg.AdaptiveVC == WholePacket {
		// (not the front slot's flit: a scouting header's data may not
		// have reached the buffer, and the slot holds an old flit or none)
		needAdaptive = min(r.in[i].remain, int32(r.depth))
	}
	return need, needAdaptive
}

// pickFree returns a free admissible output VC of input VC i's candidates
// in the given pass, uniformly at random among all of them, or -1. A VC is
// free when no packet owns it and it has the credits vcNeeds asks for:
// need on escape candidates and the ejection port, needAdaptive on the
// others. It counts the free VCs, draws one, and walks the same candidates
// again to it (one random draw, so the stream is consumed as the model
// says).
func (r *Router) pickFree(i, pass int, excl, need, needAdaptive int32, now sim.Cycle) int32 {
	free := 0
	r.walkFree(i, pass, excl, need, needAdaptive, now, func(int32) bool { free++; return false })
	if free == 0 {
		return -1
	}
	pick := 0
	if free > 1 {
		pick = r.rng.IntN(free)
	}
	if o := r.walkFree(i, pass, excl, need, needAdaptive, now, func(int32) bool { pick--; return pick < 0 }); o >= 0 {
		return o
	}
	panic("router: pickFree lost a free VC")
}

// walkFree calls visit for every free VC of input VC i's candidates in
// the given pass (pickFree), in order, until visit returns true; it
// returns that VC or -1.
func (r *Router) walkFree(i, pass int, excl, need, needAdaptive int32, now sim.Cycle, visit func(o int32) bool) int32 {
	cs := r.cands[i*r.candStride : i*r.candStride+int(r.nCand[i])]
	for k := range cs {
		c := &cs[k]
		var match bool
		switch pass {
		case passAdaptive:
			match = !c.escape && c.port != excl
		case passEscape:
			// The ejection port too: a packet held on escape VCs
			// (StickyEscape) must still leave at its destination.
			match = (c.escape || c.port == int32(r.local)) && c.port != excl
		case passAll:
			match = c.port != excl
		default:
			match = c.port == excl
		}
		if !match {
			continue
		}
		nd := needAdaptive
		if c.escape || c.port == int32(r.local) {
			nd = need
		}
		for o := c.lo; o < c.hi; o++ {
			if r.outs[o].owner < 0 && r.hasCredits(c.port, o, nd, now) && visit(o) {
				return o
			}
		}
	}
	return -1
}

// own gives output VC o (of port q) to input VC i and records the
// occupancy change.
func (r *Router) own(o, i, q int32, now sim.Cycle) {
	r.reserved(o, q, 1, r.in[i].remain, now) // its packet counted ahead on the link (LinkFlits)
	r.outs[o].owner = int16(i)
	r.freeOV &^= 1 << (uint(o) & 63)
}

// release frees output VC o of port q.
func (r *Router) release(o, q int32, now sim.Cycle) {
	if r.waitingVA > 0 && r.plane != nil {
		r.plane.retryVA(r) // a header may have waited for this VC (allocateVCs)
	}
	r.reserved(o, q, -1, r.in[r.outs[o].owner].remain, now) // a backtracking header's unsent packet (a tail leaves none)
	r.outs[o].owner = -1
	r.freeOV |= 1 << (uint(o) & 63)
}

// reserved records, before the change, that output VC o of port q is
// granted (d = 1, its packet's flits counted ahead on the link) or
// released (d = -1, the flits its packet did not send taken back): in the
// router's occupancy record, or, in a plane, for the ports that lead to a
// router, in the plane's sums and the output VC's link count
// (plane_occ.go).
func (r *Router) reserved(o, q int32, d int, flits int32, now sim.Cycle) {
	linked := r.linked>>(uint(q)&63)&1 != 0
	if pl := r.plane; pl != nil {
		switch {
		case !linked:
			return
		case d > 0:
			r.outs[o].count(r, int8(q), flits)
		case flits != 0:
			r.occ[r.linkFlitsAt(int(q))] -= int64(flits)
		}
		pl.occupancyChange(r.busyVCs(int(q)), d, now)
		return
	}
	if linked {
		r.occ[r.linkFlitsAt(int(q))] += int64(d) * int64(flits)
	}
	r.occTick(q, now)
	r.occ[r.occAt(int(q))] += int64(d) // the count, in the low bits
}

// ownOccupancy panics when r's occupancy is its plane's.
func (r *Router) ownOccupancy() {
	if r.plane != nil {
		panic(fmt.Sprintf("router %d: its plane counts its occupancy (Plane.Occupancy)", r.id))
	}
}

// occAt is where output port q's record starts in occ: its stamp and
// count, then the cycles at each count (occStrideFor).
func (r *Router) occAt(q int) int { return q * occStrideFor(r.vcs) }

// linkFlitsAt is where output port q's link flit count is in occ (the
// word after the cycles at each count 0..VCs).
func (r *Router) linkFlitsAt(q int) int { return r.occAt(q) + r.vcs + 2 }

// occStrideFor is the words of an output port's record in occ for routers
// of vcs VCs: its stamp and count, the cycles at each count 0..vcs, its
// link's flits, rounded up to whole 64-byte lines (the records are then
// line-aligned: one miss a grant or release, not two; +3% flit-hops/s on
// the 16-ary 5-cube for 24 bytes a port with two VCs).
func occStrideFor(vcs int) int { return (vcs + 3 + 7) &^ 7 }

// occTick charges the cycles since the last change of port q's busy count
// to that count.
func (r *Router) occTick(q int32, now sim.Cycle) {
	base := r.occAt(int(q))
	h := r.occ[base]
	busy := h & 0xff
	r.occ[base+1+int(busy)] += int64(now) - h>>8
	r.occ[base] = int64(now)<<8 | busy
}

// Occupancy adds to dst[q*(VCs+1)+v], for every port q and v = 0..VCs, the
// cycles since the last ResetOccupancy (or New) during which exactly v
// output VCs of port q were reserved, up to cycle now. An output VC is
// reserved from the cycle its VC allocation is granted to the cycle the
// packet's tail leaves through it (or, for a scouting header that
// backtracks, the negative acknowledgement arrives): the "busy virtual
// channel" of Dally's occupancy model (docs/models.md#dally-1992). len(dst) must be at
// least Ports*(VCs+1). A router in a plane keeps no count of its own (the
// plane's sums its routers', Plane.Occupancy): it panics.
func (r *Router) Occupancy(now sim.Cycle, dst []int64) {
	r.ownOccupancy()
	V := r.vcs
	for q := range r.ports {
		r.occTick(int32(q), now)
		for v := 0; v <= V; v++ {
			dst[q*(V+1)+v] += r.occ[r.occAt(q)+1+v]
		}
	}
}

// ResetOccupancy restarts the occupancy counts at cycle now. A router in a
// plane panics (Plane.ResetOccupancy).
func (r *Router) ResetOccupancy(now sim.Cycle) {
	r.ownOccupancy()
	for q := range r.ports {
		rec := r.occ[r.occAt(q):r.linkFlitsAt(q)] // not the link's flits
		rec[0] = int64(now)<<8 | rec[0]&0xff
		clear(rec[1:])
	}
}

// stuckInEscape reports whether input VC i holds a packet that must stay
// on escape channels: with Arch.StickyEscape, one that arrived on an
// escape VC of a network port.
func (r *Router) stuckInEscape(i int) bool {
	if !r.cfg.StickyEscape {
		return false
	}
	p, v := r.portVC(i)
	return p != r.local && r.classOfVC(int32(v)) < r.escapeClasses
}
