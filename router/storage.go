package router

import (
	"fmt"
	"unsafe"

	"github.com/flitsim/flitsim/internal/hugepage"
	"github.com/flitsim/flitsim/sim"
)

// Storage holds the per-VC and per-port state of the routers 0..n-1 of
// one network, all of the same ports and micro-architecture, in one
// allocation per type instead of some twenty per router: input VCs, flit
// slots, output-VC credits and allocation state, per-port state, links,
// occupancy counters and scratch. A router built with Config.Store takes
// windows of it (router id's window is the id-th of equal strides), and a
// Plane made of such routers uses its input VCs, slots and credits as its
// own network-wide arrays, so nothing is allocated twice or copied
// (issue 20: the routers of a 2^20-node network are 2^20 × some twenty
// small allocations otherwise, and the arrays a plane copies were garbage
// held until the next collection, as much again as the buffers).
type Storage struct {
	routers, ports int
	arch           Arch
	n              int // input (and output) VCs per router: ports × VCs

	rs      []Router // the routers themselves (New builds router id into rs[id])
	ivc     []inputVC
	slots   []slot
	credits []int32      // per router: ovCredits (n), contiguous as a plane indexes them
	outs    []outVCState // per router: n
	i64     []int64      // per router: occ (ports × occStrideFor(VCs))
	port    []portState
	up      []upLink
	// headTail is set when each input VC has two slots, its head's and its
	// tail's, instead of one a flit (NewStorage's minPacket), for packets
	// of minPacket flits or more.
	headTail  bool
	minPacket int
	scratch   *scratch // shared by its routers until a plane's Split gives each partition its own
	classLo   []int32  // the class bounds its routers share (New), nil until the first
}

// scratch is what a router uses only within one call (routing candidates,
// VC allocation's requests): routers that are never stepped at the same
// time share one (issue 20: at 2^20 routers 390 bytes a router less for
// the 5-cube, and a header's VC allocation misses on three lines fewer).
// Between calls vaReq is all -1 and vaMany all false.
type scratch struct {
	cand      []Candidate
	vaReq     []int32
	vaMany    []bool
	vaTouched []int32
}

// newScratch returns a scratch for routers of n output VCs and the given
// ports.
func newScratch(n, ports int) *scratch {
	s := &scratch{cand: make([]Candidate, 0, ports+1), vaReq: make([]int32, n), vaMany: make([]bool, n), vaTouched: make([]int32, 0, n)}
	for o := range s.vaReq {
		s.vaReq[o] = -1
	}
	return s
}

// useScratch has r use s.
func (r *Router) useScratch(s *scratch) {
	r.sc = s
}

// NewStorage allocates the state of routers routers of the given ports
// and micro-architecture. With minPacket above 0, which HeadTailServes
// must allow, each input VC gets two flit slots, one for the head and one
// for the tail in it, instead of one a flit: the routers must then be
// given to a plane (NewPlane) before they take a flit, and carry no packet
// shorter than minPacket flits, itself no shorter than a buffer (issue 20:
// at 2^20 routers of 2 VCs × 8 flits the slots were 2.8 of the 5 GB a run
// touches; see HeadTailServes). With 0 every flit has its slot.
func NewStorage(routers, ports int, a Arch, minPacket int) (*Storage, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	if routers < 1 || ports < 2 || ports > 64 {
		return nil, fmt.Errorf("router: storage for %d routers of %d ports, want >= 1 and 2..64", routers, ports)
	}
	if minPacket > 0 && minPacket < max(a.BufferDepth, headTailSlots+1) {
		return nil, fmt.Errorf("router: storage of heads' and tails' slots for packets of %d flits or more in buffers of %d", minPacket, a.BufferDepth)
	}
	headsAndTails := minPacket > 0
	n := ports * a.VCs
	s := &Storage{routers: routers, ports: ports, arch: a, n: n, headTail: headsAndTails, minPacket: minPacket}
	// Huge pages for the arrays large enough (internal/hugepage): at 2^20
	// routers every flit-hop touches lines gigabytes apart.
	s.rs = hugepage.Make[Router](routers)
	s.ivc = hugepage.Make[inputVC](routers * n)
	s.slots = hugepage.Make[slot](routers * n * slotsPerVC(a, headsAndTails))
	s.credits = hugepage.Make[int32](routers * n)
	s.outs = hugepage.Make[outVCState](routers * n)
	s.i64 = hugepage.Make[int64](routers * ports * occStrideFor(a.VCs))
	s.port = hugepage.Make[portState](routers * ports)
	s.up = hugepage.Make[upLink](routers * ports)
	s.scratch = newScratch(n, ports)
	return s, nil
}

// StorageBytes is what NewStorage allocates per router, for the memory
// estimate (MemoryBytes with a storage).
func StorageBytes(ports int, a Arch, headsAndTails bool) int64 {
	n := int64(ports) * int64(a.VCs)
	p := int64(ports)
	return n*int64(slotsPerVC(a, headsAndTails))*int64(unsafe.Sizeof(slot{})) + n*int64(unsafe.Sizeof(inputVC{})) + n*int64(unsafe.Sizeof(int32(0))+unsafe.Sizeof(outVCState{})) + p*int64(occStrideFor(a.VCs))*8 +
		p*int64(unsafe.Sizeof(portState{})+unsafe.Sizeof(upLink{}))
}

// window returns s[k*stride : (k+1)*stride] with its capacity cut there.
func window[T any](s []T, k, stride int) []T {
	return s[k*stride : (k+1)*stride : (k+1)*stride]
}

// fits reports whether router id of cfg can take its state from s.
func (s *Storage) fits(cfg Config) error {
	if cfg.ID < 0 || cfg.ID >= s.routers || cfg.Ports != s.ports || cfg.Arch != s.arch {
		return fmt.Errorf("router %d: %d ports, %+v does not fit a storage of %d routers of %d ports, %+v",
			cfg.ID, cfg.Ports, cfg.Arch, s.routers, s.ports, s.arch)
	}
	return nil
}

// take gives r its windows of s (r.id, r.ports and r.vcs set).
func (s *Storage) take(r *Router) {
	id, n, p := r.id, s.n, s.ports
	r.store = s
	r.in = window(s.ivc, id, n)
	r.slots = window(s.slots, id, n*slotsPerVC(s.arch, s.headTail))
	r.ovCredits = window(s.credits, id, n)
	r.outs = window(s.outs, id, n)
	r.occ = window(s.i64, id, p*occStrideFor(s.arch.VCs))
	r.port = window(s.port, id, p)
	r.up = window(s.up, id, p)
	r.useScratch(s.scratch)
}

// headTailSlots is the number of slots an input VC of a Storage made with
// a minPacket has: one for its head (index 0), one for its tail (1).
const headTailSlots = 2

// slotsPerVC is the number of flit slots an input VC of a Storage has.
func slotsPerVC(a Arch, headsAndTails bool) int {
	if headsAndTails {
		return headTailSlots
	}
	return a.BufferDepth
}

// HeadTailServes reports whether the routers of a network may keep only
// their heads' and tails' slots (NewStorage's minPacket): in a plane
// whose bodies move without slots (anonymous bodies: wormhole switching
// without adaptive selection, credits back in a cycle, links of at most
// two cycles) and whose NICs' flits take at most a cycle to their router
// (the local port's bodies go without slots too, NewPlane), with no packet
// shorter than a buffer (minPacket flits, at least 2, against the buffer
// depth). Such a buffer holds a run of consecutive flits of its packets,
// at most depth of them, so never two heads (that would take a whole
// packet between them, depth flits and one more) nor two tails: one slot
// for each is all its flits that carry anything need. A plane of such
// routers checks every injected head against minPacket (Plane.Inject).
func HeadTailServes(a Arch, creditDelay, linkDelay sim.Cycle, injectLatency, minPacket int, adaptive bool) bool {
	return anonServes(a, creditDelay, linkDelay, adaptive) && injectLatency <= 1 &&
		a.BufferDepth > headTailSlots && minPacket >= a.BufferDepth
}

// anonServes reports whether a plane of routers of a moves body flits
// between routers without their slots (Plane.anon; adaptive is the
// routers' Config.Adaptive).
func anonServes(a Arch, creditDelay, linkDelay sim.Cycle, adaptive bool) bool {
	rich := adaptive || a.Switching == Scouting && a.ScoutingDistance > 0
	return creditDelay == 1 && linkDelay <= 2 && a.Switching != VirtualCutThrough && a.Switching != StoreAndForward && !rich
}
