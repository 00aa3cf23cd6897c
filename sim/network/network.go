package network

import (
	"fmt"
	"github.com/flitsim/flitsim/internal/hugepage"
	"math/bits"
	"math/rand/v2"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/topology"
	"github.com/flitsim/flitsim/topology/graph"
	"github.com/flitsim/flitsim/topology/multistage"
	"github.com/flitsim/flitsim/topology/worstcase"
	"github.com/flitsim/flitsim/traffic"
)

// packet is one message's metadata, indexed by packet id.
type packet struct {
	src, dst int32
	length   int32
	gen      sim.Cycle   // generation cycle
	inject   sim.Cycle   // cycle the head left the NIC
	setup    sim.Cycle   // cycle the path was set up (see Result.SetupTime), -1 before
	backs    int32       // scouting: backtracks (negative acknowledgements) of the header
	route    graph.State // graph networks: the routing state the head carries (graph.State)
	tagged   bool        // generated during the measurement window: measured when delivered
}

// nic is a node's network interface: it injects the packets of the source
// queue, one flit per cycle, into the router's local input port, holding one
// credit counter per local input VC. It injects up to len(lanes) packets at
// once (Config.InjectionVCs), each on its own local input VC, serving the
// lanes round-robin one flit per cycle; with one lane (the default) a
// packet is injected completely before the next one starts.
type nic struct {
	lanes  []nicLane
	active int32 // lanes holding a packet
	rr     int32 // next local VC to try for a new packet
	next   int32 // next lane to serve
}

// nicLane is one packet being injected.
type nicLane struct {
	cur  int32 // packet being injected, -1 when none
	sent int32 // flits of cur already sent
	vc   int32 // local input VC cur uses
	// dest and length are cur's flits' Dest and Len, copied from its
	// packet record when the lane takes it: its body flits then read no
	// packet record (issue 20: at 2^20 nodes each is a cache miss).
	dest, length int32
}

// Network is one flit-level network at one offered load. It is not safe for
// concurrent use; parallelism lives at the sweep level, one Network per
// goroutine.
type Network struct {
	cfg     Config
	topo    *topology.Topology // nil for a multistage fabric
	ms      *multistage.Network
	g       *graph.Network // graph networks (dragonfly, fat tree, ...), nil otherwise
	groute  graph.Routing
	routing topology.Routing
	routers []*router.Router
	nodes   int // routers (direct: also terminals; multistage: switches)
	terms   int // terminals: NICs, source queues and sinks
	ports   int
	local   int
	vcs     int

	chanSrc  []int32 // per channel: upstream router
	chanDst  []int32 // per channel: downstream router
	inCh     []int32 // per node*ports: channel entering through the port, -1 none
	outCh    []int32 // per node*ports: channel leaving through the port, -1 none
	outDelay sim.Cycle

	// Multistage fabric only (nil for direct networks): the channel ends'
	// ports (a channel may change port number), the switch each terminal
	// feeds (and termPort, the port),
	// each switch's stage, and the per-stage buffered-flit bookkeeping.
	chanSrcPort, chanDstPort []int32
	termSwitch               []int32 // per terminal: first-stage switch
	stageOf                  []int32 // per switch: stage
	lastBuf                  []int32 // per switch: Buffered() after its last step
	stageBuf                 []int64 // per stage: flits in the stage's input buffers

	// Links and credit lines between routers need no delay line: the
	// routers are wired into one fabric (router.Fabric), a flit is
	// written into the next buffer stamped with its arrival cycle and
	// credits are read from the freed slots. The remaining lines are
	// timing wheels: everything scheduled for cycle t is applied at the
	// start of cycle t, before any node steps.
	fabric  router.Fabric
	plane   *router.Plane        // direct networks: the switch allocator of all routers at once (nil: each router steps alone)
	sinks   wheel[router.Flit]   // flits reaching their sinks
	credits wheel[creditArrival] // multistage: sink credits reaching last-stage output VCs
	control wheel[ctrlArrival]   // scouting headers and acknowledgements
	linkAt  sim.Cycle            // outDelay + LinkLatency
	ejectAt sim.Cycle            // outDelay + EjectionLatency
	probeAt sim.Cycle            // VCAllocDelay + linkAt: a granted header to the next router

	nics     []nic
	srcQ     []sim.FIFO[int32] // per terminal: ids of the messages waiting (those being injected are in the NIC's lanes)
	sources  []uint64          // terminals with a message in their source queue, one bit each
	termPort []int32           // multistage: the first-stage input port terminal t feeds
	startRNG []*rand.Rand      // graph networks: per terminal, the routing start draws (Valiant's intermediate)

	packets   []packet
	freeIDs   []int32
	pattern   traffic.Pattern
	process   traffic.Process
	length    traffic.Length
	streams   []termStreams // per terminal: the traffic's random streams
	draws     rand.Rand     // draws from the stream streamOf points at
	streamOf  streamRef
	calendar  sim.CycleCalendar[int32]
	due       []sim.Event[int32] // generate's scratch: the arrivals of a cycle
	touchSink uint64             // what touchArrivals loaded, so that its loads are kept

	// Active-node sets, one bit per node: the nodes to step this cycle
	// and the next. Waking is one OR, with no duplicate check, and nodes
	// step in id order (the order cannot change a result: every
	// interaction between nodes takes at least one cycle).
	active, nextActive []uint64

	now          sim.Cycle
	lastProgress sim.Cycle

	// conservation counters (flits)
	generatedFlits, deliveredFlits int64
	queuedFlits                    int64 // in source queues, not yet injected
	inSystem                       int64 // messages generated and not delivered
	sinkHops                       int64 // multistage: flits sent to sinks, all time (link flits are counted by the routers)

	stats measurement

	onDeliver func(Delivery)
	onScout   func(ScoutEvent)

	replay *replay // trace-driven run (Config.Trace), nil otherwise
	// minPacket is, when the routers keep only their heads' and tails'
	// slots, the shortest message they may carry (Config.headTailPacket);
	// 0 otherwise.
	minPacket int

	threads // the partitions stepped on several threads (threads.go)
}

// ScoutEvent is one scouting control message, reported to OnScout when a
// router emits it (Cycle is the emission cycle).
type ScoutEvent struct {
	Cycle  sim.Cycle
	Router int
	Kind   router.ControlKind
	// Port and VC are the output VC a header was granted (ProbeForward),
	// or the input VC a header released (ProbeBack) or an
	// acknowledgement leaves through (Ack).
	Port, VC int
	Probe    router.Probe
}

// OnScout sets a function called for every scouting control message (nil
// to stop), for tests and tracing.
func (n *Network) OnScout(fn func(ScoutEvent)) { n.onScout = fn }

// Delivery describes one message whose tail reached its sink.
type Delivery struct {
	Src, Dst       int
	Flits          int
	Hops           int
	Generated      sim.Cycle
	Injected       sim.Cycle // head left the NIC
	Delivered      sim.Cycle // tail reached the sink
	Latency        sim.Cycle // Delivered - Generated
	NetworkLatency sim.Cycle // Delivered - Injected
}

// OnDeliver sets a function called for every delivered message (nil to
// stop). It is meant for tests and tracing; it costs one nil check per
// message when unset.
func (n *Network) OnDeliver(fn func(Delivery)) { n.onDeliver = fn }

// New builds the network cfg describes.
func New(cfg Config) (*Network, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.Multistage != nil {
		return newMultistage(cfg)
	}
	if cfg.Graph != nil {
		return newGraph(cfg)
	}
	topo, err := topology.New(cfg.Topology)
	if err != nil {
		return nil, err
	}
	var routing topology.Routing
	var classBounds []int // adaptive routing with escape VCs: uneven class ranges
	escapeClasses := 0
	switch {
	case cfg.Routing == RoutingRandomMinimal:
		routing = topology.NewRandomMinimal(topo)
	case cfg.Routing == RoutingAdaptive && cfg.EscapeVCs > 0:
		d := topology.NewDuato(topo)
		routing, escapeClasses = d, d.EscapeClasses()
		if cfg.EscapeVCs%escapeClasses != 0 {
			return nil, fmt.Errorf("network: EscapeVCs = %d cannot be split over the %d escape classes of %s", cfg.EscapeVCs, escapeClasses, topo)
		}
		for c := 0; c <= escapeClasses; c++ {
			classBounds = append(classBounds, c*cfg.EscapeVCs/escapeClasses)
		}
		classBounds = append(classBounds, cfg.Router.VCs)
	case cfg.Routing == RoutingAdaptive:
		routing = topology.NewFullyAdaptive(topo)
	default:
		routing = topology.NewDimensionOrderTies(topo, cfg.Ties)
	}
	if cfg.Router.VCs < routing.Classes() && !cfg.singleClass {
		return nil, fmt.Errorf("network: %s routing on a %s needs %d VC classes, the router has %d VCs",
			routing.Name(), topo, routing.Classes(), cfg.Router.VCs)
	}
	length, process, err := cfg.traffic()
	if err != nil {
		return nil, err
	}
	spec := cfg.patternSpec()
	if spec.Name == traffic.WorstCase {
		if cfg.Routing == RoutingAdaptive {
			return nil, fmt.Errorf("network: pattern %s needs an oblivious routing: adaptive routing chooses by the network's state", traffic.WorstCase)
		}
		wc, err := worstcase.Permutation(topo, routing)
		if err != nil {
			return nil, fmt.Errorf("network: pattern %s: %w", traffic.WorstCase, err)
		}
		spec.Table = wc.Perm
	}
	pattern, err := traffic.NewPattern(spec, topo)
	if err != nil {
		return nil, err
	}
	n := &Network{
		cfg: cfg, topo: topo, routing: routing,
		nodes: topo.Nodes(), terms: topo.Nodes(), ports: topo.Ports(), local: topo.LocalPort(), vcs: cfg.Router.VCs,
		pattern: pattern, process: process, length: length,
	}
	nn := n.nodes
	n.initLines()
	n.outCh, n.inCh, n.chanSrc, n.chanDst = topo.Tables() // shared with the topology, read only
	n.initTerminals()
	n.initActive()
	n.routers = hugepage.Make[*router.Router](nn)
	classes := routing.Classes()
	if cfg.singleClass {
		classes = 1
	}
	// A scratch buffer adapts topology candidates to router candidates;
	// the routers of one thread's partition share one (partitionRoutes).
	newRoute := func() router.RouteFunc {
		tbuf := make([]topology.Candidate, 0, n.ports+1)
		return func(cur, dest int, out []router.Candidate) []router.Candidate {
			tbuf = routing.Route(cur, dest, tbuf[:0])
			for _, c := range tbuf {
				if cfg.singleClass {
					c.Class = 0
				}
				out = append(out, router.Candidate{Port: c.Port, Class: c.Class})
			}
			return out
		}
	}
	route := newRoute()
	if table := routeTable(nn, route); table != nil {
		route = func(cur, dest int, out []router.Candidate) []router.Candidate {
			return tableRoute(table[cur*nn+dest], out)
		}
		newRoute = func() router.RouteFunc { return route } // a table needs no scratch
	}
	n.minPacket = cfg.headTailPacket(n.ports)
	store, err := router.NewStorage(nn, n.ports, cfg.Router, n.minPacket)
	if err != nil {
		return nil, err
	}
	routes := n.partitionRoutes(route, newRoute)
	for i := 0; i < nn; i++ {
		r, err := router.New(router.Config{Arch: cfg.Router, ID: i, Ports: n.ports, EjectVCs: cfg.EjectionVCs,
			Classes: classes, ClassVCs: classBounds, Adaptive: cfg.Routing == RoutingAdaptive, EscapeClasses: escapeClasses,
			Route: routes(i), Rand: sim.NewStream(cfg.Seed, sim.PurposeRouting, uint64(i)), Store: store})
		if err != nil {
			return nil, err
		}
		n.routers[i] = r
	}
	if err := n.wire(); err != nil {
		return nil, err
	}
	if err := n.usePlane(); err != nil {
		return nil, err
	}
	if err := n.split(); err != nil {
		return nil, err
	}
	if err := n.startTraffic(); err != nil {
		return nil, err
	}
	n.stats.init(len(n.chanSrc), n.ports*(n.vcs+1))
	return n, nil
}

// wire attaches every router to the network's fabric and connects each
// output port whose channel leads to a router (direct networks: by
// topology's convention the channel enters through the port it left by).
// It also records each channel's sending port, for the channel counts.
func (n *Network) wire() error {
	n.fabric = router.Fabric{LinkDelay: n.linkAt, CreditDelay: sim.Cycle(n.cfg.CreditDelay), Wake: &n.nextActive}
	for _, r := range n.routers {
		if err := r.Attach(&n.fabric); err != nil {
			return err
		}
	}
	for i, r := range n.routers {
		for p := 0; p < n.ports; p++ {
			c := n.outCh[i*n.ports+p]
			if c < 0 {
				continue
			}
			dst := n.chanDst[c]
			if dst < 0 {
				continue // a sink
			}
			in := p
			if n.ms != nil || n.g != nil {
				in = int(n.chanDstPort[c])
			}
			if err := r.Connect(p, n.routers[dst], in); err != nil {
				return err
			}
		}
	}
	return nil
}

// usePlane gives the routers of a direct network one switch allocator for
// all of them (router.Plane), unless scouting headers run ahead of their
// data (they need each router's own allocator) or the routers are larger
// than a plane serves (more than 16 ports, 8 VCs or 64 input VCs: they allocate alone,
// with the same result, more slowly).
func (n *Network) usePlane() error {
	if n.ms != nil || n.g != nil || n.cfg.ownAllocators || !router.PlaneServes(n.ports, n.cfg.Router) {
		return nil
	}
	pl, err := router.NewPlane(&n.fabric, n.routers, n.cfg.InjectionLatency)
	if err != nil {
		return err
	}
	n.plane = pl
	if n.cfg.touchAhead {
		pl.SetTouchAhead(true)
	}
	return nil
}

// initLines sets the pipeline delays and sizes the remaining delay lines
// (ejection, multistage sink credits, scouting control). A multistage sink
// returns its credit CreditDelay cycles after it takes a flit, which is
// ejectAt + CreditDelay after the switch sent it.
func (n *Network) initLines() {
	cfg := n.cfg
	n.outDelay = cfg.outDelay()
	n.linkAt = n.outDelay + sim.Cycle(cfg.LinkLatency)
	n.ejectAt = n.outDelay + sim.Cycle(cfg.EjectionLatency)
	n.probeAt = sim.Cycle(cfg.Router.VCAllocDelay) + n.linkAt
	n.sinks = newWheel[router.Flit](int(n.ejectAt))
	n.credits = newWheel[creditArrival](int(n.ejectAt) + cfg.CreditDelay)
	n.control = newWheel[ctrlArrival](max(int(n.probeAt), cfg.CreditDelay))
}

// initTerminals builds the terminals' NICs, source queues and traffic
// streams. A NIC's credits are the free slots of the input VCs it feeds
// (router.CanAccept).
func (n *Network) initTerminals() {
	nt := n.terms
	n.nics = hugepage.Make[nic](nt)
	nl := n.cfg.InjectionVCs
	lanes := hugepage.Make[nicLane](nt * nl)
	for k := range lanes {
		lanes[k].cur = -1
	}
	n.sources = make([]uint64, (nt+63)/64)
	n.srcQ = sim.NewFIFOs[int32](nt, 4)
	n.streams = hugepage.Make[termStreams](nt)
	n.draws = *rand.New(&n.streamOf)
	for i := 0; i < nt; i++ {
		n.nics[i] = nic{lanes: lanes[i*nl : (i+1)*nl : (i+1)*nl]}
		st := &n.streams[i]
		sim.SeedStream(&st.arr, n.cfg.Seed, sim.PurposeTrafficArrival, uint64(i))
		sim.SeedStream(&st.dest, n.cfg.Seed, sim.PurposeTrafficDest, uint64(i))
		sim.SeedStream(&st.len, n.cfg.Seed, sim.PurposeTrafficLength, uint64(i))
	}
}

// termStreams is a terminal's three traffic streams (when its messages
// arrive, where they go, how long they are), in one cache line: a 2^20-node
// network generating a message used to follow three pointers to a Rand and
// three more to its PCG, each a miss (issue 20).
type termStreams struct {
	arr, dest, len rand.PCG
	line           uint64 // (pads the streams to 64 bytes; touchArrivals loads the line by it)
	_              uint64
}

// streamRef is a rand.Source that draws from the PCG it points at, so that
// one rand.Rand (Network.draws) serves every terminal's streams without a
// Rand each: a rand.Rand keeps no state beside its source.
type streamRef struct{ pcg *rand.PCG }

func (s *streamRef) Uint64() uint64 { return s.pcg.Uint64() }

// draw returns the Rand that draws from stream p.
func (n *Network) draw(p *rand.PCG) *rand.Rand {
	n.streamOf.pcg = p
	return &n.draws
}

// startTraffic puts every terminal's first arrival on the calendar, in
// terminal order (ties on the calendar break by push order).
func (n *Network) startTraffic() error {
	if n.cfg.Trace != nil {
		return n.startReplay()
	}
	if n.process == nil {
		return nil
	}
	n.calendar.SetSpan(calendarSpan(n.terms), n.terms) // (a terminal has one arrival pending)
	for i := 0; i < n.terms; i++ {
		n.calendar.Push(n.process.First(n.draw(&n.streams[i].arr)), int32(i))
	}
	return nil
}

// calendarSpan is the span of the arrival calendar's buckets
// (sim.CycleCalendar.SetSpan) for terms terminals: the default, or a
// cycle for every 16 terminals, so that the buckets' chunks (some 400
// bytes each, sim.CycleCalendarBytes) cost a terminal about as much again
// as its arrival; a small network's arrivals beyond the span wait in a
// heap that small, which its cache holds.
func calendarSpan(terms int) int { return max(min(sim.DefaultCycleSpan, terms/16), 1) }

// traffic builds the length distribution (checking that cut-through and
// store-and-forward messages fit a buffer) and the arrival process.
func (c Config) traffic() (traffic.Length, traffic.Process, error) {
	if c.Trace != nil {
		if c.Router.Switching == router.VirtualCutThrough || c.Router.Switching == router.StoreAndForward {
			for i := range c.Trace.Packets {
				if f := int(c.Trace.Packets[i].Flits); f > c.Router.BufferDepth {
					return nil, nil, fmt.Errorf("network: %s needs every message to fit one VC buffer (%d flits) but trace packet %d (record %d) has %d flits",
						c.Router.Switching, c.Router.BufferDepth, c.Trace.Packets[i].ID, i+1, f)
				}
			}
		}
		return nil, nil, nil
	}
	length, err := c.length()
	if err != nil {
		return nil, nil, err
	}
	if c.Router.Switching == router.VirtualCutThrough || c.Router.Switching == router.StoreAndForward {
		if length.Max() == 0 || length.Max() > c.Router.BufferDepth {
			return nil, nil, fmt.Errorf("network: %s needs every message to fit one VC buffer (%d flits) but messages are up to %s flits",
				c.Router.Switching, c.Router.BufferDepth, maxString(length.Max()))
		}
	}
	process, err := c.process()
	if err != nil {
		return nil, nil, err
	}
	return length, process, nil
}

func maxString(m int) string {
	if m == 0 {
		return "unbounded"
	}
	return fmt.Sprint(m)
}

// maxRouteTable bounds the nodes for which routeTable tabulates a
// routing function: 256 nodes make a 128 KiB table, which still beats
// computing the route (a head asks at every hop); beyond, the table's
// cache misses would cost what it saves.
const maxRouteTable = 256

// tableTwo marks a route-table entry with two candidates.
const tableTwo = 1 << 31

// routeTable tabulates a routing function that gives one candidate for
// every (router, destination) pair, or two for some, as dimension-order
// routing does (two at a balanced tie, topology.TiesBalanced): entry
// cur*nodes + dest is the first candidate's port<<8 | class, and with
// bit 31 (tableTwo) set the second's port<<24 | class<<16 (port < 128).
// Routing functions are functions of (cur, dest) only (topology.Routing),
// so the table answers as the function would. It returns nil,
// and the function is called as before, when some pair has more than two
// candidates (random minimal, adaptive), a port or class does not fit,
// or the network has more than maxRouteTable nodes.
func routeTable(nodes int, route router.RouteFunc) []uint32 {
	if nodes > maxRouteTable {
		return nil
	}
	table := make([]uint32, nodes*nodes)
	buf := make([]router.Candidate, 0, 8)
	for cur := 0; cur < nodes; cur++ {
		for dest := 0; dest < nodes; dest++ {
			buf = route(cur, dest, buf[:0])
			if len(buf) < 1 || len(buf) > 2 {
				return nil
			}
			var e uint32
			for k, c := range buf {
				if c.Port > 0x7f || c.Class > 0xff {
					return nil
				}
				e |= uint32(c.Port<<8|c.Class) << (16 * k)
			}
			if len(buf) == 2 {
				e |= tableTwo
			}
			table[cur*nodes+dest] = e
		}
	}
	return table
}

// tableRoute appends the candidates of route-table entry e to out.
func tableRoute(e uint32, out []router.Candidate) []router.Candidate {
	out = append(out, router.Candidate{Port: int(e >> 8 & 0xff), Class: int(e & 0xff)})
	if e&tableTwo != 0 {
		out = append(out, router.Candidate{Port: int(e >> 24 & 0x7f), Class: int(e >> 16 & 0xff)})
	}
	return out
}

// Topology returns the network's topology (nil for a multistage fabric).
func (n *Network) Topology() *topology.Topology { return n.topo }

// Config returns the network's configuration with defaults filled in.
func (n *Network) Config() Config { return n.cfg }

// Now returns the current cycle: the next Step simulates cycle Now().
func (n *Network) Now() sim.Cycle { return n.now }

// InFlight returns the flits in the network: on links, in router buffers and
// on ejection lines (source queues excluded).
func (n *Network) InFlight() int64 {
	return n.generatedFlits - n.deliveredFlits - n.queuedFlits
}

// Backlog returns the messages waiting in source queues, those being
// injected included.
func (n *Network) Backlog() int {
	b := 0
	for i := range n.srcQ {
		b += n.srcQ[i].Len() + int(n.nics[i].active)
	}
	return b
}

// Offer puts a message of the given length from src to dst into src's source
// queue in the current cycle, outside the traffic process. Tests use it to
// build hand-made scenarios.
//
// A network whose routers keep only their heads' and tails' slots (its
// messages of a fixed length no shorter than a buffer: headTailPacket)
// takes no message shorter than its configured length: Offer panics then
// (Config.AnyLength lifts it).
func (n *Network) Offer(src, dst, flits int) {
	if flits < n.minPacket {
		panic(fmt.Sprintf("network: Offer of a %d-flit message to a network built for messages of %d flits (Config.Length), whose routers keep only heads' and tails' slots (Config.AnyLength)", flits, n.minPacket))
	}
	n.enqueue(src, dst, flits)
}

// inject lets every terminal with a message in its source queue put at most
// one flit on its injection line, in terminal order, and lists for this
// cycle the routers that got one. A NIC only feeds input VCs no router
// writes into, so injecting before any router steps is the same as
// injecting as each node steps.
func (n *Network) inject() {
	for w, m := range n.sources {
		for ; m != 0; m &= m - 1 {
			t := w<<6 | bits.TrailingZeros64(m)
			node, port := t, n.local
			if n.termSwitch != nil {
				node, port = int(n.termSwitch[t]), int(n.termPort[t])
			}
			if n.injectFlit(n.plane, t, node, port) {
				n.queuedFlits--
				n.lastProgress = n.now
				if n.plane == nil {
					n.wakeNow(node) // a plane needs no wake-up: its allocation covers every router
				}
				if n.termSwitch != nil {
					n.stats.channelFlits[t]++ // injection channel c = t
				}
			}
			n.retireSource(t)
		}
	}
}

// retireSource takes terminal t off the sources (the terminals with a
// message queued or being injected) once its NIC is idle and its queue
// empty. The NIC is tested first: its line is loaded, and while it
// injects a packet the queue need not be read (issue 20).
func (n *Network) retireSource(t int) {
	if n.nics[t].active == 0 && n.srcQ[t].Len() == 0 {
		n.sources[t>>6] &^= 1 << (uint(t) & 63)
	}
}

// initActive sizes the active-node sets.
func (n *Network) initActive() {
	words := (n.nodes + 63) / 64
	n.active = make([]uint64, words)
	n.nextActive = make([]uint64, words)
}

// wakeNow lists node i for the current cycle (before nodes are stepped).
func (n *Network) wakeNow(i int) { n.active[uint(i)>>6] |= 1 << (uint(i) & 63) }

// wake lists node i for the next cycle.
func (n *Network) wake(i int) { n.nextActive[uint(i)>>6] |= 1 << (uint(i) & 63) }

// stepActive steps every node listed for this cycle, in id order (a
// direct call per node, not a function value), and empties the set.
func (n *Network) stepActive() {
	direct := n.ms == nil && n.g == nil
	for w, m := range n.active {
		n.active[w] = 0
		for ; m != 0; m &= m - 1 {
			if i := w<<6 | bits.TrailingZeros64(m); direct {
				n.stepNode(i)
			} else {
				n.stepSwitch(i)
			}
		}
	}
}

func (n *Network) enqueue(src, dst, flits int) int32 {
	var id int32
	if k := len(n.freeIDs); k > 0 {
		id = n.freeIDs[k-1]
		n.freeIDs = n.freeIDs[:k-1]
	} else {
		id = int32(len(n.packets))
		n.packets = append(n.packets, packet{})
	}
	n.packets[id] = packet{src: int32(src), dst: int32(dst), length: int32(flits), gen: n.now, inject: -1, setup: -1, tagged: n.stats.on}
	if n.groute != nil {
		n.packets[id].route = n.groute.Start(src, dst, n.startRNG[src])
	}
	n.srcQ[src].Push(id)
	n.sources[uint(src)>>6] |= 1 << (uint(src) & 63)
	n.generatedFlits += int64(flits)
	n.queuedFlits += int64(flits)
	n.inSystem++
	n.stats.generated(flits)
	return id
}

// generate pops this cycle's arrivals from the calendar and queues their
// messages, in the calendar's order (time, then push order). It takes them
// in batches (sim.CycleCalendar.PopBefore) and loads the lines each will touch,
// its terminal's streams and source queue, before handling any: on a 2^20-
// node network those are misses, which one by one made this serial part
// of a cycle a tenth of the cycle on two threads (issue 20).
func (n *Network) generate() {
	if n.replay != nil {
		n.release()
		return
	}
	limit := float64(n.now + 1)
	for {
		n.due = n.calendar.PopBefore(limit, n.due[:0])
		if len(n.due) == 0 {
			return
		}
		n.touchArrivals(n.due)
		if k := n.arrive(n.due); k < len(n.due) {
			n.calendar.Unpop(n.due[k:])
		}
	}
}

// arrive queues the messages of arrivals due, in order, each terminal's
// next arrival pushed as its message is queued, and returns how many it
// handled: all of them, or fewer when a next arrival is due before the
// last of due (earlier than a later one of the batch, it comes out first:
// the caller puts the rest back).
func (n *Network) arrive(due []sim.Event[int32]) int {
	last := due[len(due)-1].At
	for k, e := range due {
		i := int(e.V)
		st := &n.streams[i]
		dst := n.pattern.Dest(i, n.draw(&st.dest))
		n.enqueue(i, dst, n.length.Draw(n.draw(&st.len)))
		next := n.process.Next(e.At, n.draw(&st.arr))
		n.calendar.Push(next, e.V)
		if next < last && k+1 < len(due) {
			return k + 1
		}
	}
	return len(due)
}

// touchArrivals loads the lines the arrivals due will read and write
// (their terminals' streams and source queues), all issued before any is
// used, so that their misses overlap.
func (n *Network) touchArrivals(due []sim.Event[int32]) {
	var sink uint64
	for _, e := range due {
		sink += n.streams[e.V].line + uint64(n.srcQ[e.V].Len())
	}
	n.touchSink = sink
}

// Step simulates one cycle.
func (n *Network) Step() {
	if n.parts != nil {
		n.stepParts()
		return
	}
	now := n.now
	n.generate()
	for _, f := range n.sinks.take(now) {
		n.deliver(f)
	}
	for _, c := range n.credits.take(now) {
		n.routers[c.node].AddCredit(int(c.port), int(c.vc))
	}
	for _, c := range n.control.take(now) {
		r := n.routers[c.node]
		switch c.kind {
		case router.ProbeForward:
			r.AcceptProbe(int(c.port), int(c.vc), c.probe, now)
		case router.ProbeBack:
			r.AcceptBacktrack(int(c.port), int(c.vc), c.probe, now)
		case router.Ack:
			r.AcceptAck(int(c.port), int(c.vc), c.probe, now)
		}
		n.wakeNow(int(c.node))
	}
	n.inject()
	if n.plane != nil {
		if n.plane.Step(now) > 0 {
			n.lastProgress = now
		}
		for _, f := range n.plane.Ejected {
			n.eject(f)
		}
	} else {
		n.stepActive()
	}
	if n.ms != nil {
		n.stats.stageCycle(n.stageBuf)
	}
	n.stats.cycle(n.inSystem)
	if n.cfg.Debug {
		n.checkConservation()
	}
	if n.plane == nil {
		copy(n.active, n.nextActive) // in place: the routers point into nextActive
		clear(n.nextActive)
	}
	n.now++
}

// stepNode runs one cycle of node i: NIC, router, departures.
func (n *Network) stepNode(i int) {
	now := n.now
	r := n.routers[i]
	if r.Step(now) > 0 {
		n.lastProgress = now
	}
	for _, d := range r.Sent { // only the local port leads to a sink
		n.eject(d.Flit)
	}
	if len(r.Control) > 0 {
		n.sendControl(i, r)
	}
	if r.Buffered() > 0 || r.Waiting() > 0 {
		n.wake(i)
	}
}

// sendControl puts router i's scouting control messages on their lines:
// headers moving on to the downstream router (probeAt cycles), negative
// and positive acknowledgements to the upstream router (CreditDelay).
func (n *Network) sendControl(i int, r *router.Router) {
	now := n.now
	base := i * n.ports
	for _, m := range r.Control {
		if n.onScout != nil {
			n.onScout(ScoutEvent{Cycle: now, Router: i, Kind: m.Kind, Port: m.Port, VC: m.VC, Probe: m.Probe})
		}
		a := ctrlArrival{kind: m.Kind, port: int32(m.Port), vc: int32(m.VC), probe: m.Probe}
		switch m.Kind {
		case router.ProbeForward:
			a.node = n.chanDst[n.outCh[base+m.Port]]
			n.control.at(now+n.probeAt, a)
		case router.ProbeBack, router.Ack:
			if m.Kind == router.ProbeBack {
				n.packets[m.Probe.Packet].backs++
			}
			a.node = n.chanSrc[n.inCh[base+m.Port]]
			n.control.at(now+sim.Cycle(n.cfg.CreditDelay), a)
		case router.Complete:
			n.packets[m.Probe.Packet].setup = now
		}
	}
	r.Control = r.Control[:0]
}

// injectFlit lets terminal i's NIC put at most one flit on its injection
// line, which enters input port `port` of router `node` (direct networks:
// router i's local port). It reports whether a flit was sent (the caller
// counts it: queuedFlits, lastProgress). The lanes are
// served round-robin from the one after the last served; an idle lane
// starts the next queued packet on the next local input VC (from rr) that
// has a free slot and no packet of another lane.
func (n *Network) injectFlit(pl *router.Plane, i, node, port int) bool {
	now := n.now
	q := &n.srcQ[i]
	ni := &n.nics[i]
	nl := int32(len(ni.lanes))
	for k := int32(0); k < nl; k++ {
		l := ni.next + k
		if l >= nl {
			l -= nl
		}
		ln := &ni.lanes[l]
		if ln.cur < 0 {
			if q.Len() == 0 {
				continue
			}
			vc := n.freeLocalVC(pl, ni, node, port)
			if vc < 0 {
				continue
			}
			ln.cur, ln.sent, ln.vc = q.Pop(), 0, vc
			pk := &n.packets[ln.cur]
			ln.dest, ln.length = pk.dst, pk.length
			if n.g != nil {
				ln.dest = ln.cur // graph routing reads the packet's destination and state by its id
			}
			ni.active++
		}
		f := router.Flit{Packet: ln.cur, Dest: ln.dest, Len: ln.length}
		if ln.sent == 0 {
			f.Flags |= router.Head
		}
		if ln.sent == ln.length-1 {
			f.Flags |= router.Tail
		}
		at := now + sim.Cycle(n.cfg.InjectionLatency)
		// Through the plane when there is one: it writes the flit on its
		// own arrays without loading the Router (issue 20). (A helper for
		// this choice, not inlined, cost the 8x8 torus 1%.)
		var ok bool
		if pl != nil {
			ok = pl.Inject(node, port, int(ln.vc), f, now, at)
		} else {
			ok = n.routers[node].Inject(port, int(ln.vc), f, now, at)
		}
		if !ok {
			continue
		}
		if ln.sent == 0 {
			n.packets[ln.cur].inject = now
		}
		ln.sent++
		if ln.sent == ln.length {
			ln.cur = -1
			ni.active--
			ni.rr = ln.vc + 1
			if ni.rr == int32(n.vcs) {
				ni.rr = 0
			}
		}
		if ni.next = l + 1; ni.next == nl {
			ni.next = 0
		}
		return true
	}
	return false
}

// freeLocalVC returns the first local input VC from ni.rr on that has a
// free slot and carries no packet of another lane of ni, or -1.
func (n *Network) freeLocalVC(pl *router.Plane, ni *nic, node, port int) int32 {
	for k := int32(0); k < int32(n.vcs); k++ {
		v := ni.rr + k
		if v >= int32(n.vcs) {
			v -= int32(n.vcs)
		}
		var ok bool
		if pl != nil { // (as injectFlit)
			ok = pl.CanAccept(node, port, int(v), n.now)
		} else {
			ok = n.routers[node].CanAccept(port, int(v), n.now)
		}
		if !ok {
			continue
		}
		taken := false
		for j := range ni.lanes {
			if ni.lanes[j].cur >= 0 && ni.lanes[j].vc == v {
				taken = true
			}
		}
		if !taken {
			return v
		}
	}
	return -1
}

// eject puts flit f, leaving a router for its sink in this cycle, on the
// ejection line (or delivers it at once when that line takes no cycle).
func (n *Network) eject(f router.Flit) {
	if f.IsHead() && n.packets[f.Packet].setup < 0 {
		n.packets[f.Packet].setup = n.now // wormhole family: the head leaves for the sink
	}
	if n.ejectAt == 0 {
		n.deliver(f)
	} else {
		n.sinks.at(n.now+n.ejectAt, f)
	}
}

// FlitHops returns the flits sent on network links since the network was
// built (multistage: the links to sinks included, as every switch crossed
// counts).
func (n *Network) FlitHops() int64 {
	h := n.sinkHops
	for i, r := range n.routers {
		for p := 0; p < n.ports; p++ {
			if c := n.outCh[i*n.ports+p]; c >= 0 && n.chanDst[c] >= 0 {
				h += r.LinkFlits(p)
			}
		}
	}
	return h
}

// linkCount returns the flits router-to-router channel c has carried since
// the network was built, counted by its sending router; ok is false for a
// channel from a NIC or to a sink (the network counts those itself).
func (n *Network) linkCount(c int) (flits int64, ok bool) {
	src, dst := n.chanSrc[c], n.chanDst[c]
	if src < 0 || dst < 0 {
		return 0, false
	}
	p := 0
	if n.chanSrcPort != nil {
		p = int(n.chanSrcPort[c])
	} else {
		p = n.topo.Channel(c).SrcPort // a direct network: its topology knows (no copy)
	}
	return n.routers[src].LinkFlits(p), true
}

// markLinkCounts remembers the routers' link counts when the measurement
// starts (they count from the start of the run) in the measurement's
// channel counts, which the network keeps itself only for channels from a
// NIC or to a sink: one count per channel, not a second array of bases.
func (n *Network) markLinkCounts() {
	for c := range n.stats.channelFlits {
		if f, ok := n.linkCount(c); ok {
			n.stats.channelFlits[c] = f
		}
	}
}

// channelFlits returns the flits channel c carried during the measurement.
func (n *Network) channelFlits(c int) int64 {
	if f, ok := n.linkCount(c); ok {
		return f - n.stats.channelFlits[c] // its count when the measurement started (markLinkCounts)
	}
	return n.stats.channelFlits[c]
}

// deliver hands a flit to its destination's sink.
func (n *Network) deliver(f router.Flit) {
	n.deliveredFlits++
	n.lastProgress = n.now
	n.stats.flitDelivered()
	if !f.IsTail() {
		return
	}
	pk := &n.packets[f.Packet]
	n.inSystem--
	n.stats.messageDelivered(pk.tagged, n.now-pk.gen, n.now-pk.inject, int(f.Hops), pk.inject-pk.gen, pk.setup-pk.inject, int(pk.backs))
	if n.replay != nil {
		n.delivered(f.Packet, pk, int(f.Hops))
	}
	if n.onDeliver != nil {
		n.onDeliver(Delivery{Src: int(pk.src), Dst: int(pk.dst), Flits: int(pk.length), Hops: int(f.Hops),
			Generated: pk.gen, Injected: pk.inject, Delivered: n.now,
			Latency: n.now - pk.gen, NetworkLatency: n.now - pk.inject})
	}
	n.freeIDs = append(n.freeIDs, f.Packet)
}

// checkConservation panics unless generated flits = delivered + queued +
// flits on lines and in buffers.
func (n *Network) checkConservation() {
	inNet := int64(n.sinks.count())
	for i := range n.routers {
		inNet += int64(n.routers[i].Buffered())
	}
	var queued int64
	for i := range n.srcQ {
		q := &n.srcQ[i]
		for k := 0; k < q.Len(); k++ {
			queued += int64(n.packets[q.At(k)].length)
		}
		for _, ln := range n.nics[i].lanes {
			if ln.cur >= 0 {
				queued += int64(n.packets[ln.cur].length - ln.sent)
			}
		}
	}
	if queued != n.queuedFlits || n.generatedFlits != n.deliveredFlits+queued+inNet {
		panic(fmt.Sprintf("network: flit conservation violated at cycle %d: generated %d, delivered %d, queued %d (counter %d), in network %d",
			n.now, n.generatedFlits, n.deliveredFlits, queued, n.queuedFlits, inNet))
	}
}

// measurement accumulates what a run reports, the standard way (BookSim;
// Dally & Towles, ch. 23): the messages generated while the measurement
// window is open (on) are tagged, and every per-message figure (latency,
// network latency, hops, source wait, set-up, backtracks, percentiles)
// comes from the tagged messages, whenever they are delivered, the drain
// after the window included. Rates, utilisations and occupancies are
// counted over the window itself.
type measurement struct {
	on            bool // the measurement window is open: new messages are tagged
	start         sim.Cycle
	cycles        int64 // cycles in the window
	flitsOffered  int64 // flits generated in the window
	flitsAccepted int64 // flits delivered in the window (any message)
	msgsAccepted  int64 // messages delivered in the window (any message)
	taggedOut     int64 // tagged messages not yet delivered
	messages      int64 // tagged messages delivered (measured)
	latency       sim.Accumulator
	netLatency    *sim.BatchMeans
	hops          sim.Accumulator
	sourceWait    sim.Accumulator
	inSystemSum   float64
	hist          *sim.Histogram
	channelFlits  []int64
	stageSum      []float64 // multistage: per stage, flit-cycles in input buffers
	setup         sim.Accumulator
	backtracks    sim.Accumulator
	occ           []int64 // scratch: one router's Occupancy
	observe       func(x float64)

	periodSum   float64 // latency sum of the current sample period (always kept)
	periodCount int64
	periodGen   int64 // flits generated in the current sample period
	periodAcc   int64 // flits delivered in the current sample period
}

func (m *measurement) init(channels, occ int) {
	m.netLatency = sim.NewBatchMeans(64, 10)
	m.hist = sim.NewHistogram(4096)
	m.channelFlits = make([]int64, channels)
	m.occ = make([]int64, occ)
}

// reset opens the measurement window at cycle now.
func (m *measurement) reset(now sim.Cycle) {
	m.on = true
	m.start = now
	m.cycles = 0
	m.flitsOffered, m.flitsAccepted, m.msgsAccepted, m.messages = 0, 0, 0, 0
	m.latency = sim.Accumulator{}
	m.netLatency.Reset()
	m.hops = sim.Accumulator{}
	m.sourceWait = sim.Accumulator{}
	m.setup = sim.Accumulator{}
	m.backtracks = sim.Accumulator{}
	m.inSystemSum = 0
	m.hist.Reset()
	clear(m.channelFlits)
	clear(m.stageSum)
}

// stageCycle adds one cycle of the per-stage buffered flits.
func (m *measurement) stageCycle(stageBuf []int64) {
	if m.on {
		for s, b := range stageBuf {
			m.stageSum[s] += float64(b)
		}
	}
}

func (m *measurement) generated(flits int) {
	m.periodGen += int64(flits)
	if m.on {
		m.flitsOffered += int64(flits)
		m.taggedOut++
	}
}

func (m *measurement) flitDelivered() {
	m.periodAcc++
	if m.on {
		m.flitsAccepted++
	}
}

func (m *measurement) cycle(inSystem int64) {
	if m.on {
		m.cycles++
		m.inSystemSum += float64(inSystem)
	}
}

// messageDelivered records a delivered message. periodSum and
// periodCount accumulate every message of the current sample period for
// the monitor's warm-up and trend rules; the message's figures are
// measured when it is tagged.
func (m *measurement) messageDelivered(tagged bool, lat, netLat sim.Cycle, hops int, wait, setup sim.Cycle, backs int) {
	m.periodSum += float64(lat)
	m.periodCount++
	if m.on {
		m.msgsAccepted++
	}
	if !tagged {
		return
	}
	m.taggedOut--
	m.messages++
	m.latency.Add(float64(lat))
	m.observe(float64(lat))
	m.netLatency.Add(float64(netLat))
	m.hops.Add(float64(hops))
	m.sourceWait.Add(float64(wait))
	m.setup.Add(float64(setup))
	m.backtracks.Add(float64(backs))
	m.hist.Add(int64(lat))
}
