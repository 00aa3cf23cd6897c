package network

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/topology"
)

// planeCase draws one direct-network configuration for
// TestPlaneMatchesOwnAllocators: topology, VCs, buffer depth, every pipeline
// and line delay, switching, routing, ejection VCs, message length and load
// all vary.
func planeCase(rng *rand.Rand) Config {
	c := Config{Seed: rng.Uint64(), Process: "bernoulli", Pattern: uniform}
	switch rng.IntN(6) {
	case 0:
		c.Topology = topology.Spec{Kind: topology.Torus, K: 3 + rng.IntN(4), N: 2, Bidirectional: true}
	case 1:
		c.Topology = topology.Spec{Kind: topology.Torus, K: 3 + rng.IntN(3), N: 2}
	case 2:
		c.Topology = topology.Spec{Kind: topology.Mesh, K: 3 + rng.IntN(4), N: 2}
	case 3:
		c.Topology = topology.Spec{Kind: topology.Ring, K: 5 + rng.IntN(6), N: 1, Bidirectional: rng.IntN(2) == 0}
	case 4:
		c.Topology = topology.Spec{Kind: topology.Hypercube, N: 3 + rng.IntN(4)}
	default:
		c.Topology = topology.Spec{Kind: topology.Torus, K: 3, N: 3, Bidirectional: true}
	}
	torus := c.Topology.Kind == topology.Torus || c.Topology.Kind == topology.Ring
	c.Router.VCs = 1 + rng.IntN(4)
	if torus && c.Router.VCs < 2 {
		c.Router.VCs = 2
	}
	c.Router.BufferDepth = 1 + rng.IntN(6)
	c.Router.RoutingDelay = rng.IntN(3)
	c.Router.VCAllocDelay = rng.IntN(3)
	c.Router.SwitchAllocDelay = rng.IntN(2)
	c.Router.SwitchTraversalDelay = rng.IntN(2)
	c.LinkLatency = 1 + rng.IntN(3)
	c.CreditDelay = 1 + rng.IntN(3)
	c.InjectionLatency = rng.IntN(3)
	c.EjectionLatency = rng.IntN(3)
	c.EjectionVCs = 1 + rng.IntN(c.Router.VCs)
	c.Length = LengthSpec{Flits: 1 + rng.IntN(8)}
	if rng.IntN(3) == 0 {
		c.Length = LengthSpec{Distribution: "geometric", Mean: 1 + 4*rng.Float64(), Max: 12}
	}
	switch rng.IntN(6) {
	case 0, 1:
		c.Router.Switching = router.VirtualCutThrough
	case 2:
		c.Router.Switching = router.StoreAndForward
	}
	if c.Router.Switching != router.Wormhole {
		max := c.Length.Flits
		if c.Length.Distribution == "geometric" {
			max = c.Length.Max
		}
		c.Router.BufferDepth = max + rng.IntN(3)
	}
	switch rng.IntN(4) {
	case 0:
		c.Routing = RoutingRandomMinimal
	case 1:
		if c.Router.VCs >= 3 || !torus && c.Router.VCs >= 2 {
			c.Routing = RoutingAdaptive
			c.EscapeVCs = 1
			if torus {
				c.EscapeVCs = 2
			}
		}
	}
	mean := float64(c.Length.Flits)
	if c.Length.Distribution == "geometric" {
		mean = c.Length.Mean
	}
	c.Rate = (0.05 + 0.6*rng.Float64()) / mean
	return c
}

// slotlessCase draws a configuration of planeCase's kind that the plane
// runs without the slots of body flits (router.Plane: anonymous bodies):
// wormhole switching without adaptive selection, a credit delay of one
// cycle, links (switch pipeline and line) of one or two cycles; the rest
// varies as in planeCase.
func slotlessCase(rng *rand.Rand) Config {
	c := planeCase(rng)
	c.Router.Switching = router.Wormhole
	if c.Routing == RoutingAdaptive {
		c.Routing, c.EscapeVCs = RoutingDimensionOrder, 0
	}
	c.CreditDelay = 1
	c.Router.SwitchTraversalDelay = 0
	c.LinkLatency = 1 + rng.IntN(2-c.Router.SwitchAllocDelay)
	return c
}

// runTrace steps a network cycles cycles and returns every delivery in the
// order the network reported it, with the cycle.
func runTrace(t *testing.T, cfg Config, cycles int) (trace []string, state string) {
	t.Helper()
	n, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	n.OnDeliver(func(d Delivery) {
		trace = append(trace, fmt.Sprintf("%d %d %d %d %d %d %d", d.Src, d.Dst, d.Flits, d.Hops, d.Generated, d.Injected, d.Delivered))
	})
	for c := 0; c < cycles; c++ {
		if c == cycles/3 {
			n.resetOccupancy() // as a measurement starts
		}
		n.Step()
	}
	chans := make([]int64, len(n.stats.channelFlits))
	for c := range chans {
		chans[c] = n.channelFlits(c)
	}
	return trace, fmt.Sprintf("in flight %d, backlog %d, flit-hops %d, channels %v, occupancy %v", n.InFlight(), n.Backlog(), n.FlitHops(), chans, n.occupancyCycles())
}

// TestPlaneMatchesOwnAllocators runs three networks of more than 64 routers
// and random direct-network configurations
// twice, once with one router.Plane allocating every router's switch and
// once with each router allocating alone, and requires the same deliveries
// in the same order, cycle by cycle, and the same channel counts: the
// plane is an exact replacement, not an approximation.
func TestPlaneMatchesOwnAllocators(t *testing.T) {
	cases, slotless, cycles := 60, 16, 3000
	if testing.Short() {
		cases, slotless, cycles = 24, 8, 2000
	}
	rng := rand.New(rand.NewPCG(7, 11))
	// Networks of more than 64 routers, whose masks span several words
	// (the last one partly used), and the largest routers a plane takes
	// (a 7-cube: 8 ports; the 4-ary 5-cube torus: 11 ports and a generated
	// allocator; the 3-ary 7-cube torus: 15 ports, every bit of a port
	// number, allocate itself), added to the random ones.
	multiword := []Config{SpeedConfig(9, 0.3), SpeedConfig(12, 0.25)}
	cube := SpeedConfig(4, 0.3)
	cube.Topology = topology.Spec{Kind: topology.Hypercube, N: 7}
	cube.Router.VCs = 4
	fiveCube := SpeedCase{K: 4, Dims: 5, Load: 0.15}.Config()
	sevenCube := SpeedCase{K: 3, Dims: 7, Load: 0.1}.Config()
	multiword = append(multiword, cube, fiveCube, sevenCube)
	for k := 0; k < len(multiword)+cases+slotless; k++ {
		var cfg Config
		switch {
		case k < len(multiword):
			cfg = multiword[k]
			cfg.Seed = uint64(k) + 1
		case k < len(multiword)+cases:
			cfg = planeCase(rng)
		default:
			cfg = slotlessCase(rng) // (after the others: their draws are unchanged)
		}
		routing := cfg.Routing
		if routing == "" {
			routing = RoutingDimensionOrder
		}
		name := fmt.Sprintf("%d-%s-%dvc-%dflit-%s-%s", k, cfg.Topology.Kind, cfg.Router.VCs, cfg.Router.BufferDepth, cfg.Router.Switching, routing)
		t.Run(name, func(t *testing.T) {
			with, stateWith := runTrace(t, cfg, cycles)
			own := cfg
			own.ownAllocators = true
			without, stateWithout := runTrace(t, own, cycles)
			if len(with) == 0 {
				t.Fatalf("no deliveries in %d cycles: the case tests nothing", cycles)
			}
			if len(with) != len(without) {
				t.Fatalf("%d deliveries with the plane, %d without", len(with), len(without))
			}
			for i := range with {
				if with[i] != without[i] {
					t.Fatalf("delivery %d: %q with the plane, %q without", i, with[i], without[i])
				}
			}
			if stateWith != stateWithout {
				t.Errorf("final state with the plane:\n%s\nwithout:\n%s", stateWith, stateWithout)
			}
		})
	}
}

// TestPlaneStartPointers pins the switch allocator's pointers at the
// start of a run: every input and output pointer starts at 0, with the
// plane as in a router allocating alone (router.Router's arbiters). On
// the 4-ary 3-cube (7 ports, 2 VCs: the plane allocates it with a
// generated allocator) a packet from router 18 to 6 enters router 22 by
// its y link while one from 22 to 54 is injected there, each at every
// offset of a scan; where both are first eligible for output port z- in
// one cycle, before any flit used that port, the two allocators must
// pick the same one. With the plane's old start (NewPlane set only the
// output masks of ports 0-3, so a generated allocator gave a higher
// port's first contest to the local port) 6 of its 500 runs differ.
func TestPlaneStartPointers(t *testing.T) {
	run := func(cfg Config, x, y int) []Delivery {
		n, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer n.Close()
		var ds []Delivery
		n.OnDeliver(func(d Delivery) { ds = append(ds, d) })
		for c := 0; len(ds) < 2 && c < 1000; c++ {
			if c == x {
				n.Offer(18, 6, cfg.Length.Flits)
			}
			if c == y {
				n.Offer(22, 54, cfg.Length.Flits)
			}
			n.Step()
		}
		return ds
	}
	cfg := SpeedCase{K: 4, Dims: 3}.Config()
	cfg.Rate = 0
	own := cfg
	own.ownAllocators = true
	runs, bad := 0, 0
	for x := 20; x < 30; x++ {
		for y := 0; y < 50; y++ {
			with, without := run(cfg, x, y), run(own, x, y)
			runs++
			if len(with) != 2 || !slices.Equal(with, without) {
				bad++
				if bad <= 3 {
					t.Errorf("packets offered at %d and %d: %v with the plane, %v with each router allocating alone", x, y, with, without)
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d runs differ", bad, runs)
	}
}
