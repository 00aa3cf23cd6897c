package router

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"unsafe"

	"github.com/flitsim/flitsim/router/alloc"

	"github.com/flitsim/flitsim/sim"
)

// Switching is a switching technique (flow control at packet granularity).
type Switching uint8

// The switching techniques a Router implements.
const (
	Wormhole          Switching = iota // flit-by-flit, one credit per flit
	VirtualCutThrough                  // VC granted only with room for the whole packet downstream
	StoreAndForward                    // as VirtualCutThrough, and the whole packet buffered before the head leaves
	Scouting                           // a routing header runs Arch.ScoutingDistance links ahead of the data and may backtrack (scouting.go)
)

var switchingNames = [...]string{"wormhole", "virtual-cut-through", "store-and-forward", "scouting"}

func (s Switching) String() string {
	if int(s) < len(switchingNames) {
		return switchingNames[s]
	}
	return fmt.Sprintf("Switching(%d)", s)
}

// ParseSwitching returns the Switching named s ("wormhole",
// "virtual-cut-through", "store-and-forward", "scouting").
func ParseSwitching(s string) (Switching, error) {
	for i, n := range switchingNames {
		if n == s {
			return Switching(i), nil
		}
	}
	return 0, fmt.Errorf("unknown switching %q (want wormhole, virtual-cut-through, store-and-forward or scouting)", s)
}

// Arch is the micro-architecture shared by every router of a network (a
// network configuration's router section). The zero value is not valid:
// VCs and BufferDepth must be set.
type Arch struct {
	VCs         int // virtual channels per port, >= 1
	BufferDepth int // flits per input VC, >= 1

	// Pipeline stage delays in cycles (>= 0); see the package documentation
	// for the timing diagram. All zero gives a one-cycle-per-hop router whose
	// only per-hop cost is the link latency.
	RoutingDelay         int
	VCAllocDelay         int
	SwitchAllocDelay     int
	SwitchTraversalDelay int

	Switching Switching

	// HoldClass makes a head that leaves a router by the port it entered
	// through (it continues in the same dimension and direction, by
	// package topology's port convention) keep the VC class of its input
	// VC when that is higher than the class the routing function gives:
	// the dateline class a packet takes on entering a ring (1 if it will
	// cross the wrap-around, else 0) is then held until it leaves the
	// ring, BookSim 2's dim_order_torus policy, instead of dropping to 0
	// after the wrap-around (datelineClass in package topology). Both are
	// deadlock-free. It applies to single-candidate routing decisions
	// (dimension order), not to adaptive selection, and never on the
	// local port.
	HoldClass bool

	// StickyEscape keeps a packet that has entered an escape VC of
	// adaptive routing (Config.Adaptive with escape classes) on escape VCs
	// until it is delivered, as BookSim 2's min_adapt_mesh and
	// min_adapt_torus do; without it (Duato's rule) a packet on an escape
	// VC may take an adaptive VC again at the next router.
	StickyEscape bool

	// AdaptiveVC is how adaptive selection (Config.Adaptive) takes output
	// VCs: WholePacket, the default, or BookSimVC (see AdaptiveVC).
	AdaptiveVC AdaptiveVC

	// VCAllocator and SwitchAllocator name allocators of package alloc
	// ("islip", "wavefront", "separable-input-first",
	// "separable-output-first") for VC and switch allocation, with
	// AllocIterations the iterations of iSLIP (0 means 1). Empty, the
	// default, is the built-in separable input-first round robin of the
	// package documentation, which a Plane runs too; a named allocator
	// runs on each router's own path (Step), more slowly. A VC allocator
	// serves routers of at most 64 VCs in all (ports x VCs) and applies
	// to single-candidate routing (adaptive selection and scouting keep
	// their own input stage). The switch allocator matches input ports
	// with output ports; each input port offers, per output port, its
	// first eligible VC at or after its round-robin pointer.
	VCAllocator, SwitchAllocator string
	AllocIterations              int

	// ScoutingDistance is K of scouting switching (>= 0, Scouting only):
	// the first data flit may leave a router only while the header has
	// reserved at least K links beyond the one it is about to take. K = 0
	// is wormhole switching exactly (the same code path).
	ScoutingDistance int
}

// Validate reports the first problem with c, or nil.
func (c Arch) Validate() error {
	switch {
	case c.VCs < 1:
		return fmt.Errorf("router: VCs = %d, want >= 1", c.VCs)
	case c.VCs > 64:
		return fmt.Errorf("router: VCs = %d, want <= 64", c.VCs)
	case c.BufferDepth > MaxBufferDepth:
		return fmt.Errorf("router: BufferDepth = %d, want <= %d", c.BufferDepth, MaxBufferDepth)
	case c.BufferDepth < 1:
		return fmt.Errorf("router: BufferDepth = %d, want >= 1", c.BufferDepth)
	case c.RoutingDelay < 0 || c.VCAllocDelay < 0 || c.SwitchAllocDelay < 0 || c.SwitchTraversalDelay < 0:
		return fmt.Errorf("router: pipeline delays must be >= 0 (got %d, %d, %d, %d)",
			c.RoutingDelay, c.VCAllocDelay, c.SwitchAllocDelay, c.SwitchTraversalDelay)
	case c.Switching > Scouting:
		return fmt.Errorf("router: unknown switching %d", c.Switching)
	case c.ScoutingDistance < 0:
		return fmt.Errorf("router: ScoutingDistance = %d, want >= 0", c.ScoutingDistance)
	case c.ScoutingDistance > 0 && c.Switching != Scouting:
		return fmt.Errorf("router: ScoutingDistance = %d needs scouting switching, not %s", c.ScoutingDistance, c.Switching)
	case c.AdaptiveVC > BookSimVC:
		return fmt.Errorf("router: unknown AdaptiveVC %d", c.AdaptiveVC)
	case c.AdaptiveVC == BookSimVC && c.Switching == Scouting:
		return fmt.Errorf("router: AdaptiveVC %s applies to adaptive selection without scouting", c.AdaptiveVC)
	case c.AllocIterations < 0:
		return fmt.Errorf("router: AllocIterations = %d, want >= 0", c.AllocIterations)
	}
	for _, a := range []string{c.VCAllocator, c.SwitchAllocator} {
		if a != "" && !slices.Contains(alloc.Names, a) {
			return fmt.Errorf("router: unknown allocator %q (want one of %v)", a, alloc.Names)
		}
	}
	return nil
}

// HopDelay is the number of cycles a head flit spends in one router at zero
// load, from being written into an input buffer to entering the output link:
//
//	RoutingDelay + VCAllocDelay + SwitchAllocDelay + SwitchTraversalDelay
func (c Arch) HopDelay() int {
	return c.RoutingDelay + c.VCAllocDelay + c.SwitchAllocDelay + c.SwitchTraversalDelay
}

// Flag marks the head and tail flits of a packet (a one-flit packet is both).
type Flag uint8

// Flit flags.
const (
	Head Flag = 1 << iota
	Tail
)

// Flit is the unit of flow control. It is a small value copied through ring
// buffers and delay lines; packet metadata lives in the network's packet
// table, indexed by Packet.
type Flit struct {
	Packet int32 // packet id in the network's packet table
	Dest   int32 // destination router, read by the head for routing
	Len    int32 // packet length in flits, read by the head (cut-through checks)
	Flags  Flag
	Hops   uint16 // links crossed so far, counted by the network (in the struct's padding); a router's buffers keep it on every flit but the head of a multi-flit packet, whose slot holds Len there (see slot), and a plane with anonymous bodies keeps it on neither (Plane.anon): read it from the tail
}

// IsHead reports whether f is its packet's head flit.
func (f Flit) IsHead() bool { return f.Flags&Head != 0 }

// IsTail reports whether f is its packet's tail flit.
func (f Flit) IsTail() bool { return f.Flags&Tail != 0 }

// Candidate is one admissible output of a routing decision: an output port
// and the VC class to use on it. Classes split a port's VCs into equal
// contiguous ranges (class c of C uses VCs [c*V/C, (c+1)*V/C)).
type Candidate struct {
	Port  int
	Class int
}

// RouteFunc computes the admissible outputs for a packet at router cur bound
// for dest, appending them to buf (which has capacity for every port). At the
// destination it must return the local port.
type RouteFunc func(cur, dest int, buf []Candidate) []Candidate

// Departure is a flit leaving the router in this cycle through an output port
// on an output VC (VC is the index within the port).
type Departure struct {
	Port, VC int
	Flit     Flit
}

// CreditReturn frees one buffer slot of input VC (Port, VC) of this router;
// the network carries it back to whoever feeds that input.
type CreditReturn struct {
	Port, VC int
}

// input VC states.
const (
	vcIdle      uint8 = iota // no packet at the front
	vcRouting                // head (scouting: header) at the front, route known from readyAt on; then requests VA
	vcActive                 // owns output VC outVC; flits request SA
	vcScoutWait              // scouting: owns output VC outVC, the data waits for the header's acknowledgements
)

// slot is one flit place of an input buffer: 16 bytes (issue 20: the
// buffers are most of a large network's memory). It packs a Flit and one
// stamp:
//
//	pf    the packet id (below 2^30) and the Head and Tail flags in bits 30, 31
//	dest  the destination
//	tx    the stamp t in the high 40 bits (signed: one arithmetic shift reads it) and x in the low 24 bits
//
// t is the arrival cycle of the flit the slot holds (invisible before), or,
// while it is empty, the cycle it was last emptied (its credit is the
// feeder's CreditDelay later): only a held slot's arrival and only an empty
// slot's free cycle are ever read. x is the packet length for a head that
// is not its packet's tail (only heads read Len) and the links crossed for
// every other flit (only tails report Hops): a flit read back from a slot
// (Sent, Plane.Ejected) has Hops 0 if it is the head of a multi-flit
// packet, and Len only on heads. Lengths and hop counts up to 2^24-1 fit.
// A plane with anonymous bodies (Plane.anon) writes and reads the slots of
// heads and tails only between routers: there a body's slot holds
// whatever it held before, and Plane.Ejected gives a body its packet and
// destination from Plane.ejecting, with Hops 0. Routers whose Storage
// keeps only heads' and tails' slots (NewStorage's minPacket, for such a
// plane) have two slots an input VC, not one a flit: its head's and its
// tail's (Plane.slotIndex, Router.frontSlot).
type slot struct {
	pf   uint32
	dest int32
	tx   uint64
}

// The slot's packing.
const (
	xBits     = 24
	xMask     = 1<<xBits - 1
	stampBits = 64 - xBits
	headBit   = uint32(Head) << 30
	tailBit   = uint32(Tail) << 30
	maxPacket = 1 << 30
)

// MaxPacketFlits is the longest packet a router's buffer slot can carry
// (its length and hop count share the slot's top 24 bits).
const MaxPacketFlits = xMask

// t returns the slot's stamp.
func (s *slot) t() sim.Cycle { return sim.Cycle(int64(s.tx) >> xBits) }

// setT sets the stamp (the free cycle of a slot being emptied).
func (s *slot) setT(c sim.Cycle) { s.tx = uint64(c)<<xBits | s.tx&xMask }

// headOnly reports whether the slot's flit is a head but not a tail (its
// x is the packet length).
func (s *slot) headOnly() bool { return s.pf>>30 == uint32(Head) }

// put writes flit f, arriving in cycle at, into the slot of router id.
func (s *slot) put(id int, f Flit, at sim.Cycle) {
	x := uint64(f.Hops)
	if f.Flags&(Head|Tail) == Head {
		x = uint64(f.Len)
	}
	if uint32(f.Packet) >= maxPacket || x > xMask {
		panic(fmt.Sprintf("router %d: flit of packet %d (length %d) beyond a slot's packet ids (2^30) or lengths (2^24)", id, f.Packet, f.Len))
	}
	s.pf, s.dest = uint32(f.Packet)|uint32(f.Flags&(Head|Tail))<<30, f.Dest
	s.tx = uint64(at)<<xBits | x
}

// copyHop writes the flit of slot from, one link further on, arriving in
// cycle at, into s (a plane's traversal).
func (s *slot) copyHop(from *slot, at sim.Cycle) {
	s.pf, s.dest = from.pf, from.dest
	s.tx = uint64(at)<<xBits | (from.tx+uint64(b2u(!from.headOnly())))&xMask
}

// flit returns the slot's flit (see slot for its Len and Hops).
func (s *slot) flit() Flit {
	f := Flit{Packet: int32(s.pf &^ (headBit | tailBit)), Dest: s.dest, Flags: Flag(s.pf >> 30)}
	x := s.tx & xMask
	switch {
	case s.headOnly():
		f.Len = int32(x)
	case f.Flags&Head != 0:
		f.Len, f.Hops = 1, uint16(x)
	default:
		f.Hops = uint16(x)
	}
	return f
}

// packet returns the packet id of the slot's flit.
func (s *slot) packet() int32 { return int32(s.pf &^ (headBit | tailBit)) }

// portState is one port's allocation state: its work masks (bit v set when
// VC v may request the switch, i.e. is active with flits, or waits for VC
// allocation), its switch-allocator pointers and the allocator's scratch.
type portState struct {
	saMask   uint64 // as an input port: VCs requesting the switch
	vaMask   uint64 // as an input port: VCs waiting for VC allocation, when the router has more than 64 input VCs (else Router.vaVCs)
	saReqBy  uint64 // SA scratch, as an output port: the input ports requesting it
	saInPtr  int16  // SA input-stage pointer (ports and VCs are at most 64)
	saOutPtr int16  // SA output-stage pointer
	saReqVC  int16  // SA scratch, as an input port: the VC it requests with
	link            // as an output port: where it leads (fabric.go)
}

// inputVC is one input VC's state: 32 bytes, two to a cache line (ports
// and VCs are at most 64, so port and VC numbers fit 16 bits; buffers
// are at most MaxBufferDepth flits, so ring positions and counts do).
type inputVC struct {
	head, count uint16 // ring buffer position and occupancy
	// lastAt is the low 32 bits of the arrival cycle of the flit last
	// written into the VC: while the VC holds flits, every one of them has
	// arrived by a cycle c when int32(lastAt-uint32(c)) <= 0 (flits are
	// written in their arrival order), so a traversal need not read the
	// next flit's slot to know it is there (allArrived).
	lastAt     uint32
	outVC      int16 // granted output VC, absolute index port*V+vc
	vcLo, vcHi int8  // admissible output VCs [vcLo, vcHi) within port outPort (VCs are at most 64): vcSpan
	remain     int32 // flits of the current packet not yet sent
	// down is, in a plane, the global input VC the granted output VC
	// feeds (the plane's down entry of outVC, copied at the grant so that
	// a flit's hop reads no table line: issue 20), as that table encodes it.
	down    int32
	outPort int8 // chosen output port (from routing; ports are at most 64)
	// headNext is set while the front flit is its packet's head, from the
	// start of its routing until it leaves: a plane with anonymous bodies
	// (Plane.anon) tells a head from a body by it, not by the slot.
	headNext    bool
	state       uint8
	feederWaits bool // plane: the input VC feeding this one upstream waits for a free slot (plane.go)
	readyAt     sim.Cycle
}

// outVCState is output VC k's allocation state and, in a plane, where it
// leads, with input VC k's VC-allocation pointer beside it (a router has
// as many input as output VCs, so one index serves both): 16 bytes, four
// to a line. A grant of output VC o to input VC i writes entry o's owner,
// pointer and link count and reads its down entry, and entry i's pointer:
// two lines, where the owners', the two pointers' and the plane's
// downstream table's arrays were four (issue 20: no measurable speed
// change on the 16-ary 5-cube, 88 bytes a router less). Indices fit 16
// bits (a router has at most 64 ports of 64 VCs).
type outVCState struct {
	owner int16 // the input VC owning output VC k, -1 when free
	ptr   int16 // output VC k's VA output-stage round-robin pointer (an input VC)
	vaPtr int16 // input VC k's VA input-stage round-robin pointer (an output VC)
	_     int16
	// In a plane: the global input VC output VC k feeds (-1 a sink,
	// crossVC of it for a router of another partition: downVC decodes),
	// and the flits of the packets granted it when it leads to a router,
	// modulo 2^32 (count, LinkFlits).
	down  int32
	flits uint32
}

// MaxBufferDepth is the deepest input VC buffer a router has: its ring
// positions and counts are 16 bits, and the sum of two stays below 2^16.
const MaxBufferDepth = 1<<15 - 1

// allArrived reports whether every flit input VC ivc holds (at least one)
// has arrived by cycle c, from lastAt alone; false means it may not have
// (read the slot). It never answers true early, however long the run: a
// flit still on its way is at most a link's or the injection latency
// ahead of c, a small positive difference; a flit that arrived gives
// true, or false (read the slot) when it arrived 2^31 cycles or more
// before c and the difference wraps (TestAllArrived).
func (ivc *inputVC) allArrived(c sim.Cycle) bool { return int32(ivc.lastAt-uint32(c)) <= 0 }

// Router is one input-queued VC router. Build it with New; the network calls
// Accept and AddCredit for arrivals, then Step once per cycle, then drains
// Sent and CreditsOut.
type Router struct {
	// Hot state first, in the lines a packet's events at a hop read
	// (issue 20: at 2^20 routers each line of a Router is a cache miss of
	// its own, and a Router is 512 bytes, so each starts a line): VC
	// allocation and a tail's release read the first three lines, a
	// head's routing start the first four (TestRouterHotLines). The cold
	// rest after.
	//
	// Line 0: the per-VC windows (storage.go) and the VC-allocation masks.
	in     []inputVC
	outs   []outVCState // per output VC: its owner and VA pointer, and input VC k's VA pointer beside output VC k's state
	vaVCs  uint64       // with vaFast (at most 64 input VCs): bit i set while input VC i waits for VC allocation; else the ports' vaMask
	freeOV uint64       // with vaFast (at most 64 output VCs): bit o set while output VC o is free; a header whose admissible VCs are all taken skips VC allocation without looking at them

	// Line 1.
	vaPorts   uint64 // ports with an input VC waiting for VC allocation (vaMaskOf)
	linked    uint64 // bit q: output port q leads to a router (Connect)
	vcMask    uint64 // the low V bits
	waitingVA int    // input VCs in vcRouting
	vcs       int
	local     int // local (injection/ejection) port = ports-1
	// The router's plane, set by NewPlane (nil: the router allocates on
	// its own). The plane keeps none of its state here: the router reports
	// to it through the methods of planeseat.go.
	plane *Plane
	cfg   *Arch // the network's shared Arch (its Storage's) or the router's own copy

	// Line 2.
	//
	// Adaptive selection and scouting (adaptive.go, scouting.go), behind
	// one pointer: a router with neither shares the zero plainRich (never
	// written), so the plain path only tests rich and scout (issue 20: 104
	// bytes a router less).
	*richState
	// sc is the scratch, valid within one call, shared with the routers
	// never stepped at the same time as this one (storage.go: one pointer
	// where four slices were 96 bytes).
	sc         *scratch
	rich       bool // adaptive || scouting: VA goes through selectVC
	cutThrough bool // virtual cut-through or store-and-forward
	vaFast     bool // at most 64 input and output VCs: vaVCs and freeOV
	saf        bool // store-and-forward
	drawKeyed  bool // drawKey taken
	id         int
	slots      []slot // input buffers: VC i holds slots [i*depth, (i+1)*depth)
	route      RouteFunc

	// Line 3: what only a routing start reads.
	classLo  []int32 // VCs of class c: [classLo[c], classLo[c+1])
	ejectVCs int
	classes  int

	port  []portState // per port (56 bytes), sized to the router's ports (a fixed [64] array cost 4 KiB per router)
	depth int
	ports int
	// credit is the fabric's CreditDelay (Attach), 0 for a stand-alone
	// router: a NIC's injection reads it for every flit (creditDelay).
	credit sim.Cycle

	// occupancy and link counts, one record of S = occStrideFor(V) words (V+3
	// rounded up to a line) per output port q: occ[q*S] holds the cycle
	// its count of reserved output VCs last changed (shifted left 8 bits)
	// and that count (the low 8 bits), occ[q*S+1+v] the cycles spent at
	// count v (occTick), and occ[q*S+V+2] the flits of the packets granted
	// an output VC of q when q leads to a router (LinkFlits). A grant and a
	// release update one line, where three arrays and the port's line were
	// four misses at 2^20 routers (issue 20). occAt and linkFlitsAt index it.
	// A router in a plane leaves both counts to the plane (plane_occ.go),
	// which touches no such line: its record then holds only what a link's
	// count carries past 2^32 and what a release takes back.
	occ []int64

	up []upLink // per input port: the router feeding it (fabric.go)

	ovCredits           []int32 // credits of each output VC not wired to a router (sinks, stand-alone)
	noInfiniteCreditsAt int     // output VCs of the local port start here: they never run out of credits

	buffered int    // flits in input buffers, those still on their links included
	saPorts  uint64 // ports with a saMask bit set
	portMask uint64 // the low `ports` bits
	fab      *Fabric
	wakeWord *uint64 // fab.Wake's word holding this router's bit (fabric.go)
	wakeBit  uint64

	// Sent and CreditsOut are this cycle's outputs, valid until the next Step.
	Sent       []Departure
	CreditsOut []CreditReturn

	// Control holds the scouting control messages (header moves, positive
	// and negative acknowledgements) emitted by Step and by the
	// AcceptProbe, AcceptAck and AcceptBacktrack methods. Unlike Sent it is
	// not cleared by Step: the caller drains it and truncates it (scouting.go).
	Control []Control

	store   *Storage // where the router's state lives when it is shared (storage.go), else nil
	rng     *rand.Rand
	drawKey uint64 // draw's key, taken from rng at the first draw

	// Allocators of package alloc (Arch.VCAllocator, SwitchAllocator), nil
	// when both are the built-in ones (behind a pointer: the Router then
	// fits a 1 KiB size class, issue 20).
	named *namedAllocators
}

// routerHotBytes is where the Router's hot lines end: past its line 3.
const routerHotBytes = unsafe.Offsetof(Router{}.classes) + unsafe.Sizeof(Router{}.classes)

// richState is a router's adaptive-selection and scouting state.
type richState struct {
	adaptive      bool      // a header keeps every candidate and takes a random free VC
	escapeClasses int       // classes below this are escape classes (used only when no adaptive VC is free)
	cands         []cand    // per input VC, up to candStride candidates
	nCand         []int32   // candidates stored per input VC
	candStride    int       // ports+1
	scout         []scoutVC // per input VC; nil unless scouting with K >= 1
	scoutK        int32
	launched      uint64 // headers launched here (scouting tags)
}

// plainRich is the richState of every router with neither adaptive
// selection nor scouting: all zero, read by many routers, written by none.
var plainRich richState

// ownRich gives r a richState of its own (before anything is written to it).
func (r *Router) ownRich() {
	if r.richState == &plainRich {
		r.richState = &richState{candStride: r.ports + 1}
	}
}

// Config is everything New needs to build one router: the
// micro-architecture every router of a network shares, and the router's
// own id, ports, VC classes, routing function and random stream. A network
// copies its Arch into one Config per router.
type Config struct {
	Arch

	ID    int // router id: its bit in a fabric's wake set, its index in a plane
	Ports int // ports, 2..64; the last is the local (injection/ejection) port

	EjectVCs int // VCs of the local output port, 1..VCs

	// Classes is the number of VC classes the routing function uses,
	// 1..VCs. Class c of C uses VCs [c*V/C, (c+1)*V/C) of every network
	// port, unless ClassVCs is set: then class c uses VCs
	// [ClassVCs[c], ClassVCs[c+1]), with ClassVCs[0] = 0,
	// ClassVCs[Classes] = VCs and every range non-empty (Duato's routing
	// with a given number of escape VCs needs uneven ranges).
	Classes  int
	ClassVCs []int

	// Adaptive switches VC allocation to adaptive selection: a header
	// keeps every candidate the routing function returns and, at each
	// VC-allocation attempt, requests one free output VC chosen uniformly
	// at random among all free VCs of its adaptive candidates (classes >=
	// EscapeClasses); only when none is free does it consider its escape
	// candidates (classes < EscapeClasses, Duato's escape channels), again
	// at random among the free ones. EscapeClasses = 0 means no escape
	// classes. This is the selection the scouting paper's routing assumes
	// (seed 004 §3.1: "one is chosen at random";
	// docs/models.md#safaei-simulator item 3).
	Adaptive      bool
	EscapeClasses int

	Route RouteFunc  // the routing function, not nil
	Rand  *rand.Rand // the router's own stream for routing choices, not nil

	// Store, when not nil, holds the router's per-VC and per-port state
	// (NewStorage, for the routers of one network: one allocation per
	// type, shared with a Plane); nil gives the router its own.
	Store *Storage
}

// New returns the router cfg describes.
func New(cfg Config) (*Router, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	ports, classes := cfg.Ports, cfg.Classes
	if ports < 2 || ports > 64 {
		return nil, fmt.Errorf("router: %d ports, want 2..64 (network ports + local)", ports)
	}
	if classes < 1 || cfg.VCs < classes {
		return nil, fmt.Errorf("router: routing needs %d VC classes but the router has %d VCs per port", classes, cfg.VCs)
	}
	if cfg.EjectVCs < 1 || cfg.EjectVCs > cfg.VCs {
		return nil, fmt.Errorf("router: %d ejection VCs, want 1..%d", cfg.EjectVCs, cfg.VCs)
	}
	if cfg.Route == nil || cfg.Rand == nil {
		return nil, fmt.Errorf("router: nil routing function or random stream")
	}
	n := ports * cfg.VCs
	var r *Router
	if st := cfg.Store; st != nil {
		if err := st.fits(cfg); err != nil {
			return nil, err
		}
		r = &st.rs[cfg.ID] // the routers of a storage are one array (no size-class rounding)
	} else {
		r = new(Router)
	}
	*r = Router{
		id: cfg.ID, richState: &plainRich, ports: ports, vcs: cfg.VCs, depth: cfg.BufferDepth,
		local: ports - 1, ejectVCs: cfg.EjectVCs, classes: classes, route: cfg.Route, rng: cfg.Rand,
	}
	if st := cfg.Store; st != nil {
		// Sent and CreditsOut grow at their first use: a router in a
		// plane or wired into a fabric never uses them.
		st.take(r)
		r.cfg = &st.arch
	} else {
		a := cfg.Arch
		r.cfg = &a
		r.in, r.slots = make([]inputVC, n), make([]slot, n*cfg.BufferDepth)
		r.outs, r.ovCredits = make([]outVCState, n), make([]int32, n)
		r.useScratch(newScratch(n, ports))
		r.Sent, r.CreditsOut = make([]Departure, 0, ports), make([]CreditReturn, 0, ports)
		r.occ = make([]int64, ports*occStrideFor(cfg.VCs))
		r.up, r.port = make([]upLink, ports), make([]portState, ports)
	}
	r.noInfiniteCreditsAt = r.local * r.vcs
	if err := r.newAllocators(); err != nil {
		return nil, err
	}
	r.classLo = make([]int32, classes+1)
	for c := range r.classLo {
		r.classLo[c] = int32(c * cfg.VCs / classes)
	}
	if cfg.Switching == Scouting && cfg.ScoutingDistance > 0 {
		r.ownRich()
		r.scout = make([]scoutVC, n)
		r.scoutK = int32(cfg.ScoutingDistance)
		r.Control = make([]Control, 0, 2*ports)
		r.enableRich()
	}
	for k := range r.slots {
		r.slots[k].setT(neverFreed)
	}
	r.vcMask = ^uint64(0) >> (64 - uint(cfg.VCs))
	r.portMask = ^uint64(0) >> (64 - uint(ports))
	r.saf = cfg.Switching == StoreAndForward
	r.cutThrough = cfg.Switching == VirtualCutThrough || r.saf
	if n <= 64 {
		r.vaFast, r.freeOV = true, ^uint64(0)>>(64-uint(n))
	}
	for o := range r.outs {
		r.outs[o].owner = -1
		r.ovCredits[o] = int32(cfg.BufferDepth)
		if o >= r.noInfiniteCreditsAt {
			r.ovCredits[o] = unlimited // the local port never runs out
		}
	}
	if cfg.ClassVCs != nil {
		if err := r.setClassVCs(cfg.ClassVCs); err != nil {
			return nil, err
		}
	}
	if st := cfg.Store; st != nil {
		// The routers of a storage mostly have the same class bounds
		// (read only after New): they share the first router's.
		if slices.Equal(st.classLo, r.classLo) {
			r.classLo = st.classLo
		} else if st.classLo == nil {
			st.classLo = r.classLo
		}
	}
	if cfg.Adaptive {
		if err := r.setAdaptive(cfg.EscapeClasses); err != nil {
			return nil, err
		}
	} else if cfg.EscapeClasses != 0 {
		return nil, fmt.Errorf("router: %d escape classes without adaptive selection", cfg.EscapeClasses)
	}
	return r, nil
}

// unlimited is the credit count of an output VC that never runs out (the
// local port's, which leads to the sink).
const unlimited = 1 << 30

// neverFreed is the free cycle of a slot never used: its credit is there
// from the start.
const neverFreed = sim.Cycle(-1 << (stampBits - 2))

// ID returns the router's id.
func (r *Router) ID() int { return r.id }

// Buffered returns the number of flits in the router's input buffers.
func (r *Router) Buffered() int {
	if r.plane != nil {
		// A plane's traversals do not keep the router's count (it would
		// cost a write to the router's header per flit): count the VCs.
		n := 0
		for i := range r.in {
			n += int(r.in[i].count)
		}
		return n
	}
	return r.buffered
}

// Waiting returns the number of input VCs whose head (or scouting header)
// waits for VC allocation. A scouting router can have waiting headers and
// no flits; it must be stepped while Buffered() or Waiting() is non-zero.
func (r *Router) Waiting() int { return r.waitingVA }

// Free returns the free slots of input VC (port, vc); the upstream side's
// credit count must never exceed it.
func (r *Router) Free(port, vc int) int { return r.depth - int(r.in[port*r.vcs+vc].count) }

// Accept writes flit f, arriving in cycle now, into input VC (port, vc).
// now may lie ahead (a flit written as it leaves the previous router): the
// flit takes its slot at once and is invisible until cycle now.
// Overflowing a buffer is a flow-control violation by the caller and panics.
func (r *Router) Accept(port, vc int, f Flit, now sim.Cycle) {
	r.accept(port*r.vcs+vc, f, now)
}

// accept is Accept for input VC i = port*V + vc.
func (r *Router) accept(i int, f Flit, now sim.Cycle) {
	if r.plane != nil {
		r.plane.accept(r.id*r.plane.n+i, f, now)
		return
	}
	ivc := &r.in[i]
	if int(ivc.count) == r.depth {
		panic(r.overflow(i))
	}
	pos := int(wrap(uint(ivc.head)+uint(ivc.count), uint(r.depth)))
	sl := &r.slots[i*r.depth+pos]
	sl.put(r.id, f, now)
	ivc.lastAt = uint32(now) // (read by a plane only, which may take over a router holding flits: NewPlane)
	ivc.count++
	r.buffered++
	if r.fab != nil {
		*r.wakeWord |= r.wakeBit
	}
	if ivc.count == 1 {
		switch ivc.state {
		case vcActive: // a body flit refills an empty active VC
			r.setSA(r.portVC(i))
		case vcIdle: // a head reaches the front of an idle VC
			r.startRouting(i, now)
			r.mark(r.portVC(i))
		}
	}
}

// overflow describes a write into the full input VC i, a violation of
// the credit protocol by the sender, for the caller to panic with (a
// panic at the call site lets the compiler see that the path ends).
func (r *Router) overflow(i int) string {
	return fmt.Sprintf("router %d: input VC (%d,%d) overflow: credit protocol violated", r.id, i/r.vcs, i%r.vcs)
}

// pop takes the front flit of input VC i, leaving in cycle now, out of its
// buffer: the slot's credit is the sender's again CreditDelay later.
func (r *Router) pop(i int, now sim.Cycle) (*inputVC, Flit) {
	ivc := &r.in[i]
	h := uint(ivc.head)
	sl := &r.slots[i*r.depth+int(h)]
	f := sl.flit()
	sl.tx = uint64(now) << xBits // freed (an empty slot's x is never read)
	ivc.head = uint16(wrap(h+1, uint(r.depth)))
	ivc.count--
	ivc.remain--
	ivc.headNext = false
	r.buffered--
	return ivc, f
}

// AddCredit returns one credit to output VC (port, vc): a slot of the
// downstream buffer it feeds was freed.
func (r *Router) AddCredit(port, vc int) {
	o := port*r.vcs + vc
	r.ovCredits[o]++
	if r.ovCredits[o] > int32(r.depth) {
		panic(fmt.Sprintf("router %d: output VC (%d,%d) has %d credits for a %d-flit buffer", r.id, port, vc, r.ovCredits[o], r.depth))
	}
	if owner := r.owner(int32(o)); owner >= 0 && r.plane != nil {
		r.plane.creditReturned(r, owner)
	}
}

// portVC returns the port and the VC within it of input VC i (a division
// where a table was one more line a header's path missed on, issue 20).
func (r *Router) portVC(i int) (p, v int) { return i / r.vcs, i % r.vcs }

// mark updates the work masks of input VC (p, v) from its state. Hot paths
// whose transition is known use setSA/clearSA instead.
func (r *Router) mark(p, v int) {
	ivc := &r.in[p*r.vcs+v]
	if r.plane == nil { // (a plane keeps its own request masks: evalSA)
		if ivc.state == vcActive && ivc.count > 0 {
			r.setSA(p, v)
		} else {
			r.clearSA(p, v)
		}
	}
	if r.vaFast {
		// Up to 64 input VCs: the set is vaVCs, in the Router's first
		// lines (issue 20: the port's line was one more miss a header).
		i := uint(p*r.vcs + v)
		if ivc.state == vcRouting {
			r.vaVCs |= 1 << (i & 63)
			r.vaPorts |= 1 << uint(p)
		} else if r.vaVCs&(1<<(i&63)) != 0 {
			r.vaVCs &^= 1 << (i & 63)
			if r.vaMaskOf(p) == 0 {
				r.vaPorts &^= 1 << uint(p)
			}
		}
		return
	}
	bit := uint64(1) << uint(v)
	ps := &r.port[p]
	if ivc.state == vcRouting {
		ps.vaMask |= bit
		r.vaPorts |= 1 << uint(p)
	} else if m := ps.vaMask &^ bit; m != ps.vaMask {
		ps.vaMask = m
		if m == 0 {
			r.vaPorts &^= 1 << uint(p)
		}
	}
}

// vaMaskOf returns the VCs of input port p waiting for VC allocation.
func (r *Router) vaMaskOf(p int) uint64 {
	if r.vaFast {
		return r.vaVCs >> (uint(p*r.vcs) & 63) & r.vcMask
	}
	return r.port[p].vaMask
}

// setSA marks input VC (p, v) as requesting the switch.
func (r *Router) setSA(p, v int) {
	r.port[p].saMask |= 1 << (uint(v) & 63)
	r.saPorts |= 1 << (uint(p) & 63)
}

// clearSA marks input VC (p, v) as not requesting the switch.
func (r *Router) clearSA(p, v int) {
	ps := &r.port[p]
	ps.saMask &^= 1 << (uint(v) & 63)
	if ps.saMask == 0 {
		r.saPorts &^= 1 << (uint(p) & 63)
	}
}

// startRouting computes the route of the head at the front of input VC i,
// which reached the front in cycle at, or arrives there later.
func (r *Router) startRouting(i int, at sim.Cycle) {
	ivc := &r.in[i]
	front := r.frontSlot(i)
	f := front.flit()
	if front.t() > at {
		at = front.t()
	}
	if !f.IsHead() {
		panic(fmt.Sprintf("router %d: input VC %d has a non-head flit of packet %d at the front of an idle VC", r.id, i, f.Packet))
	}
	if r.scout != nil {
		// Scouting: the head flit is the first data flit; a header is
		// launched for it at the source only (elsewhere headers arrive by
		// AcceptProbe before their data).
		if i/r.vcs != r.local {
			panic(fmt.Sprintf("router %d: data flit of packet %d reached network input VC %d ahead of its header", r.id, f.Packet, i))
		}
		r.startProbe(i, Probe{Packet: f.Packet, Dest: f.Dest, Len: f.Len, Tag: uint64(r.id)<<40 | r.launched}, at)
		r.launched++
		return
	}
	r.computeRoute(i, f.Dest, at)
	ivc.remain = f.Len
	ivc.headNext = true
	ivc.state = vcRouting
	ivc.readyAt = at + sim.Cycle(r.cfg.RoutingDelay)
	r.waitingVA++
	if r.plane != nil {
		r.plane.vaAt(ivc.readyAt, r)
	}
}

// frontSlot is the slot of the front flit of input VC i (holding one that
// its slot holds: not an anonymous body of a plane, Plane.anon): the slot
// at the ring's head, or in a plane whose routers keep only their heads'
// and tails' slots (Plane.headTail) the head's or the tail's.
func (r *Router) frontSlot(i int) *slot {
	if pl := r.plane; pl != nil && pl.headTail {
		// Plane.slotIndex on router r's window of the plane's slots,
		// written out for headTail: through slotIndex frontSlot costs the
		// inliner 83, over its budget of 80 (68 so).
		return &r.slots[i*headTailSlots+int(b2u(frontTail(&r.in[i])))]
	}
	return &r.slots[i*r.depth+int(r.in[i].head)]
}

// computeRoute asks the routing function for the candidates of a header
// at input VC i bound for dest: without adaptive selection it picks one
// (at random among several) and sets outPort and [vcLo, vcHi); with it
// every candidate is kept for selectVC.
func (r *Router) computeRoute(i int, dest int32, at sim.Cycle) {
	ivc := &r.in[i]
	sc := r.sc
	sc.cand = r.route(r.id, int(dest), sc.cand[:0])
	var c Candidate
	switch len(sc.cand) {
	case 0:
		panic(fmt.Sprintf("router %d: routing gave no output for destination %d", r.id, dest))
	case 1:
		c = sc.cand[0]
	default:
		if r.adaptive {
			r.storeCandidates(i, sc.cand)
			ivc.outPort = -1
			return
		}
		c = sc.cand[r.draw(i, at, len(sc.cand))]
	}
	if p, v := r.portVC(i); r.cfg.HoldClass && c.Port == p && c.Port != r.local {
		if k := r.classOfVC(int32(v)); k > c.Class {
			c.Class = k
		}
	}
	ivc.outPort = int8(c.Port)
	lo, hi := r.vcRange(c)
	base := int32(c.Port * r.vcs)
	ivc.vcLo, ivc.vcHi = int8(lo-base), int8(hi-base)
	if r.rich {
		r.nCand[i] = 0
		r.addCandidate(i, c)
	}
}

// draw returns a uniform choice among n route candidates for the head that
// starts routing at input VC i in cycle at. It is a hash of (i, at) under
// a key drawn from the router's stream at the first draw, not the next
// number of the stream: a head's routing event is unique to its (i, at),
// so the choice does not depend on the order in which heads reach the
// router within a cycle, and a plane may move flits in any order
// (Plane.RouterOrder is then not needed). Only random minimal routing and
// balanced dimension-order ties (topology.TiesBalanced) draw here; the
// key is the first number those routings take from the stream.
func (r *Router) draw(i int, at sim.Cycle, n int) int {
	if !r.drawKeyed {
		r.drawKey, r.drawKeyed = r.rng.Uint64(), true
	}
	h, _ := bits.Mul64(mix64(r.drawKey^uint64(i)<<44^uint64(at)), uint64(n))
	return int(h)
}

// mix64 is the splitmix64 finaliser (Steele, Lea & Flood 2014): a
// bijection of uint64 whose output bits each depend on every input bit.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// classOfVC returns the VC class VC v (an index within a port) belongs to.
func (r *Router) classOfVC(v int32) int {
	c := 0
	for c+1 < r.classes && r.classLo[c+1] <= v {
		c++
	}
	return c
}

// vcRange returns the absolute output VCs [lo, hi) candidate c admits.
func (r *Router) vcRange(c Candidate) (lo, hi int32) {
	base := int32(c.Port * r.vcs)
	if c.Port == r.local {
		return base, base + int32(r.ejectVCs)
	}
	return base + r.classLo[c.Class], base + r.classLo[c.Class+1]
}

// Step runs one cycle of a router that allocates on its own (stand-alone
// or in a fabric): VC and switch allocation and switch traversal. It
// returns the number of flits that left the router. A router in a plane
// is stepped by its plane, with all the plane's routers at once
// (Plane.Step): its own Step does nothing and returns 0 (see Stepping in
// the package documentation).
func (r *Router) Step(now sim.Cycle) int {
	if r.plane != nil {
		return 0
	}
	r.Sent = r.Sent[:0]
	r.CreditsOut = r.CreditsOut[:0]
	if r.buffered == 0 && r.waitingVA == 0 { // (scouting headers wait without flits)
		return 0
	}
	if r.waitingVA > 0 {
		if r.named != nil && r.named.va != nil {
			r.allocateVCsWith(now)
		} else {
			r.allocateVCs(now)
		}
	}
	return r.allocateSwitch(now)
}

// allocateVCs is the separable input-first VC allocator. It reports
// whether it must run again in the next cycle: a header past its routing
// delay still waits and may get a VC then. A header that found every
// admissible output VC taken (wormhole, without adaptive selection: the
// only thing that stops it) cannot until one is released, and release
// wakes a router in a plane for that; one that requested a VC and lost
// may take another free one at once, and with cut-through, adaptive
// selection or scouting credits and choices decide too, so those retry.
func (r *Router) allocateVCs(now sim.Cycle) (retry bool) {
	sc := r.sc
	sc.vaTouched = sc.vaTouched[:0]
	cutThrough := r.cutThrough
	notReady := 0
	requests := 0 // requests made; each grant takes one off
	waitsForRelease := !cutThrough && !r.rich && r.vaFast
	for ports := r.vaPorts; ports != 0; ports &= ports - 1 {
		p := bits.TrailingZeros64(ports)
		for m := r.vaMaskOf(p); m != 0; m &= m - 1 {
			i := p*r.vcs + bits.TrailingZeros64(m)
			ivc := &r.in[i]
			ivc.outVC = -1 // no request unless one is made below
			if ivc.readyAt > now {
				notReady++
				continue
			}
			if r.rich {
				// Adaptive selection / scouting (adaptive.go): a random
				// free VC of the candidates, or a backtrack.
				if o := r.selectVC(i, cutThrough, now); o >= 0 {
					r.requestVC(i, o)
					requests++
				}
				continue
			}
			lo, hi := r.vcSpan(ivc)
			if r.vaFast && ^uint64(0)>>(64-uint(hi-lo))<<(uint(lo)&63)&r.freeOV == 0 {
				continue // every admissible output VC is taken
			}
			// Input stage: first free admissible output VC at or after the pointer.
			span := hi - lo
			start := int32(r.outs[i].vaPtr)
			if start < lo || start >= hi {
				start = lo
			}
			var need int32
			if cutThrough && int(ivc.outPort) != r.local {
				need = ivc.remain // the head's packet length (startRouting)
			}
			for k := int32(0); k < span; k++ {
				o := start + k
				if o >= hi {
					o -= span
				}
				if r.outs[o].owner >= 0 || need > 0 && !r.hasCredits(int32(ivc.outPort), o, need, now) { // (need 0: always)
					continue
				}
				r.requestVC(i, o)
				requests++
				break
			}
		}
	}
	// Output stage: each requested output VC grants one requester by round robin.
	n := int32(len(r.in))
	for _, o := range sc.vaTouched {
		p := int32(r.outs[o].ptr)
		if !sc.vaMany[o] {
			p = sc.vaReq[o] // a single requester: the scan would stop at it
		}
		sc.vaReq[o], sc.vaMany[o] = -1, false
		for k := int32(0); k < n; k++ {
			i := p + k
			if i >= n {
				i -= n
			}
			ivc := &r.in[i]
			if ivc.state != vcRouting || int32(ivc.outVC) != o {
				continue
			}
			r.grantVC(i, o, now)
			r.outs[o].ptr = int16(i + 1)
			if i+1 == n {
				r.outs[o].ptr = 0
			}
			r.outs[i].vaPtr = int16(o + 1) // the input's grant was used: its priority moves
			requests--
			break
		}
	}
	// Requests that lost are forgotten (outVC is reset at the next
	// allocation); their pointers stay.
	return r.waitingVA > notReady && (!waitsForRelease || requests > 0)
}

// grantVC gives output VC o to input VC i, waiting for VC allocation, in
// cycle now.
func (r *Router) grantVC(i, o int32, now sim.Cycle) {
	ivc := &r.in[i]
	ivc.state, ivc.outVC = vcActive, int16(o)
	ivc.readyAt = now + sim.Cycle(r.cfg.VCAllocDelay)
	if r.rich {
		ivc.outPort = int8(o / int32(r.vcs))
	}
	r.own(o, i, int32(ivc.outPort), now)
	r.waitingVA--
	if r.scout != nil {
		r.headerGranted(int(i), o, now)
	}
	r.mark(r.portVC(int(i)))
	if pl := r.plane; pl != nil {
		pl.granted(r, i, o, ivc.outPort)
		pl.at(ivc.readyAt, r, i)
	}
}

// vcSpan returns the admissible output VCs [lo, hi) of input VC ivc, as
// absolute indices port*V+vc (a router may have 4,096 output VCs; the
// input VC keeps them within its output port, in a byte each).
func (r *Router) vcSpan(ivc *inputVC) (lo, hi int32) {
	base := int32(ivc.outPort) * int32(r.vcs)
	return base + int32(ivc.vcLo), base + int32(ivc.vcHi)
}

// requestVC records input VC i's request for output VC o in the VC
// allocation under way (the output stage grants each requested VC once).
func (r *Router) requestVC(i int, o int32) {
	sc := r.sc
	if sc.vaReq[o] < 0 {
		sc.vaTouched = append(sc.vaTouched, o)
		sc.vaReq[o] = int32(i)
	} else {
		sc.vaMany[o] = true
	}
	r.in[i].outVC = int16(o)
}

// allocateSwitch is the separable input-first switch allocator followed by
// switch traversal of the winners. It is the hot loop of the simulator
// (one pass per busy router and cycle): state it reads several times is
// held in locals and shift counts are masked, so the compiler emits no
// shift checks for them.
func (r *Router) allocateSwitch(now sim.Cycle) (moved int) {
	if r.named != nil && r.named.sw != nil {
		return r.allocateSwitchWith(now)
	}
	in := r.in
	slots := r.slots
	depth := int32(r.depth)
	vcs := uint(r.vcs)
	saf := r.saf
	var requested uint64 // bit q set: output port q has a request
	for ports := r.saPorts; ports != 0; ports &= ports - 1 {
		p := uint(bits.TrailingZeros64(ports))
		ps := &r.port[p]
		// Input stage: the first eligible VC at or after the port's pointer.
		k := uint(ps.saInPtr)
		for m := rotate(ps.saMask, k, vcs, r.vcMask); m != 0; m &= m - 1 {
			v := wrap(k+uint(bits.TrailingZeros64(m)), vcs)
			i := int32(p*vcs + v)
			ivc := &in[i]
			if ivc.readyAt > now || slots[i*depth+int32(ivc.head)].t() > now {
				continue // in the pipeline, or the flit is still on its link
			}
			if !r.hasCredits(int32(ivc.outPort), int32(ivc.outVC), 1, now) {
				continue
			}
			if saf && !r.arrived(int(i), ivc.remain, now) {
				continue
			}
			ps.saReqVC = int16(v)
			q := uint(ivc.outPort) & 63
			r.port[q].saReqBy |= 1 << p
			requested |= 1 << q
			break
		}
	}
	// Output stage: each requested output port grants the first requesting
	// input port at or after its pointer, and the flit traverses.
	nports := uint(r.ports)
	portMask := r.portMask
	for ; requested != 0; requested &= requested - 1 {
		q := uint(bits.TrailingZeros64(requested))
		qs := &r.port[q]
		start := uint(qs.saOutPtr)
		p := wrap(start+uint(bits.TrailingZeros64(rotate(qs.saReqBy, start, nports, portMask))), nports)
		qs.saReqBy = 0
		qs.saOutPtr = int16(wrap(p+1, nports))
		ps := &r.port[p]
		v := uint(ps.saReqVC)
		ps.saInPtr = int16(wrap(v+1, vcs))
		r.traverse(int(p*vcs+v), now)
		moved++
	}
	return moved
}

// wrap returns x-n if x >= n and x otherwise (x < 2n): a ring index one
// step past the end, computed without a branch (the compiler emits a
// conditional move; a branch here is mispredicted at random).
func wrap(x, n uint) uint {
	return x - n&-b2u(x >= n)
}

// b2u is 1 for true and 0 for false (a SETcc, not a branch).
func b2u(b bool) uint {
	if b {
		return 1
	}
	return 0
}

// rotate returns the n-bit mask m (mask = the low n bits) rotated right by
// k (0 <= k < n <= 64), so that bit k of m becomes bit 0: the round-robin
// pointer's entry comes first.
func rotate(m uint64, k, n uint, mask uint64) uint64 {
	return (m>>(k&63) | m<<((n-k)&63)) & mask
}

// traverse moves the front flit of input VC i through the crossbar: into
// the downstream buffer (a wired port) or the outbox Sent. (A router in a
// plane moves through Plane.move.)
func (r *Router) traverse(i int, now sim.Cycle) {
	ivc, f := r.pop(i, now)
	o := int32(ivc.outVC)
	q := int32(ivc.outPort)
	if l := &r.port[q]; l.to != nil {
		f.Hops++
		l.to.accept(int(o+l.offset), f, now+sim.Cycle(l.delay))
	} else {
		r.ovCredits[o] -= int32(b2u(int(o) < r.noInfiniteCreditsAt)) // the local port's count is unlimited
		r.Sent = append(r.Sent, Departure{Port: int(q), VC: int(o - q*int32(r.vcs)), Flit: f})
	}
	if r.fab == nil {
		p, v := r.portVC(i)
		r.CreditsOut = append(r.CreditsOut, CreditReturn{Port: p, VC: v})
	}
	if f.IsTail() {
		r.tailLeft(i, o, q, now)
	} else if ivc.count == 0 {
		r.clearSA(r.portVC(i)) // still active, waiting for its next flit
	}
}

// tailLeft ends the packet of input VC i, whose tail just left through
// output VC o of port q, and starts the next one if it is there.
func (r *Router) tailLeft(i int, o, q int32, now sim.Cycle) {
	r.release(o, q, now+1) // busy through this cycle
	r.in[i].state = vcIdle
	if r.scout != nil {
		r.nextHeader(i, now+1)
	} else if r.in[i].count > 0 {
		r.startRouting(i, now+1)
	}
	r.mark(r.portVC(i))
}

// frontPacket returns the packet of the front flit of input VC i (holding
// one), for reports: its slot's, or, for an anonymous body of a plane
// (Plane.anon), its tail's if the tail is in the VC (remain <= count), else
// that of the front flit of the input VC upstream that owns the output VC
// feeding this one: the packet's tail has not left it, so it still sends
// that packet (that VC may be empty: its packet's next flits are further
// up, or still in the NIC). The walk ends at a VC holding the tail or at a
// local input VC, whose slots a NIC wrote whole (an empty one: the slot of
// the flit that left last) or, when its bodies go without (NewPlane's
// injectLatency), whose packet injecting keeps.
func (r *Router) frontPacket(i int) int32 {
	for {
		pl, ivc := r.plane, &r.in[i]
		// packetAt is the packet in the slot k places after the VC's front
		// (k = -1: the flit that left last).
		packetAt := func(k int32) int32 {
			pos := (int32(ivc.head) + k + int32(r.depth)) % int32(r.depth)
			if pl != nil { // with headTail only the front (k 0) and the tail (remain-1) are asked for
				return r.slots[pl.slotIndex(i, uint(pos), k > 0 || k == 0 && frontTail(ivc))].packet()
			}
			return r.slots[i*r.depth+int(pos)].packet()
		}
		// An active VC upstream may be empty, its packet's next flits
		// further up or still in the NIC: its front slot is stale then.
		switch {
		case pl == nil || ivc.state != vcActive || ivc.count > 0 && (i >= pl.slotsFrom || !pl.bodyFront(ivc)):
			return packetAt(0)
		case int32(ivc.count) >= ivc.remain: // (an active VC's remain is at least 1: never when empty)
			return packetAt(ivc.remain - 1)
		case i >= pl.slotsFrom: // a local VC keeping its slots, empty
			return packetAt(-1)
		case i >= pl.localIVC:
			return pl.injecting[r.id*r.vcs+i-pl.localIVC] // the tail is still in the NIC
		}
		up, o := r.feeder(i/r.vcs, int32(i))
		if up == nil || up.owner(o) < 0 {
			panic(fmt.Sprintf("router %d: input VC %d holds a body whose tail is neither in it nor upstream", r.id, i))
		}
		r, i = up, int(up.owner(o))
	}
}

// BlockedVC describes an input VC holding flits, for deadlock reports.
type BlockedVC struct {
	Port, VC   int
	Flits      int
	Packet     int32
	State      string // "vc-allocation", "active", "scout-wait" (data waits for the header's acknowledgements) or "idle"
	OutPort    int    // -1 while routing
	OutVC      int    // -1 until a VC is granted
	OutCredits int    // credits of the granted output VC, -1 if none
}

// Blocked appends a description of every input VC holding flits (those
// still on their links included) in cycle now.
func (r *Router) Blocked(dst []BlockedVC, now sim.Cycle) []BlockedVC {
	for i := range r.in {
		ivc := &r.in[i]
		if ivc.count == 0 {
			continue
		}
		b := BlockedVC{Port: i / r.vcs, VC: i % r.vcs, Flits: int(ivc.count),
			Packet: r.frontPacket(i), OutPort: int(ivc.outPort), OutVC: -1, OutCredits: -1}
		switch ivc.state {
		case vcRouting:
			b.State = "vc-allocation"
		case vcActive:
			b.State = "active"
			b.OutVC = int(ivc.outVC) % r.vcs
			b.OutCredits = r.creditCount(int32(ivc.outVC)/int32(r.vcs), int32(ivc.outVC), now)
		case vcScoutWait:
			b.State = "scout-wait"
			b.OutVC = int(ivc.outVC) % r.vcs
			b.OutCredits = r.creditCount(int32(ivc.outVC)/int32(r.vcs), int32(ivc.outVC), now)
		default:
			b.State = "idle"
			b.OutPort = -1
		}
		dst = append(dst, b)
	}
	return dst
}
