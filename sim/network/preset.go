package network

import (
	"fmt"

	"github.com/flitsim/flitsim/topology"
)

// PresetBookSimIQ names the router preset that mirrors BookSim 2's
// input-queued router (src/routers/iq_router.cpp) with BookSim's default
// configuration (src/booksim_config.cpp) on a k-ary n-cube or mesh
// (src/networks/kncube.cpp): see BookSimIQ.
const PresetBookSimIQ = "booksim-iq"

// Presets lists the router presets a configuration may name.
var Presets = []string{PresetBookSimIQ}

// Preset is the part of a Config a named router preset sets: the router's
// pipeline, the channel latencies, the tie break and whether uniform
// traffic includes the source. Everything else (VCs, buffer depth,
// routing, traffic) stays the experiment's own.
type Preset struct {
	RoutingDelay, VCAllocDelay, SwitchAllocDelay, SwitchTraversalDelay int

	LinkLatency      int
	CreditDelay      int
	InjectionLatency int
	EjectionLatency  int

	// VCAllocator, SwitchAllocator and AllocIterations are the router's
	// allocators (router.Arch; package router/alloc).
	VCAllocator, SwitchAllocator string
	AllocIterations              int

	Ties        topology.Ties
	HoldClass   bool // router.Arch.HoldClass: the dateline class is held through a ring
	IncludeSelf bool // uniform traffic: a source may pick itself
}

// BookSimIQ returns the preset that mirrors BookSim 2's iq_router with its
// defaults on topology kind (docs/booksim.md has the measurements):
//
//   - routing_delay = vc_alloc_delay = sw_alloc_delay = st_final_delay = 1:
//     one cycle each for route computation, VC allocation, switch
//     allocation and switch traversal (RoutingDelay .. SwitchTraversalDelay
//     1 each);
//   - use_noc_latency = 1: channels of 2 cycles on a torus and of 1 on a
//     mesh (a binary hypercube is BookSim's mesh with k = 2), credits
//     returned over a channel of the same latency (CreditDelay = link
//     latency);
//   - injection and ejection channels of one cycle, plus the cycle BookSim
//     takes from a packet's creation to its first flit entering the
//     injection channel: InjectionLatency 2, EjectionLatency 1 (zero-load
//     latency 3 + 4(H+1) + L·H + P - 1 for H links of L cycles and P-flit
//     packets, measured on BookSim);
//   - vc_allocator = sw_allocator = islip, alloc_iters = 1: iSLIP with
//     one iteration for VC and switch allocation (router/alloc; these run
//     on each router's own path, not on the fast plane);
//   - dim_order ties at an offset of k/2 split at random per packet
//     (topology.TiesBalanced);
//   - the dateline class a packet takes on entering a ring is held until
//     it leaves the ring (router.Arch.HoldClass);
//   - uniform traffic includes the source (BookSim's uniform pattern draws
//     any node; flitsim's excludes the source unless asked).
func BookSimIQ(kind topology.Kind) Preset {
	link := 1
	if kind == topology.Torus || kind == topology.Ring {
		link = 2
	}
	return Preset{
		RoutingDelay: 1, VCAllocDelay: 1, SwitchAllocDelay: 1, SwitchTraversalDelay: 1,
		LinkLatency: link, CreditDelay: link, InjectionLatency: 2, EjectionLatency: 1,
		VCAllocator: "islip", SwitchAllocator: "islip", AllocIterations: 1,
		Ties: topology.TiesBalanced, HoldClass: true, IncludeSelf: true,
	}
}

// PresetFor returns the preset named name for topology kind.
func PresetFor(name string, kind topology.Kind) (Preset, error) {
	switch name {
	case PresetBookSimIQ:
		return BookSimIQ(kind), nil
	}
	return Preset{}, fmt.Errorf("network: unknown router preset %q (want %s)", name, PresetBookSimIQ)
}

// Apply sets every field of c the preset covers.
func (p Preset) Apply(c *Config) {
	c.Router.RoutingDelay, c.Router.VCAllocDelay = p.RoutingDelay, p.VCAllocDelay
	c.Router.SwitchAllocDelay, c.Router.SwitchTraversalDelay = p.SwitchAllocDelay, p.SwitchTraversalDelay
	c.LinkLatency, c.CreditDelay = p.LinkLatency, p.CreditDelay
	c.InjectionLatency, c.EjectionLatency = p.InjectionLatency, p.EjectionLatency
	c.Router.VCAllocator, c.Router.SwitchAllocator, c.Router.AllocIterations = p.VCAllocator, p.SwitchAllocator, p.AllocIterations
	c.Ties = p.Ties
	c.Router.HoldClass = p.HoldClass
	c.Pattern.IncludeSelf = p.IncludeSelf
}
