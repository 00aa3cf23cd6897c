package configs

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/flitsim/flitsim/sim"
)

// Limits of the schema. They bound what one machine can simulate and catch
// typos (a radix of 800 instead of 8) before anything runs.
const (
	maxNodes       = 1 << 20
	maxRadix       = 1024
	maxDimensions  = 20
	maxVCs         = 64
	maxBufferDepth = 1 << 16
	maxDelay       = 1000
	maxMessageLen  = 1 << 16
	maxReplicas    = 1000
	// maxDistanceTableNodes is the traffic package's limit for the
	// distance-based patterns (locality, decay).
	maxDistanceTableNodes = 8192
)

// Modes planned for later issues; named so their use gets a clear message.
var plannedModes = []string{"closed", "delta", "slotted", "scouting"}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// oneOf reports a problem unless v is one of allowed.
func oneOf(r *reporter, path, v string, allowed ...string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	r.errorf(path, "unknown value %q (one of: %s)", v, strings.Join(allowed, ", "))
	return false
}

// intRange reports a problem unless lo <= v <= hi.
func intRange[T int | int64](r *reporter, path string, v, lo, hi T) bool {
	if v < lo || v > hi {
		r.errorf(path, "%d is out of range [%d, %d]", v, lo, hi)
		return false
	}
	return true
}

// required reports a problem if path was not written in the file.
func required(r *reporter, path, what string) bool {
	if !r.set(path) {
		r.errorf(path, "missing: %s", what)
		return false
	}
	return true
}

// nodeCount returns k^n and whether it is at most maxNodes.
func nodeCount(k, n int) (int, bool) {
	if k < 1 || n < 0 {
		return 0, false
	}
	nodes := 1
	for i := 0; i < n; i++ {
		nodes *= k
		if nodes > maxNodes {
			return nodes, false
		}
	}
	return nodes, true
}

// diameter returns the largest minimal hop count of the topology:
//
//	bidirectional ring/torus  n * floor(k/2)
//	unidirectional ring/torus n * (k-1)
//	mesh                      n * (k-1)
//	hypercube                 n
func diameter(nw Network) int {
	switch nw.Topology {
	case "ring", "torus":
		if nw.Bidirectional {
			return nw.Dimensions * (nw.Radix / 2)
		}
		return nw.Dimensions * (nw.Radix - 1)
	case "mesh":
		return nw.Dimensions * (nw.Radix - 1)
	case "hypercube":
		return nw.Dimensions
	}
	return 0
}

// validate checks ranges and combinations of the resolved experiment e,
// recording every problem in r. Checks that need a valid topology run only
// when the topology itself is valid, so one mistake gives one message.
func validate(e *Experiment, r *reporter) {
	if !nameRE.MatchString(e.Name) {
		r.errorf("name", "%q is not a valid experiment name (letters, digits, '.', '_', '-'; at most 128)", e.Name)
	}
	switch {
	case e.Mode == "network":
	case contains(plannedModes, e.Mode):
		r.errorf("mode", "mode %q is not available yet (available: network)", e.Mode)
	default:
		oneOf(r, "mode", e.Mode, "network")
	}

	topoOK := validateNetwork(e, r)
	validateRouter(e, r, topoOK)
	maxLen, lenOK := validateLength(e, r)
	validateSwitching(e, r, maxLen, lenOK)
	validateTraffic(e, r, topoOK)
	validateSweep(e, r, lenOK)
	validateRun(e, r)

	seen := map[string]bool{}
	for i, m := range e.Models {
		p := fmt.Sprintf("models[%d]", i)
		if !contains(KnownModels(), m) {
			r.errorf(p, "unknown model %q (known: %s)", m, strings.Join(KnownModels(), ", "))
		} else if seen[m] {
			r.errorf(p, "model %q listed twice", m)
		}
		seen[m] = true
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// validateNetwork checks the topology; it returns whether radix, dimensions
// and node count are usable by the checks that depend on them.
func validateNetwork(e *Experiment, r *reporter) bool {
	nw := &e.Network
	if !required(r, "network.topology", "network.topology (ring, torus, mesh or hypercube)") {
		return false
	}
	if !oneOf(r, "network.topology", nw.Topology, "ring", "torus", "mesh", "hypercube") {
		return false
	}
	ok := true
	switch nw.Topology {
	case "hypercube":
		if nw.Radix != 2 {
			r.errorf("network.radix", "a hypercube has radix 2, got %d (use topology: torus for k-ary n-cubes)", nw.Radix)
			ok = false
		}
		if required(r, "network.dimensions", "network.dimensions (n of the 2^n-node hypercube)") {
			ok = intRange(r, "network.dimensions", nw.Dimensions, 1, maxDimensions) && ok
		} else {
			ok = false
		}
		if !nw.Bidirectional {
			r.errorf("network.bidirectional", "a hypercube's links are always bidirectional")
		}
	case "ring", "torus", "mesh":
		if required(r, "network.radix", "network.radix (k, routers per dimension)") {
			ok = intRange(r, "network.radix", nw.Radix, 2, maxRadix) && ok
		} else {
			ok = false
		}
		if nw.Topology == "ring" {
			if nw.Dimensions != 1 {
				r.errorf("network.dimensions", "a ring has 1 dimension, got %d (use topology: torus)", nw.Dimensions)
				ok = false
			}
		} else if required(r, "network.dimensions", "network.dimensions (n)") {
			ok = intRange(r, "network.dimensions", nw.Dimensions, 1, maxDimensions) && ok
		} else {
			ok = false
		}
		if nw.Topology == "mesh" && !nw.Bidirectional {
			r.errorf("network.bidirectional", "a unidirectional mesh is not connected; a mesh is always bidirectional")
		}
		if nw.Topology != "mesh" && nw.Bidirectional && ok && nw.Radix < 3 {
			key := "network.radix"
			if r.set("network.bidirectional") {
				key = "network.bidirectional"
			}
			r.errorf(key, "a bidirectional %s needs radix >= 3 (radix %d makes both directions the same link); set bidirectional: false or use topology: hypercube", nw.Topology, nw.Radix)
		}
	}
	if ok {
		if nodes, fits := nodeCount(nw.Radix, nw.Dimensions); !fits {
			r.errorf("network", "%d^%d nodes is more than the %d supported", nw.Radix, nw.Dimensions, maxNodes)
			ok = false
		} else if nodes < 2 {
			r.errorf("network", "the network has %d node; at least 2 are needed", nodes)
			ok = false
		}
	}
	intRange(r, "network.link_latency", nw.LinkLatency, 1, maxDelay)
	intRange(r, "network.credit_delay", nw.CreditDelay, 1, maxDelay)
	intRange(r, "network.injection_latency", nw.InjectionLatency, 0, maxDelay)
	intRange(r, "network.ejection_latency", nw.EjectionLatency, 0, maxDelay)
	intRange(r, "network.ejection_vcs", nw.EjectionVCs, 0, maxVCs)
	return ok
}

// validateRouter checks the router and the routing function.
func validateRouter(e *Experiment, r *reporter, topoOK bool) {
	rt := &e.Router
	vcsOK := intRange(r, "router.vcs", rt.VCs, 1, maxVCs)
	intRange(r, "router.buffer_depth", rt.BufferDepth, 1, maxBufferDepth)
	intRange(r, "router.routing_delay", rt.RoutingDelay, 0, maxDelay)
	intRange(r, "router.vc_alloc_delay", rt.VCAllocDelay, 0, maxDelay)
	intRange(r, "router.switch_alloc_delay", rt.SwitchAllocDelay, 0, maxDelay)
	intRange(r, "router.switch_traversal_delay", rt.SwitchTraversalDelay, 0, maxDelay)
	routingOK := oneOf(r, "routing", e.Routing, "dimension-order", "random-minimal")
	// A ring, and every ring of a torus, is a cycle of channels. With one
	// VC class any minimal routing that uses the wrap-around link closes
	// that cycle in the channel-dependency graph, and wormhole, virtual
	// cut-through and store-and-forward alike hold a buffer while waiting
	// for the next: the network can deadlock. Dimension order avoids it with
	// two VC classes split at a dateline (Dally and Seitz 1987).
	if topoOK && routingOK && vcsOK && rt.VCs < 2 && (e.Network.Topology == "ring" || e.Network.Topology == "torus") {
		r.errorf("router.vcs", "%s with %s routing and %s switching needs vcs >= 2 (the wrap-around cycle deadlocks; the dateline needs 2 VC classes), got %d",
			e.Network.Topology, e.Routing, e.Switching.Technique, rt.VCs)
	}
}

// validateLength checks the message-length distribution; it returns the
// longest possible message in flits (0 if unbounded) and whether the
// distribution is valid.
func validateLength(e *Experiment, r *reporter) (int, bool) {
	l := &e.Traffic.Length
	if !oneOf(r, "traffic.length.distribution", l.Distribution, "fixed", "geometric") {
		return 0, false
	}
	switch l.Distribution {
	case "fixed":
		for _, k := range []string{"mean", "max"} {
			if r.set("traffic.length." + k) {
				r.errorf("traffic.length."+k, "applies only to distribution: geometric")
			}
		}
		if !required(r, "traffic.length.flits", "traffic.length.flits (message length in flits)") {
			return 0, false
		}
		if !intRange(r, "traffic.length.flits", l.Flits, 1, maxMessageLen) {
			return 0, false
		}
		return l.Flits, true
	default: // geometric
		if r.set("traffic.length.flits") {
			r.errorf("traffic.length.flits", "applies only to distribution: fixed (use mean)")
		}
		if !required(r, "traffic.length.mean", "traffic.length.mean (mean message length in flits, >= 1)") {
			return 0, false
		}
		if l.Mean < 1 || l.Mean > maxMessageLen {
			r.errorf("traffic.length.mean", "%g is out of range [1, %d]", l.Mean, maxMessageLen)
			return 0, false
		}
		if r.set("traffic.length.max") {
			if !intRange(r, "traffic.length.max", l.Max, 1, maxMessageLen) {
				return 0, false
			}
			if float64(l.Max) < l.Mean {
				r.errorf("traffic.length.max", "max %d is below the mean %g", l.Max, l.Mean)
				return 0, false
			}
		}
		return l.Max, true
	}
}

// validateSwitching checks the technique against the buffers and messages.
func validateSwitching(e *Experiment, r *reporter, maxLen int, lenOK bool) {
	s := &e.Switching
	if !oneOf(r, "switching.technique", s.Technique, "wormhole", "virtual-cut-through", "store-and-forward", "scouting") {
		return
	}
	if s.Technique != "scouting" && r.set("switching.scouting_distance") {
		r.errorf("switching.scouting_distance", "applies only to technique: scouting (technique is %s)", s.Technique)
	}
	if s.Technique == "scouting" {
		intRange(r, "switching.scouting_distance", s.ScoutingDistance, 0, maxDelay)
		if e.Mode == "network" {
			r.errorf("switching.technique", "scouting switching runs in mode: scouting, which is not available yet")
		}
	}
	if (s.Technique == "virtual-cut-through" || s.Technique == "store-and-forward") && lenOK && e.Router.BufferDepth >= 1 {
		switch {
		case maxLen == 0:
			r.errorf("traffic.length.max", "%s buffers whole messages: a geometric length needs a max (<= router.buffer_depth %d)", s.Technique, e.Router.BufferDepth)
		case e.Router.BufferDepth < maxLen:
			r.errorf("router.buffer_depth", "%s buffers whole messages: buffer_depth %d is below the longest message (%d flits)", s.Technique, e.Router.BufferDepth, maxLen)
		}
	}
}

// validateTraffic checks the destination pattern and injection process.
func validateTraffic(e *Experiment, r *reporter, topoOK bool) {
	t := &e.Traffic
	oneOf(r, "traffic.process", t.Process, "bernoulli", "poisson")
	patterns := []string{"uniform", "locality", "decay", "transpose", "bit-complement", "bit-reverse", "shuffle", "tornado", "neighbour", "hotspot"}
	if !oneOf(r, "traffic.pattern", t.Pattern, patterns...) {
		return
	}
	owner := map[string]string{"radius": "locality", "phi": "locality", "decay": "decay", "hotspot_nodes": "hotspot", "hotspot_fraction": "hotspot"}
	for _, k := range []string{"radius", "phi", "decay", "hotspot_nodes", "hotspot_fraction"} {
		if r.set("traffic."+k) && owner[k] != t.Pattern {
			r.errorf("traffic."+k, "applies only to pattern: %s (pattern is %s)", owner[k], t.Pattern)
		}
	}
	nw := e.Network
	switch t.Pattern {
	case "locality":
		radOK := required(r, "traffic.radius", "traffic.radius (hops of the sphere of locality, >= 1)") && intRange(r, "traffic.radius", t.Radius, 1, maxRadix*maxDimensions)
		phiOK := required(r, "traffic.phi", "traffic.phi (probability of a destination inside the sphere)")
		if phiOK && (t.Phi < 0 || t.Phi > 1) {
			r.errorf("traffic.phi", "%g is out of range [0, 1]", t.Phi)
			phiOK = false
		}
		if radOK && phiOK && topoOK {
			d := diameter(nw)
			switch {
			case t.Radius > d:
				r.errorf("traffic.radius", "radius %d exceeds the network diameter %d", t.Radius, d)
			case t.Radius == d && t.Phi < 1:
				r.errorf("traffic.radius", "radius %d is the whole network (diameter %d): no node lies outside, so phi must be 1 (got %g)", t.Radius, d, t.Phi)
			}
		}
	case "decay":
		if required(r, "traffic.decay", "traffic.decay (d in (0, 1]; P(distance l) ~ d^l)") && (t.Decay <= 0 || t.Decay > 1) {
			r.errorf("traffic.decay", "%g is out of range (0, 1]", t.Decay)
		}
	case "hotspot":
		if required(r, "traffic.hotspot_fraction", "traffic.hotspot_fraction (share of messages sent to the hot spots)") && (t.HotspotFraction <= 0 || t.HotspotFraction > 1) {
			r.errorf("traffic.hotspot_fraction", "%g is out of range (0, 1]", t.HotspotFraction)
		}
		if required(r, "traffic.hotspot_nodes", "traffic.hotspot_nodes (list of node ids)") {
			if len(t.HotspotNodes) == 0 {
				r.errorf("traffic.hotspot_nodes", "the list is empty")
			}
			seen := map[int]bool{}
			for i, n := range t.HotspotNodes {
				p := fmt.Sprintf("traffic.hotspot_nodes[%d]", i)
				if topoOK && (n < 0 || n >= e.Nodes()) {
					r.errorf(p, "node %d does not exist (nodes are 0..%d)", n, e.Nodes()-1)
				} else if seen[n] {
					r.errorf(p, "node %d listed twice", n)
				}
				seen[n] = true
			}
		}
	}
	if !topoOK {
		return
	}
	nodes := e.Nodes()
	switch t.Pattern {
	case "locality", "decay":
		if nodes > maxDistanceTableNodes {
			r.errorf("traffic.pattern", "%s precomputes all pairwise distances: at most %d nodes, got %d", t.Pattern, maxDistanceTableNodes, nodes)
		}
	case "transpose":
		if nw.Dimensions%2 != 0 {
			r.errorf("traffic.pattern", "transpose swaps the two halves of a node's coordinates: it needs an even number of dimensions, got %d", nw.Dimensions)
		}
	case "bit-complement", "bit-reverse", "shuffle":
		if nodes&(nodes-1) != 0 {
			r.errorf("traffic.pattern", "%s permutes node-address bits: it needs a power-of-two node count, got %d", t.Pattern, nodes)
		}
	case "tornado":
		if nw.Radix < 3 {
			r.errorf("traffic.pattern", "tornado sends ceil(k/2)-1 hops along each dimension: with radix %d every node sends to itself", nw.Radix)
		}
	}
}

// validateSweep checks the offered loads.
func validateSweep(e *Experiment, r *reporter, lenOK bool) {
	s := &e.Sweep
	if required(r, "sweep.unit", "sweep.unit ("+UnitMessages+" or "+UnitFlits+")") {
		oneOf(r, "sweep.unit", s.Unit, UnitMessages, UnitFlits)
	}
	if !required(r, "sweep.rates", "sweep.rates (list of offered loads)") {
		return
	}
	if len(s.Rates) == 0 {
		r.errorf("sweep.rates", "the list is empty")
	}
	first := map[float64]int{}
	for i, v := range s.Rates {
		p := fmt.Sprintf("sweep.rates[%d]", i)
		if v <= 0 {
			r.errorf(p, "rate %g must be > 0", v)
			continue
		}
		if j, dup := first[v]; dup {
			r.errorf(p, "rate %g repeats sweep.rates[%d]", v, j)
			continue
		}
		first[v] = i
		if e.Traffic.Process == "bernoulli" && lenOK && (s.Unit == UnitMessages || s.Unit == UnitFlits) {
			if m := e.MessageRate(i); m > 1 {
				r.errorf(p, "a Bernoulli source creates at most 1 message per cycle; rate %g is %g messages/node/cycle", v, m)
			}
		}
		if math.IsInf(v, 0) {
			r.errorf(p, "rate must be finite")
		}
	}
}

// validateRun checks run control.
func validateRun(e *Experiment, r *reporter) {
	c := &e.Run
	const maxCycles = int64(1) << 40
	for _, f := range []struct {
		key string
		v   int64
	}{
		{"run.warmup", c.Warmup}, {"run.max_warmup", c.MaxWarmup}, {"run.period", c.Period},
		{"run.min_measure", c.MinMeasure}, {"run.max_cycles", c.MaxCycles}, {"run.deadlock_cycles", c.DeadlockCycles},
	} {
		intRange(r, f.key, f.v, 0, maxCycles)
	}
	intRange(r, "run.min_batches", c.MinBatches, 0, 1<<20)
	intRange(r, "run.max_batches", c.MaxBatches, 0, 1<<20)
	intRange(r, "run.backlog_limit", c.BacklogLimit, 0, 1<<30)
	intRange(r, "run.replications", c.Replications, 1, maxReplicas)
	if c.TargetRelCI < -1 || c.TargetRelCI >= 1 {
		r.errorf("run.target_rel_ci", "%g is out of range [-1, 1) (negative: no target, run to max_cycles)", c.TargetRelCI)
	}
	if c.MinBatches > 0 && c.MaxBatches > 0 && c.MinBatches > c.MaxBatches {
		r.errorf("run.min_batches", "min_batches %d exceeds max_batches %d", c.MinBatches, c.MaxBatches)
	}
	if c.MaxCycles > 0 {
		for _, f := range []struct {
			key string
			v   int64
		}{{"run.warmup", c.Warmup}, {"run.max_warmup", c.MaxWarmup}, {"run.min_measure", c.MinMeasure}} {
			if f.v > c.MaxCycles {
				r.errorf(f.key, "%d exceeds run.max_cycles %d", f.v, c.MaxCycles)
			}
		}
		if c.Warmup+c.MinMeasure > c.MaxCycles && c.Warmup <= c.MaxCycles && c.MinMeasure <= c.MaxCycles {
			r.errorf("run.max_cycles", "warmup %d + min_measure %d exceed max_cycles %d", c.Warmup, c.MinMeasure, c.MaxCycles)
		}
	}
	if c.Warmup > 0 && c.MaxWarmup > 0 && c.Warmup > c.MaxWarmup {
		r.errorf("run.warmup", "a fixed warmup %d exceeds max_warmup %d", c.Warmup, c.MaxWarmup)
	}
	if len(r.errs) > 0 {
		return // the checks below would repeat the problems above
	}
	// The engine's run control fills its own defaults (max_warmup = 50
	// periods, max_cycles = 1e6, ...) and checks them together: ask it, so a
	// file whose explicit values clash with a default is refused here, with
	// the setting named as in the file.
	if _, err := sim.NewMonitor(e.runControl()); err != nil {
		for _, msg := range strings.Split(err.Error(), "\n") {
			msg = strings.TrimPrefix(msg, sim.ErrRunControl.Error()+": ")
			r.errorf("run", "%s (engine defaults: period 1000, max_warmup 50 periods, min_measure 10 periods, max_cycles 1000000, min/max_batches 10/64)", runFieldNames.Replace(msg))
		}
	}
}

// runFieldNames renames sim.RunControl fields to the file's keys in messages.
var runFieldNames = strings.NewReplacer(
	"DeadlockCycles", "deadlock_cycles", "MaxWarmup", "max_warmup", "MinMeasure", "min_measure",
	"MaxCycles", "max_cycles", "TargetRelCI", "target_rel_ci", "BacklogLimit", "backlog_limit",
	"MaxBatches", "max_batches", "MinBatches", "min_batches", "Warmup", "warmup", "Period", "period",
)

// runControl maps run: to the engine's run control.
func (e *Experiment) runControl() sim.RunControl {
	rc := e.Run
	return sim.RunControl{
		Period: sim.Cycle(rc.Period), Warmup: sim.Cycle(rc.Warmup), MaxWarmup: sim.Cycle(rc.MaxWarmup),
		MinMeasure: sim.Cycle(rc.MinMeasure), MaxCycles: sim.Cycle(rc.MaxCycles), TargetRelCI: rc.TargetRelCI,
		MaxBatches: rc.MaxBatches, MinBatches: rc.MinBatches, BacklogLimit: float64(rc.BacklogLimit),
		DeadlockCycles: sim.Cycle(rc.DeadlockCycles),
	}
}
