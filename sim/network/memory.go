package network

import (
	"fmt"
	"math"
	"math/rand/v2"
	"unsafe"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/topology"
)

// Memory is the estimate of the memory New allocates for a Config, before
// anything is built: the one place the figure is computed, for refusing a
// network that cannot fit (flitsim run, validate) and for the scale work.
type Memory struct {
	Routers   int // routers (multistage: switches)
	Terminals int // terminals: NICs, source queues, sinks
	Ports     int // ports per router, the local port included
	Channels  int // channels counted by the network (links; multistage and graph: injection and ejection too)
	// PerRouter is the bytes of one router: router.MemoryBytes (its
	// share of the network's router.Storage included) and, when the
	// routers share a switch-allocation plane, its share of the plane
	// (router.PlaneMemoryBytes; the plane uses the storage in place).
	PerRouter int64
	// PerTerminal is the bytes of one terminal: its NIC and lanes, source
	// queue header, three random streams and calendar entry (the
	// calendar's buckets are counted in Bytes).
	PerTerminal int64
	// Bytes is the whole estimate: routers, terminals, channels, the
	// topology's tables and the route table. It counts what New builds; the
	// run adds what grows with the load (messages waiting in source queues
	// and the packet table: 40 bytes and 4 bytes per message in flight),
	// bounded by the run's backlog limit.
	Bytes int64
	// Peak is what a machine must have to build the network: Bytes, since
	// the routers' state is allocated once (router.Storage) and a plane
	// uses it in place (it used to copy the buffers, holding them twice).
	Peak int64
}

// String gives the main terms of the estimate.
func (m Memory) String() string {
	return fmt.Sprintf("%d routers × %d B, %d terminals × %d B", m.Routers, m.PerRouter, m.Terminals, m.PerTerminal)
}

// measurementBytes is the fixed part of a network's measurement: its
// latency histogram of 4,097 unit bins and its log buckets, and its batch
// means.
const measurementBytes = 4097*8 + 4096

// unitemisedBytes is what a network of any size allocates beyond the
// terms EstimateMemory lists: the timing wheels, the arrival calendar, the
// traffic pattern's tables, closures. It is not derived from the code but
// measured: TestEstimateMemory's 4×4 torus leaves about 37 KB more on the
// heap than the itemised terms, its 64×64 torus about as much.
const unitemisedBytes = 36 << 10

// EstimateMemory returns what New(cfg) will allocate, computed from the
// shapes of the network (routers, ports, terminals, channels) and the sizes
// of the engine's own types, without building anything, so that a network
// of 2^20 routers or of 64 VCs × 65,536-flit buffers is priced in
// microseconds. Every term and its source:
//
//	routers × (router.MemoryBytes + router.PlaneMemoryBytes when planed)
//	terminals × (sizeof(nic) + InjectionVCs·sizeof(nicLane) + sizeof(FIFO) + its room for 4 ids + 3·(8 + sizeof(rand.Rand) + sizeof(rand.PCG)) + 24)
//	routers × (2·ports·4 + 8 + 2/8)          inCh, outCh, routers[], active bits (direct networks: 8 + 2/8, the topology's in and out shared)
//	channels × (3·4 + 8)                      chanSrc, chanDst, chanSrcPort; channel flit counts (direct: 8, the topology's src, dst and port serve)
//	topology: routers × (dims·4 + 2·ports·4) + channels × 9
//	route table: routers² × 4 when routers <= 256 (direct networks), terminals² × 4 (multistage)
//	sizeof(Network) + measurement: 37 KiB (latency histogram, batch means) + ports·(VCs+1)·8
//	36 KiB measured and not itemised (unitemisedBytes)
//
// TestEstimateMemory pins it against runtime.MemStats for several sizes.
// A config New would refuse may still get an estimate; its error is New's.
func EstimateMemory(cfg Config) (Memory, error) {
	cfg = cfg.withDefaults()
	var m Memory
	var topoBytes, tableBytes float64
	planed := false
	shared := 0 // 1: the network shares the topology's channel tables (direct networks)
	switch {
	case cfg.Multistage != nil:
		terms, err := cfg.Multistage.Terminals()
		if err != nil {
			return Memory{}, err
		}
		b, z := cfg.Multistage.Degree, cfg.Multistage.Stages
		m.Terminals, m.Routers, m.Ports = terms, z*(terms/max(b, 1)), b+1
		m.Channels = (z + 1) * terms
		tableBytes = float64(terms) * float64(terms) * 4
		topoBytes = float64(m.Channels) * 3 * 8
	case cfg.Graph != nil:
		g := cfg.Graph
		m.Terminals, m.Routers, m.Ports = g.Nodes(), g.Routers(), g.MaxPorts()+1
		m.Channels = 2*m.Terminals + g.NumChannels()
		topoBytes = float64(m.Channels) * 4 * 4
	default:
		s := cfg.Topology
		k, n := s.K, s.N
		if s.Kind == topology.Hypercube && k == 0 {
			k = 2
		}
		if s.Kind == topology.Ring && n == 0 {
			n = 1
		}
		if k < 2 || n < 1 {
			return Memory{}, fmt.Errorf("network: %v radix %d, %d dimensions", s.Kind, k, n)
		}
		nodes := math.Pow(float64(k), float64(n))
		if nodes > topology.MaxNodes {
			return Memory{}, fmt.Errorf("network: %v with %d^%d routers, more than the %d a topology may have", s.Kind, k, n, topology.MaxNodes)
		}
		netPorts := n
		if s.Bidirectional || s.Kind == topology.Mesh || s.Kind == topology.Hypercube {
			netPorts = 2 * n
		}
		if s.Kind == topology.Hypercube {
			netPorts = n
		}
		m.Routers, m.Terminals, m.Ports = int(nodes), int(nodes), netPorts+1
		m.Channels = m.Routers * netPorts
		topoBytes = nodes*float64(n*4+2*m.Ports*4) + float64(m.Channels)*9
		if m.Routers <= maxRouteTable && cfg.Routing == RoutingDimensionOrder {
			tableBytes = nodes * nodes * 4
		}
		shared = 1
		planed = !cfg.ownAllocators && router.PlaneServes(m.Ports, cfg.Router)
	}
	classes := cfg.Router.VCs
	headTail := planed && cfg.headTailPacket(m.Ports) > 0
	m.PerRouter = router.MemoryBytes(m.Ports, cfg.Router, classes, cfg.Routing == RoutingAdaptive, headTail)
	if planed {
		sinkPorts := 1 // the local port
		if cfg.Topology.Kind == topology.Mesh {
			sinkPorts = m.Ports // a mesh's edge ports lead nowhere
		}
		m.PerRouter += router.PlaneMemoryBytes(m.Ports, cfg.Router, sinkPorts)
	}
	m.PerTerminal = int64(unsafe.Sizeof(nic{})) + int64(cfg.InjectionVCs)*int64(unsafe.Sizeof(nicLane{})) +
		int64(unsafe.Sizeof(sim.FIFO[int32]{})) + 4*4 + int64(unsafe.Sizeof(termStreams{})) + int64(unsafe.Sizeof(sim.Event[int32]{}))
	if cfg.Graph != nil {
		m.PerTerminal += int64(8+unsafe.Sizeof(rand.Rand{})+unsafe.Sizeof(rand.PCG{})) + 8 // Valiant's start draws (a Rand and its PCG), termSwitch and termPort
	}
	total := float64(unsafe.Sizeof(Network{})) + measurementBytes + unitemisedBytes + float64(m.Ports*(cfg.Router.VCs+1)*8) +
		float64(m.Routers)*float64(m.PerRouter) + float64(m.Terminals)*float64(m.PerTerminal) +
		float64(m.Routers)*(float64((1-shared)*2*m.Ports*4)+8+0.25) + float64(m.Channels)*float64(3*4+8-shared*3*4) +
		topoBytes + tableBytes +
		float64(sim.CycleCalendarBytes[int32](calendarSpan(m.Terminals), m.Terminals)-int64(m.Terminals)*int64(unsafe.Sizeof(sim.Event[int32]{}))) // the arrival calendar's buckets
	const most = math.MaxInt64 / 4
	m.Bytes, m.Peak = int64(min(total, most)), int64(min(total, most))
	return m, nil
}
