package closed

import (
	"errors"
	"fmt"
	"math"

	"github.com/flitsim/flitsim/traffic"
)

// Network names accepted in Config.Network.
const (
	Ring      = "ring"      // bidirectional ring of Radix nodes
	Bus       = "bus"       // Radix nodes on one shared bus
	Torus     = "torus"     // bidirectional Radix-ary Dims-cube
	Mesh      = "mesh"      // Radix-ary Dims-mesh (not symmetric)
	Hypercube = "hypercube" // binary Dims-cube
)

// Duplex readings accepted in Config.Duplex (docs/models.md#reed-simulator item 4).
const (
	// HalfDuplex is Reed's reading: one FCFS server per bidirectional link,
	// shared by both directions (ring: Numlinks = K).
	HalfDuplex = "half"
	// FullDuplex gives each direction of a link its own FCFS server (ring:
	// Numlinks = 2K).
	FullDuplex = "full"
)

// Service-time distributions accepted in Service.Distribution.
const (
	Exponential = "exponential" // exponential with mean Service.Mean
	Fixed       = "fixed"       // exactly Service.Mean
	Geometric   = "geometric"   // links only: geometric flits times FlitTime
	None        = "none"        // PE only: service takes no time
)

// Link service draw modes accepted in Config.LinkDraw.
const (
	// PerHop re-draws the link service time at every crossing, independently
	// of the message's earlier crossings: the independence assumption behind
	// product form (Kleinrock), needed for an exact match with MVA.
	PerHop = "per-hop"
	// PerMessage draws the link service time once, when the message is
	// created, and uses it at every link it crosses: a physical message of a
	// given length.
	PerMessage = "per-message"
)

// Placement rules accepted in Config.Placement.
const (
	// RoundRobin starts message i at node i mod K.
	RoundRobin = "round-robin"
	// Random starts every message at a node drawn uniformly from the
	// sim.PurposePlacement stream.
	Random = "random"
)

// Service is a service-time distribution with its mean in time units.
type Service struct {
	// Distribution is Exponential (the default), Fixed, Geometric (links
	// only) or None (PE only).
	Distribution string
	// Mean is the mean service time per visit, time units (> 0; 0 means 1).
	// Ignored by None.
	Mean float64
}

// Config is one closed network at one population. Zero fields take the
// defaults noted; Radix (or Dims for a hypercube) and Population have none.
// The YAML keys the config loader maps onto these fields are listed in the
// package documentation.
type Config struct {
	// Network is Ring (default), Bus, Torus, Mesh or Hypercube.
	Network string
	// Radix is the nodes of a ring or bus (>= 3 for a ring, >= 2 for a bus)
	// or the routers per dimension of a torus (>= 3) or mesh (>= 2).
	// Hypercube: must be 0 or 2.
	Radix int
	// Dims is the number of dimensions of a torus, mesh or hypercube (>= 1;
	// 0 means 1). Ring and bus: must be 0 or 1.
	Dims int
	// Duplex is HalfDuplex (default, Reed) or FullDuplex. A bus is one server
	// either way.
	Duplex string

	// Pattern is the routing distribution (traffic.PatternSpec; the zero
	// value is uniform). Reed's three are uniform, locality and decay.
	Pattern traffic.PatternSpec
	// Population is N, the number of circulating messages (>= 1).
	Population int
	// Placement is RoundRobin (default) or Random.
	Placement string

	// PE is the compute time at the destination PE, S_PE: Exponential
	// (default), Fixed or None.
	PE Service
	// Link is the service time per link crossing, S_CL: Exponential
	// (default), Fixed or Geometric.
	Link Service
	// FlitTime is the time units one flit takes on a link (> 0; 0 means 1),
	// read only by a Geometric link: a message is then a geometric number of
	// flits with mean Link.Mean/FlitTime (>= 1) and crosses a link in
	// flits*FlitTime.
	FlitTime float64
	// LinkDraw is PerHop (default) or PerMessage.
	LinkDraw string

	// Seed is the root of every random stream.
	Seed uint64
	// Run is run control.
	Run Run
}

// Run is run control. Times are in the time unit of the service means; zero
// fields take the defaults noted, which scale with the no-contention cycle
// time R1 = S_PE + S_CL * E[hops] of one message.
type Run struct {
	// Warmup is a fixed warm-up (time units, >= 0). 0 selects automatic
	// warm-up detection by MSER-5 on the per-period completion rate.
	Warmup float64
	// MaxWarmup caps automatic warm-up detection (time units; 0 means
	// 1000 periods). If MSER-5 has not found the transient over by then,
	// measurement starts anyway and Result.Reason says so.
	MaxWarmup float64
	// Period is the length of one observation period (time units; 0 means
	// 10 R1): batch-means observations are per-period rates and averages.
	Period float64
	// MinMeasure is the shortest measurement phase (time units; 0 means
	// 200 periods).
	MinMeasure float64
	// MaxTime caps the whole run including warm-up (time units; 0 means
	// 100000 periods).
	MaxTime float64
	// TargetRelCI stops the run once the 95% CI half-width of X_0 is within
	// this fraction of X_0 (0 means 0.01).
	TargetRelCI float64
	// MinBatches and MaxBatches bound the batch means (0 means 10 and 64;
	// MaxBatches must be even and >= 2 MinBatches).
	MinBatches, MaxBatches int
	// CapRelCI bounds the relative half-width of X_0 when the run stops at
	// MaxTime (0 means sim.DefaultCapRelCI): within it the run is ok,
	// beyond it unconverged (sim.Conclude).
	CapRelCI float64
}

// WithDefaults returns c with zero fields replaced by their defaults
// (run-control times are filled in by New, which needs the network). The
// models read a Config through it, so they see the network the simulator
// builds.
func (c Config) WithDefaults() Config {
	if c.Network == "" {
		c.Network = Ring
	}
	if c.Duplex == "" {
		c.Duplex = HalfDuplex
	}
	if c.Placement == "" {
		c.Placement = RoundRobin
	}
	if c.PE.Distribution == "" {
		c.PE.Distribution = Exponential
	}
	if c.PE.Mean == 0 && c.PE.Distribution != None {
		c.PE.Mean = 1
	}
	if c.Link.Distribution == "" {
		c.Link.Distribution = Exponential
	}
	if c.Link.Mean == 0 {
		c.Link.Mean = 1
	}
	if c.FlitTime == 0 {
		c.FlitTime = 1
	}
	if c.LinkDraw == "" {
		c.LinkDraw = PerHop
	}
	if c.Dims == 0 {
		c.Dims = 1
	}
	if c.Network == Hypercube && c.Radix == 0 {
		c.Radix = 2
	}
	r := &c.Run
	if r.TargetRelCI == 0 {
		r.TargetRelCI = 0.01
	}
	if r.MinBatches == 0 {
		r.MinBatches = 10
	}
	if r.MaxBatches == 0 {
		r.MaxBatches = 64
	}
	return c
}

func positiveFinite(x float64) bool { return x > 0 && !math.IsInf(x, 0) }

// validate reports every problem of c (already defaulted) at once.
func (c Config) validate() error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf("closed: "+format, args...)) }

	switch c.Network {
	case Ring:
		if c.Radix < 3 {
			add("ring needs Radix >= 3 nodes, got %d", c.Radix)
		}
		if c.Dims != 1 {
			add("ring has Dims = 1, got %d", c.Dims)
		}
	case Bus:
		if c.Radix < 2 {
			add("bus needs Radix >= 2 nodes, got %d", c.Radix)
		}
		if c.Dims != 1 {
			add("bus has Dims = 1, got %d", c.Dims)
		}
	case Torus:
		if c.Radix < 3 {
			add("bidirectional torus needs Radix >= 3, got %d (radix 2 is the hypercube)", c.Radix)
		}
	case Mesh:
		if c.Radix < 2 {
			add("mesh needs Radix >= 2, got %d", c.Radix)
		}
	case Hypercube:
		if c.Radix != 2 {
			add("hypercube has Radix 2, got %d", c.Radix)
		}
	default:
		add("unknown Network %q (want %s, %s, %s, %s or %s)", c.Network, Ring, Bus, Torus, Mesh, Hypercube)
	}
	if c.Dims < 1 {
		add("Dims = %d, want >= 1", c.Dims)
	}
	if c.Duplex != HalfDuplex && c.Duplex != FullDuplex {
		add("unknown Duplex %q (want %q or %q)", c.Duplex, HalfDuplex, FullDuplex)
	}
	if c.Population < 1 {
		add("Population = %d messages, want >= 1", c.Population)
	}
	if c.Placement != RoundRobin && c.Placement != Random {
		add("unknown Placement %q (want %q or %q)", c.Placement, RoundRobin, Random)
	}
	switch c.PE.Distribution {
	case Exponential, Fixed:
		if !positiveFinite(c.PE.Mean) {
			add("PE.Mean = %v time units, want finite and > 0", c.PE.Mean)
		}
	case None:
		if c.PE.Mean != 0 {
			add("PE.Mean = %v is set but PE.Distribution is %q", c.PE.Mean, None)
		}
	default:
		add("unknown PE.Distribution %q (want %s, %s or %s)", c.PE.Distribution, Exponential, Fixed, None)
	}
	switch c.Link.Distribution {
	case Exponential, Fixed, Geometric:
		if !positiveFinite(c.Link.Mean) {
			add("Link.Mean = %v time units, want finite and > 0", c.Link.Mean)
		}
	default:
		add("unknown Link.Distribution %q (want %s, %s or %s)", c.Link.Distribution, Exponential, Fixed, Geometric)
	}
	if !positiveFinite(c.FlitTime) {
		add("FlitTime = %v time units, want finite and > 0", c.FlitTime)
	} else if c.Link.Distribution == Geometric && positiveFinite(c.Link.Mean) && c.Link.Mean/c.FlitTime < 1 {
		add("geometric link: Link.Mean/FlitTime = %v flits, want >= 1", c.Link.Mean/c.FlitTime)
	}
	if c.LinkDraw != PerHop && c.LinkDraw != PerMessage {
		add("unknown LinkDraw %q (want %q or %q)", c.LinkDraw, PerHop, PerMessage)
	}
	r := c.Run
	for _, f := range []struct {
		name string
		v    float64
	}{{"Warmup", r.Warmup}, {"MaxWarmup", r.MaxWarmup}, {"Period", r.Period}, {"MinMeasure", r.MinMeasure}, {"MaxTime", r.MaxTime}} {
		if !(f.v >= 0) || math.IsInf(f.v, 0) {
			add("Run.%s = %v time units, want finite and >= 0", f.name, f.v)
		}
	}
	if !(r.TargetRelCI > 0 && r.TargetRelCI < 1) {
		add("Run.TargetRelCI = %v, want in (0, 1)", r.TargetRelCI)
	}
	if r.MinBatches < 2 || r.MaxBatches%2 != 0 || r.MaxBatches < 2*r.MinBatches {
		add("Run.MinBatches = %d, MaxBatches = %d: want MinBatches >= 2, MaxBatches even and >= 2 MinBatches", r.MinBatches, r.MaxBatches)
	}
	return errors.Join(errs...)
}
