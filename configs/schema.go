package configs

import (
	"github.com/flitsim/flitsim/analytic/catalog"
	"github.com/flitsim/flitsim/topology/graph"
)

// Experiment is one resolved YAML experiment: every default filled in, every
// value checked. Its zero value is not meaningful; obtain one from [Load] or
// [Parse]. The yaml tags are the file's keys; the json tags are the same
// names and define the canonical encoding that [Experiment.Hash] digests.
type Experiment struct {
	// File is the path the experiment was read from (not part of the hash).
	File string `yaml:"-" json:"-"`
	// graphNet is the network of a graph topology, built once (GraphNetwork).
	graphNet *graph.Network
	// pos is where each key was written in File (see [Experiment.ErrorAt]).
	pos map[string]pos

	// Name labels the experiment in results; default: the file's base name
	// without extension.
	Name string `yaml:"name" json:"name"`
	// Description is free text for humans (not part of the hash).
	Description string `yaml:"description" json:"-"`
	// Mode selects the simulator: "network" (flit-level VC-router network,
	// the default), "closed" (Reed's closed networks, sim/closed), "delta"
	// (Makrucki–Mudge delta networks, sim/delta) or "slotted"
	// (Jacquet–Mühlethaler slotted hypercube, sim/slotted). Scouting
	// switching (Safaei et al.) runs in mode network, on the flit-level
	// engine: switching.technique scouting. Each mode reads its own keys
	// (docs/config.md) and refuses the others.
	Mode string `yaml:"mode" json:"mode"`
	// Seed is the root seed of every random stream (default 1). It is not
	// part of the hash: results carry it in a column of their own.
	Seed uint64 `yaml:"seed" json:"-"`

	// The sections a mode does not read stay zero and are left out of the
	// canonical encoding (omitzero), so the hash of a mode-network
	// experiment is what it was before the paper modes existed and the hash
	// of a paper-mode experiment holds only what that mode reads.
	Network   Network   `yaml:"network" json:"network,omitzero"`
	Router    Router    `yaml:"router" json:"router,omitzero"`
	Routing   string    `yaml:"routing" json:"routing,omitempty"`
	Switching Switching `yaml:"switching" json:"switching,omitzero"`
	Traffic   Traffic   `yaml:"traffic" json:"traffic,omitzero"`
	// Closed, Delta and Slotted are the sections of the paper modes; each
	// is read only in its own mode and refused in any other.
	Closed  Closed  `yaml:"closed" json:"closed,omitzero"`
	Delta   Delta   `yaml:"delta" json:"delta,omitzero"`
	Slotted Slotted `yaml:"slotted" json:"slotted,omitzero"`
	Sweep   Sweep   `yaml:"sweep" json:"sweep"`
	Run     Run     `yaml:"run" json:"run"`

	// Models names the analytical models that apply to this experiment
	// (used by the validation harness); see [KnownModels].
	Models []string `yaml:"models" json:"models"`

	// Validation holds the tolerances `flitsim validate` judges this
	// experiment's models with. It does not change what is simulated, so it
	// is not part of the hash.
	Validation Validation `yaml:"validation" json:"-"`
}

// Validation is the judgement of model against simulation (package
// validation, docs/validation.md). Errors are relative to the simulated
// mean; what is judged is the part outside the simulated 95% CI. Unset keys
// take the defaults of the model family (validation.FamilyTolerance).
type Validation struct {
	// MeanTolerance is the largest mean CI-excess error over the judged
	// points, a fraction (0.05 = 5%).
	MeanTolerance float64 `yaml:"mean_tolerance" json:"mean_tolerance"`
	// MaxTolerance is the largest single-point CI-excess error.
	MaxTolerance float64 `yaml:"max_tolerance" json:"max_tolerance"`
	// Fraction: only loads up to this fraction of the model's saturation
	// load are judged (default 0.8).
	Fraction float64 `yaml:"fraction" json:"fraction"`
	// SubtractOffset judges the load-dependent error only: the zero-load
	// offset (simulated minus model at the lowest judged load) is added to
	// the model first, for models that count a constant differently.
	SubtractOffset bool `yaml:"subtract_offset" json:"subtract_offset"`
	// MaxOffset bounds the zero-load offset subtract_offset removes, as a
	// fraction of the simulated value at the anchoring point (0: the
	// model family's default). Left out of the canonical encoding when 0.
	MaxOffset float64 `yaml:"max_offset" json:"max_offset,omitempty"`
	// SaturationTolerance is the tolerance of the judgement of a model's
	// saturation load against the measured saturation throughput (0: the
	// family's default). Left out of the canonical encoding when 0.
	SaturationTolerance float64 `yaml:"saturation_tolerance" json:"saturation_tolerance,omitempty"`
	// ReportOnly reports the errors but never fails (relaxed-assumption
	// experiments; a model limit investigated and recorded). It requires
	// Reason, which the report prints beside every row (without
	// report_only the reason is printed as a note beside the tolerance).
	ReportOnly bool   `yaml:"report_only" json:"report_only"`
	Reason     string `yaml:"reason" json:"reason,omitempty"`
	// ExpectNoData declares, with its reason, that no point is expected to
	// be judged; without it a comparison without an eligible point fails.
	ExpectNoData string `yaml:"expect_no_data" json:"expect_no_data,omitempty"`
}

// Network is the topology and the channels between routers.
type Network struct {
	// Topology is "ring", "torus" (k-ary n-cube), "mesh", "hypercube" or
	// "delta" (a multistage delta network of Dimensions stages of Radix x
	// Radix switches, Radix^Dimensions terminals: the k-ary n-fly naming;
	// Wiring picks the inter-stage permutation), or one of the networks of
	// package topology/graph: "dragonfly" (Concentration, GroupSize,
	// GlobalLinks), "flattened-butterfly" (Radix, Dimensions,
	// Concentration), "fat-tree" (a Radix-ary Dimensions-tree), "cmesh"
	// (Radix, Dimensions, Concentration) or "graph" (File); mode closed
	// also takes "bus" (Radix nodes on one shared server).
	Topology string `yaml:"topology" json:"topology"`
	// Wiring is the delta network's inter-stage wiring: "omega" (perfect
	// shuffle, the default), "butterfly" or "baseline" (topology delta only).
	Wiring string `yaml:"wiring" json:"wiring,omitempty"`
	// Radix is k, the routers per dimension (hypercube: 2, the default).
	Radix int `yaml:"radix" json:"radix"`
	// Dimensions is n (ring: 1, the default).
	Dimensions int `yaml:"dimensions" json:"dimensions"`
	// Bidirectional selects a channel in each direction between neighbours
	// (default true; a mesh and a hypercube are always bidirectional).
	Bidirectional bool `yaml:"bidirectional" json:"bidirectional"`
	// LinkLatency is the cycles a flit takes on an inter-router channel (>= 1, default 1).
	LinkLatency int `yaml:"link_latency" json:"link_latency"`
	// CreditDelay is the cycles a credit takes back upstream (>= 1, default 1).
	CreditDelay int `yaml:"credit_delay" json:"credit_delay"`
	// InjectionLatency is the cycles from source queue to router (>= 0, default 1).
	InjectionLatency int `yaml:"injection_latency" json:"injection_latency"`
	// EjectionLatency is the cycles from router to sink (>= 0, default 1).
	EjectionLatency int `yaml:"ejection_latency" json:"ejection_latency"`
	// EjectionVCs is the VCs of the ejection port (0, the default, means router.vcs).
	EjectionVCs int `yaml:"ejection_vcs" json:"ejection_vcs"`
	// InjectionVCs is how many messages a node's interface injects at
	// once, each on its own local input VC, sharing the injection channel
	// flit by flit (1..router.vcs; 0, the default, means 1: one message at
	// a time). Safaei et al.'s source queue has V servers ("a message in
	// the source node can enter the network through any of the V virtual
	// channels"): injection_vcs = router.vcs. Left out of the canonical
	// encoding when 0, so existing hashes are unchanged.
	InjectionVCs int `yaml:"injection_vcs" json:"injection_vcs,omitempty"`

	// The keys of the networks of package topology/graph (topology
	// dragonfly, flattened-butterfly, fat-tree, cmesh, graph); left out of
	// the canonical encoding when zero, so other topologies hash as before.

	// Concentration is the terminals per router: a dragonfly's p, a
	// flattened butterfly's c (default: radix) and a cmesh's c.
	Concentration int `yaml:"concentration" json:"concentration,omitempty"`
	// GroupSize is a dragonfly's routers per group, a (default 2p).
	GroupSize int `yaml:"group_size" json:"group_size,omitempty"`
	// GlobalLinks is a dragonfly's global links per router, h (default p).
	GlobalLinks int `yaml:"global_links" json:"global_links,omitempty"`
	// GlobalLatency is the cycles on a dragonfly's global channels
	// (default link_latency, which its local channels take).
	GlobalLatency int `yaml:"global_latency" json:"global_latency,omitempty"`
	// GlobalArrangement is how a dragonfly's global links join its groups:
	// "consecutive" (the default) or "absolute" (BookSim 2's dragonflynew).
	GlobalArrangement string `yaml:"global_arrangement" json:"global_arrangement,omitempty"`
	// File is the graph file of topology graph, relative to the experiment
	// file (format: docs/config.md#graph-files).
	File string `yaml:"file" json:"file,omitempty"`
	// FileDigest is the hex SHA-256 of the graph file's contents, filled in
	// when the file is read: the hash covers what the file says, not only
	// its path, so --resume never reuses results of an edited graph.
	FileDigest string `yaml:"-" json:"file_digest,omitempty"`
}

// Router is the input-queued virtual-channel router micro-architecture.
type Router struct {
	// VCs is the virtual channels per input port (default 2).
	VCs int `yaml:"vcs" json:"vcs"`
	// BufferDepth is the flits each VC buffer holds (default 8).
	BufferDepth int `yaml:"buffer_depth" json:"buffer_depth"`
	// RoutingDelay, VCAllocDelay, SwitchAllocDelay and SwitchTraversalDelay
	// are the extra cycles of each pipeline stage (>= 0, default 0: a
	// single-cycle router).
	RoutingDelay         int `yaml:"routing_delay" json:"routing_delay"`
	VCAllocDelay         int `yaml:"vc_alloc_delay" json:"vc_alloc_delay"`
	SwitchAllocDelay     int `yaml:"switch_alloc_delay" json:"switch_alloc_delay"`
	SwitchTraversalDelay int `yaml:"switch_traversal_delay" json:"switch_traversal_delay"`
	// EscapeVCs is, with routing: adaptive, the VCs per physical channel
	// reserved for Duato's dimension-order escape channels
	// (network.Config.EscapeVCs; 0, the default: none, as in the scouting
	// paper). Even on rings and tori (two dateline classes), below VCs.
	// Left out of the canonical encoding when 0, so the hashes of
	// experiments without it are what they were before it existed.
	EscapeVCs int `yaml:"escape_vcs" json:"escape_vcs,omitempty"`
	// StickyEscape keeps a packet that has taken one of the escape VCs of
	// routing: adaptive on escape VCs until it is delivered, as BookSim
	// 2's min_adapt does (router.Arch.StickyEscape); false, the default,
	// is Duato's rule: it may take an adaptive VC again at the next
	// router. Needs escape_vcs > 0. Left out of the canonical encoding
	// when false.
	StickyEscape bool `yaml:"sticky_escape" json:"sticky_escape,omitempty"`
	// AdaptiveVC is how routing: adaptive takes output VCs
	// (router.Arch.AdaptiveVC): "whole-packet" (the default; empty means
	// it) prefers a free adaptive VC and, with escape VCs, takes an
	// adaptive VC only with room for the whole packet, which keeps
	// Duato's escape channels deadlock-free; "booksim" mirrors BookSim
	// 2's min_adapt router: every free VC of the route requested through
	// the VC allocator, free as soon as the previous tail has left; it can
	// deadlock past saturation, as BookSim does. Not with scouting
	// switching. whole-packet, written or not, is left out of the
	// canonical encoding.
	AdaptiveVC string `yaml:"adaptive_vc" json:"adaptive_vc,omitempty"`
	// TieBreak is how dimension-order routing on an even-radix torus or
	// ring breaks the tie at an offset of exactly k/2: "balanced" (both
	// directions, one drawn per packet, as BookSim 2 does) or "plus"
	// (always +, flitsim's rule before 2026-11). Empty means balanced;
	// balanced, written or not, is left out of the canonical encoding
	// (Experiment.Hash).
	TieBreak string `yaml:"tie_break" json:"tie_break,omitempty"`
	// Dateline is the dateline VC-class policy of dimension-order routing
	// on rings and tori: "per-hop" (the class of each hop from its own
	// position: 1 before the wrap-around, 0 after; empty means per-hop)
	// or "hold" (the class taken on entering a ring is held until the
	// packet leaves it, BookSim 2's; router.Arch.HoldClass). per-hop,
	// written or not, is left out of the canonical encoding.
	Dateline string `yaml:"dateline" json:"dateline,omitempty"`
	// Preset names a set of defaults for the router pipeline, the channel
	// latencies, tie_break, dateline and traffic.include_self
	// (network.PresetFor): "booksim-iq" mirrors BookSim 2's input-queued
	// router. Keys written in the file override the preset.
	Preset string `yaml:"preset" json:"preset,omitempty"`
	// VCAllocator and SwitchAllocator name the allocators of package
	// router/alloc ("islip", "wavefront", "separable-input-first",
	// "separable-output-first"); empty, the default, is the built-in
	// separable input-first round robin of the fast path. AllocIterations
	// is iSLIP's number of iterations (0 means 1). Left out of the
	// canonical encoding when unset.
	VCAllocator     string `yaml:"vc_allocator" json:"vc_allocator,omitempty"`
	SwitchAllocator string `yaml:"switch_allocator" json:"switch_allocator,omitempty"`
	AllocIterations int    `yaml:"alloc_iterations" json:"alloc_iterations,omitempty"`
}

// Switching is the switching technique.
type Switching struct {
	// Technique is "wormhole" (default), "virtual-cut-through",
	// "store-and-forward" or "scouting".
	Technique string `yaml:"technique" json:"technique"`
	// ScoutingDistance is K, how many hops the header runs ahead of the data
	// flits (scouting only; K = 0 is wormhole).
	ScoutingDistance int `yaml:"scouting_distance" json:"scouting_distance"`
}

// Traffic is where messages go (pattern), when they are created (process)
// and how long they are (length).
type Traffic struct {
	// Pattern is the destination pattern: uniform (default), locality,
	// decay, transpose, bit-complement, bit-reverse, shuffle, tornado,
	// neighbour, hotspot, and in mode network also random-permutation (a
	// random derangement drawn per replication from its seed), halo
	// (nearest-neighbour halo exchange: uniform over the one-hop
	// neighbours) and worst-case (the worst-case permutation of the
	// network's oblivious routing, topology/worstcase).
	Pattern string `yaml:"pattern" json:"pattern"`
	// Radius and Phi parametrise "locality" (Reed's sphere of locality): with
	// probability Phi the destination is uniform within Radius hops.
	Radius int     `yaml:"radius" json:"radius"`
	Phi    float64 `yaml:"phi" json:"phi"`
	// Decay is d of "decay" (Reed's decreasing probability): P(distance l) proportional to d^l.
	Decay float64 `yaml:"decay" json:"decay"`
	// HotspotNodes and HotspotFraction parametrise "hotspot": a fraction of
	// messages goes to one of the listed nodes, the rest uniformly.
	HotspotNodes    []int   `yaml:"hotspot_nodes" json:"hotspot_nodes"`
	HotspotFraction float64 `yaml:"hotspot_fraction" json:"hotspot_fraction"`
	// IncludeSelf lets a uniform source pick itself as destination (the
	// delta-network model's assumption); default false.
	IncludeSelf bool `yaml:"include_self" json:"include_self,omitempty"`
	// Process is the injection process: "bernoulli" (default), "poisson"
	// or "onoff" (a two-state Markov-modulated Bernoulli source,
	// traffic.NewOnOff, mode network only).
	Process string `yaml:"process" json:"process"`
	// BurstLength (cycles, >= 1) and DutyCycle (in (0, 1]) parametrise
	// process onoff: the mean on period and the fraction of cycles a source
	// is on; in an on cycle a message is generated with probability
	// rate/duty_cycle. Both required with onoff, refused otherwise. Left
	// out of the canonical encoding when 0, so older hashes are unchanged.
	BurstLength float64 `yaml:"burst_length" json:"burst_length,omitempty"`
	DutyCycle   float64 `yaml:"duty_cycle" json:"duty_cycle,omitempty"`
	// Length is the message-length distribution.
	Length Length `yaml:"length" json:"length,omitzero"`
	// Trace replaces the synthetic sources by a packet trace (mode
	// network): destinations, times, lengths and dependencies come from
	// it, and sweep.unit is trace-speedup.
	Trace Trace `yaml:"trace" json:"trace,omitzero"`
}

// Trace is a trace-driven workload (package traffic/trace; replay rule in
// sim/network).
type Trace struct {
	// File is the trace, relative to the config file's directory.
	File string `yaml:"file" json:"file"`
	// Format is "netrace" (default: netrace v1, bzip2-compressed or not)
	// or "text" (flitsim's text format, trace.ReadText).
	Format string `yaml:"format" json:"format"`
	// FlitBytes is the flit width a netrace packet's bytes are cut into
	// (default 16: 8-byte control packets take 1 flit, 72-byte data
	// packets 5). Netrace only.
	FlitBytes int `yaml:"flit_bytes" json:"flit_bytes,omitempty"`
	// MaxPackets replays only the first MaxPackets packets (0: all).
	MaxPackets int `yaml:"max_packets" json:"max_packets,omitempty"`
	// Digest is the SHA-256 of the trace file, filled in by the loader so
	// that the config hash changes with the trace's content.
	Digest string `yaml:"-" json:"digest"`
}

// Length is the message-length distribution, in flits.
type Length struct {
	// Distribution is "fixed" (default) or "geometric".
	Distribution string `yaml:"distribution" json:"distribution"`
	// Flits is the length of every message (fixed).
	Flits int `yaml:"flits" json:"flits"`
	// Mean is the mean length (geometric, >= 1).
	Mean float64 `yaml:"mean" json:"mean"`
	// Max truncates the geometric distribution (0: unbounded).
	Max int `yaml:"max" json:"max"`
}

// Rate units accepted by sweep.unit: the first two in mode network, each of
// the others in its paper mode only.
const (
	UnitMessages = "messages/node/cycle"
	UnitFlits    = "flits/node/cycle"
	// UnitPopulation (mode closed): each "rate" is the closed population
	// N, a whole number of messages >= 1.
	UnitPopulation = "population"
	// UnitRho (mode delta): each rate is rho = lambda/mu, the load per
	// source in services per service time; the engine's lambda, packets
	// per source per time unit, is rho * mu (Makrucki–Mudge Figure 6 plots
	// against rho).
	UnitRho = "rho"
	// UnitSlots (mode slotted): lambda in packets per node per slot
	// (Jacquet–Mühlethaler Figs. 1–3).
	UnitSlots = "packets/node/slot"
	// UnitTraceSpeedup (mode network with traffic.trace): each rate is
	// the factor the trace's recorded cycles are divided by (1: as
	// recorded).
	UnitTraceSpeedup = "trace-speedup"
)

// Sweep is the list of offered loads to simulate.
type Sweep struct {
	// Unit is the load unit of the mode (UnitMessages or UnitFlits in mode
	// network, UnitPopulation, UnitRho or UnitSlots in the paper modes);
	// required, never implied.
	Unit string `yaml:"unit" json:"unit"`
	// Rates are the offered loads, in Unit; each > 0, no duplicates.
	Rates []float64 `yaml:"rates" json:"rates"`
}

// Run is run control: how long each sweep point runs and how many
// independent replications it gets. Cycle counts of 0 leave the engine's
// default in force. In the paper modes the cycle keys are read in the
// mode's own time unit (closed, delta: the unit of the service means;
// slotted: slots) and a key the mode's run control lacks is refused; the
// mapping is listed in docs/config.md and at [Experiment.ClosedConfig],
// [Experiment.DeltaConfig] and [Experiment.SlottedConfig].
type Run struct {
	// Warmup is a fixed warm-up in cycles (0: detected automatically).
	Warmup int64 `yaml:"warmup" json:"warmup"`
	// MaxWarmup caps automatic warm-up detection, in cycles.
	MaxWarmup int64 `yaml:"max_warmup" json:"max_warmup"`
	// Period is the sampling / batch period in cycles.
	Period int64 `yaml:"period" json:"period"`
	// MinMeasure is the shortest measurement phase, in cycles.
	MinMeasure int64 `yaml:"min_measure" json:"min_measure"`
	// MaxCycles caps the whole run, in cycles (mode slotted: slots). Modes
	// network and slotted only.
	MaxCycles int64 `yaml:"max_cycles" json:"max_cycles"`
	// MaxTime caps the whole run in the time unit of the service means:
	// the continuous-time modes closed and delta only (delta slotted:
	// cycles), where it stands for max_cycles. Left out of the canonical
	// encoding when 0, so mode-network hashes do not carry it.
	MaxTime int64 `yaml:"max_time" json:"max_time,omitempty"`
	// TargetRelCI is the target relative half-width of the 95% confidence
	// interval of the mean latency (for example 0.05); 0: engine default;
	// negative: no target, run to MaxCycles.
	TargetRelCI float64 `yaml:"target_rel_ci" json:"target_rel_ci"`
	// MinBatches and MaxBatches bound the number of batch means.
	MinBatches int `yaml:"min_batches" json:"min_batches"`
	MaxBatches int `yaml:"max_batches" json:"max_batches"`
	// BacklogLimit declares saturation when the source queues hold more
	// than this many messages per node (0: engine default).
	BacklogLimit int `yaml:"backlog_limit" json:"backlog_limit"`
	// DeadlockCycles declares deadlock after this many cycles in which flits
	// are in flight and none moves (0: engine default).
	DeadlockCycles int64 `yaml:"deadlock_cycles" json:"deadlock_cycles"`
	// CapRelCI bounds the relative 95% half-width of a run that stops at
	// its cap instead of its target: within it (and, open systems, with
	// accepted equal to offered within the run's own tolerance) the point
	// is ok, beyond it unconverged (sim.Conclude; 0: default 0.05). Left
	// out of the canonical encoding when 0.
	CapRelCI float64 `yaml:"cap_rel_ci" json:"cap_rel_ci,omitempty"`
	// MaxDrain bounds, in cycles, the drain after the measurement window
	// until every message generated in it is delivered (mode network; 0:
	// the measured cycles, at least 10 periods); a drain that does not
	// finish makes the point saturated. Left out of the canonical encoding
	// when 0.
	MaxDrain int64 `yaml:"max_drain" json:"max_drain,omitempty"`
	// Replications is the independent runs per sweep point (default 1).
	Replications int `yaml:"replications" json:"replications"`
	// Threads is how many threads step one simulation (mode network; 0 or
	// 1: one; network.Config.Threads). Results are byte-identical for
	// every value, so it is not part of the hash; flitsim run --threads
	// overrides it.
	Threads int `yaml:"threads" json:"-"`
}

// KnownModels lists the analytical-model families accepted in models:,
// in documentation order; the registry is analytic/catalog.
func KnownModels() []string { return catalog.Families() }
