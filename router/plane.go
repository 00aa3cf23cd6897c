package router

import (
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/flitsim/flitsim/internal/hugepage"
	"github.com/flitsim/flitsim/sim"
)

// Plane is the switch allocator of every router of one fabric at once. It
// makes the same decisions as each router's own allocateSwitch (the
// separable input-first allocator over round-robin arbiters whose priority
// moves only when a grant is used), in the same order, but it works on
// bit-sliced state: bit b of word w of a mask stands for router 64w+b, so
// one machine word carries one decision for 64 routers.
//
// Two things make that possible:
//
//   - Exact request masks. Input VC (p, v) of a router is in the mask elig
//     exactly when the router's own allocator would let it request the
//     switch in the coming allocation: it owns an output VC, its VC
//     allocation delay is over, its front flit has arrived (for
//     store-and-forward, its whole packet), and the output VC has a credit.
//     The bit is decided by evalSA when one of those may change, never by a
//     per-cycle test: each condition either comes true at a cycle known in
//     advance (an arrival stamp, the end of a pipeline delay, a credit's
//     return CreditDelay after its slot was freed), for which the plane
//     keeps a timing wheel of re-evaluations, or by an event that calls
//     evalSA itself (a flit written into an empty VC, a downstream slot
//     freed while its feeder waits for it). Once true, the conditions stay
//     true until the VC sends a flit, which is when it is decided again.
//   - Thermometer pointers. A round-robin pointer k over n requesters is
//     kept as n masks, mask j holding the routers whose pointer is <= j; the
//     first requester at or after the pointer is then the lowest j with
//     request_j & le_j, or failing that the lowest request_j: two passes of
//     AND-NOT over the requesters, no per-router branch.
//
// A cycle is Step: the re-evaluations due, VC allocation of the routers
// with a header past its routing delay (each router's own allocateVCs),
// the switch allocation of all routers, and the traversals of the winners
// (output port by output port, or router by router: see RouterOrder). As
// every interaction between routers takes at least one cycle, the result
// is the one of stepping each router alone: the network package's golden
// delivery traces hold for both, and its TestPlaneMatchesOwnAllocators
// compares the two delivery by delivery on random configurations.
//
// A plane serves routers wired into one Fabric, all with the same ports
// (at most MaxPlanePorts), VCs (at most MaxPlaneVCs) and configuration,
// without scouting headers (ScoutingDistance 0 is wormhole and is
// served). Ports leading to a sink draw on the router's counted credits
// (unlimited for the local port; a credit given back by AddCredit
// re-evaluates the VC waiting for it); the network package uses planes for
// direct networks only.
type Plane struct {
	routers []*Router
	// rs is the routers' Storage array when routers[id] is &rs[id] for
	// every id (the network's case), nil otherwise: router(id) then finds
	// a Router without reading its pointer first (issue 20: at 2^20
	// routers that pointer is one more miss before the Router's own).
	rs    []Router
	words []planeWord // one per 64 routers
	// allocated has bit w set when word w was allocated this cycle: a word
	// none of whose input VCs may request the switch is skipped (it would
	// grant nothing and move no pointer), so an idle part of a large
	// network costs one test per 64 routers and cycle (issue 20, point 3).
	allocated  []uint64
	ports, vcs int
	credit     sim.Cycle
	link       sim.Cycle // the fabric's LinkDelay

	// The routers' input VCs and buffers, network-wide: router id's input
	// VC i is global VC g = id*n + i, its slots [g*depth, (g+1)*depth).
	// Each router's in and slots are windows of these arrays, so its own
	// code sees the same state; a traversal (move) indexes them directly
	// instead of going through two routers' headers.
	ivc      []inputVC
	slots    []slot
	n, depth int
	saf      bool
	// ovCredits are the routers' counted credits (sinks), network-wide:
	// router id's ovCredits is the window [id*n, (id+1)*n); output VCs
	// from noInfinite on (the local port's) are unlimited.
	ovCredits  []int32
	noInfinite int
	// port is the routers' per-port state, network-wide: router id's
	// port is the window [id*ports, (id+1)*ports).
	port []portState

	dec []int8 // [id<<4 | q]: the input VC output port q of router id takes its flit from
	// grants lists a word's granted input VCs in the order they move,
	// each as id<<6 | i (VC i of router id): at most one per output port
	// and router.
	grants [64 * MaxPlanePorts]int32
	qset   []uint64 // [id]: the output ports of router id that granted

	vaWait []uint64 // routers with a header past its routing delay waiting for VC allocation

	// waiter is, per global input VC g whose feederWaits is set, the
	// global input VC upstream that waits for a slot of g (feederWaits):
	// the one evalVC found the buffer full for, which owns the output VC
	// feeding g until it has sent into g again. A freed slot wakes it from
	// here (wakeFeeder) instead of through the Routers' links and output
	// VCs (issue 20: at 2^20 routers four or five misses one after the
	// other, 3.3 s of a 74 s profile of the 16-ary 5-cube at 0.05).
	waiter []int32

	wheel [][]int32 // events by cycle (schedule)
	wmask sim.Cycle
	cur   sim.Cycle // the allocation a re-evaluation due now decides: this cycle's before it runs, the next one's after

	// Ejected lists the flits that left a router for its sink in the last
	// Step, in router order when the local port is each router's only
	// sink (direct networks) or RouterOrder is set, else in output port
	// order (a router's Sent stays empty).
	Ejected []Flit

	part *planePart // a partition of a split plane (Split, plane_part.go), nil otherwise

	// RouterOrder makes the winners traverse router by router (and within
	// a router by output port), as when each router steps alone, instead
	// of output port by output port across the routers. It must be set
	// when the routing function draws random numbers: a head written into
	// an idle VC draws its route at once, so the order in which the
	// routers feeding one router write into it decides which draw each
	// head gets. With deterministic routing the two orders give the same
	// run (ejections, the only other order that shows, are in router
	// order either way when the local port is each router's only sink, as
	// in direct networks; see Ejected) and the port order is cheaper.
	RouterOrder bool

	// anon is set when the plane moves body flits without their slots
	// ("anonymous bodies"): wormhole switching without adaptive selection
	// or scouting, a credit delay of one cycle and links of at most two
	// (LinkDelay, the switch's pipeline included). A body flit (neither
	// head nor tail) between two routers then moves as a change of two
	// input VCs' records: its slot is neither read nor written, as
	// nothing reads it (issue 20: a hop read and wrote a slot pair at
	// each end, two of its four or five lines). What a body's slot held
	// is known without it there:
	//
	//   - which flit is at the front: the head while headNext, the tail
	//     when one flit of the packet remains (remain), a body otherwise;
	//   - its packet and destination, for the sink: ejecting, written
	//     when the packet's head is granted an output VC of the local port;
	//     bodies report no hop count (as the slot's layout already says,
	//     only tails do); a deadlock report finds a body's packet from
	//     the VCs upstream (Router.frontPacket);
	//   - whether it has arrived: flits enter a VC at most one a cycle, so
	//     the front one of c arrived at least c-1 cycles before lastAt,
	//     which with links of one or two cycles settles every question
	//     the plane asks (frontAt);
	//   - the credits of a buffer: with a credit delay of one cycle a slot
	//     freed in a cycle is the sender's again in the next, and every
	//     question the plane asks is about a later cycle, so a buffer that
	//     is not full has a credit and no free cycle is read.
	//
	// The input VCs of the local port, which a NIC fills and checks
	// (Inject), keep their slots' stamps unless the NIC's flits reach
	// them in at most a cycle (NewPlane's injectLatency): bodies from the
	// NIC then go without slots too (slotsFrom).
	anon      bool
	localIVC  int                 // the first input VC of the local port: (ports-1)*VCs
	slotsFrom int                 // with anon, the first input VC of a router whose bodies keep their slots: localIVC, or n when none does (NewPlane's injectLatency)
	injecting []int32             // with anon and slotless local VCs, per router and local input VC: the packet whose head the NIC last wrote into it (for deadlock reports: Router.frontPacket)
	ejecting  []uint64            // with anon, per router and output VC to a sink (ejectingAt): packet<<32 | destination of the packet it was last granted to (packetOf)
	sinkAt    [MaxPlanePorts]int8 // with anon, per port: its index among the ports that lead to a sink at some router, -1 if none does
	sinkPorts int

	// headTail is set when the routers' Storage keeps only each input
	// VC's head and tail slots (NewStorage's minPacket, which needs
	// anon and slotless local VCs): the slot of a VC's flit is then not
	// that of its ring position but its head's (0) or its tail's (1), as
	// slotIndex computes from the slot stride and the two masks, and
	// minPacket is the shortest packet Inject lets in.
	headTail   bool
	slotStride int  // slots per input VC: the depth, or headTailSlots
	posMask    uint // a ring position's part of a slot index: all ones, or 0 with headTail
	tailMask   uint // a tail's part: 0, or 1 with headTail
	minPacket  int32

	// touchAhead has move load a list's lines first (touch): set when the
	// slots and input VC records outgrow the last-level cache, below which touch only costs.
	touchAhead bool
	sink       uint64  // what touch loaded, so that the loads are kept
	tails      []int32 // touch's scratch: the listed input VCs whose front flit is a tail

	// occ are the occupancy sums of the ports of the plane's routers that
	// lead to a router, by busy count (plane_occ.go): a partition's hold
	// the changes of its routers from the split on.
	occ   [maxPlaneVCsMask + 1]int64
	split []*Plane // the partitions, once split (Split)
}

// slotIndex is the index in slots of the slot of global input VC g that
// holds its flit at ring position pos, a tail or not: the position's,
// or with headTail the head's or the tail's (a body has none).
func (pl *Plane) slotIndex(g int, pos uint, tail bool) int {
	return g*pl.slotStride + int(pos&pl.posMask|b2u(tail)&pl.tailMask)
}

// frontTail reports whether the front flit of input VC ivc (holding one,
// not an anonymous body) is its packet's tail, not its head: with
// headTail, which of its slots holds it. (Packets have two flits at
// least there.)
func frontTail(ivc *inputVC) bool {
	return ivc.state == vcActive && !ivc.headNext && ivc.remain == 1
}

// router returns router id of the plane.
func (pl *Plane) router(id int) *Router {
	if pl.rs != nil {
		return &pl.rs[id]
	}
	return pl.routers[id]
}

// planeWord is the allocation state of 64 routers, bit b standing for
// router 64w+b. Input VCs are indexed i = p*V + v and port pairs q<<4 | p
// (at most 16 ports, 8 VCs and 64 input VCs, so every index fits its
// array and needs no bounds check).
type planeWord struct {
	inLE [64]uint64 // [i]: the input-stage pointer of port p is <= v
	// dirQ[i][q]: input VC i owns an output VC of port q, or owned one
	// until its last packet's tail left. The bit is not cleared then: a
	// VC that is not active never requests (its elig bit is clear, and
	// requests are elig & dirQ), so a stale bit asks for nothing, and the
	// VC's next grant clears its row (granted). A release then writes no
	// line of the word (issue 20: the 16-ary 5-cube at 0.05, 1.017 times
	// the speed on one thread and 1.028 on two, docs/speed.md#session27).
	dirQ [64][16]uint64

	outLE [256]uint64 // [q<<4|p]: the output-stage pointer of port q is <= p

	granted [16]uint64    // [q]: scratch, output port q granted someone
	pbits   [16][4]uint64 // [q][k]: scratch, bit k of the input port q granted
	vbits   [16][3]uint64 // [p][k]: scratch, bit k of the VC port p requests with

	// elig[i]: input VC i may request the switch. Last, in the word's
	// third page of 4 KiB with outLE and the scratch, which the moves
	// read: the re-evaluations a move makes write it (withdraw), and the
	// moves then touch one page of their word, not two.
	elig [64]uint64
}

// vcAt returns the VC input port p of router b requests with, of V VCs
// (two VCs, the common case, need one mask only).
func (pw *planeWord) vcAt(p uint64, b uint, V int) int {
	vb := &pw.vbits[p&15]
	if V <= 2 {
		return int(vb[0] >> b & 1)
	}
	return int(vb[0]>>b&1 | vb[1]>>b&1<<1 | vb[2]>>b&1<<2)
}

// MaxPlanePorts and MaxPlaneVCs bound the routers a Plane serves.
// Routers of 16 ports reach the 5-cube (11 ports) and the 7-cube (15);
// the input VCs, ports × VCs, must fit one 64-bit index space.
const (
	MaxPlanePorts = 16
	MaxPlaneVCs   = 8
	maxPlaneIVCs  = 64
)

// PlaneServes reports whether routers of the given ports and configuration
// can share a Plane: at most MaxPlanePorts ports and MaxPlaneVCs VCs, and
// no scouting headers running ahead of their data (ScoutingDistance 0 is
// wormhole and is served).
func PlaneServes(ports int, cfg Arch) bool { return planeRefusal(ports, cfg) == nil }

// planeRefusal says why routers of the given ports and configuration
// cannot share a plane, or returns nil.
func planeRefusal(ports int, cfg Arch) error {
	switch {
	case ports > MaxPlanePorts || cfg.VCs > MaxPlaneVCs || ports*cfg.VCs > maxPlaneIVCs:
		return fmt.Errorf("router: a plane serves up to %d ports, %d VCs and %d input VCs, not %d x %d", MaxPlanePorts, MaxPlaneVCs, maxPlaneIVCs, ports, cfg.VCs)
	case cfg.Switching == Scouting && cfg.ScoutingDistance > 0:
		return fmt.Errorf("router: scouting headers (ScoutingDistance %d) need each router's own allocator", cfg.ScoutingDistance)
	case cfg.VCAllocator != "" || cfg.SwitchAllocator != "":
		return fmt.Errorf("router: allocators %q/%q run on each router's own path (package alloc); a plane has the built-in separable input-first ones", cfg.VCAllocator, cfg.SwitchAllocator)
	}
	return nil
}

// upLink is where an input port is fed from: the router upstream and the
// offset from this router's input VC to the upstream output VC.
type upLink struct {
	from   *Router
	offset int32
}

// NewPlane makes a plane the switch allocator of routers, which must be the
// routers 0..n-1 of fabric f in id order, connected (Connect) as they will
// run, before their first step (the plane's events start at cycle 0, and it
// counts their occupancy from there: Plane.Occupancy). injectLatency is the cycles a flit written by anyone else than a
// router of the plane (a NIC, Router.Inject) takes to arrive (at - now,
// the same for every flit): with the routing delay after it, the longest
// delay after which such a flit can matter to an allocation (the plane
// adds its own: LinkDelay plus the routing delay, CreditDelay, the VC
// allocation delay). With anonymous bodies (anon) and a latency of at
// most one cycle, the local port's VCs move their body flits without
// slots as the VCs between routers do (issue 20: an injected body then
// writes and frees no slot, two lines of its hop): a body's arrival
// follows from lastAt (frontAt: a VC asked in cycle t holds flits
// written by cycle t, which arrive by t+1), its credit from the count (a
// NIC injects before the plane steps, so every free slot was freed a
// cycle or more ago, and the credit delay is one), and a blocked body's
// packet in a deadlock report from injecting, written with the packet's
// head.
func NewPlane(f *Fabric, routers []*Router, injectLatency int) (*Plane, error) {
	if len(routers) == 0 {
		return nil, fmt.Errorf("router: plane of no routers")
	}
	r0 := routers[0]
	if err := planeRefusal(r0.ports, *r0.cfg); err != nil {
		return nil, err
	}
	pl := &Plane{
		routers: routers, words: hugepage.Make[planeWord]((len(routers) + 63) / 64),
		allocated: make([]uint64, (len(routers)+64*64-1)/(64*64)),
		ports:     r0.ports, vcs: r0.vcs, credit: f.CreditDelay, link: f.LinkDelay,
	}
	if st := r0.store; st != nil && len(st.rs) >= len(routers) {
		pl.rs = st.rs[:len(routers):len(routers)]
		for id, r := range routers {
			if r != &pl.rs[id] {
				pl.rs = nil
				break
			}
		}
	}
	for id, r := range routers {
		switch {
		case r.id != id:
			return nil, fmt.Errorf("router: plane needs routers in id order, found router %d at %d", r.id, id)
		case r.fab != f:
			return nil, fmt.Errorf("router %d: not attached to the plane's fabric", r.id)
		case r.ports != pl.ports || *r.cfg != *r0.cfg:
			return nil, fmt.Errorf("router %d: %d ports, configuration %+v; the plane's routers have %d ports, %+v",
				r.id, r.ports, *r.cfg, pl.ports, *r0.cfg)
		case r.plane != nil:
			return nil, fmt.Errorf("router %d: already in a plane", r.id)
		}
		for q := range r.ports {
			if l := r.port[q].link; l.to != nil && (sim.Cycle(l.delay) != f.LinkDelay || sim.Cycle(l.credit) != f.CreditDelay) {
				return nil, fmt.Errorf("router %d: port %d has its own link timing (SetLatency); a plane needs the fabric's", r.id, q)
			}
		}
	}
	if len(routers) >= 1<<25 {
		return nil, fmt.Errorf("router: a plane of %d routers is beyond its 2^25 (grants are listed as router<<6 | VC in 32 bits)", len(routers))
	}
	rc := *r0.cfg
	horizon := max(injectLatency+rc.RoutingDelay, int(f.LinkDelay)+rc.RoutingDelay, int(f.CreditDelay), rc.VCAllocDelay, 1)
	span := sim.CeilPow2(horizon + 1) // (horizon >= 1: at least 2)
	pl.n, pl.depth, pl.saf = r0.ports*r0.vcs, r0.depth, r0.saf
	// Routers whose state is one Storage already lie in network-wide
	// arrays: the plane uses them as they are.
	st := r0.store
	for _, r := range routers {
		if st == nil || r.store != st || st.routers != len(routers) {
			st = nil
			break
		}
	}
	if st != nil {
		pl.ivc, pl.slots, pl.ovCredits, pl.port = st.ivc, st.slots, st.credits, st.port
	} else {
		pl.port = make([]portState, len(routers)*pl.ports)
		pl.ivc = make([]inputVC, len(routers)*pl.n)
		pl.slots = make([]slot, len(routers)*pl.n*pl.depth)
		pl.ovCredits = make([]int32, len(routers)*pl.n)
	}
	pl.localIVC = r0.local * r0.vcs
	pl.slotsFrom = pl.localIVC
	if pl.anon = anonServes(rc, f.CreditDelay, f.LinkDelay, r0.adaptive); pl.anon {
		// The ports that lead to a sink at some router (a direct network's
		// local port; a mesh's edges too): ejecting keeps a record per
		// router for each of their output VCs.
		for q := range pl.sinkAt {
			pl.sinkAt[q] = -1
		}
		for _, r := range routers {
			for q := range r.ports {
				if r.port[q].link.to == nil && pl.sinkAt[q] < 0 {
					pl.sinkAt[q] = int8(pl.sinkPorts)
					pl.sinkPorts++
				}
			}
		}
		pl.ejecting = hugepage.Make[uint64](len(routers) * pl.sinkPorts * pl.vcs)
		if injectLatency <= 1 {
			pl.slotsFrom = pl.n // the local port's bodies go without slots too (see above)
			pl.injecting = hugepage.Make[int32](len(routers) * pl.vcs)
		}
	}
	pl.slotStride, pl.posMask = pl.depth, ^uint(0)
	if st != nil && st.headTail {
		if !pl.anon || pl.slotsFrom != pl.n {
			return nil, fmt.Errorf("router: the routers keep only their heads' and tails' slots, which a plane with these delays (credit %d, link %d, injection %d cycles) cannot serve", f.CreditDelay, f.LinkDelay, injectLatency)
		}
		pl.headTail, pl.slotStride, pl.posMask, pl.tailMask, pl.minPacket = true, headTailSlots, 0, 1, int32(st.minPacket)
	}
	pl.noInfinite = r0.noInfiniteCreditsAt
	pl.touchAhead = int64(len(pl.slots))*int64(unsafe.Sizeof(slot{}))+int64(len(pl.ivc))*int64(unsafe.Sizeof(inputVC{})) > touchAbove
	pl.dec = hugepage.Make[int8](len(routers) << 4)
	pl.waiter = hugepage.Make[int32](len(pl.ivc))
	pl.qset = hugepage.Make[uint64](len(routers))
	pl.vaWait = make([]uint64, len(pl.words))
	pl.wheel = make([][]int32, span)
	pl.wmask = sim.Cycle(span - 1)
	sinks := 0 // output ports leading to no router: at most one flit each per cycle
	for _, r := range routers {
		for q := range r.ports {
			sinks += int(b2u(r.port[q].link.to == nil))
		}
	}
	pl.Ejected = make([]Flit, 0, sinks)
	pl.tails = make([]int32, 0, len(pl.grants))
	for w := range pl.words {
		pw := &pl.words[w]
		// Every pointer, input and output, starts at 0 (as a Router
		// allocating alone has them): all of both arrays, whose lengths
		// differ (TestPlaneStartPointers).
		for k := range pw.inLE {
			pw.inLE[k] = ^uint64(0)
		}
		for k := range pw.outLE {
			pw.outLE[k] = ^uint64(0)
		}
	}
	for _, r := range routers {
		r.plane = pl
		g0 := r.id * pl.n
		if st == nil {
			s0 := g0 * pl.depth
			copy(pl.ivc[g0:], r.in)
			copy(pl.slots[s0:], r.slots)
			r.in = pl.ivc[g0 : g0+pl.n : g0+pl.n]
			r.slots = pl.slots[s0 : s0+pl.n*pl.depth : s0+pl.n*pl.depth]
			copy(pl.ovCredits[g0:], r.ovCredits)
			r.ovCredits = pl.ovCredits[g0 : g0+pl.n : g0+pl.n]
			p0 := r.id * pl.ports
			copy(pl.port[p0:], r.port)
			r.port = pl.port[p0 : p0+pl.ports : p0+pl.ports]
		}
		for q := 0; q < r.ports; q++ {
			l := r.port[q].link
			for v := 0; v < r.vcs; v++ {
				o := q*r.vcs + v
				r.outs[o].down = -1
				if l.to != nil {
					r.outs[o].down = int32(l.to.id*pl.n + o + int(l.offset))
				}
			}
		}
		for i := range r.in {
			if r.in[i].state == vcActive {
				pl.granted(r, int32(i), int32(r.in[i].outVC), r.in[i].outPort)
			}
			r.evalSA(int32(i), 0)
		}
		if r.Waiting() > 0 {
			pl.retryVA(r) // tries from the first cycle on, as the router alone would
		}
	}
	return pl, nil
}

// at schedules the re-evaluation of input VC i of router r for cycle due;
// one due for an allocation that has not run yet is made at once.
func (pl *Plane) at(due sim.Cycle, r *Router, i int32) { pl.atID(due, r.id, i) }

// atID is at for input VC i of router id of the plane.
func (pl *Plane) atID(due sim.Cycle, id int, i int32) {
	if due <= pl.cur {
		if pl.part != nil && pl.part.deferring {
			if pl.withdraw(id, i) {
				return // nothing to decide: no need to wait for the barrier
			}
			pl.part.later = append(pl.part.later, int32(id)<<6|i) // made after the move phases (EvalDeferred)
			return
		}
		pl.evalVC(id, i, pl.cur)
		return
	}
	pl.schedule(due, int32(id)<<6|i)
}

// vaAt has router r take part in VC allocation from cycle due on (a header
// ends its routing delay then).
func (pl *Plane) vaAt(due sim.Cycle, r *Router) {
	if due <= pl.cur {
		pl.retryVA(r)
		return
	}
	pl.schedule(due, ^int32(r.ID()))
}

// schedule puts event x on the wheel for cycle due (pl.cur < due <=
// pl.cur + horizon): id<<6 | i re-evaluates input VC i of router id, ^id
// lets router id take part in VC allocation.
func (pl *Plane) schedule(due sim.Cycle, x int32) {
	if due-pl.cur > pl.wmask {
		panic(fmt.Sprintf("router: plane event %d cycles ahead, beyond its horizon of %d", due-pl.cur, pl.wmask))
	}
	s := &pl.wheel[due&pl.wmask]
	*s = append(*s, x)
}

// Step runs cycle now for every router of the plane: VC allocation, switch
// allocation and traversal. It returns the number of flits that left a
// router.
func (pl *Plane) Step(now sim.Cycle) int {
	pl.allocateWords(now, 0, len(pl.words))
	return pl.traverseAllocated(now)
}

// allocateWords runs the allocation half of cycle now: the events due on
// the wheel, then VC and switch allocation for the routers of words
// [w0, w1) (all of them in Step, a partition's in AllocatePart).
func (pl *Plane) allocateWords(now sim.Cycle, w0, w1 int) {
	pl.cur = now
	pl.Ejected = pl.Ejected[:0]
	s := &pl.wheel[now&pl.wmask]
	for k, x := range *s {
		if pl.touchAhead && k&63 == 0 {
			pl.touchEvals((*s)[k:min(k+64, len(*s))])
		}
		if x < 0 {
			w, bit := planeBit(int(^x))
			pl.vaWait[w] |= bit
			continue
		}
		pl.evalVC(int(x>>6), x&63, now)
	}
	*s = (*s)[:0]
	for w := w0; w < w1; w++ {
		if pl.touchAhead && (w-w0)&(touchVAWords-1) == 0 {
			pl.touchVA(w, min(w+touchVAWords, w1))
		}
		for m := pl.vaWait[w]; m != 0; m &= m - 1 {
			r := pl.router(w<<6 | bits.TrailingZeros64(m))
			if !r.allocateVCs(now) {
				pl.vaWait[w] &^= m & -m // headers still in their routing delay set it again (vaAt)
			}
		}
	}
	for w := w0; w < w1; w++ {
		if pw := &pl.words[w]; pw.requesting(pl.n) {
			pl.allocateWord(pw)
			pl.allocated[w>>6] |= 1 << (uint(w) & 63)
		}
	}
	pl.cur = now + 1 // from here on, decisions are for the next allocation
}

// traverseAllocated moves the flits of every word that allocated this
// cycle and returns how many left a router.
func (pl *Plane) traverseAllocated(now sim.Cycle) int {
	moved := 0
	for j, m := range pl.allocated {
		for ; m != 0; m &= m - 1 {
			moved += pl.traverse(j<<6|bits.TrailingZeros64(m), now)
		}
		pl.allocated[j] = 0
	}
	return moved
}

// requesting reports whether any of the word's n input VCs may request the
// switch.
func (pw *planeWord) requesting(n int) bool {
	var any uint64
	for i := 0; i < n; i++ {
		any |= pw.elig[i&63]
	}
	return any != 0
}

// allocate runs the switch allocation of the 64 routers of word pw and
// moves the pointers of the grants. (Kept out of line: inlined into Step,
// as profile-guided optimisation otherwise does, it costs 3% more
// instructions per cycle; see docs/speed.md.)
//
//go:noinline
func (pl *Plane) allocate(pw *planeWord) {
	P, V := pl.ports, pl.vcs
	// Scratch, on the stack (in each planeWord it cost 72 bytes a router):
	// sel[i] port p requests with VC v; reqs[q<<4|p] input port p requests
	// output port q; grant[q<<4|p] output port q grants input port p.
	var sel [64]uint64
	var reqs, grant [256]uint64
	// Input stage: each input port picks its first eligible VC at or after
	// its pointer, and requests that VC's output port.
	for p := 0; p < P; p++ {
		base := p * V
		var found uint64
		for v := 0; v < V; v++ {
			i := (base + v) & 63
			s := pw.elig[i] & pw.inLE[i] &^ found
			sel[i] = s
			found |= s
		}
		var req [MaxPlanePorts]uint64
		var sv [MaxPlaneVCs]uint64 // the final choice, by VC
		for v := 0; v < V; v++ {
			i := (base + v) & 63
			s := sel[i] | pw.elig[i]&^found
			sel[i] = s
			sv[v&7] = s
			found |= s
			row := &pw.dirQ[i]
			for q := 0; q < P; q++ {
				req[q&15] |= s & row[q&15]
			}
		}
		pw.vbits[p&15] = [3]uint64{sv[1] | sv[3] | sv[5] | sv[7], sv[2] | sv[3] | sv[6] | sv[7], sv[4] | sv[5] | sv[6] | sv[7]}
		for q := 0; q < P; q++ {
			reqs[(q<<4|p)&255] = req[q&15]
		}
	}
	// Output stage: each output port grants its first requesting input
	// port at or after its pointer; the pointer moves past the grant.
	var inGranted [MaxPlanePorts]uint64 // per input port: routers where it won
	for q := 0; q < P; q++ {
		row := q << 4
		var found uint64
		for p := 0; p < P; p++ {
			k := (row | p) & 255
			g := reqs[k] & pw.outLE[k] &^ found
			grant[k] = g
			found |= g
		}
		for p := 0; p < P; p++ {
			k := (row | p) & 255
			g := grant[k] | reqs[k]&^found
			grant[k] = g
			found |= g
			inGranted[p&15] |= g
		}
		pw.granted[q&15] = found
		// The granted input port in binary (grant entries of ports >= P
		// are never written: zero).
		g := (*[16]uint64)(grant[row&255 : row&255+16])
		pw.pbits[q&15] = [4]uint64{
			g[1] | g[3] | g[5] | g[7] | g[9] | g[11] | g[13] | g[15],
			g[2] | g[3] | g[6] | g[7] | g[10] | g[11] | g[14] | g[15],
			g[4] | g[5] | g[6] | g[7] | g[12] | g[13] | g[14] | g[15],
			g[8] | g[9] | g[10] | g[11] | g[12] | g[13] | g[14] | g[15],
		}
		cum := grant[(row|(P-1))&255] // granted the last port: the pointer wraps to 0
		for k := 0; k < P; k++ {
			if k > 0 {
				cum |= grant[(row|(k-1))&255]
			}
			j := (row | k) & 255
			pw.outLE[j] = pw.outLE[j]&^found | cum
		}
	}
	// The input pointers of the ports whose request was granted move past
	// the VC that used the grant.
	for p := 0; p < P; p++ {
		g := inGranted[p&15]
		base := p * V
		cum := sel[(base+V-1)&63] & g
		for k := 0; k < V; k++ {
			j := (base + k) & 63
			if k > 0 {
				cum |= sel[(j-1)&63] & g
			}
			pw.inLE[j] = pw.inLE[j]&^g | cum
		}
	}
}

// traverse moves the winners of word w through their crossbars, output
// port by output port and within a port in router order, or with
// RouterOrder router by router: it lists the granted input VCs in that
// order, then moves their flits (move). It returns the flits moved. (Kept
// out of line, as allocate.)
//
//go:noinline
func (pl *Plane) traverse(w int, now sim.Cycle) int {
	pw := &pl.words[w]
	P, V := pl.ports, pl.vcs
	list := &pl.grants
	k := 0
	if !pl.RouterOrder {
		for q := 0; q < P; q++ {
			pb := &pw.pbits[q&15]
			for g := pw.granted[q&15]; g != 0; g &= g - 1 {
				b := uint(bits.TrailingZeros64(g))
				p := pb[0]>>b&1 | pb[1]>>b&1<<1 | pb[2]>>b&1<<2 | pb[3]>>b&1<<3
				i := int(p)*V + pw.vcAt(p, b, V)
				list[k&(len(list)-1)] = int32(w<<6|int(b))<<6 | int32(i)
				k++
			}
		}
		return pl.move(list[:k], now)
	}
	// The decisions of each router: the input VC each granted output port
	// takes its flit from.
	var any uint64
	for q := 0; q < P; q++ {
		pb := &pw.pbits[q&15]
		g := pw.granted[q&15]
		any |= g
		for ; g != 0; g &= g - 1 {
			b := uint(bits.TrailingZeros64(g))
			p := pb[0]>>b&1 | pb[1]>>b&1<<1 | pb[2]>>b&1<<2 | pb[3]>>b&1<<3
			id := w<<6 | int(b)
			pl.dec[id<<4|q] = int8(int(p)*V + pw.vcAt(p, b, V))
			pl.qset[id] |= 1 << uint(q)
		}
	}
	for ; any != 0; any &= any - 1 {
		id := w<<6 | bits.TrailingZeros64(any)
		qs := pl.qset[id]
		pl.qset[id] = 0
		for ; qs != 0; qs &= qs - 1 {
			i := int(pl.dec[id<<4|bits.TrailingZeros64(qs)])
			list[k&(len(list)-1)] = int32(id)<<6 | int32(i)
			k++
		}
	}
	return pl.move(list[:k], now)
}

// evalSA decides whether input VC i may request the switch in the
// allocation of cycle t, and sets its bit in the plane's request mask
// accordingly. When it may not, it schedules its own re-evaluation for the
// cycle a condition known in advance comes true, or leaves it to the event
// that will change the answer (a flit written into the VC: accept; a slot
// of a full downstream buffer freed: freedSlot).
func (r *Router) evalSA(i int32, t sim.Cycle) { r.plane.evalVC(r.id, i, t) }

// evalVC is evalSA for input VC i of router id of the plane, on the
// plane's network-wide arrays alone: the re-evaluations a plane makes by
// the million (its wheel, its traversal) touch no Router (at 2^20 routers
// each Router is a cache miss of its own). pl must be the router's plane
// (its partition's, when split).
func (pl *Plane) evalVC(id int, i int32, t sim.Cycle) {
	if pl.withdraw(id, i) {
		return
	}
	w, bit := planeBit(id)
	e := &pl.words[w].elig[i&63]
	g0 := id * pl.n
	ivc := &pl.ivc[g0+int(i)]
	d := uint(pl.depth)
	base := (g0 + int(i)) * pl.depth
	due := ivc.readyAt
	if at := pl.frontAt(g0+int(i), int(i), ivc, t); at > due {
		due = at
	}
	if pl.saf {
		// Store-and-forward: the whole packet must have arrived.
		if int32(ivc.count) < ivc.remain {
			return // accept re-evaluates when the tail is written
		}
		if at := pl.slots[base+int(wrap(uint(int32(ivc.head)+ivc.remain-1), d))].t(); at > due {
			due = at
		}
	}
	if due > t {
		pl.atID(due, id, i)
		return
	}
	o := int(ivc.outVC)
	if dg := downVC(ivc.down); dg >= 0 {
		back, full := pl.nextCredit(dg, t)
		if full {
			pl.feederWaits(dg, g0+int(i)) // the downstream buffer is full: its next departure re-evaluates (wakeFeeder)
			return
		}
		if back > t {
			pl.atID(back, id, i) // the slot's credit is on its way back
			return
		}
	} else if pl.ovCredits[g0+o] < 1 {
		return // a sink's counted credits are out: AddCredit re-evaluates
	}
	*e |= bit
}

// withdraw clears the request bit of input VC i of router id, evalVC's
// first step, and reports whether that is all there is to decide: the VC
// is not active or holds no flit, and may not request again before a flit
// is written into it or it is granted an output VC, each of which
// re-evaluates it (written, granted). A partition moving its flits
// withdraws such a VC at once instead of deferring its evaluation past the
// barrier (atID), which spared it the evaluation and the loads touchEvals
// made for it: the evaluations a flit-hop on the 16-ary 4-cube went from
// 0.196 to 0.129 (docs/speed.md#session9). Only the VC's own partition
// reads its bit, in the next allocation.
func (pl *Plane) withdraw(id int, i int32) bool {
	w, bit := planeBit(id)
	pl.words[w].elig[i&63] &^= bit
	ivc := &pl.ivc[id*pl.n+int(i)]
	return ivc.state != vcActive || ivc.count == 0
}

// nextCredit returns the cycle the credit for the next flit into global
// input VC g is back (its next slot's free cycle plus CreditDelay), or
// full when the buffer has no free slot: freeFor(g, 1, ·) on the plane's
// arrays, for the feeder's decision in cycle t. With anonymous bodies a
// buffer that is not full has its credit back by t: every slot was freed
// before t (the plane asks after the frees of the cycle before t, never
// during those of t), and the credit delay is one cycle.
func (pl *Plane) nextCredit(g int, t sim.Cycle) (back sim.Cycle, full bool) {
	dv := &pl.ivc[g]
	d := uint(pl.depth)
	if uint(dv.count) >= d {
		return 0, true
	}
	if pl.anon {
		return t, false
	}
	return pl.writeSlot(g, dv, false).t() + pl.credit, false // (not anon: every flit has its slot)
}

// wakeFeeder is called when a flit leaves global input VC g in cycle now
// while the input VC feeding it upstream waits for room (evalVC found the
// buffer full and set feederWaits, and the waiter): the feeder may send
// into the freed slot from now + CreditDelay on, and is re-evaluated then.
// (Only a router feeds a VC evalVC finds full: a NIC fills the local
// port's VCs, which no output VC leads to.)
func (pl *Plane) wakeFeeder(g int, now sim.Cycle) {
	w := pl.waiter[g]
	id, i := int(w)/pl.n, w%int32(pl.n)
	if pl.foreign(id) {
		pl.crossWake(id, i) // another partition's router: woken after the barrier (ApplyPart)
		return
	}
	pl.atID(now+pl.credit, id, i)
}

// What a move leaves to moveSlow (bits of move's result).
const (
	movedWritten = 1 << iota // the flit reached the front of an empty VC downstream, or completed a store-and-forward packet: planeWritten
	movedFeeder              // the VC feeding this one upstream waits for the freed slot: wakeFeeder
	movedTail                // the packet's tail left: tailLeft, then evalSA
	movedEval                // the VC's request for the next cycle is not decided: evalSA
	movedCross               // the downstream router is another partition's (Split): crossFlit
	movedBody                // with movedCross: the flit was an anonymous body, which its slot does not hold (anon)
)

// move moves the front flit of each listed input VC (id<<6 | i: VC i of
// router id), granted the switch in cycle now, into the
// downstream buffer (or to the sink), in list order, and decides at once
// whether the VC may request again in the next cycle: it is still active
// and past its pipeline delays, so only its next flit and its next credit
// are in question (for store-and-forward the whole packet arrived before
// its head left). It returns the flits moved.
//
// It works on the plane's network-wide arrays, and its common path calls
// nothing (a call in the loop has the compiler save and reload every live
// value around it): what needs the routers' own code is collected as
// moved* bits and run by moveSlow before the next flit moves, in the order
// a single routine would. Deciding the VC's next request before those
// calls is the same decision: they run on other routers (the downstream
// VC's reaction, the upstream feeder's re-evaluation) or end the packet,
// after which evalSA decides anew. The routers' buffered counts are not
// kept here (Buffered counts the VCs).
func (pl *Plane) move(list []int32, now sim.Cycle) int {
	d := pl.depth
	next := now + 1
	ivcs, slots := pl.ivc, pl.slots
	ss, pm, tm := pl.slotStride, pl.posMask, pl.tailMask // slotIndex's terms, held in locals: the loop's stores would have them reloaded from pl
	n := pl.n
	if pl.touchAhead {
		pl.touch(list)
	}
	for _, e := range list {
		id, i := int(e>>6), int(e&63)
		g0 := id * n
		g := g0 + i
		ivc := &ivcs[g]
		h := uint(ivc.head)
		// An anonymous body (anon): its slot is touched at neither end (a
		// local port's VC still frees its slot, which the NIC reads, unless
		// its bodies go without: slotsFrom).
		body := pl.bodyFront(ivc)
		tail := ivc.remain == 1 // (remain counts the packet's flits still here or upstream: startRouting)
		var sl *slot
		if !body || i >= pl.slotsFrom {
			sl = &slots[g*ss+int(h&pm|b2u(tail)&tm)]
			sl.setT(now) // freed
		}
		ivc.head = uint16(wrap(h+1, uint(d)))
		ivc.count--
		ivc.remain--
		ivc.headNext = false
		o := int(ivc.outVC)
		dg := int(ivc.down)
		var slow uint
		if dg >= 0 {
			dv := &ivcs[dg]
			if uint(dv.count) >= uint(d) {
				panic(pl.router(dg / n).overflow(dg % n))
			}
			if !body {
				ds := &slots[dg*ss+int(wrap(uint(dv.head+dv.count), uint(d))&pm|b2u(tail)&tm)]
				ds.copyHop(sl, now+pl.link)
			}
			dv.lastAt = uint32(now + pl.link)
			dv.count++
			if dv.count == 1 || pl.saf && int32(dv.count) == dv.remain {
				slow = movedWritten
			}
			// The next credit: nextCredit(dg) written out on the loop's
			// locals (with anon, a buffer that is not full has one).
			if uint(dv.count) >= uint(d) || !pl.anon && slots[dg*d+int(wrap(uint(dv.head+dv.count), uint(d)))].t()+pl.credit > next {
				slow |= movedEval // no credit for the next flit in the next cycle
			}
		} else if dg < -1 {
			slow = movedCross | movedEval // written after the barrier, which decides the VC's next request
			if body {
				slow |= movedBody
			}
		} else {
			if o < pl.noInfinite { // the local port's count is unlimited: its line is not even read
				c := &pl.ovCredits[g0+o]
				if *c--; *c < 1 {
					slow = movedEval
				}
			}
			k := len(pl.Ejected)
			pl.Ejected = pl.Ejected[:k+1] // (NewPlane gives it room for one flit per output port to a sink)
			if body {
				pl.Ejected[k] = pl.ejectedBody(g)
			} else {
				pl.Ejected[k] = sl.flit()
			}
		}
		if ivc.feederWaits {
			ivc.feederWaits = false
			slow |= movedFeeder
		}
		if tail {
			slow |= movedTail
		} else if ivc.count == 0 || pl.frontAt(g, i, ivc, next) > next {
			slow |= movedEval // the next flit is not there in the next cycle
		}
		if slow != 0 {
			pl.moveSlow(id, i, slow, now)
		}
	}
	return len(list)
}

// frontAt returns the cycle the front flit of global input VC g (VC i of
// its router; ivc, holding at least one) arrives, or t when it has arrived
// by cycle t. With anonymous bodies a VC between routers answers from its
// record alone: the front flit of c arrived at least c-1 cycles before the
// last one (lastAt), as flits enter a VC at most one a cycle, and with
// links of at most two cycles that settles it whenever the plane asks
// (after the cycle that wrote the last flit); a VC's slots are read only
// for flits a router alone wrote (before NewPlane) and in the VCs whose
// bodies keep theirs (from slotsFrom on: the local port's, unless the
// injection latency lets them go). Routers that keep only their heads' and
// tails' slots (headTail) took no flit before NewPlane and have every VC
// slotless, so their slots are never read here (the index stays within
// the VC's two all the same).
func (pl *Plane) frontAt(g, i int, ivc *inputVC, t sim.Cycle) sim.Cycle {
	if ivc.allArrived(t) {
		return t
	}
	if pl.anon && i < pl.slotsFrom {
		if ivc.count == 1 {
			return t + sim.Cycle(int32(ivc.lastAt-uint32(t))) // the front flit is the last one
		}
		if int32(ivc.lastAt-uint32(t)) <= int32(ivc.count)-1 {
			return t
		}
	}
	return max(pl.slots[g*pl.slotStride+int(uint(ivc.head)&pl.posMask)].t(), t)
}

// bodyFront reports whether the front flit of input VC ivc is a body that
// moves without its slot (anon): neither its packet's head (headNext) nor
// its tail (remain). A local port's VC still keeps its slots (the NIC
// reads them, unless NewPlane's injectLatency lets them go); callers that
// care test the VC's index (slotsFrom).
func (pl *Plane) bodyFront(ivc *inputVC) bool { return pl.anon && !ivc.headNext && ivc.remain != 1 }

// SetTouchAhead sets whether the plane loads the lines of its moves ahead
// of them (touchAhead), which NewPlane decides by the size of the slots and records
// (touchAbove): for tests, whose networks are far smaller, to show that
// the loads change nothing. It must be called before Split.
func (pl *Plane) SetTouchAhead(on bool) {
	if pl.part != nil || pl.split != nil {
		panic("router: SetTouchAhead after Split")
	}
	pl.touchAhead = on
}

// TouchesAhead reports whether the plane and each of its partitions load
// the lines of their moves ahead of them: for tests, to show that a run
// asked to do so (SetTouchAhead) did.
func (pl *Plane) TouchesAhead() bool {
	for _, p := range pl.planes() {
		if !p.touchAhead {
			return false
		}
	}
	return true
}

// packetOf is flit f's packet and destination as Plane.ejecting keeps them.
func packetOf(f Flit) uint64 { return uint64(uint32(f.Packet))<<32 | uint64(uint32(f.Dest)) }

// ejectedBody returns the body flit leaving global input VC g (anon) for
// the sink: its packet and destination from ejecting, and no hop count
// (only tails report one).
func (pl *Plane) ejectedBody(g int) Flit {
	k := pl.ejecting[pl.ejectingAt(g/pl.n, int(pl.ivc[g].outVC))]
	return Flit{Packet: int32(k >> 32), Dest: int32(uint32(k))}
}

// ejectingAt is where ejecting keeps output VC o (leading to a sink) of
// router id.
func (pl *Plane) ejectingAt(id, o int) int {
	q, v := o/pl.vcs, o%pl.vcs
	return (id*pl.sinkPorts+int(pl.sinkAt[q&(MaxPlanePorts-1)]))*pl.vcs + v
}

// moveSlow runs what move left to the routers' own code (slow: not 0)
// for the flit that left router id's input VC i in cycle now: the
// downstream VC's reaction to the write, the waiting feeder's
// re-evaluation, the end of the packet, and the VC's own re-evaluation.
func (pl *Plane) moveSlow(id, i int, slow uint, now sim.Cycle) {
	ivc := &pl.ivc[id*pl.n+i] // router id's input VC i (its r.in[i])
	o := int32(ivc.outVC)
	if slow&movedWritten != 0 {
		pl.written(int(ivc.down), now+pl.link)
	}
	if slow&movedCross != 0 {
		pl.crossFlit(id*pl.n+i, downVC(ivc.down), slow&movedBody != 0)
	}
	if slow&movedFeeder != 0 {
		pl.wakeFeeder(id*pl.n+i, now)
	}
	if slow&movedTail != 0 {
		pl.router(id).tailLeft(i, o, int32(ivc.outPort), now)
		slow |= movedEval
	}
	if slow&movedEval != 0 {
		pl.atID(now+1, id, int32(i)) // at once; in a partition after the barrier (atID defers it)
	}
}

// written follows the write of a flit, arriving in cycle at, into global
// input VC g of the plane (its router's plane) when it may make the VC
// eligible (count 1, or a completed store-and-forward packet): an active
// VC is re-evaluated then, without touching its Router; the front flit of
// an idle VC starts its routing, which needs the Router.
func (pl *Plane) written(g int, at sim.Cycle) {
	switch ivc := &pl.ivc[g]; {
	case ivc.state == vcActive:
		pl.atID(at, g/pl.n, int32(g%pl.n))
	case ivc.state == vcIdle && ivc.count == 1:
		r, j := pl.router(g/pl.n), g%pl.n
		r.startRouting(j, at)
		r.mark(r.portVC(j))
	}
}

// writeSlot is the slot the next flit written into global input VC g
// (ivc, not full) takes, a tail or not: the one after its last (with
// headTail, the head's or the tail's).
func (pl *Plane) writeSlot(g int, ivc *inputVC, tail bool) *slot {
	return &pl.slots[pl.slotIndex(g, wrap(uint(ivc.head+ivc.count), uint(pl.depth)), tail)]
}

// accept writes flit f, arriving in cycle at, into global input VC g of
// the plane (a flit from another partition's router, or written by a
// router's own Accept; routers of the plane write by move) and has the VC
// re-evaluated when the flit may make it eligible. It works on the plane's
// arrays alone, as Inject does.
func (pl *Plane) accept(g int, f Flit, at sim.Cycle) {
	ivc := &pl.ivc[g]
	d := uint(pl.depth)
	if uint(ivc.count) >= d {
		panic(pl.router(g / pl.n).overflow(g % pl.n))
	}
	if f.Flags&(Head|Tail) == 0 && pl.anon && g%pl.n < pl.slotsFrom {
		pl.arrived(g, ivc, at) // an anonymous body from another partition (crossFlit): nothing reads its slot, and with headTail it has none
		return
	}
	pl.fill(g, pl.writeSlot(g, ivc, f.Flags&Tail != 0), f, at)
}

// Inject is Router.Inject for input VC (port, vc) of router id of the
// plane, on the plane's arrays: a NIC's flit is written without the
// Router's lines (issue 20: at 2^20 routers each is a cache miss of its
// own; only a head's routing start, in written, reads them). pl must be
// the router's plane (its partition's, when split), and port its local
// port, which only a NIC feeds: with slotless local VCs
// (NewPlane's injectLatency) the VCs of other ports take flits from routers
// only (move), and Inject panics for them.
func (pl *Plane) Inject(id, port, vc int, f Flit, now, at sim.Cycle) bool {
	g := id*pl.n + port*pl.vcs + vc
	ivc := &pl.ivc[g]
	d := uint(pl.depth)
	if pl.slotsFrom == pl.n {
		// Slotless local VCs (NewPlane's injectLatency): the credit is the
		// count, as for the VCs between routers (nextCredit), and a body
		// writes no slot.
		if at > now+1 || port*pl.vcs < pl.localIVC {
			panic(fmt.Sprintf("router %d: a flit injected into port %d in cycle %d arriving in cycle %d: the plane was set for NICs on the local port whose flits take at most a cycle", id, port, now, at))
		}
		if uint(ivc.count) >= d {
			return false
		}
		if f.Flags&(Head|Tail) == 0 {
			// fill's bookkeeping without the slot (through fill with a nil
			// slot the 8x8 torus at 0.2 lost 2% of its flit-hops/s,
			// scripts/ab.sh, six rounds).
			pl.arrived(g, ivc, at)
			return true
		}
		if f.Flags&Head != 0 {
			if f.Len < pl.minPacket {
				panic(fmt.Sprintf("router %d: packet %d of %d flits injected into a plane whose routers keep only heads' and tails' slots, for packets of %d flits or more", id, f.Packet, f.Len, pl.minPacket))
			}
			pl.injecting[id*pl.vcs+vc] = f.Packet
		}
		pl.fill(g, pl.writeSlot(g, ivc, f.Flags&Tail != 0), f, at)
		return true
	}
	sl := pl.writeSlot(g, ivc, f.Flags&Tail != 0) // (not headTail: every flit has its slot)
	if uint(ivc.count) >= d || sl.t() > now-pl.credit {
		return false
	}
	pl.fill(g, sl, f, at)
	return true
}

// CanAccept is Router.CanAccept for input VC (port, vc) of router id of
// the plane, on the plane's arrays (Inject's test).
func (pl *Plane) CanAccept(id, port, vc int, now sim.Cycle) bool {
	g := id*pl.n + port*pl.vcs + vc
	ivc := &pl.ivc[g]
	d := uint(pl.depth)
	if pl.slotsFrom == pl.n {
		return uint(ivc.count) < d
	}
	return uint(ivc.count) < d && pl.writeSlot(g, ivc, false).t() <= now-pl.credit // (not headTail)
}

// arrived is fill's bookkeeping for an anonymous body, which is written
// into global input VC g (ivc) without a slot, arriving in cycle at
// (store-and-forward, fill's other case, has no anonymous bodies).
func (pl *Plane) arrived(g int, ivc *inputVC, at sim.Cycle) {
	ivc.lastAt = uint32(at)
	if ivc.count++; ivc.count == 1 {
		pl.written(g, at)
	}
}

// fill writes flit f, arriving in cycle at, into sl, the write slot of
// global input VC g, and follows the write (written) when the flit may
// make the VC eligible (move tests the same on its locals).
func (pl *Plane) fill(g int, sl *slot, f Flit, at sim.Cycle) {
	sl.put(g/pl.n, f, at)
	ivc := &pl.ivc[g]
	ivc.lastAt = uint32(at)
	ivc.count++
	if ivc.count == 1 || pl.saf && int32(ivc.count) == ivc.remain {
		pl.written(g, at)
	}
}

// touchAbove is the size of the slots and input VC records above which
// move touches its lines first: 32 MiB, the last-level cache of the
// machine it was measured on (on the 8x8 torus touching cost 14% of
// cycles/s). The records count since the slots can be two a VC
// (Storage's heads' and tails' slots): by the slots alone the 256x256
// torus (21 MB of them, 84 before) stopped touching and lost 5% of its
// speed on one thread and 15% on two (docs/speed.md#session21).
const touchAbove = 32 << 20

// touchEvals loads, ahead of evalVC, the lines evalVC will read for the
// listed input VCs (id<<6 | i; negative entries skipped): each input VC and
// its request word, then its head slot and the input VC and slots it feeds
// (touchHop).
//
//go:noinline
func (pl *Plane) touchEvals(list []int32) {
	n, ivcs := pl.n, pl.ivc
	var sink uint64
	for _, x := range list {
		if x >= 0 {
			id := int(x >> 6)
			sink += uint64(ivcs[id*n+int(x&63)].head) + pl.words[id>>6].elig[x&63]
		}
	}
	for _, x := range list {
		if x >= 0 {
			sink += pl.touchHop(int(x>>6)*n+int(x&63), true)
		}
	}
	pl.sink += sink
}

// touchVAWords is how many words of routers touchVA loads ahead at once.
const touchVAWords = 8

// touchVA loads, ahead of VC allocation, the first lines it reads for the
// routers of words [w0, w1) that take part in it: each Router's line of
// its VC-allocation fields, then the input VCs waiting (up to 64 input
// VCs: vaVCs), so that the two misses of each header's allocation overlap
// those of the others instead of coming one after the other (16-ary 5-cube
// at 0.05 on two threads: +4% flit-hops/s, docs/speed.md#session9).
//
//go:noinline
func (pl *Plane) touchVA(w0, w1 int) {
	var sink uint64
	for w := w0; w < w1; w++ {
		for m := pl.vaWait[w]; m != 0; m &= m - 1 {
			sink += pl.router(w<<6 | bits.TrailingZeros64(m)).vaVCs
		}
	}
	for w := w0; w < w1; w++ {
		for m := pl.vaWait[w]; m != 0; m &= m - 1 {
			id := w<<6 | bits.TrailingZeros64(m)
			for v := pl.router(id).vaVCs; v != 0; v &= v - 1 {
				sink += uint64(pl.ivc[id*pl.n+bits.TrailingZeros64(v)].readyAt)
			}
		}
	}
	pl.sink += sink
}

// touch loads, ahead of move, the lines move will read or write for list:
// first each input VC, then the head slot it names and the downstream VC
// and slots its down entry names (touchHop), so that the cache misses of a
// stage overlap each other instead of each stalling move in turn (issue
// 20: at 2^16 routers and more nearly every one of them misses; on the
// 16-ary 4-cube at 0.05 this took the flit-hops/s from 2.54 to 3.02 M with
// huge pages, docs/speed.md#touch). For a head it loads the downstream
// Router's lines its routing start reads (touchRouting); for the input VCs
// whose front flit is a tail it then loads what the tail's release reads
// (touchTails).
//
//go:noinline
func (pl *Plane) touch(list []int32) {
	n := pl.n
	var sink uint64
	for _, e := range list {
		sink += uint64(pl.ivc[int(e>>6)*n+int(e&63)].head)
	}
	tails := pl.tails[:0]
	for _, e := range list {
		g := int(e>>6)*n + int(e&63)
		sink += pl.touchHop(g, false)
		ivc := &pl.ivc[g]
		if ivc.remain == 1 { // the front flit is the tail
			tails = append(tails, e)
		} else if ivc.headNext && ivc.down >= 0 { // a head bound for a router of this partition (another's is crossVC, below -1): it may start routing there (written)
			sink += pl.touchRouting(int(ivc.down) / n)
		}
	}
	pl.tails = tails
	pl.sink += sink + pl.touchTails(tails)
}

// touchRouting loads the lines of router id that a head written into one
// of its input VCs reads when it starts routing there (written:
// startRouting, computeRoute, mark): the Router's first four lines, one
// byte a line, which hold every field those read (routerHotBytes;
// TestRouterHotLines). The 16-ary 5-cube at 0.05
// (docs/speed.md#session23): one thread 1.055 and 1.087 times the
// flit-hops/s (scripts/abw.sh), where loading one line (the branch
// exp-routeline, session 20, which took the line of depth for the first)
// changed nothing, and loading only the fields' own words (exp-routelines)
// gained less; session 23's Router was 600 bytes and its fields spread
// over up to seven lines, since session 24 it is 512 and they lie in four
// (docs/speed.md#session24). Router id must be of pl's partition (touch
// passes only downstream VCs of its own, down >= 0: Split marks the others
// crossVC, TestSplitMarksForeignLinks): another partition's router starts
// routing after the barrier, and its thread may be writing it now.
func (pl *Plane) touchRouting(id int) (sink uint64) {
	r := pl.router(id)
	p := unsafe.Pointer(r)
	for off := uintptr(0); off < routerHotBytes; off += 64 {
		sink += uint64(*(*byte)(unsafe.Add(p, off)))
	}
	return sink
}

// touchTails loads, ahead of move, what releasing the output VC of each
// listed input VC (id<<6 | i) reads when its tail leaves (tailLeft): the
// Router's lines of the release's fields, then the output VC's owner
// (16-ary 5-cube at 0.05 on two threads: +3% flit-hops/s,
// docs/speed.md#session9; the occupancy record it loaded too is the
// plane's since session 16).
func (pl *Plane) touchTails(tails []int32) (sink uint64) {
	for _, e := range tails {
		r := pl.router(int(e >> 6))
		sink += uint64(r.waitingVA) + uint64(r.freeOV)
	}
	for _, e := range tails {
		r := pl.router(int(e >> 6))
		ivc := &pl.ivc[int(e>>6)*pl.n+int(e&63)]
		sink += uint64(r.outs[ivc.outVC].owner)
	}
	return sink
}

// touchHop loads the head slot of global input VC g (its record loaded
// before) and the input VC and slots its granted output VC feeds, for
// touch (eval false) and touchEvals (eval true); what it returns keeps the
// loads. With anonymous bodies (anon) a VC between routers needs the
// downstream VC's record only when its front flit is a body, or when it
// is re-evaluated (evalVC then reads no slot).
func (pl *Plane) touchHop(g int, eval bool) (sink uint64) {
	ivc := &pl.ivc[g]
	body := (eval && pl.anon || pl.bodyFront(ivc)) && g%pl.n < pl.slotsFrom
	ss := pl.slotStride
	if !body {
		sink = pl.slots[pl.slotIndex(g, uint(ivc.head), frontTail(ivc))].tx
	}
	if dg := int(ivc.down); dg >= 0 {
		sink += uint64(pl.ivc[dg].count)
		if !body {
			for k := 0; k < ss; k += 4 {
				sink += pl.slots[dg*ss+k].tx
			}
		}
	}
	return sink
}
