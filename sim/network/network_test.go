package network

import (
	"fmt"
	"testing"

	"github.com/flitsim/flitsim/router"
	"github.com/flitsim/flitsim/sim"
	"github.com/flitsim/flitsim/topology"
	"github.com/flitsim/flitsim/traffic"
)

// pipeline is one router/link timing configuration under test.
type pipeline struct {
	name                      string
	router                    router.Arch
	link, credit, inject, eje int
}

var pipelines = []pipeline{
	{"one-cycle-hop", router.Arch{VCs: 2, BufferDepth: 4}, 1, 1, 0, 0},
	{"booksim-like", router.Arch{VCs: 2, BufferDepth: 8, RoutingDelay: 1, VCAllocDelay: 1, SwitchAllocDelay: 1, SwitchTraversalDelay: 1}, 1, 1, 1, 1},
	{"long-links", router.Arch{VCs: 4, BufferDepth: 8, RoutingDelay: 2, SwitchTraversalDelay: 1}, 3, 2, 2, 1},
	{"cut-through", router.Arch{VCs: 2, BufferDepth: 8, RoutingDelay: 1, VCAllocDelay: 1, Switching: router.VirtualCutThrough}, 1, 1, 1, 1},
	{"store-and-forward", router.Arch{VCs: 2, BufferDepth: 8, RoutingDelay: 1, VCAllocDelay: 1, Switching: router.StoreAndForward}, 2, 1, 1, 1},
}

var topologies = []topology.Spec{
	{Kind: topology.Torus, K: 4, N: 2, Bidirectional: true},
	{Kind: topology.Torus, K: 5, N: 2},
	{Kind: topology.Mesh, K: 4, N: 2},
	{Kind: topology.Hypercube, K: 2, N: 4},
	{Kind: topology.Ring, K: 7, N: 1, Bidirectional: true},
	{Kind: topology.Ring, K: 6, N: 1},
}

func idleConfig(spec topology.Spec, p pipeline) Config {
	return Config{
		Topology: spec, Router: p.router,
		LinkLatency: p.link, CreditDelay: p.credit, InjectionLatency: p.inject, EjectionLatency: p.eje,
		Pattern: uniform, Length: LengthSpec{Flits: 5}, Debug: true,
		AnyLength: true, // checkZeroLoad offers 1-flit messages too
	}
}

// TestZeroLoadLatencyIsExact sends one message at a time through an empty
// network, from two sources to every destination, and asserts the measured
// latency equals Config.ZeroLoadLatency for the minimal distance, and that
// the message crossed exactly that many links.
func TestZeroLoadLatencyIsExact(t *testing.T) {
	for _, spec := range topologies {
		for _, p := range pipelines {
			t.Run(fmt.Sprintf("%v-%dx%d-%s", spec.Kind, spec.K, spec.N, p.name), func(t *testing.T) {
				n, err := New(idleConfig(spec, p))
				if err != nil {
					t.Fatal(err)
				}
				checkZeroLoad(t, n, 200, nil)
			})
		}
	}
}

// deliveries builds the network cfg describes, steps it the given number of
// cycles and returns the messages it delivered, in delivery order.
func deliveries(t *testing.T, cfg Config, cycles int) []Delivery {
	t.Helper()
	n, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out []Delivery
	n.OnDeliver(func(d Delivery) { out = append(out, d) })
	for k := 0; k < cycles; k++ {
		n.Step()
	}
	return out
}

// checkZeroLoad sends one message at a time through the empty network n,
// 1 and 5 flits from two sources to every destination, and asserts that
// each arrives within maxCycles with latency and network latency equal to
// Config.ZeroLoadLatency of the minimal distance, having crossed exactly
// that many links. extra, if not nil, is called for every message with its
// hop count and flits (for checks of a closed form).
func checkZeroLoad(t *testing.T, n *Network, maxCycles int, extra func(hops, flits int, latency sim.Cycle)) {
	t.Helper()
	var got []Delivery
	n.OnDeliver(func(d Delivery) { got = append(got, d) })
	defer n.OnDeliver(nil)
	topo := n.Topology()
	for _, src := range []int{0, topo.Nodes()/2 + 1} {
		for dst := 0; dst < topo.Nodes(); dst++ {
			for _, flits := range []int{1, 5} {
				got = got[:0]
				n.Offer(src, dst, flits)
				for k := 0; k < maxCycles && len(got) == 0; k++ {
					n.Step()
				}
				if len(got) != 1 {
					t.Fatalf("%d->%d: message not delivered in %d cycles", src, dst, maxCycles)
				}
				d := got[0]
				h := topo.Distance(src, dst)
				if want := sim.Cycle(n.Config().ZeroLoadLatency(h, flits)); d.Latency != want || d.Hops != h || d.NetworkLatency != want {
					t.Fatalf("%d->%d (%d hops, %d flits): latency %d (network %d), %d hops; want %d, %d hops",
						src, dst, h, flits, d.Latency, d.NetworkLatency, d.Hops, want, h)
				}
				if extra != nil {
					extra(h, flits, d.Latency)
				}
			}
		}
	}
	if n.InFlight() != 0 {
		t.Fatalf("%d flits left in flight", n.InFlight())
	}
}

// TestConservationUnderLoad runs every topology and pipeline well past
// saturation with the per-cycle conservation check on (Config.Debug).
func TestConservationUnderLoad(t *testing.T) {
	for _, spec := range topologies {
		for _, p := range pipelines {
			t.Run(fmt.Sprintf("%v-%dx%d-%s", spec.Kind, spec.K, spec.N, p.name), func(t *testing.T) {
				cfg := idleConfig(spec, p)
				cfg.Rate = 0.15
				cfg.Process = "poisson"
				if len(deliveries(t, cfg, 3000)) == 0 {
					t.Fatal("nothing delivered")
				}
			})
		}
	}
}

// TestSameSeedSameTrace: two networks with the same config and seed deliver
// the same messages at the same cycles; another seed differs.
func TestSameSeedSameTrace(t *testing.T) {
	trace := func(seed uint64) []Delivery {
		cfg := idleConfig(topology.Spec{Kind: topology.Torus, K: 4, N: 2, Bidirectional: true}, pipelines[1])
		cfg.Rate, cfg.Seed, cfg.Debug = 0.05, seed, false
		cfg.Routing = RoutingRandomMinimal
		cfg.Length = LengthSpec{Distribution: "geometric", Mean: 4}
		return deliveries(t, cfg, 5000)
	}
	a, b, c := trace(7), trace(7), trace(8)
	if len(a) == 0 || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("same seed gave different traces (%d vs %d deliveries)", len(a), len(b))
	}
	if fmt.Sprint(a) == fmt.Sprint(c) {
		t.Fatal("different seeds gave the same trace")
	}
}

func TestConfigErrors(t *testing.T) {
	good := idleConfig(topology.Spec{Kind: topology.Torus, K: 4, N: 2, Bidirectional: true}, pipelines[0])
	expectRefused(t, good, map[string]func(*Config){
		"one VC on a dateline torus": func(c *Config) { c.Router.VCs = 1 },
		"negative rate":              func(c *Config) { c.Rate = -1 },
		"bernoulli above one":        func(c *Config) { c.Rate = 1.5 },
		"unknown routing":            func(c *Config) { c.Routing = "west-first" },
		"cut-through too long":       func(c *Config) { c.Router.Switching = router.VirtualCutThrough; c.Length.Flits = 9 },
		"cut-through unbounded": func(c *Config) {
			c.Router.Switching = router.StoreAndForward
			c.Length = LengthSpec{Distribution: "geometric", Mean: 3}
		},
		"ejection VCs":               func(c *Config) { c.EjectionVCs = 3 },
		"message longer than a slot": func(c *Config) { c.Length.Flits = router.MaxPacketFlits + 1 },
		"geometric that can outgrow a slot": func(c *Config) {
			c.Length = LengthSpec{Distribution: "geometric", Mean: router.MaxPacketFlits / 8}
		},
	})
}

var uniform = traffic.PatternSpec{Name: "uniform"}

// expectRefused requires New to accept good and to refuse every mutation
// of it in cases.
func expectRefused(t *testing.T, good Config, cases map[string]func(*Config)) {
	t.Helper()
	for name, mutate := range cases {
		c := good
		mutate(&c)
		if _, err := New(c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := New(good); err != nil {
		t.Fatalf("good config refused: %v", err)
	}
}
