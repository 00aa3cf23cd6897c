package configs

import (
	"github.com/flitsim/flitsim/analytic/catalog"
	"github.com/flitsim/flitsim/topology/worstcase"

	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/router/alloc"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/sim/network"
)

// Limits of the schema. They bound what one machine can simulate and catch
// typos (a radix of 800 instead of 8) before anything runs.
const (
	maxNodes       = 1 << 20
	maxRadix       = 1024
	maxDimensions  = 20
	maxVCs         = 64
	maxBufferDepth = router.MaxBufferDepth // the router keeps ring positions in 16 bits
	maxDelay       = 1000
	maxMessageLen  = 1 << 16
	maxReplicas    = 1000
	// maxDistanceTableNodes is the traffic package's limit for the
	// distance-based patterns (locality, decay).
	maxDistanceTableNodes = 8192
)

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// modelNameRE is the spelling of a model name and its variant suffixes.
var modelNameRE = regexp.MustCompile(`^[a-z0-9]+([-:][a-z0-9]+)*$`)

// oneOf reports a problem unless v is one of allowed.
func oneOf(r *reporter, path, v string, allowed ...string) bool {
	if slices.Contains(allowed, v) {
		return true
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
		where := ""
		// Reported where the nearest written ancestor (or the document)
		// is; name the outermost section that is missing too.
		for i := 0; i < len(path); i++ {
			if path[i] == '.' && !r.set(path[:i]) {
				where = fmt.Sprintf(" (the file has no %s: section)", path[:i])
				break
			}
		}
		r.errorf(path, "missing: %s%s", what, where)
		return false
	}
	return true
}

// requiredInt reports a problem unless path was written in the file and
// lo <= v <= hi (only the first problem when both hold).
func requiredInt(r *reporter, path, what string, v, lo, hi int) bool {
	return required(r, path, what) && intRange(r, path, v, lo, hi)
}

// hypercubeShape checks network.radix and network.dimensions of a
// hypercube (modes network and closed); it returns whether both are usable.
func hypercubeShape(r *reporter, nw *Network) bool {
	ok := nw.Radix == 2
	if !ok {
		r.errorf("network.radix", "a hypercube has radix 2, got %d (use topology: torus for k-ary n-cubes)", nw.Radix)
	}
	return requiredInt(r, "network.dimensions", "network.dimensions (n of the 2^n-node hypercube)", nw.Dimensions, 1, maxDimensions) && ok
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
//	bus (mode closed)         1
//
// In mode closed a ring or torus is always bidirectional.
func diameter(e *Experiment) int {
	nw := e.Network
	switch nw.Topology {
	case "bus":
		return 1
	case "ring", "torus":
		if nw.Bidirectional || modeOf(e.Mode).ringsBidirectional {
			return nw.Dimensions * (nw.Radix / 2)
		}
		return nw.Dimensions * (nw.Radix - 1)
	case "mesh":
		return nw.Dimensions * (nw.Radix - 1)
	case "hypercube":
		return nw.Dimensions
	}
	if modeOf(e.Mode).graphs && isGraph(nw.Topology) {
		return graphDiameter(e)
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
	case slices.Contains(Modes(), e.Mode):
	case e.Mode == "scouting":
		r.errorf("mode", "there is no mode scouting: scouting switching runs on the flit-level network, write mode: network (or leave mode out) with switching.technique: scouting")
		return
	default:
		oneOf(r, "mode", e.Mode, Modes()...)
		return // every other check depends on the mode
	}
	checkModeKeys(e, r)

	if row, ok := lookupMode(e.Mode); ok {
		row.check(e, r)
	}
	validateRun(e, r)
	validateValidation(e, r)

	seen := map[string]bool{}
	for i, m := range e.Models {
		p := fmt.Sprintf("models[%d]", i)
		if kind, arg, ok := ExternalModel(m); ok {
			switch {
			case seen[m]:
				r.errorf(p, "model %q listed twice", m)
			case arg == "":
				r.errorf(p, "%s: nothing after %q", m, kind+":")
			case kind == "csv":
				path := arg
				if !filepath.IsAbs(path) {
					path = filepath.Join(filepath.Dir(e.File), path)
				}
				if st, err := os.Stat(path); err != nil || st.IsDir() {
					r.errorf(p, "csv model: no file %s", path)
				}
			}
			seen[m] = true
			continue
		}
		fam := modelFamily(m)
		switch {
		case fam == "":
			r.errorf(p, "unknown model %q (known: %s, or a variant of one written name-variant or name:reading; a model of your own: csv:FILE, command:PROGRAM ARGS, go:NAME)", m, strings.Join(KnownModels(), ", "))
		case seen[m]:
			r.errorf(p, "model %q listed twice", m)
		case catalog.FamilyMode(fam) != e.Mode:
			r.errorf(p, "model %q describes mode %s, not mode %s", m, catalog.FamilyMode(fam), e.Mode)
		}
		seen[m] = true
	}
}

// validateNetwork checks the topology; it returns whether radix, dimensions
// and node count are usable by the checks that depend on them.
func validateNetwork(e *Experiment, r *reporter) bool {
	nw := &e.Network
	if !required(r, "network.topology", "network.topology (ring, torus, mesh, hypercube, delta, dragonfly, flattened-butterfly, fat-tree, cmesh or graph)") {
		return false
	}
	if !oneOf(r, "network.topology", nw.Topology, "ring", "torus", "mesh", "hypercube", "delta", "dragonfly", "flattened-butterfly", "fat-tree", "cmesh", "graph") {
		return false
	}
	for _, k := range []string{"network.concentration", "network.group_size", "network.global_links", "network.global_latency", "network.global_arrangement", "network.file"} {
		if r.set(k) && !isGraph(nw.Topology) {
			r.errorf(k, "does not apply to topology: %s", nw.Topology)
		}
	}
	if r.set("network.wiring") && nw.Topology != "delta" {
		r.errorf("network.wiring", "applies only to topology: delta (topology is %s)", nw.Topology)
	}
	ok := true
	switch nw.Topology {
	case "dragonfly", "flattened-butterfly", "fat-tree", "cmesh", "graph":
		ok = validateGraph(e, r)
	case "delta":
		// radix = b (switch degree), dimensions = z (stages): b^z terminals.
		ok = requiredInt(r, "network.radix", "network.radix (b, the degree of the b x b switches)", nw.Radix, 2, maxRadix)
		ok = requiredInt(r, "network.dimensions", "network.dimensions (z, the number of switch stages)", nw.Dimensions, 1, maxDimensions) && ok
		oneOf(r, "network.wiring", nw.Wiring, "omega", "butterfly", "baseline")
		if r.set("network.ejection_vcs") {
			r.errorf("network.ejection_vcs", "does not apply to topology: delta (each terminal sink takes every VC of its switch port)")
		}
	case "hypercube":
		ok = hypercubeShape(r, nw)
		if !nw.Bidirectional {
			r.errorf("network.bidirectional", "a hypercube's links are always bidirectional")
		}
	case "ring", "torus", "mesh":
		ok = requiredInt(r, "network.radix", "network.radix (k, routers per dimension)", nw.Radix, 2, maxRadix)
		if nw.Topology != "ring" {
			ok = requiredInt(r, "network.dimensions", "network.dimensions (n)", nw.Dimensions, 1, maxDimensions) && ok
		} else if nw.Dimensions != 1 {
			r.errorf("network.dimensions", "a ring has 1 dimension, got %d (use topology: torus)", nw.Dimensions)
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
	if ok && !isGraph(nw.Topology) {
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
	if intRange(r, "network.injection_vcs", nw.InjectionVCs, 0, maxVCs) && nw.InjectionVCs > e.Router.VCs && e.Router.VCs >= 1 {
		r.errorf("network.injection_vcs", "%d messages injected at once need as many local VCs: above router.vcs %d", nw.InjectionVCs, e.Router.VCs)
	}
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
	if r.set("router.preset") {
		oneOf(r, "router.preset", rt.Preset, network.Presets...)
	}
	if rt.TieBreak != "" {
		oneOf(r, "router.tie_break", rt.TieBreak, "balanced", "plus")
	}
	if rt.Dateline != "" {
		oneOf(r, "router.dateline", rt.Dateline, "per-hop", "hold")
	}
	if rt.VCAllocator != "" {
		oneOf(r, "router.vc_allocator", rt.VCAllocator, alloc.Names...)
	}
	if rt.SwitchAllocator != "" {
		oneOf(r, "router.switch_allocator", rt.SwitchAllocator, alloc.Names...)
	}
	intRange(r, "router.alloc_iterations", rt.AllocIterations, 0, 64)
	if rt.AdaptiveVC != "" && oneOf(r, "router.adaptive_vc", rt.AdaptiveVC, "whole-packet", "booksim") && rt.AdaptiveVC == "booksim" {
		switch {
		case e.Routing != "adaptive":
			r.errorf("router.adaptive_vc", "booksim is a rule of adaptive selection: it needs routing: adaptive (routing is %s)", e.Routing)
		case e.Switching.Technique == "scouting":
			r.errorf("router.adaptive_vc", "booksim does not apply to scouting switching (its headers backtrack)")
		}
	}
	if isGraph(e.Network.Topology) {
		if rt.Dateline == "hold" {
			r.errorf("router.dateline", "hold keeps the dateline class through a ring: it applies to rings and tori, not to a %s", e.Network.Topology)
		}
		if topoOK && vcsOK {
			validateGraphRouting(e, r)
		}
		if r.set("router.escape_vcs") {
			r.errorf("router.escape_vcs", "applies only to routing: adaptive on a ring, torus, mesh or hypercube")
		}
		return
	}
	routingOK := oneOf(r, "routing", e.Routing, "dimension-order", "random-minimal", "adaptive", "destination-tag")
	switch delta := e.Network.Topology == "delta"; {
	case routingOK && delta && e.Routing != "destination-tag":
		r.errorf("routing", "a delta network has one path per source and destination: routing is destination-tag (got %s)", e.Routing)
		routingOK = false
	case routingOK && !delta && e.Routing == "destination-tag":
		r.errorf("routing", "destination-tag routing needs topology: delta (topology is %s)", e.Network.Topology)
		routingOK = false
	}
	wrap := e.Network.Topology == "ring" || e.Network.Topology == "torus"
	// A ring, and every ring of a torus, is a cycle of channels. With one
	// VC class any minimal routing that uses the wrap-around link closes
	// that cycle in the channel-dependency graph, and wormhole, virtual
	// cut-through and store-and-forward alike hold a buffer while waiting
	// for the next: the network can deadlock. Dimension order avoids it with
	// two VC classes split at a dateline (Dally and Seitz 1987).
	//
	// Adaptive routing without escape channels is the configuration of the
	// scouting paper (Safaei et al., docs/models.md#safaei-simulator item 3): it can
	// deadlock on any topology with V >= 1, and the engine detects and
	// reports it (status deadlock, run.deadlock_cycles), so V = 1 on a
	// torus is allowed there.
	if topoOK && routingOK && vcsOK && rt.VCs < 2 && wrap && e.Routing != "adaptive" {
		r.errorf("router.vcs", "%s with %s routing and %s switching needs vcs >= 2 (the wrap-around cycle deadlocks; the dateline needs 2 VC classes), got %d",
			e.Network.Topology, e.Routing, e.Switching.Technique, rt.VCs)
	}
	if rt.StickyEscape && rt.EscapeVCs == 0 {
		r.errorf("router.sticky_escape", "sticky_escape keeps a packet on the escape VCs: it needs router.escape_vcs > 0")
	}
	if !r.set("router.escape_vcs") {
		return
	}
	// Duato's escape channels (network.Config.EscapeVCs, topology.NewDuato):
	// VCs [0, escape_vcs) carry dimension-order routing, split evenly
	// between the two dateline classes on a ring or torus; at least one VC
	// must stay adaptive.
	switch {
	case routingOK && e.Routing != "adaptive":
		r.errorf("router.escape_vcs", "escape channels apply only to routing: adaptive (routing is %s)", e.Routing)
	case !intRange(r, "router.escape_vcs", rt.EscapeVCs, 0, maxVCs):
	case vcsOK && rt.EscapeVCs >= rt.VCs:
		r.errorf("router.escape_vcs", "escape_vcs %d leaves no adaptive VC: it must be below router.vcs %d", rt.EscapeVCs, rt.VCs)
	case topoOK && wrap && rt.EscapeVCs%2 != 0:
		r.errorf("router.escape_vcs", "escape_vcs %d on a %s: the escape channels are the two dateline classes of dimension-order routing, so an even number (2, 4, ...)", rt.EscapeVCs, e.Network.Topology)
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
		// K = 0 is wormhole switching exactly (router.Arch); a
		// distance beyond the diameter behaves as the diameter.
		intRange(r, "switching.scouting_distance", s.ScoutingDistance, 0, maxDelay)
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
	row := modeOf(e.Mode)
	if row.processes != nil {
		oneOf(r, "traffic.process", t.Process, row.processes...)
		validateOnOff(e, r)
	}
	patterns := []string{"uniform", "locality", "decay", "transpose", "bit-complement", "bit-reverse", "shuffle", "tornado", "neighbour", "hotspot"}
	patterns = append(patterns, row.morePatterns...)
	if !oneOf(r, "traffic.pattern", t.Pattern, patterns...) {
		return
	}
	owner := map[string]string{"radius": "locality", "phi": "locality", "decay": "decay", "hotspot_nodes": "hotspot", "hotspot_fraction": "hotspot", "include_self": "uniform"}
	for _, k := range []string{"radius", "phi", "decay", "hotspot_nodes", "hotspot_fraction", "include_self"} {
		if r.set("traffic."+k) && owner[k] != t.Pattern {
			r.errorf("traffic."+k, "applies only to pattern: %s (pattern is %s)", owner[k], t.Pattern)
		}
	}
	nw := e.Network
	if t.Pattern == "worst-case" {
		switch {
		case nw.Topology == "delta" || isGraph(nw.Topology):
			r.errorf("traffic.pattern", "worst-case is computed from the routing of a ring, torus, mesh or hypercube (topology/worstcase); not on a %s", nw.Topology)
			return
		case e.Routing == "adaptive":
			r.errorf("traffic.pattern", "worst-case needs an oblivious routing (dimension-order or random-minimal): adaptive routing chooses by the network's state")
			return
		case topoOK && e.Nodes() > worstcase.MaxNodes:
			r.errorf("traffic.pattern", "worst-case searches all node pairs: at most %d nodes, got %d", worstcase.MaxNodes, e.Nodes())
			return
		case topoOK && e.Routing == "random-minimal" && e.Nodes() > worstcase.MaxNodesSplit:
			r.errorf("traffic.pattern", "worst-case with random-minimal routing solves an assignment problem per channel: at most %d nodes, got %d", worstcase.MaxNodesSplit, e.Nodes())
			return
		}
	}
	if nw.Topology == "delta" && (t.Pattern == "locality" || t.Pattern == "decay" || t.Pattern == "halo") {
		r.errorf("traffic.pattern", "%s needs distances, and every path of a delta network crosses all %d stages", t.Pattern, nw.Dimensions)
		return
	}
	switch t.Pattern {
	case "locality":
		radOK := requiredInt(r, "traffic.radius", "traffic.radius (hops of the sphere of locality, >= 1)", t.Radius, 1, maxRadix*maxDimensions)
		phiOK := required(r, "traffic.phi", "traffic.phi (probability of a destination inside the sphere)")
		if phiOK && (t.Phi < 0 || t.Phi > 1) {
			r.errorf("traffic.phi", "%g is out of range [0, 1]", t.Phi)
			phiOK = false
		}
		if radOK && phiOK && topoOK {
			d := diameter(e)
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
	if row.graphs && isGraph(nw.Topology) {
		validateGraphPattern(e, r)
		return
	}
	if t.Pattern == "group-shift" {
		r.errorf("traffic.pattern", "group-shift needs a network whose terminals come in groups (dragonfly, flattened-butterfly, fat-tree, cmesh), not %s", nw.Topology)
		return
	}
	nodes := e.Nodes()
	switch t.Pattern {
	case "locality", "decay", "halo":
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

// validateSweep checks the offered loads against the mode's unit.
func validateSweep(e *Experiment, r *reporter, lenOK bool) {
	s := &e.Sweep
	units := modeOf(e.Mode).units
	unitOK := false
	if required(r, "sweep.unit", "sweep.unit ("+strings.Join(units, " or ")+")") {
		if !slices.Contains(units, s.Unit) {
			owner := ""
			for _, m := range modeTable {
				if slices.Contains(m.units, s.Unit) {
					owner = m.name
				}
			}
			if owner != "" {
				r.errorf("sweep.unit", "unit %q belongs to mode %s; mode %s sweeps in %s", s.Unit, owner, e.Mode, strings.Join(units, " or "))
			} else {
				oneOf(r, "sweep.unit", s.Unit, units...)
			}
		} else {
			unitOK = true
		}
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
		if math.IsInf(v, 0) {
			r.errorf(p, "rate must be finite")
			continue
		}
		if !unitOK {
			continue
		}
		modeOf(e.Mode).checkRate(e, r, i, p, v, lenOK)
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
		{"run.min_measure", c.MinMeasure}, {"run.max_cycles", c.MaxCycles}, {"run.max_time", c.MaxTime},
		{"run.deadlock_cycles", c.DeadlockCycles}, {"run.max_drain", c.MaxDrain},
	} {
		intRange(r, f.key, f.v, 0, maxCycles)
	}
	intRange(r, "run.min_batches", c.MinBatches, 0, 1<<20)
	intRange(r, "run.max_batches", c.MaxBatches, 0, 1<<20)
	intRange(r, "run.backlog_limit", c.BacklogLimit, 0, 1<<30)
	intRange(r, "run.replications", c.Replications, 1, maxReplicas)
	intRange(r, "run.threads", c.Threads, 0, network.MaxThreads)
	if c.TargetRelCI < -1 || c.TargetRelCI >= 1 {
		r.errorf("run.target_rel_ci", "%g is out of range [-1, 1) (negative: no target, run to max_cycles)", c.TargetRelCI)
	}
	if c.CapRelCI < 0 || c.CapRelCI >= 1 || c.CapRelCI != c.CapRelCI {
		r.errorf("run.cap_rel_ci", "%g is out of range [0, 1) (a fraction of the mean; 0: default 0.05)", c.CapRelCI)
	} else if c.CapRelCI > 0 && c.TargetRelCI > 0 && c.CapRelCI < c.TargetRelCI {
		r.errorf("run.cap_rel_ci", "%g is below target_rel_ci %g: the bound at the cap cannot be tighter than the target", c.CapRelCI, c.TargetRelCI)
	}
	if c.MinBatches > 0 && c.MaxBatches > 0 && c.MinBatches > c.MaxBatches {
		r.errorf("run.min_batches", "min_batches %d exceeds max_batches %d", c.MinBatches, c.MaxBatches)
	}
	row := modeOf(e.Mode)
	capKey, capV := row.timeCap, c.MaxCycles
	if capKey == "max_time" {
		capV = c.MaxTime
	}
	if capV > 0 {
		for _, f := range []struct {
			key string
			v   int64
		}{{"run.warmup", c.Warmup}, {"run.max_warmup", c.MaxWarmup}, {"run.min_measure", c.MinMeasure}} {
			if f.v > capV {
				r.errorf(f.key, "%d exceeds run.%s %d", f.v, capKey, capV)
			}
		}
		if c.Warmup+c.MinMeasure > capV && c.Warmup <= capV && c.MinMeasure <= capV {
			r.errorf("run."+capKey, "warmup %d + min_measure %d exceed %s %d", c.Warmup, c.MinMeasure, capKey, capV)
		}
	}
	if c.Warmup > 0 && c.MaxWarmup > 0 && c.Warmup > c.MaxWarmup {
		r.errorf("run.warmup", "a fixed warmup %d exceeds max_warmup %d", c.Warmup, c.MaxWarmup)
	}
	if row.needsTarget && c.TargetRelCI < 0 {
		r.errorf("run.target_rel_ci", "mode %s always stops on its precision target: want a value in (0, 1), or 0 for the default", e.Mode)
	}
	if len(r.errs) > 0 {
		return // the checks below would repeat the problems above
	}
	engineCheck(e, r)
}

// engineCheck asks the mode's engine to build sweep point 0, so that a file
// whose explicit values clash with an engine default (max_warmup defaults to
// 50 periods, ...) or with a rule only the engine knows is refused at load
// time. Each refusal names the file's keys (engineKeys: the engine's field
// names, linked to the schema's keys by the mode's config builder) and is
// reported at the section of the first key it names.
func engineCheck(e *Experiment, r *reporter) {
	row := modeOf(e.Mode)
	err := row.engineCheck(e, r)
	if err == nil {
		return
	}
	var keys map[string]string
	if row.links != nil {
		cfg, links := row.links(e)
		keys = engineKeys(e, cfg, links)
	}
	for _, msg := range strings.Split(err.Error(), "\n") {
		msg = strings.TrimPrefix(msg, sim.ErrRunControl.Error()+": ")
		msg, first := inKeys(msg, keys, row.keysIn)
		key := row.refusedAt
		if first != "" {
			key, _, _ = strings.Cut(first, ".")
		}
		if key == "" {
			key = e.Mode
		}
		suffix := ""
		if key == "run" {
			suffix = row.defaults
		}
		r.errorf(key, "the %s engine refuses this: %s%s", e.Mode, msg, suffix)
	}
}

// runControl maps run: to the network engine's run control. backlog_limit
// is per node, as in every mode (docs/config.md); the engine compares its
// limit with the messages in all source queues (network.Network.Backlog),
// so it gets backlog_limit × nodes.
func (e *Experiment) runControl() sim.RunControl {
	rc := e.Run
	return sim.RunControl{
		Period: sim.Cycle(rc.Period), Warmup: sim.Cycle(rc.Warmup), MaxWarmup: sim.Cycle(rc.MaxWarmup),
		MinMeasure: sim.Cycle(rc.MinMeasure), MaxCycles: sim.Cycle(rc.MaxCycles), TargetRelCI: rc.TargetRelCI,
		MaxBatches: rc.MaxBatches, MinBatches: rc.MinBatches, BacklogLimit: float64(rc.BacklogLimit) * float64(e.Nodes()),
		DeadlockCycles: sim.Cycle(rc.DeadlockCycles), CapRelCI: rc.CapRelCI, MaxDrain: sim.Cycle(rc.MaxDrain),
	}
}

// validateValidation checks the tolerances of the validation: section.
func validateValidation(e *Experiment, r *reporter) {
	v := e.Validation
	for _, c := range []struct {
		key string
		val float64
	}{{"validation.mean_tolerance", v.MeanTolerance}, {"validation.max_tolerance", v.MaxTolerance}} {
		if r.set(c.key) && !(c.val > 0 && c.val <= 10) {
			r.errorf(c.key, "%v is out of range (0, 10]: a fraction of the simulated value (0.05 = 5%%)", c.val)
		}
	}
	if r.set("validation.fraction") && !(v.Fraction > 0 && v.Fraction <= 1) {
		r.errorf("validation.fraction", "%v is out of range (0, 1]: a fraction of the model's saturation load", v.Fraction)
	}
	if r.set("validation.mean_tolerance") && r.set("validation.max_tolerance") && v.MaxTolerance < v.MeanTolerance {
		r.errorf("validation.max_tolerance", "%v is below mean_tolerance %v: no point may exceed the largest error", v.MaxTolerance, v.MeanTolerance)
	}
	for _, c := range []struct {
		key string
		val float64
	}{{"validation.max_offset", v.MaxOffset}, {"validation.saturation_tolerance", v.SaturationTolerance}} {
		if r.set(c.key) && !(c.val > 0 && c.val <= 10) {
			r.errorf(c.key, "%v is out of range (0, 10]: a fraction of the simulated value", c.val)
		}
	}
	if r.set("validation.max_offset") && !v.SubtractOffset {
		r.errorf("validation.max_offset", "bounds the offset subtract_offset removes, but subtract_offset is not set")
	}
	// Both switches only switch on: a family default of true (Safaei and
	// Draper–Ghosh subtract the offset) cannot be turned off, so an explicit
	// false would be silently ignored; it is refused instead.
	for _, c := range []struct {
		key string
		on  bool
	}{{"validation.subtract_offset", v.SubtractOffset}, {"validation.report_only", v.ReportOnly}} {
		if r.set(c.key) && !c.on {
			r.errorf(c.key, "false cannot switch off a judging family's default (the key only switches it on): leave it out")
		}
	}
	if v.ReportOnly && strings.TrimSpace(v.Reason) == "" {
		r.errorf("validation.report_only", "needs validation.reason: why the comparisons are informational (the report prints it)")
	}
	if r.set("validation.expect_no_data") && strings.TrimSpace(v.ExpectNoData) == "" {
		r.errorf("validation.expect_no_data", "needs the reason no point is expected to be judged")
	}
	if (r.set("validation.mean_tolerance") || r.set("validation.max_tolerance") || r.set("validation.fraction") ||
		r.set("validation.subtract_offset") || r.set("validation.report_only") || r.set("validation.max_offset") ||
		r.set("validation.saturation_tolerance") || r.set("validation.expect_no_data")) && len(e.Models) == 0 {
		r.errorf("validation", "tolerances without models: there is nothing to judge (add models:)")
	}
}

// validateOnOff checks traffic.burst_length and traffic.duty_cycle: both
// required with process onoff and refused with any other, a burst of at
// least one cycle, a duty cycle in (0, 1] and a mean off period
// burst_length (1-duty_cycle)/duty_cycle of at least one cycle (the
// domain of traffic.NewOnOff).
func validateOnOff(e *Experiment, r *reporter) {
	t := &e.Traffic
	if t.Process != "onoff" {
		for _, k := range []string{"traffic.burst_length", "traffic.duty_cycle"} {
			if r.set(k) {
				r.errorf(k, "applies only to process: onoff (process is %s)", t.Process)
			}
		}
		return
	}
	burstOK := required(r, "traffic.burst_length", "traffic.burst_length (mean on period in cycles, >= 1)")
	if burstOK && !(t.BurstLength >= 1 && t.BurstLength <= 1<<40) {
		r.errorf("traffic.burst_length", "%g is out of range [1, 2^40] cycles", t.BurstLength)
		burstOK = false
	}
	dutyOK := required(r, "traffic.duty_cycle", "traffic.duty_cycle (fraction of cycles a source is on, in (0, 1])")
	if dutyOK && !(t.DutyCycle > 0 && t.DutyCycle <= 1) {
		r.errorf("traffic.duty_cycle", "%g is out of range (0, 1]", t.DutyCycle)
		dutyOK = false
	}
	if burstOK && dutyOK && t.DutyCycle < 1 {
		if off := t.BurstLength * (1 - t.DutyCycle) / t.DutyCycle; off < 1 {
			r.errorf("traffic.burst_length", "the mean off period burst_length*(1-duty_cycle)/duty_cycle = %g cycles is below 1: with duty_cycle %g the burst must be at least %g cycles", off, t.DutyCycle, t.DutyCycle/(1-t.DutyCycle))
		}
	}
}
