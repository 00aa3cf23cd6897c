package configs

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/flitsim/flitsim/sim/network"
	"github.com/flitsim/flitsim/topology/graph"
	"github.com/flitsim/flitsim/traffic"
)

// graphTopologies are the network.topology values built by package
// topology/graph, with the routing each defaults to.
var graphTopologies = map[string]string{
	"dragonfly":           graph.RouteMinimal,
	"flattened-butterfly": graph.RouteMinimal,
	"fat-tree":            graph.RouteUpDown,
	"cmesh":               graph.RouteMinimal,
	"graph":               graph.RouteShortestPath,
}

// isGraph reports whether topology t is built by package topology/graph.
func isGraph(t string) bool {
	_, ok := graphTopologies[t]
	return ok
}

// graphKeys are the network keys of the graph topologies, and which
// topologies read each.
var graphKeys = map[string][]string{
	"network.concentration":      {"dragonfly", "flattened-butterfly", "cmesh"},
	"network.group_size":         {"dragonfly"},
	"network.global_links":       {"dragonfly"},
	"network.global_latency":     {"dragonfly"},
	"network.global_arrangement": {"dragonfly"},
	"network.file":               {"graph"},
	"network.radix":              {"flattened-butterfly", "fat-tree", "cmesh"},
	"network.dimensions":         {"flattened-butterfly", "fat-tree", "cmesh"},
}

// GraphNetwork builds the network of a graph topology (nil, nil for the
// others). A graph file is read relative to the experiment file's
// directory. The network is built once and kept.
func (e *Experiment) GraphNetwork() (*graph.Network, error) {
	nw := &e.Network
	if !isGraph(nw.Topology) {
		return nil, nil
	}
	if e.graphNet != nil {
		return e.graphNet, nil
	}
	var g *graph.Network
	var err error
	switch nw.Topology {
	case "dragonfly":
		g, err = graph.NewDragonfly(graph.DragonflySpec{P: nw.Concentration, A: nw.GroupSize, H: nw.GlobalLinks,
			LocalLatency: nw.LinkLatency, GlobalLatency: nw.GlobalLatency, Arrangement: nw.GlobalArrangement})
	case "flattened-butterfly":
		g, err = graph.NewFlatFly(graph.FlatFlySpec{K: nw.Radix, N: nw.Dimensions, C: nw.Concentration, Latency: nw.LinkLatency})
	case "fat-tree":
		g, err = graph.NewFatTree(graph.FatTreeSpec{K: nw.Radix, N: nw.Dimensions, Latency: nw.LinkLatency})
	case "cmesh":
		g, err = graph.NewCMesh(graph.CMeshSpec{K: nw.Radix, N: nw.Dimensions, C: nw.Concentration, Latency: nw.LinkLatency})
	case "graph":
		var data []byte
		if data, err = os.ReadFile(e.GraphFile()); err == nil {
			sum := sha256.Sum256(data)
			nw.FileDigest = hex.EncodeToString(sum[:])
			g, err = graph.Parse(bytes.NewReader(data), e.GraphFile())
		}
	}
	if err != nil {
		return nil, err
	}
	e.graphNet = g
	return g, nil
}

// GraphFile returns network.file resolved against the experiment file's
// directory ("" when unset).
func (e *Experiment) GraphFile() string {
	f := e.Network.File
	if f == "" || filepath.IsAbs(f) || e.File == "" {
		return f
	}
	return filepath.Join(filepath.Dir(e.File), f)
}

// resolveGraph fills the defaults of a graph topology: the routing, and
// the dragonfly's global latency (the link latency).
func (e *Experiment) resolveGraph(r *reporter) {
	nw := &e.Network
	if !r.set("routing") {
		e.Routing = graphTopologies[nw.Topology]
	}
	if nw.Topology == "dragonfly" && !r.set("network.global_latency") {
		nw.GlobalLatency = nw.LinkLatency
	}
	if nw.Topology == "dragonfly" && !r.set("network.global_arrangement") {
		nw.GlobalArrangement = graph.ArrangementConsecutive
	}
	if nw.Topology == "flattened-butterfly" && !r.set("network.concentration") {
		nw.Concentration = nw.Radix
	}
}

// validateGraph checks a graph topology's keys and builds it; it returns
// whether the network is usable by the checks that depend on it.
func validateGraph(e *Experiment, r *reporter) bool {
	nw := &e.Network
	for _, k := range slices.Sorted(mapKeys(graphKeys)) {
		if r.set(k) && !slices.Contains(graphKeys[k], nw.Topology) {
			r.errorf(k, "does not apply to topology: %s", nw.Topology)
		}
	}
	for _, k := range []string{"network.bidirectional", "network.ejection_vcs"} {
		if r.set(k) {
			r.errorf(k, "does not apply to topology: %s (its links are two-way and each terminal's sink takes every VC of its port)", nw.Topology)
		}
	}
	ok := true
	switch nw.Topology {
	case "dragonfly":
		if !r.set("network.concentration") && !r.set("network.group_size") && !r.set("network.global_links") {
			r.errorf("network.concentration", "a dragonfly needs network.concentration (p, terminals per router), network.group_size (a, routers per group) or network.global_links (h, global links per router); the others default to the balanced a = 2p = 2h")
			ok = false
		}
		ok = intRange(r, "network.concentration", nw.Concentration, 0, graph.MaxPorts) && ok
		ok = intRange(r, "network.group_size", nw.GroupSize, 0, graph.MaxPorts) && ok
		ok = intRange(r, "network.global_links", nw.GlobalLinks, 0, graph.MaxPorts) && ok
		ok = intRange(r, "network.global_latency", nw.GlobalLatency, 1, maxDelay) && ok
		ok = oneOf(r, "network.global_arrangement", nw.GlobalArrangement, graph.ArrangementConsecutive, graph.ArrangementAbsolute) && ok
	case "flattened-butterfly", "cmesh":
		ok = requiredInt(r, "network.radix", "network.radix (k, routers per dimension)", nw.Radix, 2, graph.MaxPorts)
		ok = requiredInt(r, "network.dimensions", "network.dimensions (n, router dimensions)", nw.Dimensions, 1, maxDimensions) && ok
		if nw.Topology == "cmesh" {
			ok = requiredInt(r, "network.concentration", "network.concentration (c, terminals per router)", nw.Concentration, 1, graph.MaxPorts) && ok
		} else {
			ok = intRange(r, "network.concentration", nw.Concentration, 1, graph.MaxPorts) && ok
		}
	case "fat-tree":
		ok = requiredInt(r, "network.radix", "network.radix (k, the tree's arity: 2k-port switches)", nw.Radix, 2, graph.MaxPorts/2)
		ok = requiredInt(r, "network.dimensions", "network.dimensions (n, the tree's levels)", nw.Dimensions, 1, maxDimensions) && ok
	case "graph":
		ok = required(r, "network.file", "network.file (the graph file, relative to this file)")
	}
	if !ok || r.isBad("network") {
		return false
	}
	if _, err := e.GraphNetwork(); err != nil {
		key := "network"
		if nw.Topology == "graph" {
			key = "network.file"
		}
		r.errorf(key, "%v", err)
		return false
	}
	return true
}

func mapKeys[K comparable, V any](m map[K]V) func(yield func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// validateGraphRouting checks the routing function of a graph topology
// against the router: its name, its VC classes and, on a graph file, the
// channel-dependency check with router.vcs hop-indexed classes.
func validateGraphRouting(e *Experiment, r *reporter) {
	g, err := e.GraphNetwork()
	if err != nil || g == nil {
		return
	}
	names := graph.RoutingNames(g)
	if !oneOf(r, "routing", e.Routing, names...) {
		return
	}
	classes := 0
	if g.Kind() == "graph" {
		classes = min(e.Router.VCs, max(g.Diameter(), 1))
	}
	rt, err := graph.NewRouting(g, e.Routing, classes)
	if err != nil {
		r.errorf("routing", "%v", err)
		return
	}
	if e.Router.VCs < rt.Classes() {
		r.errorf("router.vcs", "%s routing on a %s uses %d VC classes: vcs must be at least %d, got %d", rt.Name(), g.Kind(), rt.Classes(), rt.Classes(), e.Router.VCs)
		return
	}
	if g.Kind() == "graph" {
		if v := graph.Check(g, rt); !v.DeadlockFree || !v.ReachesAll {
			r.errorf("router.vcs", "%d VCs as hop-indexed classes do not make shortest-path routing deadlock-free (the diameter is %d hops): %s", e.Router.VCs, g.Diameter(), v.Problem)
		}
	}
}

// validateGraphPattern checks the traffic pattern against a graph
// topology's terminals.
func validateGraphPattern(e *Experiment, r *reporter) {
	g, err := e.GraphNetwork()
	if err != nil || g == nil {
		return
	}
	if _, err := traffic.NewPattern(e.patternSpec(), network.PatternSpace(g)); err != nil {
		r.errorf("traffic.pattern", "%s", strings.TrimPrefix(err.Error(), "traffic: "))
	}
}

// graphDiameter returns the diameter of a graph topology (0 if unusable).
func graphDiameter(e *Experiment) int {
	g, err := e.GraphNetwork()
	if err != nil || g == nil {
		return 0
	}
	return g.Diameter()
}

// graphNodes returns the terminals of a graph topology (0 if unusable).
func graphNodes(e *Experiment) int {
	g, err := e.GraphNetwork()
	if err != nil || g == nil {
		return 0
	}
	return g.Nodes()
}

var _ = fmt.Sprint
