package network

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/topology"
	"github.com/flitsim/flitsim/topology/graph"
	"github.com/flitsim/flitsim/topology/multistage"
	"github.com/flitsim/flitsim/traffic"
	"github.com/flitsim/flitsim/traffic/trace"
)

// LengthSpec describes the message-length distribution.
type LengthSpec struct {
	Distribution string  // "fixed" (default) or "geometric"
	Flits        int     // fixed: flits per message
	Mean         float64 // geometric: mean flits (>= 1)
	Max          int     // geometric: truncation (0 = unbounded)
}

// MaxMessageFlits is the longest message a network carries, in flits: a
// router's buffer slot holds a packet's length in that many values.
const MaxMessageFlits = router.MaxPacketFlits

// Routing algorithm names accepted by Config.Routing.
const (
	RoutingDimensionOrder = "dimension-order"
	RoutingRandomMinimal  = "random-minimal"
	// RoutingAdaptive is minimal fully adaptive routing: a header may take
	// any free VC of any productive channel, chosen at random
	// (topology.NewFullyAdaptive, router.Config.Adaptive). With EscapeVCs = 0
	// there are no escape channels, as in the scouting paper (docs/models.md#safaei-simulator):
	// such a network can deadlock, and a run then ends with
	// sim.StatusDeadlock. EscapeVCs > 0 adds Duato's dimension-order escape
	// channels (topology.NewDuato), which make it deadlock-free.
	RoutingAdaptive = "adaptive"
	// RoutingDestinationTag is the digit-controlled routing of a delta
	// network (multistage.Network.Route): the only routing of, and the
	// default with, Config.Multistage.
	RoutingDestinationTag = "destination-tag"
)

// Config is everything needed to build and run one network at one load.
// Zero latencies take the defaults noted; Router has no defaults.
type Config struct {
	Topology topology.Spec // the direct network; ignored when Multistage is set
	// Multistage, when not nil, replaces the direct network by a delta
	// network of b x b switches (topology/multistage): terminals are
	// separate from switches, terminal t's NIC feeds a first-stage input
	// and the last-stage outputs lead to the sinks over credited channels
	// (see "Multistage fabric" in the package documentation). Routing is
	// then RoutingDestinationTag.
	Multistage *multistage.Spec
	// Graph, when not nil, replaces the direct network by a network of
	// package topology/graph (dragonfly, flattened butterfly, fat tree,
	// concentrated mesh, a graph file): several terminals per router,
	// routers of any port count, each channel with its own latency (it
	// replaces LinkLatency; credits take CreditDelay + latency - 1). Routing
	// is then one of graph.RoutingNames (default: the family's first).
	// The network is immutable and may be shared by many Configs.
	Graph   *graph.Network
	Routing string // RoutingDimensionOrder (default; with Multistage: RoutingDestinationTag), RoutingRandomMinimal or RoutingAdaptive
	// EscapeVCs is, with RoutingAdaptive, the VCs per physical channel
	// reserved for Duato's escape channels (dimension-order routing on
	// them; 0, the default: none). On rings and tori the escape VCs are
	// split evenly between the two dateline classes, so EscapeVCs must be
	// even there; at least one VC per channel must stay adaptive
	// (EscapeVCs < Router.VCs). The escape VCs are VCs [0, EscapeVCs) of
	// each port. Deadlock-free by topology.CheckEscape.
	EscapeVCs int
	// Ties is how dimension-order routing breaks the tie at an offset of
	// exactly K/2 on an even-radix bidirectional ring or torus: balanced
	// (the zero value: both directions, one drawn per packet, as BookSim
	// 2 does) or always + (topology.TiesPlus). Other routings ignore it.
	Ties   topology.Ties
	Router router.Arch

	LinkLatency      int // cycles on a network link, >= 1 (0 means 1)
	CreditDelay      int // cycles for a credit to return upstream, >= 1 (0 means 1)
	InjectionLatency int // cycles from NIC to router input buffer, >= 0 (-1 means 0; 0 means 0)
	EjectionLatency  int // cycles from router output to sink, >= 0
	EjectionVCs      int // VCs of the local output port; 0 means Router.VCs (Multistage: must be Router.VCs)
	// InjectionVCs is how many messages a NIC injects at once, each on its
	// own local input VC, sharing the injection channel flit by flit
	// (1..Router.VCs; 0 means 1: a message is injected completely before
	// the next one starts). Seed 004 §3.2.2 lets a message "enter the
	// network through any of the V virtual channels" (its source queue
	// has V servers); InjectionVCs = V is that source.
	InjectionVCs int

	Pattern traffic.PatternSpec
	Process string  // "bernoulli" (default), "poisson" or "onoff"
	Rate    float64 // offered load, messages per node per cycle (>= 0; 0 = no traffic process, messages only via Network.Offer)
	// Burst and Duty parametrise the "onoff" process (traffic.NewOnOff):
	// the mean on period in cycles (>= 1) and the fraction of cycles a
	// source is on, in (0, 1]; the peak rate in an on cycle is Rate/Duty.
	Burst, Duty float64
	Length      LengthSpec

	// Trace, when not nil, replaces the traffic process: the trace's
	// packets are generated by the timing rule of the package
	// documentation (section Trace-driven runs, in replay.go) and Run
	// replays it to the end. Rate must be 0; Pattern, Process and Length
	// are not read. A trace naming more nodes than the network has
	// terminals is refused by New.
	Trace *trace.Trace
	// TraceSpeedup divides the trace's recorded cycles and gaps (0 means
	// 1: as recorded; 2 replays it twice as fast).
	TraceSpeedup float64

	Seed uint64
	Run  sim.RunControl

	// Threads is how many threads step the network (0 means 1). The
	// routers of a direct network sharing a switch-allocation plane are
	// split into that many partitions of contiguous 64-router blocks (at
	// most one per block), synchronised every cycle (threads.go,
	// docs/speed.md#threads); other networks (multistage, graph networks,
	// scouting, routers beyond a plane) run on one thread whatever the
	// value. Results are byte-identical for every value.
	Threads int

	// Debug checks flit conservation (generated = delivered + in flight)
	// after every cycle and panics on a violation. For tests: it costs a
	// pass over the whole network per cycle.
	Debug bool

	// AnyLength keeps a buffer slot for every flit, so that Offer may put
	// messages of any length into the network. Without it a network whose
	// messages have a fixed length no shorter than a router's buffer keeps
	// only each buffer's head and tail slots (router.HeadTailServes: at
	// 2^20 nodes of the reference router, 2.1 KB a node less), and Offer
	// panics for a shorter message. Results are the same either way.
	AnyLength bool

	// singleClass collapses every VC class to class 0, removing the dateline
	// scheme. Only tests set it, to build a network that can deadlock.
	singleClass bool
	// traceNoSkip makes a trace run step every idle cycle instead of
	// jumping to the next packet. Only tests set it.
	traceNoSkip bool
	// ownAllocators makes every router allocate its switch alone even where
	// a router.Plane could serve them all. Only tests set it, to check that
	// the two give the same run.
	ownAllocators bool
	// touchAhead makes the plane load the lines of its moves ahead of them
	// (router.Plane.SetTouchAhead) whatever the network's size: only tests
	// set it, as their networks are far below the size where the plane
	// does so itself, to check that it changes nothing.
	touchAhead bool
}

// withDefaults returns c with zero fields replaced by their defaults.
func (c Config) withDefaults() Config {
	if c.Routing == "" && c.Graph == nil {
		c.Routing = RoutingDimensionOrder
		if c.Multistage != nil {
			c.Routing = RoutingDestinationTag
		}
	}
	if c.LinkLatency == 0 {
		c.LinkLatency = 1
	}
	if c.CreditDelay == 0 {
		c.CreditDelay = 1
	}
	if c.EjectionVCs == 0 {
		c.EjectionVCs = c.Router.VCs
	}
	if c.InjectionVCs == 0 {
		c.InjectionVCs = 1
	}
	if c.Process == "" {
		c.Process = "bernoulli"
	}
	if c.Length.Distribution == "" {
		c.Length.Distribution = "fixed"
	}
	if c.TraceSpeedup == 0 {
		c.TraceSpeedup = 1
	}
	return c
}

// validate reports every problem with c (already defaulted) at once.
func (c Config) validate() error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if err := c.Router.Validate(); err != nil {
		errs = append(errs, err)
	}
	if c.Threads < 0 || c.Threads > MaxThreads {
		add("network: Threads = %d, want 0..%d", c.Threads, MaxThreads)
	}
	if c.LinkLatency < 1 {
		add("network: LinkLatency = %d, want >= 1", c.LinkLatency)
	}
	if c.Length.Flits > MaxMessageFlits || c.Length.Max > MaxMessageFlits {
		add("network: messages of up to %d flits fit a router's buffer slot (length %d, max %d)", MaxMessageFlits, c.Length.Flits, c.Length.Max)
	}
	// An unbounded geometric length draws a message longer than a slot
	// can carry with probability (1-1/Mean)^MaxMessageFlits per message,
	// below e^-64 when Mean <= MaxMessageFlits/64; a larger mean must be
	// truncated, or a long run would fail mid-way.
	if c.Length.Distribution == "geometric" && c.Length.Max == 0 && c.Length.Mean > MaxMessageFlits/64 {
		add("network: a geometric length of mean %g flits without a max can draw a message longer than the %d flits a router's buffer slot carries: set a max of at most %d", c.Length.Mean, MaxMessageFlits, MaxMessageFlits)
	}
	if c.CreditDelay < 1 {
		add("network: CreditDelay = %d, want >= 1", c.CreditDelay)
	}
	if c.InjectionLatency < 0 || c.EjectionLatency < 0 {
		add("network: injection/ejection latencies must be >= 0 (got %d, %d)", c.InjectionLatency, c.EjectionLatency)
	}
	if c.EjectionVCs < 1 || c.EjectionVCs > c.Router.VCs {
		add("network: EjectionVCs = %d, want 1..%d", c.EjectionVCs, c.Router.VCs)
	}
	if c.InjectionVCs < 1 || c.InjectionVCs > c.Router.VCs {
		add("network: InjectionVCs = %d, want 1..%d", c.InjectionVCs, c.Router.VCs)
	}
	if c.Graph != nil {
		if c.Multistage != nil {
			add("network: both Graph and Multistage are set")
		}
		if c.Routing != "" && !slices.Contains(graph.RoutingNames(c.Graph), c.Routing) {
			add("network: routing %q is not available on a %s (want one of %s)", c.Routing, c.Graph.Kind(), strings.Join(graph.RoutingNames(c.Graph), ", "))
		}
		if c.Router.Switching == router.Scouting && c.Router.ScoutingDistance > 0 {
			add("network: scouting switching (K = %d) is not implemented on a %s", c.Router.ScoutingDistance, c.Graph.Kind())
		}
		if c.EjectionVCs != c.Router.VCs {
			add("network: EjectionVCs = %d on a %s: its terminals' sinks are fed by ordinary credited router outputs with all %d VCs", c.EjectionVCs, c.Graph.Kind(), c.Router.VCs)
		}
		if c.EscapeVCs != 0 {
			add("network: EscapeVCs = %d on a %s (it has no escape channels)", c.EscapeVCs, c.Graph.Kind())
		}
	} else if c.Multistage != nil {
		if _, err := c.Multistage.Terminals(); err != nil {
			errs = append(errs, err)
		}
		if c.Routing != RoutingDestinationTag {
			add("network: a multistage network routes by %q, not %q", RoutingDestinationTag, c.Routing)
		}
		if c.Router.Switching == router.Scouting && c.Router.ScoutingDistance > 0 {
			add("network: scouting switching (K = %d) is not implemented on a multistage network", c.Router.ScoutingDistance)
		}
		if c.EjectionVCs != c.Router.VCs {
			add("network: EjectionVCs = %d on a multistage network: its sinks are fed by ordinary credited switch outputs with all %d VCs", c.EjectionVCs, c.Router.VCs)
		}
		if c.EscapeVCs != 0 {
			add("network: EscapeVCs = %d on a multistage network (it has no escape channels)", c.EscapeVCs)
		}
	} else if c.Routing != RoutingDimensionOrder && c.Routing != RoutingRandomMinimal && c.Routing != RoutingAdaptive {
		add("network: unknown routing %q (want %q, %q or %q)", c.Routing, RoutingDimensionOrder, RoutingRandomMinimal, RoutingAdaptive)
	}
	if c.EscapeVCs != 0 && c.Multistage == nil && c.Graph == nil {
		ring := c.Topology.Kind == topology.Ring || c.Topology.Kind == topology.Torus
		switch {
		case c.Routing != RoutingAdaptive:
			add("network: EscapeVCs = %d applies only to %q routing", c.EscapeVCs, RoutingAdaptive)
		case c.EscapeVCs < 0 || c.EscapeVCs >= c.Router.VCs:
			add("network: EscapeVCs = %d, want 0 or 1..%d (Router.VCs-1: at least one adaptive VC per channel)", c.EscapeVCs, c.Router.VCs-1)
		case ring && c.EscapeVCs%2 != 0:
			add("network: EscapeVCs = %d on a %v: the escape channels need the two dateline classes, so an even number (>= 2)", c.EscapeVCs, c.Topology.Kind)
		}
	}
	if c.Trace != nil && c.Rate != 0 {
		add("network: Rate = %v with a trace: a trace-driven run has no traffic process", c.Rate)
	}
	if !(c.TraceSpeedup > 0 && !math.IsInf(c.TraceSpeedup, 1)) {
		add("network: TraceSpeedup = %v, want a positive finite factor", c.TraceSpeedup)
	}
	if !(c.Rate >= 0) {
		add("network: Rate = %v messages/node/cycle, want >= 0", c.Rate)
	}
	if c.Process != "bernoulli" && c.Process != "poisson" && c.Process != "onoff" {
		add("network: unknown process %q (want bernoulli, poisson or onoff)", c.Process)
	}
	if c.Process != "onoff" && (c.Burst != 0 || c.Duty != 0) {
		add("network: Burst and Duty apply only to the onoff process (process is %q)", c.Process)
	}
	if c.Process == "bernoulli" && c.Rate > 1 {
		add("network: Bernoulli rate %v messages/node/cycle > 1 (at most one message per cycle)", c.Rate)
	}
	return errors.Join(errs...)
}

// ZeroLoadLatency returns the latency in cycles of an M-flit message crossing
// `hops` links through an empty network (see the package documentation).
// With wormhole or virtual cut-through:
//
//	InjectionLatency + (hops+1)*HopDelay + hops*LinkLatency + EjectionLatency + M - 1
//
// With Multistage set, hops is the number of switches crossed (z, what
// Result.Hops reports) and the message crosses hops-1 inter-stage links
// plus the exit link to the sink, which takes EjectionLatency:
//
//	InjectionLatency + z*HopDelay + (z-1)*LinkLatency + EjectionLatency + M - 1
//
// With store-and-forward each of the hops+1 routers also waits for the tail,
// so its routing+VC-allocation share of HopDelay becomes
// max(RoutingDelay+VCAllocDelay, M-1). With scouting switching and K >= 1 it
// is the recurrence of scoutingZeroLoad, D + M + 2min(K, D) - 1 for the
// one-cycle router.
func (c Config) ZeroLoadLatency(hops, flits int) int {
	c = c.withDefaults()
	perRouter := c.Router.HopDelay()
	if c.Router.Switching == router.StoreAndForward {
		front := c.Router.RoutingDelay + c.Router.VCAllocDelay
		perRouter += max(front, flits-1) - front
	}
	if c.Router.Switching == router.Scouting && c.Router.ScoutingDistance > 0 {
		return c.scoutingZeroLoad(hops, flits)
	}
	if c.Multistage != nil {
		hops-- // z switches joined by z-1 links: the direct formula with z-1 links
	}
	return c.InjectionLatency + (hops+1)*perRouter + hops*c.LinkLatency + c.EjectionLatency + flits - 1
}

// scoutingZeroLoad evaluates the zero-load timing of scouting switching
// documented in package router (scouting.go), for K >= 1: the header reaches
// position j at a_j = a_0 + j(HopDelay+LinkLatency) and is granted at
// g_j = a_j + RoutingDelay; the data gate at position h opens at
//
//	G_h = g_{h+K} + K CreditDelay      (h+K < D)
//	G_h = g_D + (D-h) CreditDelay      (otherwise)
//
// and the first data flit wins the switch at s_h = max(d_h, g_h+VCAllocDelay,
// G_h), d_0 = a_0, d_h = s_{h-1} + SwitchAlloc + SwitchTraversal + LinkLatency;
// the tail reaches the sink M-1 cycles after the head. With the one-cycle
// router this is D + M + 2 min(K, D) - 1.
func (c Config) scoutingZeroLoad(D, M int) int {
	rc := c.Router
	K := rc.ScoutingDistance
	a0 := c.InjectionLatency
	hop := rc.HopDelay() + c.LinkLatency
	out := rc.SwitchAllocDelay + rc.SwitchTraversalDelay
	g := func(j int) int { return a0 + j*hop + rc.RoutingDelay }
	var s int
	for h := 0; h <= D; h++ {
		d := a0
		if h > 0 {
			d = s + out + c.LinkLatency
		}
		gate := g(D) + (D-h)*c.CreditDelay
		if h+K < D {
			gate = g(h+K) + K*c.CreditDelay
		}
		s = max(d, g(h)+rc.VCAllocDelay, gate)
	}
	return s + out + c.EjectionLatency + M - 1
}

func (c Config) length() (traffic.Length, error) {
	switch c.Length.Distribution {
	case "fixed":
		return traffic.NewFixedLength(c.Length.Flits)
	case "geometric":
		return traffic.NewGeometricLength(c.Length.Mean, c.Length.Max)
	}
	return nil, fmt.Errorf("network: unknown length distribution %q (want fixed or geometric)", c.Length.Distribution)
}

func (c Config) process() (traffic.Process, error) {
	if c.Rate == 0 {
		return nil, nil
	}
	switch c.Process {
	case "poisson":
		return traffic.NewPoisson(c.Rate)
	case "onoff":
		return traffic.NewOnOff(c.Rate, c.Burst, c.Duty)
	}
	return traffic.NewBernoulli(c.Rate)
}

// patternSpec returns the destination pattern's spec, with the seed of a
// random permutation derived from the run's root seed when none is given:
// the stream (PurposeTrafficDest, 2^64-1), an index no node uses, so each
// replication draws its own permutation and none moves a node's stream.
func (c Config) patternSpec() traffic.PatternSpec {
	p := c.Pattern
	if p.Name == traffic.RandomPermutation && p.Seed == 0 {
		p.Seed = sim.DeriveSeed(c.Seed, sim.PurposeTrafficDest, math.MaxUint64)
	}
	return p
}

// MeanFlits returns the mean message length in flits of the configured
// distribution (the truncated mean for a bounded geometric), or NaN when
// the distribution is invalid.
func (l LengthSpec) MeanFlits() float64 {
	c := Config{Length: l}.withDefaults()
	d, err := c.length()
	if err != nil {
		return math.NaN()
	}
	return d.Mean()
}

// outDelay is the cycles from a flit's switch allocation to its leaving
// the router (switch allocation and traversal): a link's delay is this
// plus the line's latency (Network.initLines).
func (c Config) outDelay() sim.Cycle {
	return sim.Cycle(c.Router.SwitchAllocDelay + c.Router.SwitchTraversalDelay)
}

// headTailPacket is the shortest packet a direct network of the given
// ports built with c carries when its routers may keep only their heads'
// and tails' slots (router.HeadTailServes: a plane with anonymous bodies,
// NICs a cycle or less from their routers, fixed-length messages no
// shorter than a buffer, no trace), for router.NewStorage; 0 otherwise,
// every flit then having its slot. c has its defaults (withDefaults).
// Offer refuses a shorter message in such a network (AnyLength).
func (c Config) headTailPacket(ports int) int {
	if c.AnyLength || c.Trace != nil || c.Length.Distribution != "fixed" || c.ownAllocators || !router.PlaneServes(ports, c.Router) {
		return 0
	}
	if !router.HeadTailServes(c.Router, sim.Cycle(c.CreditDelay), c.outDelay()+sim.Cycle(c.LinkLatency), c.InjectionLatency, c.Length.Flits, c.Routing == RoutingAdaptive) {
		return 0
	}
	return c.Length.Flits
}
