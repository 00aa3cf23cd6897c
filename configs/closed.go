package configs

import (
	"fmt"
	"math"

	"github.com/flitsim/flitsim/sim/closed"
	"github.com/flitsim/flitsim/sim/sweep"
	"github.com/flitsim/flitsim/traffic"
)

// maxPopulation bounds the closed population N of one sweep point.
const maxPopulation = 1 << 20

// Closed is the closed: section of a mode-closed experiment, Reed's closed
// message-passing network (D. A. Reed, Purdue CSD-TR-436, 1983;
// docs/models.md#reed; sim/closed). Times are in the unit of the service
// means ("time units"; cycles when link.mean is a message length in flits at
// one flit per cycle).
type Closed struct {
	// Duplex is "half" (default, Reed: one FCFS server per bidirectional
	// link) or "full" (one server per direction).
	Duplex string `yaml:"duplex" json:"duplex"`
	// Placement is "round-robin" (default: message i starts at node i mod K)
	// or "random".
	Placement string `yaml:"placement" json:"placement"`
	// PE is the compute time at the destination PE, S_PE: distribution
	// exponential (default), fixed or none; mean 1 time unit by default
	// (none takes no mean).
	PE Service `yaml:"pe" json:"pe"`
	// Link is the time of one link crossing, S_CL: distribution exponential
	// (default), fixed or geometric; mean 1 time unit by default.
	Link Service `yaml:"link" json:"link"`
	// FlitTime is the time units one flit takes on a link (> 0, default 1),
	// read by a geometric link only: a message is then a geometric number of
	// flits of mean link.mean / flit_time (>= 1).
	FlitTime float64 `yaml:"flit_time" json:"flit_time"`
	// LinkDraw is "per-hop" (default: the crossing time is drawn afresh at
	// every link, Kleinrock's independence assumption) or "per-message".
	LinkDraw string `yaml:"link_draw" json:"link_draw"`
}

// Service is a service-time law of mode closed.
type Service struct {
	// Distribution is "exponential", "fixed", "geometric" (links only) or
	// "none" (PE only).
	Distribution string `yaml:"distribution" json:"distribution"`
	// Mean is the mean time per visit, time units (> 0).
	Mean float64 `yaml:"mean" json:"mean"`
}

// closedTopologies are the network.topology values of mode closed.
var closedTopologies = []string{closed.Ring, closed.Bus, closed.Torus, closed.Mesh, closed.Hypercube}

// resolveClosed fills the defaults of mode closed.
func (e *Experiment) resolveClosed(r *reporter) {
	n := &e.Network
	if !r.set("network.radix") && n.Topology == closed.Hypercube {
		n.Radix = 2
	}
	if !r.set("network.dimensions") && (n.Topology == closed.Ring || n.Topology == closed.Bus) {
		n.Dimensions = 1
	}
	c := &e.Closed
	if !r.set("closed.duplex") {
		c.Duplex = closed.HalfDuplex
	}
	if !r.set("closed.placement") {
		c.Placement = closed.RoundRobin
	}
	if !r.set("closed.pe.distribution") {
		c.PE.Distribution = closed.Exponential
	}
	if !r.set("closed.pe.mean") && c.PE.Distribution != closed.None {
		c.PE.Mean = 1
	}
	if !r.set("closed.link.distribution") {
		c.Link.Distribution = closed.Exponential
	}
	if !r.set("closed.link.mean") {
		c.Link.Mean = 1
	}
	if !r.set("closed.flit_time") && c.Link.Distribution == closed.Geometric {
		c.FlitTime = 1
	}
	if !r.set("closed.link_draw") {
		c.LinkDraw = closed.PerHop
	}
	e.resolveTraffic(r)
}

// validateClosedNetwork checks network: in mode closed; it returns whether
// the topology is usable by the checks that depend on it.
func validateClosedNetwork(e *Experiment, r *reporter) bool {
	nw := &e.Network
	if !required(r, "network.topology", "network.topology (ring, bus, torus, mesh or hypercube)") {
		return false
	}
	if !oneOf(r, "network.topology", nw.Topology, closedTopologies...) {
		return false
	}
	ok := true
	switch nw.Topology {
	case closed.Ring, closed.Bus:
		lo := 3
		if nw.Topology == closed.Bus {
			lo = 2
		}
		ok = requiredInt(r, "network.radix", "network.radix (K, the nodes)", nw.Radix, lo, maxNodes)
		if nw.Dimensions != 1 {
			r.errorf("network.dimensions", "a %s has 1 dimension, got %d (use topology: torus or mesh)", nw.Topology, nw.Dimensions)
			ok = false
		}
	case closed.Hypercube:
		ok = hypercubeShape(r, nw)
	case closed.Torus, closed.Mesh:
		lo := 2
		if nw.Topology == closed.Torus {
			// A closed torus is bidirectional: radix 2 would make both
			// directions one link (that network is the hypercube).
			lo = 3
		}
		ok = requiredInt(r, "network.radix", "network.radix (k, routers per dimension)", nw.Radix, lo, maxRadix)
		ok = requiredInt(r, "network.dimensions", "network.dimensions (n)", nw.Dimensions, 1, maxDimensions) && ok
	}
	if ok && nw.Topology != closed.Ring && nw.Topology != closed.Bus {
		if _, fits := nodeCount(nw.Radix, nw.Dimensions); !fits {
			r.errorf("network", "%d^%d nodes is more than the %d supported", nw.Radix, nw.Dimensions, maxNodes)
			ok = false
		}
	}
	return ok
}

// validateClosed checks the closed: section.
func validateClosed(e *Experiment, r *reporter) {
	c := &e.Closed
	oneOf(r, "closed.duplex", c.Duplex, closed.HalfDuplex, closed.FullDuplex)
	oneOf(r, "closed.placement", c.Placement, closed.RoundRobin, closed.Random)
	oneOf(r, "closed.link_draw", c.LinkDraw, closed.PerHop, closed.PerMessage)
	if oneOf(r, "closed.pe.distribution", c.PE.Distribution, closed.Exponential, closed.Fixed, closed.None) {
		if c.PE.Distribution == closed.None {
			if r.set("closed.pe.mean") {
				r.errorf("closed.pe.mean", "a PE of distribution none takes no time: remove mean")
			}
		} else {
			positive(r, "closed.pe.mean", c.PE.Mean, 1e9)
		}
	}
	linkOK := oneOf(r, "closed.link.distribution", c.Link.Distribution, closed.Exponential, closed.Fixed, closed.Geometric)
	meanOK := positive(r, "closed.link.mean", c.Link.Mean, 1e9)
	if linkOK && c.Link.Distribution != closed.Geometric && r.set("closed.flit_time") {
		r.errorf("closed.flit_time", "applies only to link.distribution: geometric (distribution is %s)", c.Link.Distribution)
	}
	if linkOK && c.Link.Distribution == closed.Geometric && positive(r, "closed.flit_time", c.FlitTime, 1e9) && meanOK {
		if flits := c.Link.Mean / c.FlitTime; flits < 1 {
			r.errorf("closed.link.mean", "a geometric link of mean %g and flit_time %g has %g flits per message on average, want >= 1", c.Link.Mean, c.FlitTime, flits)
		}
	}
}

// positive reports a problem unless 0 < v <= hi.
func positive(r *reporter, path string, v, hi float64) bool {
	if !(v > 0 && v <= hi) {
		r.errorf(path, "%g is out of range (0, %g]", v, hi)
		return false
	}
	return true
}

// ClosedConfig returns the sim/closed configuration of sweep point `point`
// of a mode-closed experiment, run with root seed `seed` (one replication's
// seed from the sweep, sweep.UnitSeed). The point's rate is the population:
//
//	Population = sweep.rates[point]   (unit population, a whole number)
//
// The rest maps one to one (network.topology → Network, radix → Radix,
// dimensions → Dims, closed.* → Duplex, Placement, PE, Link, FlitTime,
// LinkDraw, traffic.* → Pattern) and run: is read in time units:
//
//	run.warmup → Run.Warmup        run.max_warmup → Run.MaxWarmup
//	run.period → Run.Period        run.min_measure → Run.MinMeasure
//	run.max_time → Run.MaxTime     run.target_rel_ci → Run.TargetRelCI
//	run.min_batches, max_batches → Run.MinBatches, Run.MaxBatches
//
// (0 leaves sim/closed's default). It fails only for an experiment of
// another mode.
func (e *Experiment) ClosedConfig(point int, seed uint64) (closed.Config, error) {
	if e.Mode != "closed" {
		return closed.Config{}, fmt.Errorf("configs: %s: mode %q is not mode closed", e.Name, e.Mode)
	}
	c := e.Closed
	rc := e.Run
	return closed.Config{
		Network:    e.Network.Topology,
		Radix:      e.Network.Radix,
		Dims:       e.Network.Dimensions,
		Duplex:     c.Duplex,
		Pattern:    e.patternSpec(),
		Population: int(math.Round(e.Sweep.Rates[point])),
		Placement:  c.Placement,
		PE:         closed.Service{Distribution: c.PE.Distribution, Mean: c.PE.Mean},
		Link:       closed.Service{Distribution: c.Link.Distribution, Mean: c.Link.Mean},
		FlitTime:   c.FlitTime,
		LinkDraw:   c.LinkDraw,
		Seed:       seed,
		Run: closed.Run{
			Warmup: float64(rc.Warmup), MaxWarmup: float64(rc.MaxWarmup), Period: float64(rc.Period),
			MinMeasure: float64(rc.MinMeasure), MaxTime: float64(rc.MaxTime), TargetRelCI: rc.TargetRelCI,
			MinBatches: rc.MinBatches, MaxBatches: rc.MaxBatches, CapRelCI: rc.CapRelCI,
		},
	}, nil
}

// patternSpec maps traffic: to the traffic package's pattern description,
// for the two modes that read it (network and closed; mode closed refuses
// include_self, so it is false there). The hot-spot list is copied so the
// engine never shares the experiment's slice.
func (e *Experiment) patternSpec() traffic.PatternSpec {
	t := e.Traffic
	var hot []int
	if t.Pattern == "hotspot" {
		hot = append(hot, t.HotspotNodes...)
	}
	return traffic.PatternSpec{
		Name: t.Pattern, IncludeSelf: t.IncludeSelf, Radius: t.Radius, Phi: t.Phi, Decay: t.Decay,
		HotNodes: hot, HotFraction: t.HotspotFraction,
	}
}

// closedEngine is mode closed's engine (its mode-table row): sim/closed
// at population N = the sweep rate, which must be a whole number.
var closedEngine = engineOf(closed.New, closedOutcome, measureClosed,
	atPoint0((*Experiment).ClosedConfig),
	func(n *closed.Config, _ int, rate float64, seed uint64) (closed.Config, string, error) {
		cfg := *n
		cfg.Population, cfg.Seed = int(rate), seed
		if float64(cfg.Population) != rate {
			return cfg, "population is not an integer", nil
		}
		return cfg, "", nil
	})

// measureClosed sets X0 and the cycle time R0 of a closed run, with their
// CIs, whatever its status.
func measureClosed(_ closed.Config, r closed.Result, _ string, set SetQuantity) {
	set(QX0, r.X0.Mean, r.X0.HalfWidth, true)
	set(QCycleTime, r.CycleTime.Mean, r.CycleTime.HalfWidth, true)
}

// closedOutcome maps a Reed closed-network run onto a results row:
//
//	latency          R0 = N/X0, the mean cycle time of a message (time units), with its CI
//	network_latency  empty (a closed message has no injection instant)
//	accepted         X0, completions per time unit, whole network (messages / time unit)
//	offered          empty (the load is the population, in the rate column)
//	cycles           simulated time, warm-up included, rounded (time units)
//	extra            X0, hops (LV), PE and link utilisation, mean PE and link queues, each with its CI
func closedOutcome(r closed.Result) sweep.Outcome {
	return sweep.Outcome{
		Status: r.Status, Reason: r.Reason,
		Latency: r.CycleTime.Mean, LatencyCI95: r.CycleTime.HalfWidth,
		NetworkLatency: noNumber, NetworkLatencyCI95: noNumber,
		Accepted: r.X0.Mean, Offered: noNumber,
		Cycles: int64(math.Round(r.Warmup + r.Measured)),
		Extra: []sweep.Metric{
			metric("X0 messages/time", r.X0.Mean, r.X0.HalfWidth),
			metric("hops", r.Hops.Mean, r.Hops.HalfWidth),
			metric("U_PE", r.PEUtilisation.Mean, r.PEUtilisation.HalfWidth),
			metric("U_link", r.LinkUtilisation.Mean, r.LinkUtilisation.HalfWidth),
			metric("n_PE messages", r.PEQueue.Mean, r.PEQueue.HalfWidth),
			metric("n_link messages", r.LinkQueue.Mean, r.LinkQueue.HalfWidth),
		},
	}
}

// closedLinks ties each field of the closed.Config ClosedConfig builds to
// the key it comes from (for the engine's refusals, engineKeys).
func closedLinks(e *Experiment) (any, []fieldLink) {
	c := &closed.Config{}
	x, t, r := &e.Closed, &e.Traffic, &e.Run
	return c, []fieldLink{
		link(&c.Network, &e.Network.Topology), link(&c.Radix, &e.Network.Radix), link(&c.Dims, &e.Network.Dimensions),
		link(&c.Duplex, &x.Duplex), link(&c.Placement, &x.Placement),
		link(&c.PE.Distribution, &x.PE.Distribution), link(&c.PE.Mean, &x.PE.Mean),
		link(&c.Link.Distribution, &x.Link.Distribution), link(&c.Link.Mean, &x.Link.Mean),
		link(&c.FlitTime, &x.FlitTime), link(&c.LinkDraw, &x.LinkDraw),
		link(&c.Pattern, &t.Pattern), link(&c.Pattern.Name, &t.Pattern), link(&c.Pattern.IncludeSelf, &t.IncludeSelf),
		link(&c.Pattern.Radius, &t.Radius), link(&c.Pattern.Phi, &t.Phi), link(&c.Pattern.Decay, &t.Decay),
		link(&c.Pattern.HotNodes, &t.HotspotNodes), link(&c.Pattern.HotFraction, &t.HotspotFraction),
		{engine: &c.Population, schema: &e.Sweep.Rates, note: "the population"},
		link(&c.Seed, &e.Seed),
		link(&c.Run.Warmup, &r.Warmup), link(&c.Run.MaxWarmup, &r.MaxWarmup), link(&c.Run.Period, &r.Period),
		link(&c.Run.MinMeasure, &r.MinMeasure), link(&c.Run.MaxTime, &r.MaxTime), link(&c.Run.TargetRelCI, &r.TargetRelCI),
		link(&c.Run.MinBatches, &r.MinBatches), link(&c.Run.MaxBatches, &r.MaxBatches), link(&c.Run.CapRelCI, &r.CapRelCI),
	}
}
